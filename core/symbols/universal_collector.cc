#include "symbols/universal_collector.h"

#include <algorithm>

#include "format/payload_decoder.h"

namespace nettrace {

namespace {

bool SameIgnoreCaseAscii(const std::string& a, const char* b) {
  size_t i = 0;
  for (; i < a.size() && b[i]; ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return i == a.size() && !b[i];
}

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

bool UniversalCollector::OnMetadata(const EventMetadata& m) {
  const bool system = SameIgnoreCaseAscii(m.providerName, kUniversalSystemProvider);
  const bool events = SameIgnoreCaseAscii(m.providerName, kUniversalEventsProvider);
  if (!system && !events) {
    metas_.erase(m.id);  // an id redefined after a metadata flush
    return false;
  }
  Meta meta;
  meta.metadata = m;
  const std::string& n = m.eventName;
  if (system) {
    // Named events; the ids TraceEvent registers (0..5) when a producer leaves names out.
    const uint32_t id = m.eventId;
    if (n == "ExistingProcess" || (n.empty() && id == 0)) meta.kind = Kind::kProcessStart, meta.existing = true;
    else if (n == "ProcessCreate" || (n.empty() && id == 1)) meta.kind = Kind::kProcessStart;
    else if (n == "ProcessExit" || (n.empty() && id == 2)) meta.kind = Kind::kProcessExit;
    else if (n == "ProcessMapping" || (n.empty() && id == 3)) meta.kind = Kind::kMapping;
    else if (n == "ProcessSymbol" || (n.empty() && id == 4)) meta.kind = Kind::kSymbol;
    else if (n == "ProcessMappingMetadata" || (n.empty() && id == 5)) meta.kind = Kind::kMappingMetadata;
  } else {
    // Universal.Events are named by their sampling source, ids are assigned per trace.
    meta.kind = n == "cpu" ? Kind::kCpu : n == "cswitch" ? Kind::kCswitch : Kind::kOtherSample;
  }
  metas_[m.id] = std::move(meta);
  return true;
}

bool UniversalCollector::OnEvent(const EventRecord& e, uint32_t ordinal, std::optional<uint64_t> pid) {
  auto it = metas_.find(e.metadataId);
  if (it == metas_.end() || it->second.kind == Kind::kNone) return true;
  const Meta& meta = it->second;
  const DecodedPayload p = DecodePayload(meta.metadata, e.payload, pointerSize_, static_cast<int>(formatMajor_));
  const bool ok = !p.hasErrors && !p.shorterThanTemplate;
  switch (meta.kind) {
    case Kind::kProcessStart: {
      UniversalProcess proc;
      // The process is the event's own (its thread row); a ProcessId field, where a
      // producer writes one, says it explicitly.
      proc.pid = UIntField(p, "ProcessId", pid.value_or(0));
      if (!pid && !p.Find("ProcessId")) return false;
      proc.name = StringField(p, "Name");
      proc.namespaceId = UIntField(p, "NamespaceId");
      proc.namespaceName = StringField(p, "NamespaceName");
      proc.existing = meta.existing;
      proc.startTime = e.timestamp;
      symbols_.AddProcess(std::move(proc));
      break;
    }
    case Kind::kProcessExit:
      if (pid || p.Find("ProcessId")) symbols_.AddProcessExit(UIntField(p, "ProcessId", pid.value_or(0)), e.timestamp);
      break;
    case Kind::kMapping: {
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
    case Kind::kSymbol: {
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
    case Kind::kMappingMetadata: {
      MappingMetadata md;
      md.id = UIntField(p, "Id");
      md.symbolMetadata = StringField(p, "SymbolMetadata");
      md.versionMetadata = StringField(p, "VersionMetadata");
      symbols_.AddMetadata(std::move(md));
      break;
    }
    case Kind::kCpu:
    case Kind::kCswitch:
    case Kind::kOtherSample: {
      const uint64_t value = UIntField(p, "Value");
      values_.emplace_back(ordinal, value);
      if (!pid || meta.kind == Kind::kOtherSample) break;
      if (!lastStats_ || lastPid_ != *pid) lastStats_ = &stats_[*pid], lastPid_ = *pid;
      if (meta.kind == Kind::kCpu) ++lastStats_->cpuSamples, lastStats_->cpuValue += value;
      else ++lastStats_->cswitches, lastStats_->cswitchValue += value;
      break;
    }
    case Kind::kNone:
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
