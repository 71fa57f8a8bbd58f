#include "analysis/gc_stats.h"

#include <algorithm>

#include "format/clr_events.generated.h"
#include "format/payload/clr_enums.h"
#include "format/payload_decoder.h"
#include "model/event_naming.h"

namespace nettrace {

namespace {
// SuspendEEStart Reason (SuspendEEReasonMap): the two TraceEvent follows.
constexpr uint32_t kSuspendForGC = 1, kSuspendForGCPrep = 6;

uint64_t UInt(const PayloadValue* v) { return v && v->isInteger() ? v->asUInt() : 0; }

// Little-endian integer at `offset` of a payload, 0 when the payload is shorter: for the two
// frequent events (AllocationTick, SuspendEEStart) whose fields TraceEvent itself reads at
// fixed offsets, without decoding the whole payload.
uint64_t At(std::span<const uint8_t> payload, size_t offset, size_t size) {
  if (payload.size() < offset + size) return 0;
  uint64_t v = 0;
  for (size_t i = 0; i < size; ++i) v |= static_cast<uint64_t>(payload[offset + i]) << (8 * i);
  return v;
}
uint64_t UIntField(const DecodedPayload& p, const char* name) { return UInt(p.Find(name)); }

std::string EnumName(const char* type, uint32_t value) {
  if (const clr::EnumInfo* e = clr::FindEnum(type)) return clr::FormatEnum(*e, value);
  return std::to_string(value);
}
}  // namespace

std::string GcTypeName(uint32_t type) { return EnumName("GCType", type); }
std::string GcReasonName(uint32_t reason) { return EnumName("GCReason", reason); }
bool GcIsInduced(uint32_t reason) { return GcReasonName(reason).rfind("Induced", 0) == 0; }

GcStats::Kind GcStats::KindOf(EventKind resolved) {
  switch (resolved) {
    case EventKind::kGcStart: return Kind::kGcStart;
    case EventKind::kGcStop: return Kind::kGcStop;
    case EventKind::kGcRestartEEStop: return Kind::kRestartStop;
    case EventKind::kGcHeapStats: return Kind::kHeapStats;
    case EventKind::kGcSuspendEEStop: return Kind::kSuspendStop;
    case EventKind::kGcSuspendEEStart: return Kind::kSuspendStart;
    case EventKind::kGcAllocationTick: return Kind::kAllocTick;
    case EventKind::kGcPerHeapHistory: return Kind::kPerHeap;
    default: return Kind::kNone;
  }
}

void GcStats::Add(const Mark& m) {
  if (marks_.size() < kMaxMarks) marks_.push_back(m);
  else ++dropped_;
}

void GcStats::OnEvent(const TimeOrderedEvent& x) {
  const Kind kind = KindOf(x.kind);
  if (kind == Kind::kNone) return;
  if (marks_.size() >= kMaxMarks) {  // the bound: nothing more is kept (details_ neither)
    ++dropped_;
    return;
  }
  late_ |= x.late;
  const EventRecord& e = x.record;
  const EventMetadata& meta = *x.metadata;
  const uint64_t processId = x.processId, threadId = x.osThreadId;
  Mark m{e.timestamp, processId, threadId, kind};
  m.ordinal = x.ordinal;
  const std::pair<uint64_t, uint64_t> key{processId, threadId};
  // Suspensions: only those for a GC, and their own thread's stop and restart.
  if (m.kind == Kind::kSuspendStop || m.kind == Kind::kRestartStop) {
    auto it = suspended_.find(key);
    if (it == suspended_.end()) return;
    if (m.kind == Kind::kRestartStop) suspended_.erase(it);
    Add(m);
    return;
  }
  if (m.kind == Kind::kSuspendStart) {
    m.a = static_cast<uint32_t>(At(e.payload, 0, 4));  // Reason
    if (m.a != kSuspendForGC && m.a != kSuspendForGCPrep) return;
    suspended_[key] = true;
    Add(m);
    return;
  }
  if (m.kind == Kind::kAllocTick) {
    // GetAllocAmount: AllocationAmount64 (offset 10, V2+) when non-zero, else the Int32
    // AllocationAmount (offset 0); AllocationKind at offset 4.
    m.count = meta.version >= 2 ? static_cast<int64_t>(At(e.payload, 10, 8)) : 0;
    if (m.count == 0) m.count = static_cast<int32_t>(static_cast<uint32_t>(At(e.payload, 0, 4)));
    m.a = static_cast<uint32_t>(At(e.payload, 4, 4));
    Add(m);
    return;
  }
  const DecodedPayload p = DecodePayload(meta, e.payload,
                                         info_.pointerSize ? info_.pointerSize : 8, static_cast<int>(info_.formatMajor));
  switch (m.kind) {
    case Kind::kGcStart:
      m.count = static_cast<int64_t>(UIntField(p, "Count"));
      m.a = static_cast<uint32_t>(UIntField(p, "Reason"));
      m.b = static_cast<uint32_t>(UIntField(p, "Depth"));
      m.c = static_cast<uint32_t>(UIntField(p, "Type"));
      break;
    case Kind::kGcStop: m.count = static_cast<int64_t>(UIntField(p, "Count")); break;
    case Kind::kHeapStats: {
      Detail d;
      for (int g = 0; g < 5; ++g) {
        d.sizes[g] = UIntField(p, ("GenerationSize" + std::to_string(g)).c_str());
        d.promoted[g] = UIntField(p, ("TotalPromotedSize" + std::to_string(g)).c_str());
      }
      d.pinned = UIntField(p, "PinnedObjectCount");
      m.detail = static_cast<uint32_t>(details_.size());
      details_.push_back(d);
      break;
    }
    case Kind::kPerHeap: {
      // GenData per generation (TraceEvent's GCPerHeapHistoryGenData): SizeBefore first.
      Detail d;
      const PayloadValue* values = p.Find("Values");
      if (!values || values->kind() != PayloadValue::Kind::kArray) return;
      d.genCount = static_cast<uint32_t>(values->items().size());
      for (size_t g = 0; g < values->items().size() && g < 5; ++g) {
        const PayloadValue& v = values->items()[g];
        auto f = [&](const char* name) { return UInt(v.Find(name)); };
        d.sizes[g] = UInt(v.Find("SizeBefore"));
        d.heap[g] = CSharpLongSub(f("SizeBefore") - f("FreeListBefore"), f("FreeObjBefore"));     // ObjSpaceBefore
        d.heap[5 + g] = CSharpLongSub(f("SizeAfter"), f("FreeListAfter") + f("FreeObjAfter"));  // ObjSizeAfter
      }
      m.detail = static_cast<uint32_t>(details_.size());
      details_.push_back(d);
      break;
    }
    default: break;
  }
  Add(m);
}

double GcStats::Ms(uint64_t ts) const {
  // TraceEvent's TimeStampRelativeMSec: (QPC - sync QPC) * 1000 / frequency, in doubles.
  if (info_.tickFrequency <= 0) return 0;
  const int64_t rel = static_cast<int64_t>(ts - static_cast<uint64_t>(info_.syncTimeTicks));
  return static_cast<double>(rel) * 1000.0 / static_cast<double>(info_.tickFrequency);
}

const std::vector<GcRecord>& GcStats::Gcs() const {
  Replay();
  return gcs_;
}

}  // namespace nettrace
