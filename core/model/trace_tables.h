// core/model — the interned tables every event row points into: stacks and label lists,
// built while the file streams (model/store_builder), beside the resolver's event types and
// threads (resolve/event_type_table.h, resolve/thread_table.h). Each stays small:
// proportional to distinct stacks/label lists, not to events. Stacks and label lists are
// interned across the whole trace: their ids in the file restart after every sequence
// point, ours do not.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/blob_interner.h"
#include "base/strong_index.h"
#include "format/records.h"
#include "resolve/event_type_table.h"
#include "resolve/thread_table.h"

namespace nettrace {

class StackTable {
 public:
  StackIndex Intern(std::span<const uint8_t> ipBytes) { return StackIndex(blobs_.Intern(ipBytes)); }
  std::span<const uint8_t> Bytes(StackIndex i) const { return blobs_.Get(i.value); }
  size_t size() const { return blobs_.size(); }
  size_t residentBytes() const { return blobs_.residentBytes(); }

 private:
  BlobInterner blobs_;
};

class LabelTable {
 public:
  LabelListIndex Intern(const LabelList& list);
  // v4/v5 events carry activity ids in their headers; they become a label list too.
  // Inline: asked for every v4/v5 event, and most carry no activity id.
  LabelListIndex InternActivity(const Guid& activity, const Guid& related) {
    if (activity.IsZero() && related.IsZero()) return LabelListIndex(0);
    return InternActivityIds(activity, related);
  }
  LabelList Get(LabelListIndex i) const;
  size_t size() const { return lists_.size() + 1; }

 private:
  std::vector<LabelList> lists_;  // index i+1
  BlobInterner keys_;
  std::unordered_map<uint32_t, uint32_t> byKey_;
  std::vector<uint8_t> key_;  // the key being interned (reused)
  LabelListIndex InternActivityIds(const Guid& activity, const Guid& related);
  Guid lastActivity_, lastRelated_;  // InternActivity's last ids and their list (0: none yet)
  uint32_t lastActivityList_ = 0;
};

}  // namespace nettrace
