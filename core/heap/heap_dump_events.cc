#include "heap/heap_dump_events.h"

#include <cstring>

#include "heap/heap_dump_payload.h"

namespace nettrace::heap {

// Runtime events by manifest id (docs/reference/ClrEtwAll.man.gz): GCStart 1, GCEnd 2,
// BulkType 15, GCBulkRootEdge 16, GCBulkRootConditionalWeakTableElementEdge 17,
// GCBulkNode 18, GCBulkEdge 19, GCBulkRootCCW 36, GCBulkRCW 37, GCBulkRootStaticVar 38,
// GCGenAwareBegin 206 / End 207, ModuleLoad 152 / Unload 153; rundown ModuleDCStart 153
// / DCStop 154.
enum class HeapDumpEvents::Kind : uint8_t {
  kGcStart, kGcStop, kGenAwareBegin, kGenAwareEnd, kBulkType, kBulkNode, kBulkEdge,
  kRootEdge, kDependentHandles, kCcw, kRcw, kStaticVar, kModule,
};

namespace {

constexpr char kRuntime[] = "Microsoft-Windows-DotNETRuntime";
constexpr char kRundown[] = "Microsoft-Windows-DotNETRuntimeRundown";

// Root flags and kinds (GCRootFlagsMap, GCRootKindMap).
constexpr uint32_t kPinning = 0x1, kWeakRef = 0x2, kRefCounted = 0x8;
constexpr uint8_t kStackRoot = 0, kFinalizerRoot = 1, kHandleRoot = 2;

Status PayloadError(const EventRecord& e, const char* what) {
  return Status::Error(ErrorCode::kCorrupt, e.payloadOffset, std::string("heap dump: ") + what + " payload is too short");
}

}  // namespace

HeapDumpEvents::HeapDumpEvents() : root_(builder_.NewPseudo("[.NET Roots]")) {}
HeapDumpEvents::~HeapDumpEvents() = default;

void HeapDumpEvents::BlockStore::Add(const EventRecord& e, size_t skip, uint32_t count) {
  blocks.push_back(Block{e.payloadOffset + skip, bytes.size(), count});
  bytes.insert(bytes.end(), e.payload.begin() + static_cast<ptrdiff_t>(skip), e.payload.end());
}

Status HeapDumpEvents::OnTraceInfo(const TraceInfo& info) {
  if (info.pointerSize == 4 || info.pointerSize == 8) pointerSize_ = info.pointerSize;
  processId_ = info.processId;
  return Status::Ok();
}

Status HeapDumpEvents::OnMetadata(const EventMetadata& m) {
  const bool runtime = m.providerName == kRuntime, rundown = m.providerName == kRundown;
  if (!runtime && !rundown) return Status::Ok();
  static const std::pair<uint32_t, Kind> kRuntimeIds[] = {
      {1, Kind::kGcStart},     {2, Kind::kGcStop},         {15, Kind::kBulkType}, {16, Kind::kRootEdge},
      {17, Kind::kDependentHandles}, {18, Kind::kBulkNode}, {19, Kind::kBulkEdge}, {36, Kind::kCcw},
      {37, Kind::kRcw},        {38, Kind::kStaticVar},     {206, Kind::kGenAwareBegin}, {207, Kind::kGenAwareEnd},
      {152, Kind::kModule},    {153, Kind::kModule}};
  if (rundown) {
    if (m.eventId == 153 || m.eventId == 154) kinds_[m.id] = {Kind::kModule, m.version};
    return Status::Ok();
  }
  for (const auto& [id, kind] : kRuntimeIds) {
    if (m.eventId == id) kinds_[m.id] = {kind, m.version};
  }
  return Status::Ok();
}

Status HeapDumpEvents::OnEvent(const EventRecord& e) {
  auto it = kinds_.find(e.metadataId);
  if (it == kinds_.end()) return Status::Ok();
  const auto [kind, version] = it->second;
  ByteCursor c(e.payload, e.payloadOffset);
  uint32_t count = 0;
  switch (kind) {
    case Kind::kGcStart: return OnGcStart(e, version);
    case Kind::kGcStop: return OnGcStop(e);
    case Kind::kGenAwareBegin:
      seenStart_ = true, ignoreEvents_ = false;
      return Status::Ok();
    case Kind::kGenAwareEnd:
      ignoreEvents_ = true;
      if (nodes_.blocks.empty() && types_.blocks.empty() && edges_.blocks.empty()) seenStart_ = false;
      return Status::Ok();
    case Kind::kModule: return OnModule(e);
    case Kind::kBulkType:  // kept whatever the GC: allocation events emit types too
      if (!processSeen_) return Status::Ok();
      if (!c.ReadU32(&count) || e.payload.size() < 6) return PayloadError(e, "BulkType");
      types_.Add(e, 6, count);
      return Status::Ok();
    default: break;
  }
  if (ignoreEvents_) return Status::Ok();
  switch (kind) {
    case Kind::kBulkNode:
    case Kind::kBulkEdge:
      if (!c.Skip(4) || !c.ReadU32(&count) || e.payload.size() < 10) return PayloadError(e, "GCBulkNode/Edge");
      (kind == Kind::kBulkNode ? nodes_ : edges_).Add(e, 10, count);
      return Status::Ok();
    case Kind::kCcw:
      if (!c.ReadU32(&count) || e.payload.size() < 6) return PayloadError(e, "GCBulkRootCCW");
      ccws_.Add(e, 6, count);
      return Status::Ok();
    case Kind::kStaticVar:
      if (!c.ReadU32(&count) || e.payload.size() < 14) return PayloadError(e, "GCBulkRootStaticVar");
      staticVars_.Add(e, 14, count);
      return Status::Ok();
    case Kind::kRootEdge: return OnRootEdges(e);
    case Kind::kDependentHandles: return OnDependentHandles(e);
    case Kind::kRcw: return OnRcws(e);
    default: return Status::Ok();
  }
}

// DotNetHeapDumpGraphReader's GCStart rule: the first GC of depth 2 that is non-concurrent
// and induced starts the dump (any GCStart first names the process whose events count).
Status HeapDumpEvents::OnGcStart(const EventRecord& e, uint32_t version) {
  ByteCursor c(e.payload, e.payloadOffset);
  uint32_t count = 0, depth = 0, reason = 0, type = 0;
  const bool ok = version == 0 ? c.ReadU32(&count) && c.ReadU32(&reason)
                               : c.ReadU32(&count) && c.ReadU32(&depth) && c.ReadU32(&reason) && c.ReadU32(&type);
  if (!ok) return PayloadError(e, "GCStart");
  processSeen_ = true;
  if (depth < 2 || type != 0 || reason != 1) return Status::Ok();
  if (!seenStart_) {
    gcNumber_ = count;
    ignoreEvents_ = false;
    seenStart_ = true;
  }
  return Status::Ok();
}

Status HeapDumpEvents::OnGcStop(const EventRecord& e) {
  if (ignoreEvents_) return Status::Ok();
  ByteCursor c(e.payload, e.payloadOffset);
  uint32_t count = 0;
  if (!c.ReadU32(&count)) return PayloadError(e, "GCEnd");
  if (static_cast<int64_t>(count) != gcNumber_) return Status::Ok();
  ignoreEvents_ = true;
  if (nodes_.blocks.empty() && types_.blocks.empty() && edges_.blocks.empty()) seenStart_ = false;  // look on
  return Status::Ok();
}

// ModuleLoadUnload(_V1/_V2) and the rundown's: ModuleID, AssemblyID, ModuleFlags,
// Reserved1, ModuleILPath. Native images (flag 0x2) name no IL module; the first path
// seen for an id is kept.
Status HeapDumpEvents::OnModule(const EventRecord& e) {
  if (!processSeen_) return Status::Ok();
  ByteCursor c(e.payload, e.payloadOffset);
  uint64_t moduleId = 0;
  uint32_t flags = 0;
  std::string path;
  if (!c.ReadU64(&moduleId) || !c.Skip(8) || !c.ReadU32(&flags) || !c.Skip(4) || !c.ReadNullTerminatedUtf16(&path)) {
    return PayloadError(e, "ModuleLoad");
  }
  if ((flags & 0x2) == 0) moduleNames_.emplace(moduleId, std::move(path));
  return Status::Ok();
}

Status HeapDumpEvents::OnRootEdges(const EventRecord& e) {
  ByteCursor c(e.payload, e.payloadOffset);
  uint32_t count = 0;
  if (!c.Skip(4) || !c.ReadU32(&count) || !c.Skip(2)) return PayloadError(e, "GCBulkRootEdge");
  root_->FindOrCreateChild(&builder_, "[static vars]");  // made by every such event, used or not
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t address = 0;
    uint8_t kind = 0;
    uint32_t flags = 0;
    if (!ReadPointer(c, pointerSize_, &address) || !c.ReadU8(&kind) || !c.ReadU32(&flags) || !c.Skip(pointerSize_)) {
      return PayloadError(e, "GCBulkRootEdge");
    }
    if (flags & kWeakRef) {
      ++info_.weakRootsIgnored;
      continue;
    }
    GraphBuilder::Pseudo* parent = root_.get();
    const char* name = "[local vars]";
    if (kind != kStackRoot) {
      parent = root_->FindOrCreateChild(&builder_, "[other roots]");
      name = (flags & kRefCounted)      ? "[COM/WinRT Objects]"
             : kind == kFinalizerRoot   ? "[finalizer Handles]"
             : kind == kHandleRoot      ? (flags == kPinning ? "[pinning Handles]" : "[strong Handles]")
                                        : "[other Handles]";
    }
    parent->FindOrCreateChild(&builder_, name)->AddChild(builder_.GetNodeIndex(address));
  }
  return Status::Ok();
}

