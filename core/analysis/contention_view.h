// core/analysis — the contention and waits view (issue 14 item 3). Contention/Start and
// Contention/Stop (runtime events 81/91), and WaitHandleWait/Start and /Stop (301/302,
// .NET 9+), are paired per thread (a thread blocks in one acquisition or wait at a time,
// and its events come in its own time order) into waits. A wait's duration is the Stop's
// DurationNs when the runtime writes it (ContentionStop_V1, .NET 8+: measured by the
// runtime itself), else the time between the two events. Aggregated per waiting thread,
// per lock (LockID, ContentionStart_V2) and per lock owner (LockOwnerThreadID, V2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/view_format.h"
#include "events/trace_clock.h"

namespace nettrace {

class JsonWriter;
class TraceModel;

class ContentionView {
 public:
  static constexpr size_t kMaxWaits = size_t{1} << 22;  // paired waits kept (~48 B each)
  static constexpr size_t kMaxListed = 10000;           // waits listed one by one in the JSON
  static constexpr uint64_t kUnknown = UINT64_MAX;

  enum class Source : uint8_t { kLock, kWaitHandle };
  struct Start {
    uint32_t ordinal = 0;
    uint64_t timestamp = 0;
    uint64_t lockId = kUnknown, objectId = kUnknown, owner = kUnknown;
    uint8_t detail = 0;  // ContentionFlags (0 managed, 1 native) or WaitSource (0 unknown, 1 MonitorWait)
  };
  void OnTraceInfo(const TraceClock& clock) { clock_ = clock; }
  void OnStart(Source source, uint64_t thread, const Start& start);
  // durationNs: the Stop's DurationNs when the event has it.
  void OnStop(Source source, uint64_t thread, uint64_t timestamp, std::optional<double> durationNs);

  // The wait (ns) begun by the Start event with this file-order ordinal; nullopt if unpaired.
  std::optional<uint64_t> WaitNs(uint32_t startOrdinal) const;

  std::string Write(const TraceModel& model, ViewFormat format) const;

 private:
  struct Wait {
    Start start;
    uint64_t thread = 0;
    uint64_t ns = 0;
    Source source = Source::kLock;
    bool measured = false;  // ns from DurationNs
  };
  struct Totals {
    uint64_t starts = 0, unpairedStarts = 0, unpairedStops = 0, notKept = 0;
  };
  void WriteSource(JsonWriter& w, Source source, const std::unordered_map<uint64_t, std::string>& names) const;

  TraceClock clock_;
  std::unordered_map<uint64_t, Start> pending_[2];  // per source: thread → open start
  Totals totals_[2];
  std::vector<Wait> waits_;                               // in pairing (file) order
  mutable std::vector<std::pair<uint32_t, uint64_t>> byOrdinal_;  // (start ordinal, ns), sorted when asked
  mutable bool sorted_ = true;
  void SortOrdinals() const;
};

}  // namespace nettrace
