#include "symbols/symbol_collector.h"

#include <algorithm>

#include "io/byte_cursor.h"
#include "model/event_naming.h"

namespace nettrace {

Status SymbolCollector::OnTraceInfo(const TraceInfo& info) {
  if (info.pointerSize == 4 || info.pointerSize == 8) pointerSize_ = info.pointerSize;
  universal_.OnTraceInfo(info);
  return Status::Ok();
}

// Event ids and layouts from ClrEtwAll.man (the generated table's MethodLoad*,
// MethodDC*, ModuleLoad*, DomainModule*, GCAllocationTick* templates).
Status SymbolCollector::OnMetadata(const EventMetadata& m) {
  MetaKind k;
  k.version = m.version;
  if (universal_.OnMetadata(m)) {
    if (m.id < kinds_.size()) kinds_[m.id] = MetaKind{};  // an id redefined after a flush
    return Status::Ok();
  }
  const KnownProvider provider = ClassifyProvider(m.providerName);
  const uint32_t id = m.eventId;
  if (provider == KnownProvider::kClrRuntime) {
    if (id == 141 || id == 143) k.kind = Kind::kMethodLoad;
    if (id == 142 || id == 144) k.kind = Kind::kMethodUnload;
    k.verbose = id == 143 || id == 144;
    if (id == 152) k.kind = Kind::kModule;
    if (id == 151) k.kind = Kind::kDomainModule;
    if (id == 10) k.kind = Kind::kAllocationTick;
    if (id >= 61 && id <= 65) {
      k.kind = Kind::kThreadPoolWork;
      k.verbose = id >= 63;  // here: the id is a pointer (NativeOverlapped)
    }
  } else if (provider == KnownProvider::kClrRundown) {
    if (id >= 141 && id <= 144) k.kind = Kind::kMethodRundown;
    k.verbose = id == 143 || id == 144;
    if (id == 153 || id == 154) k.kind = Kind::kModule;
    if (id == 151 || id == 152) k.kind = Kind::kDomainModule;
  } else if (provider == KnownProvider::kSampleProfiler && id == 0) {
    k.kind = Kind::kSample;
  }
  // Hostile ids are not worth a huge table: beyond 1 Mi they are simply not looked at.
  if (m.id >= (1u << 20)) return Status::Ok();
  if (m.id >= kinds_.size()) {
    if (k.kind == Kind::kNone) return Status::Ok();
    kinds_.resize(m.id + 1);
  }
  kinds_[m.id] = k;
  return Status::Ok();
}

Status SymbolCollector::OnEvent(const EventRecord& e) {
  const uint32_t ordinal = nextOrdinal_++;  // mirrors StoreBuilder's numbering
  if (!universal_.OnEvent(e, ordinal)) ++malformed_;
  if (e.metadataId >= kinds_.size()) return Status::Ok();
  const MetaKind& k = kinds_[e.metadataId];
  bool ok = true;
  switch (k.kind) {
    case Kind::kMethodLoad:
    case Kind::kMethodUnload:
    case Kind::kMethodRundown:
      ok = DecodeMethod(e, k);
      if (std::optional<uint64_t> pid = universal_.ProcessOf(e.thread);
          pid && std::find(runtimePids_.begin(), runtimePids_.end(), *pid) == runtimePids_.end())
        runtimePids_.push_back(*pid);
      break;
    case Kind::kModule:
    case Kind::kDomainModule:
      ok = DecodeModule(e, k);
      break;
    case Kind::kAllocationTick:
      ok = DecodeAllocation(e, k, ordinal);
      break;
    case Kind::kSample: {
      // SampleProfiler Thread/Sample payload: uint32 type (1 external, 2 managed).
      uint32_t type = 0;
      ByteCursor c(e.payload, e.payloadOffset);
      if (c.ReadU32(&type) && type == 1) externalSamples_.push_back(ordinal);
      break;
    }
    case Kind::kThreadPoolWork: {
      // The id is the first field: UInt64 WorkID (61/62) or a pointer (63/64/65).
      ByteCursor c(e.payload, e.payloadOffset);
      uint64_t id = 0;
      uint32_t id32 = 0;
      if (!k.verbose || pointerSize_ == 8) ok = c.ReadU64(&id);
      else if ((ok = c.ReadU32(&id32))) id = id32;
      if (ok) workIds_.emplace_back(ordinal, id);
      break;
    }
    case Kind::kNone:
      break;
  }
  if (!ok) ++malformed_;
  return Status::Ok();
}

Status SymbolCollector::OnEndOfStream() {
  Finish();
  return Status::Ok();
}

bool SymbolCollector::DecodeMethod(const EventRecord& e, const MetaKind& k) {
  // MethodID, ModuleID, MethodStartAddress (UInt64 whatever the pointer size), MethodSize,
  // MethodToken, MethodFlags [, MethodNamespace, MethodName, MethodSignature]
  // [V1+: ClrInstanceID] [V2+: ReJITID].
  ByteCursor c(e.payload, e.payloadOffset);
  MethodRange r;
  uint32_t token = 0, flags = 0;
  if (!c.ReadU64(&r.methodId) || !c.ReadU64(&r.moduleId) || !c.ReadU64(&r.start) || !c.ReadU32(&r.size) ||
      !c.ReadU32(&token) || !c.ReadU32(&flags))
    return false;
  if (k.verbose) {
    if (!methods_.names().Read(&c, &r.names)) return false;
    r.verbose = true;
  }
  uint16_t clrInstance = 0;
  if (k.version >= 2 && c.ReadU16(&clrInstance)) c.ReadU64(&r.rejitId);
  if (k.kind == Kind::kMethodUnload) {
    methods_.AddUnload(r.methodId, r.start, e.timestamp);
    return true;
  }
  // Rundown ranges describe code that exists for the whole session (see MethodMap).
  r.loadTime = k.kind == Kind::kMethodRundown ? 0 : e.timestamp;
  methods_.AddLoad(r);
  return true;
}

bool SymbolCollector::DecodeModule(const EventRecord& e, const MetaKind& k) {
  // ModuleID, AssemblyID, [DomainModule: AppDomainID], ModuleFlags, Reserved1,
  // ModuleILPath, ModuleNativePath, ...
  ByteCursor c(e.payload, e.payloadOffset);
  uint64_t moduleId = 0, assemblyId = 0, domainId = 0;
  uint32_t flags = 0, reserved = 0;
  std::string il, native;
  if (!c.ReadU64(&moduleId) || !c.ReadU64(&assemblyId)) return false;
  if (k.kind == Kind::kDomainModule && !c.ReadU64(&domainId)) return false;
  if (!c.ReadU32(&flags) || !c.ReadU32(&reserved) || !c.ReadNullTerminatedUtf16(&il) ||
      !c.ReadNullTerminatedUtf16(&native))
    return false;
  modules_.AddModule(moduleId, il, native);
  return true;
}

bool SymbolCollector::DecodeAllocation(const EventRecord& e, const MetaKind& k, uint32_t ordinal) {
  // AllocationAmount (UInt32), AllocationKind, [V1+: ClrInstanceID] [V2+: AllocationAmount64].
  ByteCursor c(e.payload, e.payloadOffset);
  uint32_t amount = 0, kind = 0;
  uint16_t clrInstance = 0;
  uint64_t amount64 = 0;
  if (!c.ReadU32(&amount) || !c.ReadU32(&kind)) return false;
  uint64_t bytes = amount;
  if (k.version >= 2 && c.ReadU16(&clrInstance) && c.ReadU64(&amount64)) bytes = amount64;
  allocations_.emplace_back(ordinal, bytes);
  return true;
}

std::optional<uint64_t> SymbolCollector::AllocationBytes(uint32_t ordinal) const {
  auto it = std::lower_bound(allocations_.begin(), allocations_.end(), std::make_pair(ordinal, uint64_t{0}));
  if (it == allocations_.end() || it->first != ordinal) return std::nullopt;
  return it->second;
}

std::optional<uint64_t> SymbolCollector::ThreadPoolWorkId(uint32_t ordinal) const {
  auto it = std::lower_bound(workIds_.begin(), workIds_.end(), std::make_pair(ordinal, uint64_t{0}));
  if (it == workIds_.end() || it->first != ordinal) return std::nullopt;
  return it->second;
}

bool SymbolCollector::IsExternalSample(uint32_t ordinal) const {
  return std::binary_search(externalSamples_.begin(), externalSamples_.end(), ordinal);
}

}  // namespace nettrace
