#include "analysis/start_stop_activities.h"

#include <cstdio>
#include <cstring>
#include <utility>

#include "analysis/event_query.h"
#include "events/start_stop.h"
#include "events/start_stop_rule.h"

namespace nettrace {
namespace {

enum : uint8_t { kNone = 0, kStart = 1, kStop = 2 };

uint32_t U32(const Guid& g, int i) {
  uint32_t v;
  std::memcpy(&v, g.bytes.data() + 4 * i, 4);
  return v;  // the bytes are in memory order, little-endian like the runtime's
}

// EventSource's activity ids end with a checksum of the first 12 bytes, xor'ed with the
// process id (or not, in older runtimes).
bool IsActivityPath(const Guid& g, uint64_t pid) {
  const uint32_t sum = U32(g, 0) + U32(g, 1) + U32(g, 2) + 0x599D99ADu;
  return (sum ^ static_cast<uint32_t>(pid)) == U32(g, 3) || sum == U32(g, 3);
}

// EventSource's number-list encoding, nibble codes: 0 end, 1-10 the value itself,
// 11 an overflow prefix, 12-15 a value in 1-4 bytes that follow (little-endian; for 12 in
// a high nibble, the low nibble holds the value's high bits).
bool AppendNumbers(const Guid& g, std::string* out) {
  const uint8_t* p = g.bytes.data();
  const uint8_t* end = p + 12;
  char separator = '/';
  while (p < end) {
    uint32_t nibble = *p >> 4;
    bool second = false;  // reading the low nibble of *p
    if (nibble != 0 && nibble <= 0xA) {
      *out += '/' + std::to_string(nibble);
      nibble = *p & 0xF;
      second = true;
      if (nibble != 0 && nibble <= 0xA) {
        *out += '/' + std::to_string(nibble);
        ++p;
        continue;
      }
    }
    if (nibble == 0) break;
    if (nibble == 0xB) {  // an overflow id: the next nibble is a multi-byte code
      if (!second) {
        nibble = *p & 0xF;
      } else {
        if (++p >= end) break;
        nibble = *p >> 4;
      }
      if (nibble < 0xC) return false;  // undefined: TraceEvent shows the plain GUID
      separator = '$';
    }
    const uint32_t bytes = nibble - 0xC + 1;
    uint32_t value = second ? 0 : (*p & 0xF);
    ++p;
    if (end < p + bytes) break;
    for (int i = static_cast<int>(bytes) - 1; i >= 0; --i) value = (value << 8) + p[i];
    *out += separator + std::to_string(value);
    p += bytes;
  }
  return true;
}

std::string LiveKey(const Guid& id, uint64_t pid) {
  std::string key(reinterpret_cast<const char*>(id.bytes.data()), id.bytes.size());
  key.append(reinterpret_cast<const char*>(&pid), sizeof pid);
  return key;
}

// The task of a Start or Stop event: its name without the opcode ("Scenario/Start", v4's
// "ScenarioStart", "ScenarioStop"), or before the opcode another override gives it
// ("Scenario/Resume").
std::string TaskName(const EventType& type) {
  const std::string& n = type.name;
  const size_t slash = n.rfind('/');
  if (slash != std::string::npos) return n.substr(0, slash);
  return std::string(StartStopStem(n));
}

}  // namespace

std::string ActivityIdText(const Guid& id, uint64_t pid) {
  if (std::optional<std::string> path = ActivityPathString(id, pid)) return *path;
  // TraceEvent's well-known patterns (FrameworkEventSource's HTTP and ADO.NET's SQL commands:
  // bytes 8-15 are 06|07 07 08 09 0a 0b 0c 0d), else the GUID itself.
  static constexpr uint8_t kTail[] = {0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d};
  if ((id.bytes[8] == 6 || id.bytes[8] == 7) && std::memcmp(id.bytes.data() + 9, kTail, sizeof kTail) == 0) {
    char hex[9];
    std::snprintf(hex, sizeof hex, "%08x", U32(id, 0));
    return std::string(id.bytes[8] == 6 ? "HTTP/Id=" : "SQL/Id=") + hex;
  }
  return id.ToString();
}

std::optional<std::string> ActivityPathString(const Guid& id, uint64_t pid) {
  if (!IsActivityPath(id, pid)) return std::nullopt;
  const uint32_t process = (U32(id, 0) + U32(id, 1) + U32(id, 2) + 0x599D99ADu) ^ U32(id, 3);
  std::string out = process != 0 ? "/#" + std::to_string(static_cast<int32_t>(process)) : "/";
  if (!AppendNumbers(id, &out)) return id.ToString();
  return out + '/';
}

StartStopActivities::StartStopActivities(const TraceModel& model, const SymbolCollector& symbols,
                                         StackResolver* resolver)
    : model_(model), symbols_(symbols), resolver_(resolver) {
  kind_.assign(model.types().size(), kNone);
  anyId_.assign(model.types().size(), false);
  task_.resize(model.types().size());
  for (size_t t = 0; t < kind_.size(); ++t) {
    // EventSource activities, as every stage tells them (events/event_kind.h).
    const EventType& type = model.types()[EventTypeIndex(static_cast<uint16_t>(t))];
    const StartStopRule rule = StartStopRuleOf(type.kind);
    if (rule.role == StartStopRole::kNone) continue;
    kind_[t] = rule.role == StartStopRole::kStart ? kStart : kStop;
    anyId_[t] = rule.exceptionHandling;
    if (kind_[t] == kStart) task_[t] = rule.exceptionHandling ? kExceptionHandlingTask : TaskName(type);
    available_ = true;
  }
  activitiesFrame_ = resolver->frames().Intern(kActivitiesFrameName, FrameKind::kSynthetic);
}

void StartStopActivities::OnRow(size_t row, AsyncStitcher& tasks) {
  const EventStore& store = model_.store();
  const uint16_t type = store.type(row).value;
  if (kind_[type] == kNone) return;
  if (kind_[type] == kStart && activities_.size() >= kMaxActivities) {
    ++notKept_;
    return;
  }
  Guid id, related;
  for (const Label& l : model_.labels().Get(store.labels(row)).labels) {
    if (l.kind == LabelKind::kActivityId) id = l.guid;
    if (l.kind == LabelKind::kRelatedActivityId) related = l.guid;
  }
  const uint64_t pid = model_.threads()[store.thread(row)].processId.value_or(0);
  if (!anyId_[type] && !IsActivityPath(id, pid)) {  // EventSources: activity paths only
    ++withoutPath_;
    return;
  }
  ApplyPendingStop(tasks);
  if (kind_[type] == kStart) Start(row, id, related, pid, tasks.StartStopSlot(store.thread(row).value));
  else Stop(row, id, pid, tasks.CurrentTask(store.thread(row).value));
}

int32_t StartStopActivities::Live(int32_t a) const {
  while (a >= 0 && activities_[a].stopped) a = activities_[a].creator;
  return a;
}

int32_t StartStopActivities::AtCreation(int32_t slot, uint64_t createdTicks, AsyncStitcher& tasks) {
  if (slot >= 0 && !(activities_[slot].stopped && activities_[slot].stopTicks < createdTicks)) return slot;
  ApplyPendingStop(tasks);  // TraceEvent asks for the thread's current activity here
  return Live(slot);
}

void StartStopActivities::Start(size_t row, const Guid& id, const Guid& related, uint64_t pid, int32_t* task) {
  const EventStore& store = model_.store();
  int32_t creator = -1;
  if (!related.IsZero()) {
    auto it = live_.find(LiveKey(related, pid));
    if (it != live_.end()) creator = it->second;
  }
  if (creator < 0) creator = Live(*task);
  std::string name = "Activity " + task_[store.type(row).value] + "(" + ActivityIdText(id, pid);
  if (const std::string* info = symbols_.StartInfo(store.ordinal(row))) name += "," + *info;
  name += ")";
  Activity a;
  a.id = id, a.related = related, a.pid = pid, a.startTicks = store.timestamp(row), a.creator = creator;
  a.startRow = static_cast<uint32_t>(row), a.type = store.type(row).value;
  a.frame = resolver_->frames().Intern(name, FrameKind::kSynthetic);
  const int32_t index = static_cast<int32_t>(activities_.size());
  activities_.push_back(a);
  live_[LiveKey(id, pid)] = index;
  *task = index;
}

void StartStopActivities::Stop(size_t row, const Guid& id, uint64_t pid, AsyncStitcher::TaskHandle task) {
  auto it = live_.find(LiveKey(id, pid));
  if (it == live_.end()) {  // unmatched: TraceEvent ignores it
    ++unmatchedStops_;
    return;
  }
  pending_ = it->second;
  Activity& a = activities_[pending_];
  if (!SameTask(a.type, model_.store().type(row).value)) ++otherTaskStops_;
  // TraceEvent's RememberStop: the first Stop with a non-zero duration is the one.
  if (a.stopRow == kNoRow || a.stopTicks == a.startTicks) {
    a.stopTicks = model_.store().timestamp(row), a.stopRow = static_cast<uint32_t>(row), a.stopTask = task;
  }
  pendingTask_ = a.stopTask;
}

bool StartStopActivities::SameTask(uint16_t startType, uint16_t stopType) const {
  const EventType& start = model_.types()[EventTypeIndex(startType)];
  const EventType& stop = model_.types()[EventTypeIndex(stopType)];
  if (start.metadata.providerName != stop.metadata.providerName) return false;
  if (anyId_[startType]) return anyId_[stopType];
  return TaskName(stop) == task_[startType];
}

void StartStopActivities::ApplyPendingStop(AsyncStitcher& tasks) {
  if (pending_ < 0) return;
  const int32_t index = std::exchange(pending_, -1);
  Activity& a = activities_[index];
  // TraceEvent marks a stop by a non-zero duration: a Stop at its Start's time leaves the
  // activity running, though it still leaves the task and the live table.
  if (a.stopTicks != a.startTicks) a.stopped = true;
  const int32_t creator = Live(a.creator);
  if (int32_t* slot = tasks.StartStopSlot(pendingTask_)) *slot = creator;
  auto it = live_.find(LiveKey(a.id, a.pid));
  if (it == live_.end()) return;
  if (creator >= 0 && activities_[creator].id == a.id && activities_[creator].pid == a.pid) it->second = creator;
  else live_.erase(it);
}

uint32_t StartStopActivities::GroupStack(int32_t a) {
  if (a < 0) return 0;
  // The chain of creators up to one already built (iteratively: nesting may be deep).
  std::vector<int32_t> chain;
  for (int32_t c = a; c >= 0 && activities_[c].group == 0; c = activities_[c].creator) chain.push_back(c);
  for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
    const int32_t creator = activities_[*c].creator;
    const uint32_t parent = creator >= 0 ? activities_[creator].group : resolver_->stacks().Push(0, activitiesFrame_);
    activities_[*c].group = resolver_->stacks().Push(parent, activities_[*c].frame);
  }
  return activities_[a].group;
}

}  // namespace nettrace
