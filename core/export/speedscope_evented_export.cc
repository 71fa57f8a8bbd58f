// The evented speedscope export (issue 13 item 6): one "evented" profile per thread whose
// frames open and close at real times in milliseconds, as `dotnet-trace convert --format
// speedscope` writes thread time. The events are laid out the way TraceEvent's speedscope
// writer lays them out (SpeedScopeStackSourceWriter), so a file of ours and one of
// dotnet-trace's read the same in speedscope's "Time Order" view:
//   - a thread's intervals in start order; each interval's frames root first;
//   - a frame stays open into the next interval when the same frame is at the same depth
//     and the next interval begins no later than this one ends (+0.1 %, TraceEvent's
//     slack), its duration summed as a float32 millisecond count;
//   - open and close times never go back in time (intervals that overlap, such as work
//     stitched in from other threads, begin when the previous frames have closed).
#include <algorithm>
#include <map>
#include <unordered_map>
#include <vector>

#include "analysis/event_query.h"
#include "base/json_writer.h"
#include "base/saturating.h"
#include "events/trace_clock.h"
#include "export/exports.h"

namespace nettrace {

namespace {

struct Span {
  double startMs;
  float ms;
  uint32_t stack;
};

struct OpenFrame {
  uint32_t frame;
  double startMs;
  float ms;
};

// One profile's events as (open?, frame, at) triples, TraceEvent's writer's rules.
class EventedWriter {
 public:
  explicit EventedWriter(JsonWriter* w, std::unordered_map<uint32_t, uint32_t>* frameIndex,
                         std::vector<uint32_t>* frames)
      : w_(w), frameIndex_(frameIndex), frames_(frames) {}

  void Add(const std::vector<uint32_t>& path, double startMs, float ms) {
    size_t same = 0;
    const size_t n = std::min(open_.size(), path.size());
    while (same < n && Continues(open_[same], path[same], startMs)) {
      open_[same].ms = open_[same].ms + ms;  // float32 sum, as TraceEvent's Metric
      ++same;
    }
    double last = last_;
    for (size_t j = open_.size(); j-- > same;) {
      last = std::max(open_[j].startMs + static_cast<double>(open_[j].ms), last);
      Event('C', open_[j].frame, last);
    }
    open_.resize(same);
    for (size_t k = same; k < path.size(); ++k) {
      last = std::max(last, startMs);
      Event('O', path[k], last);
      open_.push_back({path[k], startMs, ms});
    }
  }

  void Close() {
    double last = last_;
    for (size_t j = open_.size(); j-- > 0;) {
      last = std::max(last, open_[j].startMs + static_cast<double>(open_[j].ms));
      Event('C', open_[j].frame, last);
    }
    open_.clear();
  }

  bool any() const { return any_; }
  double first() const { return first_; }
  double last() const { return last_; }

 private:
  static bool Continues(const OpenFrame& l, uint32_t frame, double startMs) {
    return l.frame == frame && !(l.startMs + static_cast<double>(l.ms) * 1.001 < startMs);
  }
  void Event(char type, uint32_t frame, double at) {
    auto [it, added] = frameIndex_->emplace(frame, static_cast<uint32_t>(frames_->size()));
    if (added) frames_->push_back(frame);
    w_->BeginObject().Key("type").String(type == 'O' ? "O" : "C").Key("frame").UInt(it->second);
    w_->Key("at").Exact(at).EndObject();
    if (!any_) first_ = at, any_ = true;
    last_ = at;
  }

  JsonWriter* w_;
  std::unordered_map<uint32_t, uint32_t>* frameIndex_;
  std::vector<uint32_t>* frames_;
  std::vector<OpenFrame> open_;
  double last_ = 0, first_ = 0;
  bool any_ = false;
};

// Each entry's interval: TraceEvent's float32 span from the event where the selection has
// it, else the weight in ns, after the event or (spansEndAtEvent) before it.
std::vector<Span> Spans(const TraceModel& model, const StackSelection& sel, const std::vector<size_t>& entries,
                        bool spansEndAtEvent) {
  std::vector<Span> spans;
  spans.reserve(entries.size());
  const bool exact = sel.spansMs.size() == sel.size();
  for (size_t i : entries) {
    const double at = TicksToMs(model.info(), model.store().timestamp(sel.rows[i]));
    const double ms = exact ? static_cast<double>(sel.spansMs[i]) : static_cast<double>(sel.weights[i]) / 1e6;
    spans.push_back({spansEndAtEvent && !exact ? at - ms : at, static_cast<float>(ms), sel.callStacks[i]});
  }
  // TraceEvent sorts by time, then by metric; ties keep their order.
  std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    return a.startMs < b.startMs || (a.startMs == b.startMs && a.ms < b.ms);
  });
  return spans;
}

}  // namespace

std::string ExportSpeedscopeEvented(const TraceModel& model, const StackSelection& sel, StackResolver* resolver,
                                    const std::string& name, bool groupByThread, bool spansEndAtEvent) {
  std::map<uint16_t, std::vector<size_t>> byThread;  // thread → selection entries
  for (size_t i = 0; i < sel.size(); ++i) byThread[sel.threads[i]].push_back(i);
  // speedscope opens on the busiest thread: the one with the largest total weight.
  size_t active = 0, index = 0;
  uint64_t most = 0;
  for (const auto& [thread, entries] : byThread) {
    uint64_t total = 0;
    for (size_t i : entries) total = SatAdd(total, sel.weights[i]);
    if (total > most) most = total, active = index;
    ++index;
  }
  std::unordered_map<uint32_t, uint32_t> frameIndex;
  std::vector<uint32_t> frames;
  JsonWriter w;
  w.BeginObject();
  w.Key("$schema").String("https://www.speedscope.app/file-format-schema.json");
  w.Key("exporter").String("nettrace-analyzer");
  w.Key("name").String(name);
  w.Key("activeProfileIndex").UInt(active);
  w.Key("profiles").BeginArray();
  for (const auto& [thread, entries] : byThread) {
    const uint32_t threadFrame = ThreadFrame(model, resolver, thread);
    JsonWriter events;
    events.BeginArray();
    EventedWriter writer(&events, &frameIndex, &frames);
    for (const Span& s : Spans(model, sel, entries, spansEndAtEvent)) {
      std::vector<uint32_t> path = resolver->stacks().Frames(s.stack);
      if (groupByThread) path.insert(path.begin(), threadFrame);
      writer.Add(path, s.startMs, s.ms);
    }
    writer.Close();
    events.EndArray();
    w.BeginObject();
    w.Key("type").String("evented");
    w.Key("name").String(resolver->frames().name(threadFrame));
    w.Key("unit").String("milliseconds");
    w.Key("startValue").Exact(writer.first());
    w.Key("endValue").Exact(writer.last());
    w.Key("events");
    w.Raw(events.str());
    w.EndObject();
  }
  w.EndArray();
  w.Key("shared").BeginObject().Key("frames").BeginArray();
  for (uint32_t f : frames) w.BeginObject().Key("name").String(resolver->frames().name(f)).EndObject();
  w.EndArray().EndObject();
  w.EndObject();
  return w.Take();
}

}  // namespace nettrace
