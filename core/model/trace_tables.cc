#include "model/trace_tables.h"

#include <cstring>

namespace nettrace {

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
