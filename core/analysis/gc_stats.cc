#include "analysis/gc_stats.h"

#include <algorithm>
#include <iterator>

#include "analysis/gc_suspension.h"
#include "events/event_naming.h"
#include "events/trace_clock.h"
#include "format/clr_events.generated.h"
#include "format/payload/clr_enums.h"
#include "format/payload/clr_payload_fields.h"
#include "format/payload_decoder.h"

namespace nettrace {

namespace {
uint64_t UInt(const PayloadValue* v) { return v && v->isInteger() ? v->asUInt() : 0; }

std::string EnumName(const char* type, uint32_t value) {
  if (const clr::EnumInfo* e = clr::FindEnum(type)) return clr::FormatEnum(*e, value);
  return std::to_string(value);
}
}  // namespace

std::string GcTypeName(uint32_t type) { return EnumName("GCType", type); }

std::string GcReasonName(uint32_t reason) {
  // Reasons .NET 10's GC writes beyond TraceEvent's GCReason (which ends at 13,
  // LowMemoryHostBlocking, and so shows these as numbers): named after the runtime's gc_reason
  // (src/coreclr/gc/gc.h: reason_bgc_tuning_soh, reason_bgc_tuning_loh, reason_bgc_stepping,
  // reason_induced_aggressive — GC.Collect with GCCollectionMode.Aggressive) in TraceEvent's style.
  static const char* const kBeyondTraceEvent[] = {"BGCTuningSOH", "BGCTuningLOH", "BGCStepping", "InducedAggressive"};
  constexpr uint32_t kFirstBeyond = 14;
  if (reason >= kFirstBeyond && reason < kFirstBeyond + std::size(kBeyondTraceEvent))
    return kBeyondTraceEvent[reason - kFirstBeyond];
  return EnumName("GCReason", reason);
}

// GCStats.NumInduced's rule (TraceManagedProcess.cs): Induced or InducedNotForced only; the
// other induced reasons (InducedCompacting, InducedLowMemory, InducedAggressive) are not.
bool GcIsInduced(uint32_t reason) { return reason == 1 || reason == 7; }

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
  if (marks_.size() >= kMaxMarks) headerGate_ = true;
}

// The bound (nothing more is kept once marks_ is full, details_ neither) and the late flag,
// for every event read.
bool GcStats::Admit(const TimeOrderedEvent& x) {
  if (marks_.size() >= kMaxMarks) {
    ++dropped_;
    return false;
  }
  late_ |= x.late;
  return true;
}

// Suspensions: a GC's own thread's stop and restart, read from the header alone (they may
// come rebuilt from the sorted item: ReadsFromHeader).
void GcStats::OnStop(const TimeOrderedEvent& x, Kind kind) {
  if (!Admit(x)) return;
  const std::pair<uint64_t, uint64_t> key{x.processId, x.osThreadId};
  auto it = suspended_.find(key);
  if (it == suspended_.end()) return;
  if (kind == Kind::kRestartStop) {
    suspended_.erase(it);
    headerGate_ = !suspended_.empty() || marks_.size() >= kMaxMarks;
  }
  Mark m{x.record.timestamp, x.processId, x.osThreadId, kind};
  m.ordinal = x.ordinal;
  Add(m);
}

void GcStats::OnEvent(const TimeOrderedEvent& x) {
  const Kind kind = KindOf(x.kind);
  if (kind == Kind::kNone) return;
  if (kind == Kind::kSuspendStop || kind == Kind::kRestartStop) return OnStop(x, kind);
  if (kind == Kind::kAllocTick) {
    // GetAllocAmount's amount as the resolver read it (no payload to read here); clamped when
    // replayed, per process (ClampAllocationAmount).
    if (!Admit(x)) return;
    Mark m{x.record.timestamp, x.processId, x.osThreadId, kind};
    m.ordinal = x.ordinal;
    m.count = x.allocationTick.amount;
    m.a = x.allocationTick.kind;
    Add(m);
    return;
  }
  ClrPayloadFields p(*x.metadata, x.clrLayout, x.record.payload, info_.pointerSize ? info_.pointerSize : 8,
                     static_cast<int>(info_.formatMajor));
  // A suspension not for a GC is not read at all (usually not even held: Keeps), so that
  // neither the bound below nor the late flag counts it.
  const uint32_t suspendReason = kind == Kind::kSuspendStart ? static_cast<uint32_t>(p.UInt(fields_.suspendReason)) : 0;
  if (kind == Kind::kSuspendStart && !IsGcSuspendReason(suspendReason)) return;
  if (!Admit(x)) return;
  const EventRecord& e = x.record;
  const uint64_t processId = x.processId, threadId = x.osThreadId;
  Mark m{e.timestamp, processId, threadId, kind};
  m.ordinal = x.ordinal;
  if (m.kind == Kind::kSuspendStart) {  // only a GC's (above)
    m.a = suspendReason;
    suspended_[{processId, threadId}] = true;
    headerGate_ = true;
    Add(m);
    return;
  }
  switch (m.kind) {
    case Kind::kGcStart:
      m.count = static_cast<int64_t>(p.UInt(fields_.count));
      m.a = static_cast<uint32_t>(p.UInt(fields_.gcReason));
      m.b = static_cast<uint32_t>(p.UInt(fields_.depth));
      m.c = static_cast<uint32_t>(p.UInt(fields_.type));
      break;
    case Kind::kGcStop: m.count = static_cast<int64_t>(p.UInt(fields_.stopCount)); break;
    case Kind::kHeapStats: {
      Detail d;
      for (int g = 0; g < 5; ++g) {
        d.sizes[g] = p.UInt(fields_.sizes[g]);
        d.promoted[g] = p.UInt(fields_.promoted[g]);
      }
      d.pinned = p.UInt(fields_.pinned);
      m.detail = static_cast<uint32_t>(details_.size());
      details_.push_back(d);
      break;
    }
    case Kind::kPerHeap: {
      // GenData per generation (TraceEvent's GCPerHeapHistoryGenData): SizeBefore first.
      Detail d;
      // f(g, name): generation g's member `name`.
      auto generations = [&d](uint32_t count, auto f) {
        d.genCount = count;
        for (uint32_t g = 0; g < count && g < 5; ++g) {
          d.sizes[g] = f(g, "SizeBefore");
          d.heap[g] = CSharpLongSub(f(g, "SizeBefore") - f(g, "FreeListBefore"), f(g, "FreeObjBefore"));     // ObjSpaceBefore
          d.heap[5 + g] = CSharpLongSub(f(g, "SizeAfter"), f(g, "FreeListAfter") + f(g, "FreeObjAfter"));  // ObjSizeAfter
        }
      };
      ClrStructArray inPlace;
      if (ReadClrStructArray(x.clrLayout, e.payload, "Values", &inPlace)) {
        generations(inPlace.count, [&](uint32_t g, const char* name) { return inPlace.UInt(g, name); });
      } else {
        const PayloadValue* values = p.Decoded().Find("Values");
        if (!values || values->kind() != PayloadValue::Kind::kArray) return;
        const auto& items = values->items();
        generations(static_cast<uint32_t>(items.size()), [&](uint32_t g, const char* name) { return UInt(items[g].Find(name)); });
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
  return TraceClock(info_).MsFromSync(ts);
}

const std::vector<GcRecord>& GcStats::Gcs() const {
  Replay();
  return gcs_;
}

}  // namespace nettrace
