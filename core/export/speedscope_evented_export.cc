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
#include <memory>
#include <vector>

#include "analysis/event_query.h"
#include "base/json_writer.h"
#include "base/saturating.h"
#include "events/trace_clock.h"
#include "export/dotnet_trace_frames.h"
#include "export/exports.h"
#include "export/speedscope_document.h"

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

// One profile's events as (open?, frame, at) triples, TraceEvent's writer's rules. Without
// a JsonWriter it only follows the times (first(), last(): the profile's head needs them
// before its events are written).
class EventedWriter {
 public:
  EventedWriter(JsonWriter* w, SpeedscopeFrames* frames) : w_(w), frames_(frames) {}

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
    if (!any_) first_ = at, any_ = true;
    last_ = at;
    if (w_ == nullptr) return;
    w_->BeginObject().Key("type").String(type == 'O' ? "O" : "C").Key("frame").UInt(frames_->Index(frame));
    w_->Key("at").Exact(at).EndObject();
  }

  JsonWriter* w_;
  SpeedscopeFrames* frames_;
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

// Per thread its profile's head (its first and last times from a pass over its spans that
// writes nothing), then its events a span at a time (speedscope_document.h writes the rest).
class SpeedscopeEvented : public SpeedscopeDocument {
 public:
  SpeedscopeEvented(const TraceModel& model, const StackSelection& sel, StackResolver* resolver,
                    const std::string& name, bool groupByThread, bool spansEndAtEvent, DotnetTraceFrames* dotnetTrace)
      : SpeedscopeDocument(model, sel, resolver, name), groupByThread_(groupByThread),
        spansEndAtEvent_(spansEndAtEvent), dotnetTrace_(dotnetTrace) {}

 protected:
  // speedscope opens on the busiest thread: the one with the largest total weight.
  size_t ActiveProfile() const override {
    size_t active = 0, index = 0;
    uint64_t most = 0;
    for (const auto& [thread, entries] : byThread_) {
      uint64_t total = 0;
      for (size_t i : entries) total = SatAdd(total, sel_.weights[i]);
      if (total > most) most = total, active = index;
      ++index;
    }
    return active;
  }

  void BeginProfile(uint16_t thread, const std::vector<size_t>& entries) override {
    thread_ = thread;
    threadFrame_ = ThreadFrame(model_, resolver_, thread);
    spans_ = Spans(model_, sel_, entries, spansEndAtEvent_);
    EventedWriter times(nullptr, nullptr);
    for (const Span& s : spans_) times.Add(PathOf(s.stack), s.startMs, s.ms);
    times.Close();
    w_.Key("type").String("evented");
    w_.Key("name").String(dotnetTrace_ ? dotnetTrace_->ThreadName(thread) : resolver_->frames().name(threadFrame_));
    w_.Key("unit").String("milliseconds");
    w_.Key("startValue").Exact(times.first());
    w_.Key("endValue").Exact(times.last());
    w_.Key("events").BeginArray();
    writer_ = std::make_unique<EventedWriter>(&w_, &frames_);
    next_ = 0;
  }

  bool ProfileStep() override {
    if (next_ < spans_.size()) {
      writer_->Add(PathOf(spans_[next_].stack), spans_[next_].startMs, spans_[next_].ms);
      ++next_;
      return true;
    }
    writer_->Close();
    w_.EndArray();
    writer_.reset();
    spans_.clear();
    return false;
  }

 private:
  std::vector<uint32_t> PathOf(uint32_t stack) {
    std::vector<uint32_t> path = resolver_->stacks().Frames(stack);
    // dotnet-trace's process, activity and thread frames replace the grouping frame.
    if (dotnetTrace_) return dotnetTrace_->Wrap(thread_, path);
    if (groupByThread_) path.insert(path.begin(), threadFrame_);
    return path;
  }

  const bool groupByThread_, spansEndAtEvent_;
  DotnetTraceFrames* const dotnetTrace_;  // null: the stacks as they are
  uint16_t thread_ = 0;
  uint32_t threadFrame_ = 0;
  std::vector<Span> spans_;  // the current thread's
  std::unique_ptr<EventedWriter> writer_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<ExportStream> SpeedscopeEventedStream(const TraceModel& model, const StackSelection& selection,
                                                      StackResolver* resolver, const std::string& name,
                                                      bool groupByThread, bool spansEndAtEvent,
                                                      DotnetTraceFrames* dotnetTrace) {
  return std::make_unique<SpeedscopeEvented>(model, selection, resolver, name, groupByThread, spansEndAtEvent,
                                             dotnetTrace);
}

std::string ExportSpeedscopeEvented(const TraceModel& model, const StackSelection& sel, StackResolver* resolver,
                                    const std::string& name, bool groupByThread, bool spansEndAtEvent,
                                    DotnetTraceFrames* dotnetTrace) {
  return DrainExport(
      SpeedscopeEventedStream(model, sel, resolver, name, groupByThread, spansEndAtEvent, dotnetTrace).get());
}

}  // namespace nettrace
