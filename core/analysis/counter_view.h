// core/analysis — the counters view (issue 14 item 7): time series per provider and name,
// as dotnet-counters shows them, from
//  - EventCounters: an event named "EventCounters" whose one field "Payload" is an object
//    (Name, DisplayName, DisplayUnits, CounterType "Mean"|"Sum", Mean/Min/Max/Count or
//    Increment, IntervalSec, …), written by EventSource's counter timer;
//  - System.Diagnostics.Metrics: CounterRateValuePublished / UpDownCounterRateValuePublished
//    (rate = change over the interval, value = running total; dotnet-counters shows a counter's
//    rate and an up-down counter's value, each series says which: "shown"), GaugeValuePublished
//    (lastValue) and HistogramValuePublished (quantiles "0.5=9;0.95=15", count, sum), whose
//    numbers are strings; the series' provider is the meter, its key includes the tags.
// One sample per published value: memory grows with what the view plots, not with events.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/view_format.h"
#include "events/trace_clock.h"
#include "format/payload_decoder.h"

namespace nettrace {

class JsonWriter;

class CounterView {
 public:
  static constexpr size_t kMaxSeries = 10000;
  static constexpr size_t kMaxSamples = size_t{1} << 22;  // samples kept over all series

  void OnTraceInfo(const TraceClock& clock) { clock_ = clock; }
  // Events come in (timestamp, file order) from the sorted tap (model/sorted_tap.h), so each
  // series' samples are in time order as they are added; ordinal: the event's file order.
  // An EventCounters event of `provider`, its payload decoded.
  void OnEventCounters(uint64_t timestamp, uint32_t ordinal, const std::string& provider, const DecodedPayload& p);
  // A System.Diagnostics.Metrics event named `event`, its payload decoded.
  void OnMetric(uint64_t timestamp, uint32_t ordinal, const std::string& event, const DecodedPayload& p);
  // A late event came (a writer's lying IsSorted marks): samples are sorted when written.
  void OnLate() { late_ = true; }

  std::string Write(ViewFormat format) const;

 private:
  enum class Kind : uint8_t { kMean, kSum, kRate, kUpDown, kGauge, kHistogram };
  struct Sample {
    uint64_t timestamp = 0;
    uint32_t ordinal = 0;   // file order: the tie-breaker when late events force a sort
    double value = 0;       // what dotnet-counters shows: Mean, Increment, rate (counters),
                            // value (up-down counters), lastValue; histogram: count
    double a = 0, b = 0;    // mean: Min, Max; rate: running total; updown: rate; histogram: sum
    double count = 0;       // mean: Count
    double interval = 0;    // EventCounters IntervalSec
    std::string quantiles;  // histogram only
  };
  struct Series {
    std::string provider, name, displayName, units, tags;
    Kind kind = Kind::kMean;
    std::vector<Sample> samples;
  };
  Series* Find(const std::string& provider, const std::string& name, const std::string& tags, Kind kind);
  void WriteSample(JsonWriter& w, const Series& s, const Sample& x) const;

  TraceClock clock_;
  std::vector<Series> series_;
  std::unordered_map<std::string, uint32_t> index_;
  size_t samples_ = 0;
  uint64_t notKept_ = 0;
  bool late_ = false;
};

}  // namespace nettrace
