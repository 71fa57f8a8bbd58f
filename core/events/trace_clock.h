// core/events — the trace's clock, the one place ticks become time. Event timestamps are
// ticks of the writer's clock (QPC on Windows, CLOCK_MONOTONIC in ns elsewhere) at
// `tickFrequency` per second; the trace header pairs one tick count (syncTimeTicks) with a
// UTC time (NetTraceFormat.md §TraceBlock). Every time a result shows is one of:
//   - milliseconds from the sync time: TraceEvent's TimeStampRelativeMSec,
//     (timestamp − syncTimeQPC) · 1000 / frequency in doubles, the difference taken in
//     64-bit integers first (TraceLog.cs QPCTimeToRelMSec);
//   - a span of ticks in milliseconds, or in whole nanoseconds (rounded, saturating): the
//     durations the views pair and the weights of thread time;
//   - back: the tick a time in milliseconds falls on (query windows, convert --from).
// A trace without a positive frequency has no time: every time is 0.
#pragma once

#include <cmath>
#include <cstdint>

#include "format/records.h"

namespace nettrace {

class TraceClock {
 public:
  TraceClock() = default;
  TraceClock(int64_t syncTicks, int64_t frequency) : syncTicks_(syncTicks), frequency_(frequency) {}
  explicit TraceClock(const TraceInfo& info) : TraceClock(info.syncTimeTicks, info.tickFrequency) {}

  int64_t syncTicks() const { return syncTicks_; }
  int64_t frequency() const { return frequency_; }

  // Milliseconds of a timestamp from the sync time (negative before it).
  double MsFromSync(uint64_t ticks) const {
    if (frequency_ <= 0) return 0;
    const int64_t rel = static_cast<int64_t>(ticks - static_cast<uint64_t>(syncTicks_));
    return static_cast<double>(rel) * 1000.0 / static_cast<double>(frequency_);
  }
  // A span of ticks in milliseconds.
  double Ms(uint64_t ticks) const {
    return frequency_ > 0 ? static_cast<double>(ticks) * 1000.0 / static_cast<double>(frequency_) : 0.0;
  }
  // A span of ticks in whole nanoseconds, rounded, saturating.
  uint64_t Ns(uint64_t ticks) const {
    if (frequency_ == 1000000000) return ticks;
    if (frequency_ <= 0) return 0;
    const double ns = static_cast<double>(ticks) * 1e9 / static_cast<double>(frequency_) + 0.5;
    return ns >= 18446744073709551616.0 ? UINT64_MAX : static_cast<uint64_t>(ns);
  }
  // The tick `ms` from the sync time falls on (rounded down), clamped to the ticks' range.
  uint64_t TicksAtMs(double ms) const {
    const double rel = std::floor(ms * static_cast<double>(frequency_) / 1000.0);
    const double abs = static_cast<double>(syncTicks_) + rel;
    if (abs <= 0) return 0;
    if (abs >= 18446744073709551615.0) return UINT64_MAX;
    return static_cast<uint64_t>(abs);
  }

 private:
  int64_t syncTicks_ = 0;
  int64_t frequency_ = 0;
};

// The same for call sites that hold the trace header.
inline double TicksToMs(const TraceInfo& info, uint64_t ticks) { return TraceClock(info).MsFromSync(ticks); }
inline uint64_t MsToTicks(const TraceInfo& info, double ms) { return TraceClock(info).TicksAtMs(ms); }

}  // namespace nettrace
