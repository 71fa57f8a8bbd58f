#include "export/profile/profile_builder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "analysis/event_query.h"
#include "analysis/utc_time.h"
#include "base/saturating.h"

namespace nettrace {

void SplitFrameName(const std::string& frame, std::string* name, std::string* file) {
  const size_t bang = frame.find('!');
  *name = frame, file->clear();
  if (bang == std::string::npos || bang == 0 || bang + 1 == frame.size()) return;
  const std::string module = frame.substr(0, bang), method = frame.substr(bang + 1);
  if (module != "?") *file = module;
  if (method != "?") *name = method;
}

namespace {

constexpr int64_t kMaxValue = std::numeric_limits<int64_t>::max();

// What the samples of all selections gather: samples by (thread, call stack), stacks by
// (thread frame or none, call stack), functions by frame.
class ProfileAggregator {
 public:
  ProfileAggregator(const TraceModel& model, StackResolver* resolver, bool threadFrames, ProfileData* out)
      : model_(model), resolver_(resolver), threadFrames_(threadFrames), out_(out) {}

  // Adds one selection as value column `type` (columns are sample-major at the end).
  void Add(const StackSelection& sel, size_t type) {
    if (columns_.size() <= type) columns_.resize(type + 1);
    std::vector<int64_t>& column = columns_[type];
    for (size_t i = 0; i < sel.size(); ++i) {
      const uint64_t key = (uint64_t{sel.threads[i]} << 32) | sel.callStacks[i];
      auto [it, added] = samples_.emplace(key, static_cast<uint32_t>(out_->sampleThread.size()));
      if (added) NewSample(sel.threads[i], sel.callStacks[i]);
      if (column.size() < out_->sampleThread.size()) column.resize(out_->sampleThread.size());
      int64_t& v = column[it->second];
      v = static_cast<int64_t>(std::min<uint64_t>(SatAdd(static_cast<uint64_t>(v), sel.weights[i]), kMaxValue));
      const uint64_t ts = model_.store().timestamp(sel.rows[i]);
      first_ = std::min(first_, ts), last_ = std::max(last_, ts);
    }
  }

  // Interleaves the columns sample-major and names the functions.
  void Finish(const std::vector<size_t>& keptColumns) {
    const size_t n = out_->sampleThread.size();
    out_->values.assign(n * keptColumns.size(), 0);
    for (size_t t = 0; t < keptColumns.size(); ++t) {
      const std::vector<int64_t>& column = columns_[keptColumns[t]];
      for (size_t s = 0; s < column.size(); ++s) out_->values[s * keptColumns.size() + t] = column[s];
    }
    NameFunctions();
  }

  bool any() const { return !out_->sampleThread.empty(); }
  uint64_t first() const { return first_; }
  uint64_t last() const { return last_; }

 private:
  void NewSample(uint16_t thread, uint32_t callStack) {
    const uint64_t stackKey = (threadFrames_ ? uint64_t{thread} << 32 : 0) | callStack;
    auto [it, added] = stacks_.emplace(stackKey, static_cast<uint32_t>(out_->stackCount()));
    uint32_t activity = 0;
    if (added) {
      for (uint32_t s = callStack; s != 0; s = resolver_->stacks().parent(s)) {
        const uint32_t frame = resolver_->stacks().frame(s);
        out_->stackLocations.push_back(Location(frame));
        if (!activity && IsActivity(frame)) activity = ActivityIndex(frame);
      }
      if (threadFrames_) out_->stackLocations.push_back(Location(ThreadFrame(model_, resolver_, thread)));
      out_->stackBegin.push_back(static_cast<uint32_t>(out_->stackLocations.size()));
      stackActivity_.push_back(activity);
    }
    out_->sampleStack.push_back(it->second);
    out_->sampleThread.push_back(thread);
    out_->sampleActivity.push_back(stackActivity_[it->second]);
  }

  // The location (= function) id of a frame, made on first use.
  uint32_t Location(uint32_t frame) {
    if (frame >= locationOf_.size()) locationOf_.resize(resolver_->frames().size(), 0);
    uint32_t& id = locationOf_[frame];
    if (!id) {
      frames_.push_back(frame);
      id = static_cast<uint32_t>(frames_.size());
    }
    return id;
  }

  // TraceEvent's start-stop activity frames ("Activity <name>") under "(Activities)".
  bool IsActivity(uint32_t frame) const { return resolver_->frames().name(frame).rfind("Activity ", 0) == 0; }
  uint32_t ActivityIndex(uint32_t frame) {
    auto [it, added] = activityOf_.emplace(frame, static_cast<uint32_t>(out_->activities.size()));
    if (added) out_->activities.push_back(resolver_->frames().name(frame).substr(9));
    return it->second;
  }

