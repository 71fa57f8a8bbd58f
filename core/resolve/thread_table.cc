#include "resolve/thread_table.h"

namespace nettrace {

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

}  // namespace nettrace
