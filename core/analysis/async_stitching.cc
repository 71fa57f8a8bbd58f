#include "analysis/async_stitching.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "analysis/event_filter.h"

namespace nettrace {
namespace {

enum : uint8_t { kNone = 0, kCreate = 1, kStart = 2 };
enum : uint8_t { kThreadPoolId = 5, kIoThreadPoolId = 4 };  // TraceEvent's id kinds, kept apart

bool StartsWith(const std::string& s, size_t at, const char* prefix) {
  return s.compare(at, std::char_traits<char>::length(prefix), prefix) == 0;
}

// Frames of the runtime's core library ("mscorlib…" or "…System.Private.CoreLib…",
// case-insensitive, as TraceEvent matches module names).
bool InCoreLibrary(const std::string& name, size_t bang) {
  std::string module = name.substr(0, bang);
  std::transform(module.begin(), module.end(), module.begin(), [](unsigned char c) { return std::tolower(c); });
  return module.rfind("mscorlib", 0) == 0 || module.find("system.private.corelib") != std::string::npos;
}

}  // namespace

AsyncStitcher::AsyncStitcher(const StoreBuilder& model, const SymbolCollector& symbols, StackResolver* resolver)
    : model_(model), symbols_(symbols), resolver_(resolver) {
  kind_.assign(model.types().size(), kNone);
  for (size_t t = 0; t < kind_.size(); ++t) {
    const EventType& type = model.types()[EventTypeIndex(static_cast<uint16_t>(t))];
    if (SameIgnoreCase(type.metadata.providerName, "System.Threading.Tasks.TplEventSource")) tpl_ = true;
    const EventKind k = type.kind;
    if (k == EventKind::kThreadPoolEnqueue || k == EventKind::kThreadPoolIoEnqueue || k == EventKind::kThreadPoolIoPack)
      kind_[t] = kCreate;
    if (k == EventKind::kThreadPoolDequeue || k == EventKind::kThreadPoolIoDequeue) kind_[t] = kStart;
    if (kind_[t] != kNone) available_ = true;
  }
  startingTaskFrame_ = resolver->frames().Intern(kStartingTaskFrameName, FrameKind::kSynthetic);
  const size_t threads = model.threads().size();
  activities_.resize(threads);
  for (size_t t = 0; t < threads; ++t) activities_[t].thread = static_cast<uint16_t>(t);
  current_.assign(threads, -1);
}

int32_t AsyncStitcher::Current(uint16_t thread) {
  if (current_[thread] < 0) current_[thread] = thread;  // the thread's own activity (never freed)
  return current_[thread];
}

void AsyncStitcher::OnRow(size_t row) {
  const EventStore& store = model_.store();
  const uint16_t typeIndex = store.type(row).value;
  const uint8_t kind = kind_[typeIndex];
  if (kind == kNone) return;
  const std::optional<uint64_t> id = symbols_.ThreadPoolWorkId(store.ordinal(row));
  if (!id) return;
  const uint16_t thread = store.thread(row).value;
  const ThreadEntry& entry = model_.threads()[store.thread(row)];
  const uint32_t eventId = model_.types()[EventTypeIndex(typeIndex)].metadata.eventId;
  // TraceEvent's raw id: the id kind and the process above the work item's id.
  const uint64_t idKind = eventId <= 62 ? kThreadPoolId : kIoThreadPoolId;
  const uint64_t key = (((entry.processId.value_or(0) << 8) + (idKind << 28)) << 32) + *id;
  if (kind == kCreate) {
    Activity a;
    a.creator = Current(thread);
    a.startStop = activities_[a.creator].startStop;  // TraceEvent's Create: the creator's start-stop activity
    a.creationStack = resolver_->Resolve(store.stack(row), store.timestamp(row), entry.processId);
    a.refs = 1;  // queued
    const int32_t created = NewActivity(a);
    auto [it, added] = byId_.emplace(key, created);
    if (!added) Release(std::exchange(it->second, created));  // the id is reused: the older is unreachable
    return;
  }
  auto it = byId_.find(key);
  if (it == byId_.end()) return;  // started, never scheduled: TraceEvent drops it
  const int32_t started = it->second;
  Activity& a = activities_[started];
  const int32_t over = current_[thread];
  a.startedOver = over >= 0;
  a.thread = thread;
  ++a.refs;  // current on the thread
  current_[thread] = started;
  if (over >= 0) Release(over);
  // Started over another activity, it can never start again: it is no longer queued.
  if (a.startedOver) {
    byId_.erase(it);
    Release(started);
  }
}

int32_t AsyncStitcher::NewActivity(const Activity& a) {
  ++activities_[a.creator].refs;
  if (free_.empty()) {
    activities_.push_back(a);
    return static_cast<int32_t>(activities_.size() - 1);
  }
  const int32_t slot = free_.back();
  free_.pop_back();
  activities_[slot] = a;
  return slot;
}

void AsyncStitcher::Release(int32_t activity) {
  // A thread's own activity is never freed; a freed one releases its creator in turn.
  const int32_t threads = static_cast<int32_t>(current_.size());
  while (activity >= threads && --activities_[activity].refs == 0) {
    free_.push_back(activity);
    activity = activities_[activity].creator;
  }
}

uint32_t AsyncStitcher::Transition(uint32_t stack) const {
  const CallStackTable& stacks = resolver_->stacks();
  const FrameTable& frames = resolver_->frames();
  uint32_t helper = UINT32_MAX;
  for (uint32_t s = stack; s != 0; s = stacks.parent(s)) {
    const uint32_t f = stacks.frame(s);
    if (frames.kind(f) != FrameKind::kManaged) {  // no method: TraceEvent forgets the helper
      helper = UINT32_MAX;
      continue;
    }
    const std::string& name = frames.name(f);
    const size_t bang = name.find('!');
    if (bang == std::string::npos || !InCoreLibrary(name, bang)) continue;
    const size_t m = bang + 1;
    if (StartsWith(name, m, "System.Threading.ExecutionContext.Run") ||
        StartsWith(name, m, "System.Threading.Tasks.AwaitTaskContinuation.Run") ||
        StartsWith(name, m, "System.Threading.Tasks.Task.Execute"))
      return helper != UINT32_MAX ? helper : s;
    if (name.find("System.Threading.Tasks.Task", m) != std::string::npos && name.find(".InnerInvoke", m) != std::string::npos)
      helper = s;
  }
  return UINT32_MAX;
}

AsyncStitcher::Stitched AsyncStitcher::Build(uint32_t stack, int32_t activity) {
  // Walk the chain of creators iteratively (chains of work items can be long), then stitch
  // from the root: each step's own part below its transition goes on a STARTING TASK frame.
  struct Step {
    uint32_t stack, stop;
  };
  std::vector<Step> chain;
  uint32_t s = stack;
  int32_t a = activity;
  for (;;) {
    const Activity& act = activities_[a];
    if (act.creator < 0) break;
    uint32_t stop = 0;
    if (s != 0) {
      stop = Transition(s);
      if (stop == UINT32_MAX) break;  // no transition: this stack is shown as it is
    }
    chain.push_back({s, stop});
    s = act.creationStack;
    a = act.creator;
  }
  Stitched out{s, activities_[a].thread};
  CallStackTable& stacks = resolver_->stacks();
  std::vector<uint32_t> own;
  for (auto step = chain.rbegin(); step != chain.rend(); ++step) {
    out.stack = stacks.Push(out.stack, startingTaskFrame_);
    own.clear();
    for (uint32_t n = step->stack; n != 0 && n != step->stop; n = stacks.parent(n)) own.push_back(stacks.frame(n));
    for (auto f = own.rbegin(); f != own.rend(); ++f) out.stack = stacks.Push(out.stack, *f);
  }
  return out;
}

AsyncStitcher::Stitched AsyncStitcher::Stack(uint16_t thread, uint32_t stack) {
  return Build(stack, Current(thread));
}

}  // namespace nettrace
