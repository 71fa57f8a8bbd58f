// core/analysis — the thread pool view (issue 14 item 4). The runtime's ThreadPool events
// (Microsoft-Windows-DotNETRuntime, ClrEtwAll.man): worker thread Start/Stop/Wait (50/51/57)
// and retirement (52/53) carry ActiveWorkerThreadCount and RetiredWorkerThreadCount, so the
// worker count over time is read straight from them; the hill-climbing
// ThreadPoolWorkerThreadAdjustment/Adjustment (55) carries the new worker count and the
// reason (ThreadAdjustmentReasonMap: 0 Warmup … 6 Starvation … 8 CooperativeBlocking);
// IOThreadCreate/Terminate/Retire/Unretire (44–47) carry the IO thread counts;
// ThreadPoolMinMaxThreads (59) the limits; ThreadPoolWorkingThreadCount (60) the busy
// workers. Work-item events (Enqueue 61, Dequeue 62, IOEnqueue 63, IODequeue 64, IOPack 65)
// are only counted: none of them carries a queue length. Kept: one small record per
// count-carrying event and per adjustment (capped); the series is sorted and reduced to its
// changes when written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/view_format.h"
#include "events/trace_clock.h"

namespace nettrace {

struct DecodedPayload;

class ThreadPoolView {
 public:
  static constexpr size_t kMaxPoints = 100000;  // count events and adjustments kept (each list, ~32 B each)

  // The runtime event ids this view reads.
  void OnTraceInfo(const TraceClock& clock) { clock_ = clock; }
  // Events come in (timestamp, file order) from the sorted tap (model/sorted_tap.h), so the
  // series and adjustments are in time order as they are added; ordinal: file order.
  void OnEvent(uint32_t eventId, uint64_t timestamp, uint32_t ordinal, uint64_t thread, const DecodedPayload& p);
  // A late event came (a writer's lying IsSorted marks): the lists are sorted when written.
  void OnLate() { late_ = true; }

  std::string Write(ViewFormat format) const;

 private:
  enum Counted : uint8_t {
    kWorkerStart, kWorkerStop, kRetirementStart, kRetirementStop, kWorkerWait, kSample, kAdjustment, kStats,
    kIoCreate, kIoTerminate, kIoRetire, kIoUnretire, kMinMax, kWorkingCount, kEnqueue, kDequeue, kIoEnqueue,
    kIoDequeue, kIoPack, kCountedSize
  };
  struct Point {  // (active, retired) threads, as one event says them
    uint64_t timestamp = 0, thread = 0;
    uint32_t active = 0, retired = 0;
    uint32_t ordinal = 0;  // file order: the tie-breaker when late events force a sort
    uint8_t event = 0;     // Counted
  };
  struct Adjustment {
    uint64_t timestamp = 0, thread = 0;
    double averageThroughput = 0;
    uint32_t newCount = 0, reason = 0;
    uint32_t ordinal = 0;
  };
  struct MinMax {
    uint64_t timestamp = 0;
    uint32_t ordinal = 0;
    uint32_t minWorkers = 0, maxWorkers = 0, minIo = 0, maxIo = 0;
  };
  void AddPoint(std::vector<Point>* series, const Point& p, uint64_t* notKept);
  double Ms(uint64_t ts) const;

  TraceClock clock_;
  uint64_t counts_[kCountedSize] = {};
  uint64_t notKept_ = 0;
  uint32_t maxWorking_ = 0;
  std::vector<Point> workers_, io_;
  std::vector<Adjustment> adjustments_;
  std::vector<MinMax> minMax_;
  bool late_ = false;
};

}  // namespace nettrace
