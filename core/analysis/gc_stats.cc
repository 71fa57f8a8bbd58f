#include "analysis/gc_stats.h"

#include <algorithm>
#include <cstdio>

#include "base/json_writer.h"
#include "format/clr_events.generated.h"
#include "format/payload/clr_enums.h"
#include "format/payload_decoder.h"
#include "model/event_naming.h"

namespace nettrace {

namespace {
// SuspendEEStart Reason (SuspendEEReasonMap): the two TraceEvent follows.
constexpr uint32_t kSuspendForGC = 1, kSuspendForGCPrep = 6;
constexpr uint32_t kBackgroundGC = 1, kNonConcurrentGC = 0;
constexpr uint32_t kReasonInduced = 1, kReasonInducedNotForced = 7, kReasonPMFullGC = 12;

uint64_t UInt(const PayloadValue* v) { return v && v->isInteger() ? v->asUInt() : 0; }
uint64_t UIntField(const DecodedPayload& p, const char* name) { return UInt(p.Find(name)); }

std::string EnumName(const char* type, uint32_t value) {
  if (const clr::EnumInfo* e = clr::FindEnum(type)) return clr::FormatEnum(*e, value);
  return std::to_string(value);
}
}  // namespace

std::string GcTypeName(uint32_t type) { return EnumName("GCType", type); }
std::string GcReasonName(uint32_t reason) { return EnumName("GCReason", reason); }
bool GcIsInduced(uint32_t reason) { return GcReasonName(reason).rfind("Induced", 0) == 0; }

void GcStats::OnMetadata(const EventMetadata& m) {
  Kind kind = Kind::kNone;
  if (ClassifyProvider(m.providerName) == KnownProvider::kClrRuntime) {
    switch (m.eventId) {
      case 1: kind = Kind::kGcStart; break;
      case 2: kind = Kind::kGcStop; break;
      case 3: kind = Kind::kRestartStop; break;
      case 4: kind = Kind::kHeapStats; break;
      case 8: kind = Kind::kSuspendStop; break;
      case 9: kind = Kind::kSuspendStart; break;
      case 204: kind = Kind::kPerHeap; break;
      default: break;
    }
  }
  if (kind == Kind::kNone) {
    kinds_.erase(m.id), metadata_.erase(m.id);
    return;
  }
  kinds_[m.id] = kind;
  metadata_[m.id] = m;
}

void GcStats::Add(const Mark& m) {
  if (marks_.size() < kMaxMarks) marks_.push_back(m);
  else ++dropped_;
}

void GcStats::OnEvent(const EventRecord& e, uint64_t processId, uint64_t threadId) {
  auto k = kinds_.find(e.metadataId);
  if (k == kinds_.end()) return;
  Mark m{e.timestamp, processId, threadId, k->second};
  const std::pair<uint64_t, uint64_t> key{processId, threadId};
  // Suspensions: only those for a GC, and their own thread's stop and restart.
  if (m.kind == Kind::kSuspendStop || m.kind == Kind::kRestartStop) {
    auto it = suspended_.find(key);
    if (it == suspended_.end()) return;
    if (m.kind == Kind::kRestartStop) suspended_.erase(it);
    Add(m);
    return;
  }
  const DecodedPayload p = DecodePayload(metadata_.at(e.metadataId), e.payload,
                                         info_.pointerSize ? info_.pointerSize : 8, static_cast<int>(info_.formatMajor));
  switch (m.kind) {
    case Kind::kSuspendStart:
      m.a = static_cast<uint32_t>(UIntField(p, "Reason"));
      if (m.a != kSuspendForGC && m.a != kSuspendForGCPrep) return;
      suspended_[key] = true;
      break;
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
      for (size_t g = 0; g < values->items().size() && g < 5; ++g) d.sizes[g] = UInt(values->items()[g].Find("SizeBefore"));
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

namespace {
// TraceGC.GetGenSizeBeforeMB: the per-heap histories' SizeBefore when they cover the
// generation; else the size after of the latest earlier GC with HeapStats — searched down to
// index 1 only, as TraceEvent's loop stops at 0 — (Gen0: at least the allocation-tick
// estimate, which we do not track: 0).
double GenSizeBeforeMB(const std::vector<GcRecord>& gcs, size_t first, size_t index, int gen) {
  const GcRecord& gc = gcs[index];
  if (gc.perHeapCount > 0 && gc.genDataCount > static_cast<uint32_t>(gen)) return gc.genSizeBeforeMB[gen];
  if (index == first) return 0;
  for (size_t j = index - 1;; --j) {
    if (j == first) return 0;
    if (gcs[j].hasHeapStats) return std::max(static_cast<double>(gcs[j].genSizeAfter[gen]) / 1000000.0, 0.0);
  }
}
}  // namespace

// TraceEvent's handlers (TraceLoadedDotNetRuntime.SetupCallbacks), per process, in time order.
void GcStats::Replay() const {
  if (replayed_) return;
  replayed_ = true;
  std::vector<Mark> marks = marks_;
  std::stable_sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) {
    return a.processId != b.processId ? a.processId < b.processId : a.timestamp < b.timestamp;
  });
  size_t first = 0;  // this process's first GC in gcs_
  uint64_t process = UINT64_MAX;
  int64_t susGC = -1, susBGC = -1, currentBGC = -1;
  double susTime = -1, susEnd = -1;
  auto current = [&]() -> GcRecord* {
    if (gcs_.size() == first) return nullptr;
    if (!gcs_.back().isComplete) return &gcs_.back();
    return currentBGC >= 0 ? &gcs_[static_cast<size_t>(currentBGC)] : nullptr;
  };
  for (const Mark& m : marks) {
    if (m.processId != process) {
      process = m.processId, first = gcs_.size();
      susGC = susBGC = currentBGC = -1, susTime = susEnd = -1;
    }
    const double t = Ms(m.timestamp);
    const int64_t tid = static_cast<int64_t>(m.threadId);
    switch (m.kind) {
      case Kind::kSuspendStart:
        (m.a == kSuspendForGC ? susGC : susBGC) = tid;
        susTime = t;
        break;
      case Kind::kSuspendStop:
        if (tid != susBGC && tid != susGC) break;
        if (susBGC > 0 && currentBGC >= 0) gcs_[static_cast<size_t>(currentBGC)].suspendMs += t - susTime;
        susEnd = t;
        break;
      case Kind::kRestartStop: {
        if (tid != susBGC && tid != susGC) break;
        if (GcRecord* gc = current()) {
          // A background GC (or a GC restarted before its GC/Stop) adds pauses; TraceEvent's
          // AddConcurrentPauseTime: the BGC's later pauses add, its first spans from the start.
          const bool concurrent = gc->type == kBackgroundGC || gc->durationMs == 0;
          if (gc->type != kBackgroundGC && gc->durationMs == 0) gc->isConcurrent = true;
          if (concurrent) {
            if (susBGC > 0) gc->pauseMs += t - susTime;
            else gc->pauseMs = t - gc->pauseStartMs;
          } else {
            gc->pauseMs = t - gc->pauseStartMs;
            if (gc->hasHeapStats) gc->isComplete = true;
          }
        }
        susTime = -1, susBGC = susGC = -1;
        break;
      }
      case Kind::kGcStart: {
        if (susGC <= 0) break;  // TraceEvent also accepts other suspensions' threads; we keep none
        if (gcs_.size() > first && gcs_.back().number == m.count) break;  // a repeated GC/Start
        GcRecord gc;
        gc.processId = m.processId, gc.number = m.count, gc.generation = static_cast<int32_t>(m.b);
        gc.reason = m.a, gc.type = m.c;
        const bool ephemeralAtBgcStart = gcs_.size() > first && gcs_.back().type == kBackgroundGC &&
                                         !gcs_.back().isComplete && m.c == kNonConcurrentGC;
        if (ephemeralAtBgcStart || gc.reason == kReasonPMFullGC) {
          gc.pauseStartMs = t;
          if (gc.reason == kReasonPMFullGC)
            if (GcRecord* last = current()) last->isComplete = true;
        } else {
          gc.pauseStartMs = susTime;
          if (susEnd == -1) susEnd = t;
          gc.suspendMs = susEnd - susTime;
        }
        gc.startMs = t;
        if (gc.type == kBackgroundGC) {
          currentBGC = static_cast<int64_t>(gcs_.size());
          gc.pauseMs = gc.suspendMs;
        }
        gcs_.push_back(gc);
        break;
      }
      case Kind::kGcStop:
        if (GcRecord* gc = current()) gc->durationMs = t - gc->startMs;
        break;
      case Kind::kHeapStats: {
        GcRecord* gc = current();
        if (!gc) break;
        const Detail& d = details_[m.detail];
        gc->hasHeapStats = true;
        std::copy(std::begin(d.sizes), std::end(d.sizes), gc->genSizeAfter);
        std::copy(std::begin(d.promoted), std::end(d.promoted), gc->promoted);
        gc->pinnedObjectCount = d.pinned;
        if (gc->type == kBackgroundGC && currentBGC >= 0) {  // where a background GC ends
          gcs_[static_cast<size_t>(currentBGC)].isComplete = true;
          currentBGC = -1;
        }
        if (gc->isConcurrent) gc->isComplete = true;
        break;
      }
      case Kind::kPerHeap: {
        GcRecord* gc = current();
        if (!gc) break;
        const Detail& d = details_[m.detail];
        if (gc->perHeapCount++ == 0) gc->genDataCount = d.genCount;
        for (uint32_t g = 0; g < 5 && g < d.genCount; ++g) gc->genSizeBeforeMB[g] += static_cast<double>(d.sizes[g]) / 1000000.0;
        break;
      }
      default: break;
    }
  }
  // HeapSizeBeforeMB for complete GCs (TraceGC.OnEnd), process by process.
  for (size_t i = 0, begin = 0; i < gcs_.size(); ++i) {
    if (i > 0 && gcs_[i].processId != gcs_[i - 1].processId) begin = i;
    if (!gcs_[i].isComplete) continue;
    double sum = 0;
    for (int g = 0; g < 5; ++g) sum += GenSizeBeforeMB(gcs_, begin, i, g);
    gcs_[i].heapSizeBeforeMB = sum;
  }
}

const std::vector<GcRecord>& GcStats::Gcs() const {
  Replay();
  return gcs_;
}

}  // namespace nettrace
