// core/model — the interned tables every event row points into: event types, threads,
// stacks and label lists. Each is built while the file streams (model/store_builder)
// and stays small: proportional to distinct types/threads/stacks/label lists, not to
// events. Stacks and label lists are interned across the whole trace: their ids in the
// file restart after every sequence point, ours do not.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/blob_interner.h"
#include "base/small_key_map.h"
#include "format/records.h"
#include "model/event_naming.h"
#include "model/ids.h"
#include "resolve/event_kind.h"

namespace nettrace {

struct EventType {
  EventMetadata metadata;  // id zeroed: several metadata ids may share one type
  std::string name;        // PerfView-style display name
  KnownProvider knownProvider = KnownProvider::kOther;
  EventKind kind = EventKind::kNone;  // the resolver's kind (resolve/event_kind.h)
};

class EventTypeTable {
 public:
  // Returns the type for this metadata, adding it when no identical one exists.
  // Fails (nullopt) beyond 65,535 distinct types.
  std::optional<EventTypeIndex> Intern(const EventMetadata& m, const LabelOverrides& overrides = {});
  // The same, named `name` rather than after its metadata (GcDynamicEventName): a type of its
  // own per name.
  std::optional<EventTypeIndex> InternRenamed(const EventMetadata& m, const std::string& name);
  const EventType& operator[](EventTypeIndex i) const { return types_[i.value]; }
  size_t size() const { return types_.size(); }

 private:
  std::optional<EventTypeIndex> Intern(const EventMetadata& m, const LabelOverrides& overrides, std::string name);

  std::vector<EventType> types_;
  std::unordered_multimap<std::string, uint16_t> byKey_;
};

struct ThreadEntry {
  uint64_t key = 0;  // v4/v5 OS thread id; v6 thread index as written
  std::optional<uint64_t> osThreadId;
  std::optional<uint64_t> processId;
  std::optional<std::string> name;
  std::vector<KeyValue> attributes;
};

class ThreadTable {
 public:
  // v4/v5: threads are OS thread ids seen in events.
  std::optional<ThreadIndex> ForThreadId(uint64_t osThreadId, uint32_t processId) {
    if (auto it = byOsThread_.find(osThreadId); it != byOsThread_.end()) return ThreadIndex(it->second);
    return NewOsThread(osThreadId, processId);
  }
  // v6: a Thread block row defines (or, after a flush/remove, redefines) an index.
  std::optional<ThreadIndex> Define(const ThreadInfo& info);
  // v6: the entry an index currently means.
  // Inline: asked for most events of a v6 trace whose blocks interleave threads.
  std::optional<ThreadIndex> ForIndex(uint64_t v6Index) const {
    if (const uint16_t* index = byIndex_.Find(v6Index)) return ThreadIndex(*index);
    return std::nullopt;
  }
  void Forget(uint64_t v6Index) { byIndex_.Erase(v6Index); }
  void ForgetAll() { byIndex_.Clear(); }
  const ThreadEntry& operator[](ThreadIndex i) const { return threads_[i.value]; }
  size_t size() const { return threads_.size(); }

 private:
  std::optional<ThreadIndex> NewOsThread(uint64_t osThreadId, uint32_t processId);
  std::optional<uint16_t> Add(ThreadEntry e);
  std::vector<ThreadEntry> threads_;
  // Key → entry, asked per event when threads interleave beyond the resolver's two-entry
  // memo. v4/v5 OS thread ids are hashed. v6 indexes are small: they index a vector, where
  // a 64-bit key is a murmur hash in wasm (libc++ on 32 bits).
  std::unordered_map<uint64_t, uint16_t> byOsThread_;
  SmallKeyMap<uint16_t> byIndex_;
};

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
