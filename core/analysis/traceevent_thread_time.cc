#include "analysis/traceevent_thread_time.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/async_stitching.h"
#include "analysis/event_filter.h"
#include "analysis/event_query.h"
#include "analysis/start_stop_activities.h"
#include "base/saturating.h"
#include "events/trace_clock.h"

namespace nettrace {
namespace {

enum class Driver : uint8_t { kNone, kSample, kRunning, kTplRunning, kTplUnblock };

// Which event types move TraceEvent's simulation: the sample profiler's samples and the
// runtime's allocation events (GC/AllocationTick 10, GC/SampledObjectAllocation 20 and 32);
// with tasks followed, TPL's TaskScheduled 7, TaskStarted 8, TaskWaitBegin 10 and
// AwaitTaskContinuationScheduled 12 (running, their own stacks) and TaskWaitEnd 11 (running,
// the stack of the thread's current activity, without the event's own frames).
std::vector<Driver> Drivers(const TraceModel& model) {
  std::vector<Driver> out(model.types().size(), Driver::kNone);
  for (size_t t = 0; t < out.size(); ++t) {
    const EventType& type = model.types()[EventTypeIndex(static_cast<uint16_t>(t))];
    const uint32_t id = type.metadata.eventId;
    if (IsSampleProfilerSample(type)) out[t] = Driver::kSample;
    else if (type.kind == EventKind::kGcAllocationTick || type.kind == EventKind::kGcSampledObjectAllocationHigh ||
             type.kind == EventKind::kGcSampledObjectAllocationLow)
      out[t] = Driver::kRunning;
    else if (type.knownProvider == KnownProvider::kTpl && (id == 7 || id == 8 || id == 10 || id == 12))
      out[t] = Driver::kTplRunning;
    else if (type.knownProvider == KnownProvider::kTpl && id == 11)
      out[t] = Driver::kTplUnblock;
  }
  return out;
}

// One thread of the simulation. `blockedMs` follows TraceEvent's encoding: 0 not yet seen,
// negative running, positive blocked since that time.
struct ThreadState {
  double blockedMs = 0, cpuMs = 0;
  uint32_t blockedRow = 0, cpuRow = 0;
  uint32_t blockedStack = 0, cpuStack = 0;
  uint32_t blockedGroup = 0, cpuGroup = 0;  // start-stop activity group frames (0: none)
  uint16_t blockedOwner = 0, cpuOwner = 0;  // the thread whose stacks the interval joins
};

enum class Leaf : uint8_t { kBlocked, kCpu, kAwait };

struct Interval {
  uint32_t row;
  uint16_t thread;  // the thread whose stacks it joins (with stitching, maybe not its own)
  uint32_t stack;   // without the leaf pseudo-frame
  uint32_t group;   // start-stop activity group frames, root first (0: none)
  Leaf leaf;
  float ms;
};

// TraceEvent stores the interval as a float32 count of milliseconds.
float IntervalMs(double fromMs, double toMs) { return static_cast<float>(toMs - fromMs); }
uint64_t IntervalNs(float ms) {
  return ms <= 0 ? 0 : static_cast<uint64_t>(std::llround(static_cast<double>(ms) * 1e6));
}

// With groupByProcess the selection's stacks carry the process frame (and the thread frame
// with groupByThread) above their own frames, as SelectStacks builds them.
// Start-stop activity group frames go between the process and the thread, as TraceEvent
// places them; without groupByProcess, at the root.
uint32_t WithGroupFrames(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver,
                         const StackQuery& q, uint16_t thread, uint32_t group, uint32_t cs,
                         std::map<std::pair<uint64_t, uint32_t>, uint32_t>* cache) {
  auto [it, added] = cache->emplace(std::make_pair((uint64_t{thread} << 32) | cs, group), 0);
  if (!added) return it->second;
  uint32_t g = q.groupByProcess ? resolver->stacks().Push(0, ProcessFrame(model, symbols, resolver, thread)) : 0;
  for (uint32_t f : resolver->stacks().Frames(group)) g = resolver->stacks().Push(g, f);
  if (q.groupByProcess && q.groupByThread) g = resolver->stacks().Push(g, ThreadFrame(model, resolver, thread));
  for (uint32_t f : resolver->stacks().Frames(cs)) g = resolver->stacks().Push(g, f);
  return it->second = g;
}

// One toggle for all that following tasks adds: "on" when any applies; the reason says what
// the thread-pool stitcher lacks.
void SetStitchingState(const AsyncStitcher& stitcher, const StartStopActivities& startStops, const StackQuery& q,
                       StackSelection* sel) {
  const bool any = stitcher.available() || startStops.available() || stitcher.tpl();
  sel->stitching = !any ? "unavailable" : q.stitchAsync ? "on" : "off";
  if (!stitcher.available()) sel->stitchingReason = stitcher.unavailableReason();
}

}  // namespace

StackSelection SelectTraceEventThreadTime(const TraceModel& model, const SymbolCollector& symbols,
                                          StackResolver* resolver, const StackQuery& q) {
  StackSelection sel;
  sel.unit = WeightUnit::kNanoseconds;
  const EventStore& store = model.store();
  const std::vector<Driver> drivers = Drivers(model);
  std::vector<bool> threadOk = ThreadMask(model, q.thread);
  if (q.process)
    for (size_t t = 0; t < threadOk.size(); ++t)
      if (model.threads()[ThreadIndex(static_cast<uint16_t>(t))].processId != q.process) threadOk[t] = false;
  const RowRange range = RowsInTime(model, q.fromMs, q.toMs);
  std::vector<ThreadState> state(model.threads().size());
  std::vector<Interval> intervals;
  AsyncStitcher stitcher(model, symbols, resolver);
  const bool stitch = q.stitchAsync && stitcher.available();
  // TraceEvent groups by start-stop activity whenever it follows tasks (UseTasks).
  StartStopActivities startStops(model, symbols, resolver);
  const bool group = q.stitchAsync && startStops.available();
  SetStitchingState(stitcher, startStops, q, &sel);

  // The state machine runs to the end of the range's last interval: an event after the
  // range still closes the interval its predecessor began inside it.
  EventStore::RowCursor cursor(store);  // rows ascend
  for (size_t row = 0; row < store.size(); ++row) {
    // Task activities are followed whenever start-stop activities are grouped too: a worker's
    // wait (ThreadPoolWorkerThread/Wait) gives its thread a fresh task activity, outside every
    // start-stop activity, even in a trace without work or TPL events to stitch.
    if (stitch || group) {
      // An await's end charges its time (from its TaskWait/Send) to AWAIT_TIME under the stack
      // that began it, in the start-stop activity of that time (TraceEvent's AwaitUnblocks).
      const std::optional<AsyncStitcher::Await> await = stitcher.OnRow(row);
      const uint16_t t = store.thread(row).value;
      if (await && threadOk[t] && await->createdRow >= range.begin && await->createdRow < range.end) {
        if (group && await->afterStop) startStops.ApplyPendingStop(stitcher);  // TraceEvent's AfterStop asks first
        const int32_t slot = group ? startStops.AtCreation(await->startStop, await->createdTicks, stitcher) : -1;
        const double from = TicksToMs(model.info(), await->createdTicks), to = TicksToMs(model.info(), await->startTicks);
        intervals.push_back({await->createdRow, await->thread, await->stack, group ? startStops.GroupStack(slot) : 0,
                             Leaf::kAwait, IntervalMs(from, to)});
      }
    }
    if (group) startStops.OnRow(row, stitcher);
    Driver d = drivers[store.type(row).value];
    // TPL events drive the simulation only when tasks are followed (TraceEvent's UseTasks).
    if ((d == Driver::kTplRunning || d == Driver::kTplUnblock) && !q.stitchAsync) d = Driver::kNone;
    // A Stop takes effect when TraceEvent next asks for a thread's start-stop activity: at a
    // driving event (after the task it creates copied the activity) or a task's start or end.
    if (group && (d != Driver::kNone || stitcher.StartsOrStops(row))) startStops.ApplyPendingStop(stitcher);
    const uint16_t t = store.thread(row).value;
    if ((stitch || group) && d != Driver::kNone) stitcher.Touch(t);
    if (d == Driver::kNone || !threadOk[t]) continue;
    ThreadState& s = state[t];
    if (row >= range.end) {
      // Past the range, an event only closes the interval its thread began inside it.
      const uint32_t open = s.blockedMs > 0 ? s.blockedRow : s.cpuRow;
      if (s.blockedMs == 0 || open < range.begin) continue;
      threadOk[t] = false;
    }
    const bool running = d != Driver::kSample || !symbols.IsExternalSample(cursor.ordinal(row));
    const double ms = TicksToMs(model.info(), cursor.timestamp(row));
    // Only intervals begun inside the range are kept (those before it only set the state).
    auto closeCpu = [&] {
      if (s.cpuMs > 0 && s.cpuRow >= range.begin)
        intervals.push_back({s.cpuRow, s.cpuOwner, s.cpuStack, s.cpuGroup, Leaf::kCpu, IntervalMs(s.cpuMs, ms)});
    };
    auto closeBlocked = [&] {
      if (s.blockedMs > 0 && s.blockedRow >= range.begin)
        intervals.push_back({s.blockedRow, s.blockedOwner, s.blockedStack, s.blockedGroup, Leaf::kBlocked, IntervalMs(s.blockedMs, ms)});
    };
    const ThreadEntry& thread = model.threads()[store.thread(row)];
    AsyncStitcher::Stitched stack{0, t};
    if (d != Driver::kTplUnblock) stack.stack = resolver->Resolve(store.stack(row), cursor.timestamp(row), thread.processId);
    if (stitch) stack = stitcher.Stack(t, stack.stack, d != Driver::kTplUnblock ? store.stack(row) : StackIndex());
    const uint32_t groupStack = group ? startStops.GroupStack(startStops.Live(*stitcher.StartStopSlot(t))) : 0;
    if (running) {
      if (s.blockedMs == 0) closeCpu(), s.blockedMs = -1;
      else if (s.blockedMs < 0) closeCpu();
      else closeBlocked(), s.blockedMs = -ms;
      s.cpuMs = ms, s.cpuRow = static_cast<uint32_t>(row), s.cpuStack = stack.stack, s.cpuOwner = stack.thread;
      s.cpuGroup = groupStack;
    } else {
      if (s.blockedMs >= 0) closeBlocked();
      else closeCpu();
      s.blockedMs = ms, s.blockedRow = static_cast<uint32_t>(row), s.blockedStack = stack.stack, s.blockedOwner = stack.thread;
      s.blockedGroup = groupStack;
    }
  }
  // In the order they began; an await's time after the interval its TaskWait/Send began.
  std::stable_sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) {
    return a.row != b.row ? a.row < b.row : (a.leaf == Leaf::kAwait) < (b.leaf == Leaf::kAwait);
  });
  const uint32_t cpuFrame = resolver->frames().Intern(kCpuTimeFrameName, FrameKind::kSynthetic);
  const uint32_t blockedFrame = resolver->frames().Intern(kExternalFrameName, FrameKind::kSynthetic);
  const uint32_t awaitFrame = resolver->frames().Intern(kAwaitTimeFrameName, FrameKind::kSynthetic);
  std::map<std::pair<uint64_t, uint32_t>, uint32_t> grouped;  // ((thread << 32 | call stack), group) → with group frames
  for (const Interval& i : intervals) {
    if (i.row >= range.end) continue;
    const uint32_t leaf = i.leaf == Leaf::kCpu ? cpuFrame : i.leaf == Leaf::kBlocked ? blockedFrame : awaitFrame;
    uint32_t cs = resolver->stacks().Push(i.stack, leaf);
    if (q.groupByProcess || i.group != 0) cs = WithGroupFrames(model, symbols, resolver, q, i.thread, i.group, cs, &grouped);
    sel.rows.push_back(i.row);
    sel.threads.push_back(i.thread);
    sel.callStacks.push_back(cs);
    sel.weights.push_back(IntervalNs(i.ms));
    sel.spansMs.push_back(i.ms);
    sel.totalWeight = SatAdd(sel.totalWeight, sel.weights.back());
  }
  return sel;
}

}  // namespace nettrace
