// core/resolve — the one table of threads every event row points into, built by the
// resolver (resolve/type_resolver.h): v4/v5 threads are OS thread ids of the trace's one
// process as events name them; v6 threads are the thread blocks' definitions (an index may
// be redefined after a flush or a RemoveThread block: each definition is an entry).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/small_key_map.h"
#include "base/strong_index.h"
#include "format/records.h"

namespace nettrace {

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

}  // namespace nettrace