  // Each frame's pprof function; a short name two frames would share (one method in two
  // modules) stays the whole frame name, so that pprof, which tells functions apart by name,
  // keeps them apart as the flame graph does.
  void NameFunctions() {
    std::unordered_map<std::string, uint32_t> mappingOf, shortNames;
    out_->functions.resize(frames_.size());
    for (size_t i = 0; i < frames_.size(); ++i) {
      ProfileFunction& f = out_->functions[i];
      f.systemName = resolver_->frames().name(frames_[i]);
      SplitFrameName(f.systemName, &f.name, &f.file);
      ++shortNames[f.name];
      if (f.file.empty()) continue;
      auto [it, added] = mappingOf.emplace(f.file, static_cast<uint32_t>(out_->mappings.size() + 1));
      if (added) out_->mappings.push_back(f.file);
      f.mapping = it->second;
    }
    for (ProfileFunction& f : out_->functions) {
      if (shortNames[f.name] > 1) f.name = f.systemName;
      // A system name equal to the name is left out: pprof takes a function whose two names
      // are the same for one still to demangle, and cuts a name that looks like C++ ("::",
      // "<>") at its parentheses ("Activity ExceptionHandling(…)", "Thread (12)").
      if (f.systemName == f.name) f.systemName.clear();
    }
  }

  const TraceModel& model_;
  StackResolver* resolver_;
  bool threadFrames_;
  ProfileData* out_;
  std::vector<std::vector<int64_t>> columns_;
  std::unordered_map<uint64_t, uint32_t> samples_, stacks_;
  std::vector<uint32_t> stackActivity_;
  std::vector<uint32_t> locationOf_;  // frame → location id (0: none yet)
  std::vector<uint32_t> frames_;      // location id - 1 → frame
  std::unordered_map<uint32_t, uint32_t> activityOf_;
  uint64_t first_ = UINT64_MAX, last_ = 0;
};

std::string ProcessName(const SymbolCollector& symbols, uint64_t pid) {
  for (const UniversalProcess& p : symbols.universal().symbols().processes())
    if (p.pid == pid) return p.name;
  return "";
}

void DescribeThreads(const TraceModel& model, const SymbolCollector& symbols, ProfileData* out) {
  out->threads.resize(model.threads().size());
  for (size_t i = 0; i < out->threads.size(); ++i) {
    const ThreadEntry& t = model.threads()[ThreadIndex(static_cast<uint16_t>(i))];
    ProfileThread& p = out->threads[i];
    p.threadId = t.osThreadId.value_or(t.key);
    p.threadName = t.name.value_or("");
    p.processId = t.processId.value_or(model.info().processId);
    p.processName = ProcessName(symbols, p.processId);
  }
}

int64_t UnixNanos(double unixMs) {
  if (!std::isfinite(unixMs) || unixMs < 0 || unixMs > 9.2e12) return 0;
  return static_cast<int64_t>(std::llround(unixMs * 1e6));
}

}  // namespace

Status BuildProfile(const TraceModel& model, const SymbolCollector& symbols, const ProfileRequest& request,
                    const ProfileSelect& select, ProfileData* out) {
  *out = ProfileData();
  StackResolver resolver(model, symbols);
  const StackQuery& base = request.query;
  ProfileAggregator agg(model, &resolver, base.groupByThread && !GroupFramesInStacks(base), out);
  std::vector<size_t> kept;
  const std::vector<ProfileSampleType> candidates = CandidateSampleTypes(request, model.info());
  for (size_t c = 0; c < candidates.size(); ++c) {
    StackQuery q = base;
    q.event = candidates[c].event, q.weight = candidates[c].weight;
    const StackSelection sel = select(q, &resolver);
    if (sel.size() == 0 && !request.event) continue;
    agg.Add(sel, c);
    kept.push_back(c);
    out->types.push_back(candidates[c]);
    out->comments.push_back(candidates[c].type + ": nettrace flame --event " + candidates[c].event + " --weight " +
                            WeightName(candidates[c].weight));
  }
  if (out->types.empty())
    return Status::Error(ErrorCode::kInvalidArgument, kNoOffset,
                         request.event ? "no profile sample type for --event " + *request.event + " with this --weight"
                                       : "nothing to profile: the trace has no events of a profile's sample types "
                                         "(Thread/Sample, GC/AllocationTick, Exception/Start, Contention/Start, "
                                         "WaitHandleWait/Start, cpu, cswitch); --event NAME profiles another type");
  agg.Finish(kept);
  DescribeThreads(model, symbols, out);
  // The time covered: the range asked for, else the selected events' first to last.
  const TraceInfo& info = model.info();
  const double syncMs = SyncUnixMs(info.syncTimeUtc);
  double fromMs = agg.any() ? TicksToMs(info, agg.first()) : 0, toMs = agg.any() ? TicksToMs(info, agg.last()) : 0;
  if (base.fromMs) fromMs = *base.fromMs;
  if (base.toMs) toMs = *base.toMs;
  out->timeNanos = UnixNanos(syncMs + fromMs);
  out->durationNanos = toMs > fromMs ? static_cast<int64_t>(std::llround((toMs - fromMs) * 1e6)) : 0;
  return Status::Ok();
}

}  // namespace nettrace