Status HeapDumpEvents::OnDependentHandles(const EventRecord& e) {
  ByteCursor c(e.payload, e.payloadOffset);
  uint32_t count = 0;
  if (!c.Skip(4) || !c.ReadU32(&count) || !c.Skip(2)) return PayloadError(e, "GCBulkRootConditionalWeakTableElementEdge");
  GraphBuilder::Pseudo* handles =
      root_->FindOrCreateChild(&builder_, "[other roots]")->FindOrCreateChild(&builder_, "[Dependent Handles]");
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t key = 0, value = 0;
    if (!ReadPointer(c, pointerSize_, &key) || !ReadPointer(c, pointerSize_, &value) || !c.Skip(pointerSize_)) {
      return PayloadError(e, "GCBulkRootConditionalWeakTableElementEdge");
    }
    // Only a live key keeps its value alive (the handle is weak on the key).
    if (key != 0) handles->AddChild(builder_.GetNodeIndex(value));
  }
  return Status::Ok();
}

Status HeapDumpEvents::OnRcws(const EventRecord& e) {
  ByteCursor c(e.payload, e.payloadOffset);
  uint32_t count = 0;
  if (!c.ReadU32(&count) || !c.Skip(2)) return PayloadError(e, "GCBulkRCW");
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t object = 0, unknown = 0;
    if (!c.ReadU64(&object) || !c.Skip(8) || !c.ReadU64(&unknown) || !c.Skip(16)) return PayloadError(e, "GCBulkRCW");
    rcwUnknown_[object] = unknown;
  }
  return Status::Ok();
}

uint64_t HeapDumpEvents::MemoryBytes() const {
  uint64_t bytes = builder_.MemoryBytes();
  for (const BlockStore* s : {&types_, &nodes_, &edges_, &staticVars_, &ccws_}) {
    bytes += s->bytes.capacity() + s->blocks.capacity() * sizeof(Block);
  }
  return bytes;
}

}  // namespace nettrace::heap
