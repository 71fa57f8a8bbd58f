#include "analysis/exception_view.h"

#include <algorithm>
#include <map>

#include "analysis/stack_frames.h"
#include "base/json_writer.h"
#include "model/trace_model.h"

namespace nettrace {

namespace {
// The managed exception dispatcher (.NET 9+) is the leaf of every throw's stack; the
// method that threw is the first frame below it.
constexpr std::string_view kDispatchPrefix = "System.Private.CoreLib!System.Runtime.EH.";
constexpr const char* kNoStack = "(no stack)";

bool IsThrowEvent(const EventType& t) { return t.kind == EventKind::kExceptionThrown; }

// Sorted (name, count) pairs, heaviest first, ties by name.
template <typename Map>
std::vector<std::pair<std::string, uint64_t>> ByCount(const Map& map) {
  std::vector<std::pair<std::string, uint64_t>> v(map.begin(), map.end());
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  return v;
}
}  // namespace

void ExceptionView::OnThrow(uint32_t ordinal, uint64_t thread, const std::string& type, const std::string& message) {
  ++count_;
  auto it = typeIndex_.find(type);
  if (it == typeIndex_.end()) {
    if (types_.size() >= kMaxTypes) {
      ++otherCount_;
      pending_.erase(thread);
      return;
    }
    it = typeIndex_.emplace(type, static_cast<uint32_t>(types_.size())).first;
    types_.emplace_back();
    types_.back().name = type;
  }
  Type& t = types_[it->second];
  ++t.count;
  if (t.messages.size() < kMaxMessages) {
    std::string m = Clip(message, kMaxMessageBytes);
    if (std::find(t.messages.begin(), t.messages.end(), m) == t.messages.end()) t.messages.push_back(std::move(m));
  }
  if (throws_.size() < kMaxThrows) {
    if (!throws_.empty() && ordinal < throws_.back().first) sorted_ = false;
    throws_.emplace_back(ordinal, it->second);
  } else {
    ++notAttributed_;
  }
  pending_[thread] = it->second;
}

void ExceptionView::OnCatch(uint64_t thread, const std::string& method) {
  auto it = pending_.find(thread);
  if (it == pending_.end()) return;  // a catch of a throw not seen (before the session)
  Type& t = types_[it->second];
  ++t.caught;
  auto m = t.catchingMethods.find(method);
  if (m != t.catchingMethods.end()) ++m->second;
  else if (catchPairs_ < kMaxCatchPairs) t.catchingMethods.emplace(method, 1), ++catchPairs_;
  pending_.erase(it);
}

std::optional<uint32_t> ExceptionView::TypeIndex(const std::string& type) const {
  auto it = typeIndex_.find(type);
  if (it == typeIndex_.end()) return std::nullopt;
  return it->second;
}

std::optional<uint32_t> ExceptionView::TypeOfThrow(uint32_t ordinal) const {
  if (!sorted_) std::sort(throws_.begin(), throws_.end()), sorted_ = true;
  auto it = std::lower_bound(throws_.begin(), throws_.end(), std::make_pair(ordinal, uint32_t{0}));
  if (it == throws_.end() || it->first != ordinal) return std::nullopt;
  return it->second;
}

std::string ExceptionView::Write(const TraceModel& model, const SymbolCollector& symbols, ViewFormat format) const {
  // Throwing methods: each throw's stack, from the store row that has its ordinal.
  std::vector<std::map<std::string, uint64_t>> methods(types_.size());
  std::vector<bool> throwType(model.types().size());
  for (size_t t = 0; t < throwType.size(); ++t) throwType[t] = IsThrowEvent(model.types()[EventTypeIndex(static_cast<uint16_t>(t))]);
  StackResolver resolver(model, symbols);
  const EventStore& store = model.store();
  for (size_t row = 0; row < store.size(); ++row) {
    if (!throwType[store.type(row).value]) continue;
    const std::optional<uint32_t> type = TypeOfThrow(store.ordinal(row));
    if (!type) continue;
    const uint32_t cs = resolver.Resolve(store.stack(row), store.timestamp(row), model.threads()[store.thread(row)].processId);
    std::string method = kNoStack;
    for (uint32_t s = cs; s != 0; s = resolver.stacks().parent(s)) {  // leaf first
      const std::string& name = resolver.frames().name(resolver.stacks().frame(s));
      if (name.compare(0, kDispatchPrefix.size(), kDispatchPrefix) == 0) continue;
      method = name;
      break;
    }
    ++methods[*type][method];
  }
  std::vector<uint32_t> order(types_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return types_[a].count != types_[b].count ? types_[a].count > types_[b].count : types_[a].name < types_[b].name;
  });

  if (format == ViewFormat::kCsv) {
    std::string out = "type,throwingMethod,count\n";
    for (uint32_t i : order)
      for (const auto& [method, n] : ByCount(methods[i])) {
        AppendCsvField(types_[i].name, &out), out += ',';
        AppendCsvField(method, &out), out += ',' + std::to_string(n) + '\n';
      }
    return out;
  }
  JsonWriter w;
  w.BeginObject().Key("count").UInt(count_);
  // Without ExceptionCatch events (the keyword was off or an old runtime) nothing is known
  // about catching: "caught" is then null rather than 0.
  uint64_t caught = 0;
  for (const Type& t : types_) caught += t.caught;
  w.Key("caught");
  catchEvents_ ? w.UInt(caught) : w.Null();
  w.Key("otherTypesCount").UInt(otherCount_);
  w.Key("notAttributed").UInt(notAttributed_);
  w.Key("types").BeginArray();
  for (uint32_t i : order) {
    const Type& t = types_[i];
    w.BeginObject().Key("type").String(t.name).Key("count").UInt(t.count).Key("caught");
    catchEvents_ ? w.UInt(t.caught) : w.Null();
    w.Key("messages").BeginArray();
    for (const std::string& m : t.messages) w.String(m);
    w.EndArray().Key("throwingMethods").BeginArray();
    for (const auto& [method, n] : ByCount(methods[i])) w.BeginObject().Key("method").String(method).Key("count").UInt(n).EndObject();
    w.EndArray().Key("catchingMethods").BeginArray();
    for (const auto& [method, n] : ByCount(t.catchingMethods)) w.BeginObject().Key("method").String(method).Key("count").UInt(n).EndObject();
    w.EndArray().EndObject();
  }
  w.EndArray().EndObject();
  return w.Take();
}

}  // namespace nettrace
