#include "analysis/async_stitching.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "analysis/event_filter.h"
#include "analysis/tpl_tasks.h"

namespace nettrace {
namespace {

// What an event type does (kind_): thread-pool work, a worker's wait, or a TPL op (kTpl + op).
enum : uint8_t { kNone = 0, kCreate = 1, kStart = 2, kRestart = 3, kTpl = 16 };
// Stands for a STARTING TASK frame among return addresses (no code lies there).
constexpr uint64_t kStartingTaskAddress = UINT64_MAX;

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

uint8_t KindOf(const EventType& type) {
  const EventKind k = type.kind;
  if (k == EventKind::kThreadPoolEnqueue || k == EventKind::kThreadPoolIoEnqueue || k == EventKind::kThreadPoolIoPack)
    return kCreate;
  if (k == EventKind::kThreadPoolDequeue || k == EventKind::kThreadPoolIoDequeue) return kStart;
  // ThreadPoolWorkerThread/Wait (57): TraceEvent's AutoRestart.
  if (type.knownProvider == KnownProvider::kClrRuntime && type.metadata.eventId == 57) return kRestart;
  const TplOp op = TplOpOf(type);
  if (op == TplOp::kNone) return kNone;
  return static_cast<uint8_t>(kTpl + static_cast<uint8_t>(op));
}

}  // namespace

AsyncStitcher::AsyncStitcher(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver)
    : model_(model), symbols_(symbols), resolver_(resolver) {
  kind_.assign(model.types().size(), kNone);
  for (size_t t = 0; t < kind_.size(); ++t) {
    const EventType& type = model.types()[EventTypeIndex(static_cast<uint16_t>(t))];
    if (type.knownProvider == KnownProvider::kTpl) tpl_ = true;
    kind_[t] = KindOf(type);
    if (kind_[t] == kCreate || kind_[t] == kStart || kind_[t] > kTpl) available_ = true;
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

void AsyncStitcher::SetCurrent(uint16_t thread, int32_t activity) {
  const int32_t old = current_[thread];
  if (activity >= 0) ++activities_[activity].refs;
  current_[thread] = activity;
  if (old >= 0) Release(old);
}

bool AsyncStitcher::StartsOrStops(size_t row) const {
  const uint8_t kind = kind_[model_.store().type(row).value];
  if (kind == kStart || kind == kRestart) return true;
  if (kind <= kTpl) return false;
  const TplOp op = static_cast<TplOp>(kind - kTpl);
  return op == TplOp::kExecuteStart || op == TplOp::kWaitEnd || op == TplOp::kExecuteStop;
}

std::optional<AsyncStitcher::Await> AsyncStitcher::OnRow(size_t row) {
  const EventStore& store = model_.store();
  const uint8_t kind = kind_[store.type(row).value];
  std::optional<Await> out;
  if (kind == kNone) return out;
  if (kind == kRestart) {
    AutoRestart(store.thread(row).value);
    return out;
  }
  if (kind > kTpl) {
    OnTpl(row, kind - kTpl, &out);
    return out;
  }
  const std::optional<uint64_t> id = symbols_.ThreadPoolWorkId(store.ordinal(row));
  if (!id) return out;
  const uint32_t eventId = model_.types()[store.type(row)].metadata.eventId;
  const uint64_t pid = model_.threads()[store.thread(row)].processId.value_or(0);
  const uint64_t key = RawActivityId(eventId <= 62 ? RawIdKind::kThreadPool : RawIdKind::kIoThreadPool, pid, *id);
  if (kind == kCreate) {
    Create(row, key, Kind::kWork);
  } else {
    Start(row, key, false);
    // Work started over another activity can never start again: its id is no longer needed.
    auto it = byId_.find(key);
    if (it != byId_.end() && activities_[it->second].kind == Kind::kWork && activities_[it->second].prev >= 0) Forget(key);
  }
  return out;
}

void AsyncStitcher::OnTpl(size_t row, uint8_t op, std::optional<Await>* out) {
  const EventStore& store = model_.store();
  const std::optional<TplTaskEvent> e = symbols_.TplTask(store.ordinal(row));
  if (!e) return;
  const uint64_t pid = model_.threads()[store.thread(row)].processId.value_or(0);
  const TplOp o = static_cast<TplOp>(op);
  const bool wait = o == TplOp::kWaitBegin || o == TplOp::kWaitEnd;
  const uint64_t key = RawActivityId(wait ? RawIdKind::kTplContinuation : RawIdKind::kTplScheduledTask, pid,
                                     static_cast<uint32_t>(e->id));
  switch (o) {
    case TplOp::kScheduled:
      if (!byId_.count(key)) Create(row, key, Kind::kTask);
      break;
    case TplOp::kContinuationScheduled:
      Create(row, key, Kind::kTask);
      break;
    case TplOp::kWaitBegin: {
      const int32_t created = Create(row, key, e->behavior == 1 ? Kind::kWaitSync : Kind::kWait);
      std::vector<uint64_t>& waits = waits_[activities_[created].creator];
      if (waits.size() < kMaxWaits) waits.push_back(activities_[created].serial);
      break;
    }
    case TplOp::kExecuteStart:
    case TplOp::kWaitEnd:
      *out = Start(row, key, o == TplOp::kWaitEnd);
      break;
    case TplOp::kExecuteStop: {
      auto it = byId_.find(key);
      Stop(store.thread(row).value, it == byId_.end() ? -1 : it->second);
      break;
    }
    default:
      break;
  }
}

int32_t AsyncStitcher::Create(size_t row, uint64_t key, Kind kind) {
  const EventStore& store = model_.store();
  const uint16_t thread = store.thread(row).value;
  Activity a;
  a.kind = kind;
  a.creator = Current(thread);
  a.thread = thread;
  a.startStop = activities_[a.creator].startStop;  // TraceEvent's Create: the creator's start-stop activity
  a.creationStack = resolver_->Resolve(store.stack(row), store.timestamp(row), model_.threads()[store.thread(row)].processId);
  a.creationRaw = store.stack(row);
  a.key = key;
  a.serial = nextSerial_++;
  a.createdRow = static_cast<uint32_t>(row);
  a.createdTicks = store.timestamp(row);
  a.refs = 1;  // known by id
  const int32_t created = NewActivity(a);
  auto [it, added] = byId_.emplace(key, created);
  if (!added) Release(std::exchange(it->second, created));  // the id is reused: the older is unreachable by it
  return created;
}

std::optional<AsyncStitcher::Await> AsyncStitcher::Start(size_t row, uint64_t key, bool awaitEnd) {
  const EventStore& store = model_.store();
  const uint16_t thread = store.thread(row).value;
  const int32_t existing = current_[thread];
  const bool implicitStop = existing >= 0 && awaitEnd &&
                            (activities_[existing].kind == Kind::kWait || activities_[existing].kind == Kind::kWaitSync);
  if (implicitStop) Stop(thread, existing);  // awaits end implicitly at the next await's end
  auto it = byId_.find(key);
  if (it == byId_.end()) return std::nullopt;  // started, never created: TraceEvent drops it
  const int32_t started = it->second;
  if (activities_[started].prev >= 0) return std::nullopt;  // started already
  const int32_t prev = current_[thread];
  if (prev >= 0) ++activities_[prev].refs;
  activities_[started].prev = prev;
  activities_[started].thread = thread;
  SetCurrent(thread, started);
  std::optional<Await> out;
  const Activity& a = activities_[started];
  if (a.creator >= 0 && awaitEnd) {
    // Only the first await its creator began counts as blocking; any of them ending clears them.
    auto w = waits_.find(a.creator);
    if (w != waits_.end() && std::find(w->second.begin(), w->second.end(), a.serial) != w->second.end()) {
      const Stitched s = Build(0, StackIndex(), started);
      out = Await{s.stack, s.thread, a.startStop, a.createdRow, a.createdTicks, store.timestamp(row), implicitStop};
      waits_.erase(w);
    }
  }
  if (activities_[started].kind == Kind::kWaitSync) Stop(thread, started);
  return out;
}

void AsyncStitcher::Stop(uint16_t thread, int32_t activity) {
  // Everything started over the activity on this thread stops with it; without an activity,
  // the thread's chain is only walked (and a chain that ends leaves no current activity).
  const uint64_t key = activity >= 0 ? activities_[activity].key : 0;
  int32_t cur = current_[thread];
  for (;;) {
    if (cur < 0) {
      SetCurrent(thread, -1);
      break;
    }
    if (cur == activity) {
      SetCurrent(thread, activities_[cur].prev);
      break;
    }
    if (activities_[cur].kind == Kind::kInitial) break;
    if (activity >= 0) {
      const uint64_t stopped = activities_[cur].key;
      SetCurrent(thread, activities_[cur].prev);
      Forget(stopped);
      cur = current_[thread];
    } else {
      cur = activities_[cur].prev;
    }
  }
  if (activity >= 0) Forget(key);
}

void AsyncStitcher::AutoRestart(uint16_t thread) {
  Activity a;
  a.kind = Kind::kImplied;
  a.thread = thread;
  a.prev = current_[thread];
  if (a.prev >= 0) ++activities_[a.prev].refs;
  a.serial = nextSerial_++;
  SetCurrent(thread, NewActivity(a));
}

void AsyncStitcher::Forget(uint64_t key) {
  // TraceEvent removes the id whatever activity it now names.
  auto it = byId_.find(key);
  if (it == byId_.end()) return;
  const int32_t activity = it->second;
  byId_.erase(it);
  Release(activity);
}

int32_t AsyncStitcher::NewActivity(const Activity& a) {
  if (a.creator >= 0) ++activities_[a.creator].refs;
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
  // A thread's own activity is never freed; a freed one releases its creator and predecessor.
  const int32_t threads = static_cast<int32_t>(current_.size());
  std::vector<int32_t> todo{activity};
  while (!todo.empty()) {
    const int32_t a = todo.back();
    todo.pop_back();
    if (a < threads || --activities_[a].refs != 0) continue;
    free_.push_back(a);
    waits_.erase(a);
    if (activities_[a].creator >= 0) todo.push_back(activities_[a].creator);
    if (activities_[a].prev >= 0) todo.push_back(activities_[a].prev);
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

bool AsyncStitcher::Recursive(const std::vector<uint64_t>& stitched, const std::vector<uint64_t>& own) {
  if (stitched.size() <= own.size()) return false;
  return std::equal(own.begin(), own.end(), stitched.end() - static_cast<std::ptrdiff_t>(own.size())) &&
         stitched[stitched.size() - own.size() - 1] == kStartingTaskAddress;
}

AsyncStitcher::Stitched AsyncStitcher::Build(uint32_t stack, StackIndex raw, int32_t activity) {
  // Walk the chain of creators iteratively (chains of work items can be long), then stitch
  // from the root: each step's own part below its transition goes on a STARTING TASK frame.
  struct Step {
    uint32_t stack, stop;
    StackIndex raw;
  };
  std::vector<Step> chain;
  uint32_t s = stack;
  StackIndex r = raw;
  int32_t a = activity;
  for (;;) {
    const Activity& act = activities_[a];
    if (act.creator < 0) break;
    uint32_t stop = 0;
    if (s != 0) {
      stop = Transition(s);
      if (stop == UINT32_MAX) break;  // no transition: this stack is shown as it is
    }
    chain.push_back({s, stop, r});
    s = act.creationStack;
    r = act.creationRaw;
    a = act.creator;
  }
  Stitched out{s, activities_[a].thread};
  if (chain.empty()) return out;
  // The stitched stack's return addresses, root first, beside its frames (TraceEvent's frame identity).
  std::vector<uint64_t> addresses = resolver_->Addresses(r);
  std::reverse(addresses.begin(), addresses.end());
  CallStackTable& stacks = resolver_->stacks();
  std::vector<uint32_t> own;
  std::vector<uint64_t> ownAddresses;
  for (auto step = chain.rbegin(); step != chain.rend(); ++step) {
    own.clear();
    for (uint32_t n = step->stack; n != 0 && n != step->stop; n = stacks.parent(n)) own.push_back(stacks.frame(n));
    std::reverse(own.begin(), own.end());
    std::vector<uint64_t> leafFirst = resolver_->Addresses(step->raw);
    leafFirst.resize(std::min(leafFirst.size(), own.size()));
    ownAddresses.assign(leafFirst.rbegin(), leafFirst.rend());
    if (step->stack != 0 && Recursive(addresses, ownAddresses)) continue;
    out.stack = stacks.Push(out.stack, startingTaskFrame_);
    addresses.push_back(kStartingTaskAddress);
    for (uint32_t f : own) out.stack = stacks.Push(out.stack, f);
    addresses.insert(addresses.end(), ownAddresses.begin(), ownAddresses.end());
  }
  return out;
}

}  // namespace nettrace
