#include "symbols/universal_collector.h"

#include <algorithm>

#include "format/payload_decoder.h"

namespace nettrace {

namespace {

uint64_t UIntField(const DecodedPayload& p, const char* name, uint64_t fallback = 0) {
  const PayloadValue* v = p.Find(name);
  if (!v || !v->isNumber()) return fallback;
  return v->isInteger() ? v->asUInt() : static_cast<uint64_t>(v->asDouble());
}

std::string StringField(const DecodedPayload& p, const char* name) {
  const PayloadValue* v = p.Find(name);
  return v && v->kind() == PayloadValue::Kind::kString ? v->text() : std::string();
}

}  // namespace

bool UniversalCollector::OnEvent(const EventRecord& e, EventKind kind, const EventMetadata& definition,
                                 uint32_t ordinal, std::optional<uint64_t> pid) {
  const DecodedPayload p = DecodePayload(definition, e.payload, pointerSize_, static_cast<int>(formatMajor_));
  const bool ok = !p.hasErrors && !p.shorterThanTemplate;
  switch (kind) {
    case EventKind::kUniversalExistingProcess:
    case EventKind::kUniversalProcessCreate: {
      UniversalProcess proc;
      // The process is the event's own (its thread row); a ProcessId field, where a
      // producer writes one, says it explicitly.
      proc.pid = UIntField(p, "ProcessId", pid.value_or(0));
      if (!pid && !p.Find("ProcessId")) return false;
      proc.name = StringField(p, "Name");
      proc.namespaceId = UIntField(p, "NamespaceId");
      proc.namespaceName = StringField(p, "NamespaceName");
      proc.existing = kind == EventKind::kUniversalExistingProcess;
      proc.startTime = e.timestamp;
      symbols_.AddProcess(std::move(proc));
      break;
    }
    case EventKind::kUniversalProcessExit:
      if (pid || p.Find("ProcessId")) symbols_.AddProcessExit(UIntField(p, "ProcessId", pid.value_or(0)), e.timestamp);
      break;
    case EventKind::kUniversalMapping: {
      if (!p.Find("StartAddress") || (!pid && !p.Find("ProcessId"))) return false;
      UniversalMapping m;
      m.id = UIntField(p, "Id");
      m.pid = UIntField(p, "ProcessId", pid.value_or(0));
      m.start = UIntField(p, "StartAddress");
      m.end = UIntField(p, "EndAddress");
      m.fileOffset = UIntField(p, "FileOffset");
      m.fileName = StringField(p, "FileName");
      m.metadataId = UIntField(p, "MetadataId");
      m.time = e.timestamp;
      symbols_.AddMapping(std::move(m));
      break;
    }
    case EventKind::kUniversalSymbol: {
      if (!p.Find("StartAddress") || !p.Find("MappingId")) return false;
      UniversalSymbol s;
      s.id = UIntField(p, "Id");
      s.mappingId = UIntField(p, "MappingId");
      s.start = UIntField(p, "StartAddress");
      s.end = UIntField(p, "EndAddress");
      s.name = StringField(p, "Name");
      s.time = e.timestamp;
      symbols_.AddSymbol(std::move(s));
      break;
    }
    case EventKind::kUniversalMappingMetadata: {
      MappingMetadata md;
      md.id = UIntField(p, "Id");
      md.symbolMetadata = StringField(p, "SymbolMetadata");
      md.versionMetadata = StringField(p, "VersionMetadata");
      symbols_.AddMetadata(std::move(md));
      break;
    }
    case EventKind::kUniversalCpu:
    case EventKind::kUniversalCswitch:
    case EventKind::kUniversalOtherSample: {
      const uint64_t value = UIntField(p, "Value");
      values_.emplace_back(ordinal, value);
      if (!pid || kind == EventKind::kUniversalOtherSample) break;
      if (!lastStats_ || lastPid_ != *pid) lastStats_ = &stats_[*pid], lastPid_ = *pid;
      if (kind == EventKind::kUniversalCpu) ++lastStats_->cpuSamples, lastStats_->cpuValue += value;
      else ++lastStats_->cswitches, lastStats_->cswitchValue += value;
      break;
    }
    default:
      break;
  }
  return ok;
}

std::optional<uint64_t> UniversalCollector::SampleValue(uint32_t ordinal) const {
  auto it = std::lower_bound(values_.begin(), values_.end(), std::make_pair(ordinal, uint64_t{0}));
  if (it == values_.end() || it->first != ordinal) return std::nullopt;
  return it->second;
}

}  // namespace nettrace
