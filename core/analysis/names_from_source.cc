#include "analysis/names_from_source.h"

#include <algorithm>

#include "analysis/stack_frames.h"

namespace nettrace {

std::vector<ByteRange> NamesFromSource::Needed(const TraceModel& model, MethodMap* methods) {
  Take(methods);
  if (!methods->names().keepsInSource()) return {};
  if (!haveAddresses_) {
    // The stack table's addresses (each distinct stack once), as StackResolver reads them.
    for (size_t i = 1; i < model.stacks().size(); ++i)
      AppendStackAddresses(model, StackIndex(static_cast<uint32_t>(i)), &addresses_);
    std::sort(addresses_.begin(), addresses_.end());
    addresses_.erase(std::unique(addresses_.begin(), addresses_.end()), addresses_.end());
    haveAddresses_ = true;
  }
  wanted_ = methods->InSourceNamesAt(addresses_);
  return MethodNamePool::InSourceRanges(wanted_);
}

void NamesFromSource::Provide(uint64_t offset, std::span<const uint8_t> bytes, MethodMap* methods) {
  methods->names().Load(offset, bytes, wanted_);
  loaded_ = true;
}

void NamesFromSource::Take(MethodMap* methods) {
  if (!loaded_) return;
  methods->TakeLoadedNames();
  loaded_ = false;
}

}  // namespace nettrace
