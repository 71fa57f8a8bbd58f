// core/analysis — method names kept in source (symbols/method_names.h), loaded for the
// frames stacks can name: the names of every method range holding an address of some stack.
// A rundown announces tens of thousands of methods; a profile's stacks reach a few hundred,
// so only their names are read back, after reading, in a few coalesced ranges.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/byte_range.h"
#include "model/trace_model.h"
#include "symbols/method_map.h"

namespace nettrace {

class NamesFromSource {
 public:
  // After reading: the byte ranges still to read (empty: every name a frame can need is
  // loaded). A round's names are taken into the map at the next call; a name that turns out
  // not terminated can make a range borrow another's, which the next round loads.
  std::vector<ByteRange> Needed(const TraceModel& model, MethodMap* methods);
  // The bytes of a range Needed gave.
  void Provide(uint64_t offset, std::span<const uint8_t> bytes, MethodMap* methods);
  // Takes what the last round loaded into the map (before frames are named).
  void Take(MethodMap* methods);

 private:
  std::vector<uint64_t> addresses_;  // every stack's addresses, ascending, distinct
  bool haveAddresses_ = false;
  std::vector<MethodNamesRef> wanted_;  // this round's refs
  bool loaded_ = false;                 // Provide was called since the last Take
};

}  // namespace nettrace
