#include "model/trace_tables.h"

#include <cstring>

namespace nettrace {

namespace {

void AppendString(std::string* out, const std::string& s) {
  out->append(std::to_string(s.size())).push_back(':');
  out->append(s);
}

}  // namespace

std::optional<EventTypeIndex> EventTypeTable::Intern(const EventMetadata& m, const LabelOverrides& overrides) {
  return Intern(m, overrides, EventDisplayName(m, overrides));
}

std::optional<EventTypeIndex> EventTypeTable::InternRenamed(const EventMetadata& m, const std::string& name) {
  return Intern(m, {}, name);
}

std::optional<EventTypeIndex> EventTypeTable::Intern(const EventMetadata& m, const LabelOverrides& overrides,
                                                     std::string name) {
  EventMetadata copy = ApplyOverrides(m, overrides);
  copy.id = 0;
  std::string key;
  AppendString(&key, m.providerName);
  AppendString(&key, m.eventName);
  key += std::to_string(m.eventId) + "/" + std::to_string(m.version);
  auto [lo, hi] = byKey_.equal_range(key);
  for (auto it = lo; it != hi; ++it)
    if (types_[it->second].metadata == copy && types_[it->second].name == name) return EventTypeIndex(it->second);
  if (types_.size() >= 0xFFFF) return std::nullopt;
  uint16_t index = static_cast<uint16_t>(types_.size());
  EventType& t = types_.emplace_back();
  t.name = std::move(name);
  t.knownProvider = ClassifyProvider(copy.providerName);
  t.kind = EventKindOf(copy);
  t.metadata = std::move(copy);
  byKey_.emplace(std::move(key), index);
  return EventTypeIndex(index);
}

std::optional<uint16_t> ThreadTable::Add(ThreadEntry e) {
  if (threads_.size() >= 0xFFFF) return std::nullopt;
  uint16_t index = static_cast<uint16_t>(threads_.size());
  threads_.push_back(std::move(e));
  return index;
}

std::optional<ThreadIndex> ThreadTable::NewOsThread(uint64_t osThreadId, uint32_t processId) {
  ThreadEntry e;
  e.key = osThreadId;
  e.osThreadId = osThreadId;
  e.processId = processId;
  std::optional<uint16_t> index = Add(std::move(e));
  if (!index) return std::nullopt;
  byOsThread_[osThreadId] = *index;
  return ThreadIndex(*index);
}

std::optional<ThreadIndex> ThreadTable::Define(const ThreadInfo& info) {
  ThreadEntry e;
  e.key = info.index;
  e.osThreadId = info.osThreadId;
  e.processId = info.osProcessId;
  e.name = info.name;
  e.attributes = info.attributes;
  std::optional<uint16_t> index = Add(std::move(e));
  if (!index) return std::nullopt;
  bool added = false;
  byIndex_.At(info.index, &added) = *index;
  return ThreadIndex(*index);
}

namespace {
// A canonical byte form of a label list, to intern equal lists once.
// One label's bytes of the interning key, appended.
void AppendKey(const Label& l, std::vector<uint8_t>* out) {
  auto put = [&](const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    out->insert(out->end(), b, b + n);
  };
  out->push_back(static_cast<uint8_t>(l.kind));
  put(l.guid.bytes.data(), 16);
  put(&l.number, 8);
  put(&l.intValue, 8);
  uint32_t n = static_cast<uint32_t>(l.key.size());
  put(&n, 4);
  put(l.key.data(), n);
  n = static_cast<uint32_t>(l.value.size());
  put(&n, 4);
  put(l.value.data(), n);
}
}  // namespace

// The key is built in one reused buffer and the list copied only when it is new: interning
// a known list (most events of a v4/v5 trace whose events carry activity ids) allocates nothing.
LabelListIndex LabelTable::Intern(const LabelList& list) {
  if (list.labels.empty()) return LabelListIndex(0);
  key_.clear();
  for (const Label& l : list.labels) AppendKey(l, &key_);
  const uint32_t k = keys_.Intern(key_);
  auto [it, inserted] = byKey_.try_emplace(k, static_cast<uint32_t>(lists_.size() + 1));
  if (inserted) lists_.push_back(list);
  return LabelListIndex(it->second);
}

LabelListIndex LabelTable::InternActivityIds(const Guid& activity, const Guid& related) {
  // Consecutive events mostly share their ids (one request's work): the last answer first.
  if (lastActivityList_ != 0 && activity.bytes == lastActivity_.bytes && related.bytes == lastRelated_.bytes)
    return LabelListIndex(lastActivityList_);
  const Label a{LabelKind::kActivityId, activity, 0, 0, {}, {}};
  const Label r{LabelKind::kRelatedActivityId, related, 0, 0, {}, {}};
  key_.clear();
  if (!activity.IsZero()) AppendKey(a, &key_);
  if (!related.IsZero()) AppendKey(r, &key_);
  const uint32_t k = keys_.Intern(key_);
  auto [it, inserted] = byKey_.try_emplace(k, static_cast<uint32_t>(lists_.size() + 1));
  if (inserted) {
    LabelList list;
    if (!activity.IsZero()) list.labels.push_back(a);
    if (!related.IsZero()) list.labels.push_back(r);
    lists_.push_back(std::move(list));
  }
  lastActivity_ = activity, lastRelated_ = related, lastActivityList_ = it->second;
  return LabelListIndex(it->second);
}

LabelList LabelTable::Get(LabelListIndex i) const { return i.value == 0 ? LabelList{} : lists_[i.value - 1]; }

}  // namespace nettrace
