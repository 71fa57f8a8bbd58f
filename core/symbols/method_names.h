// core/symbols — the names of managed methods as the runtime wrote them (UTF-16LE), decoded
// only when a frame is named. A rundown announces every method of every loaded module,
// tens of thousands of records, while a profile names a few hundred of them: converting
// every record's names at read time was most of the reading work (issue 18, item 3).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "io/byte_cursor.h"

namespace nettrace {

// Where one method's namespace and name are in the pool (an empty ref: no names): the
// namespace's code units, then the name's.
struct MethodNamesRef {
  uint32_t block = 0;
  uint32_t offset = 0;
  uint32_t nameSpaceBytes = 0;  // UTF-16LE bytes, terminator excluded
  uint32_t nameBytes = 0;
};

class MethodNamePool {
 public:
  // Reads MethodNamespace, MethodName and MethodSignature (three null-terminated UTF-16
  // strings) at the cursor and keeps the first two as written (PerfView's frame names leave
  // the signature out). False, with nothing kept, when one of them is unterminated.
  // A caller that reads nothing after the signature (events before version 2, where only
  // ClrInstanceID follows it) passes readPastSignature = false: the signature, usually the
  // longest of the three, is then only checked to be terminated, from the payload's end,
  // and the cursor stays at its start.
  bool Read(ByteCursor* c, MethodNamesRef* out, bool readPastSignature = true);

  std::string NameSpace(const MethodNamesRef& r) const { return Utf8(Bytes(r).first(r.nameSpaceBytes)); }
  std::string Name(const MethodNamesRef& r) const { return Utf8(Bytes(r).last(r.nameBytes)); }
  // Whether both refs hold the same namespace and name, compared as written.
  bool Same(const MethodNamesRef& a, const MethodNamesRef& b) const;
  size_t residentBytes() const;

 private:
  // Blocks are filled up to their capacity and never reallocated, so a ref stays valid,
  // and no allocation grows with the trace beyond one block (wasm: < 2 GB each). Raw
  // arrays, not vectors: the copy is most of what keeping a rundown record costs.
  static constexpr size_t kBlockBytes = size_t{1} << 20;
  struct Block {
    std::unique_ptr<uint8_t[]> bytes;
    size_t size = 0;
    size_t capacity = 0;
  };
  std::span<const uint8_t> Bytes(const MethodNamesRef& r) const {
    if (r.nameSpaceBytes + r.nameBytes == 0) return {};
    return {blocks_[r.block].bytes.get() + r.offset, size_t{r.nameSpaceBytes} + r.nameBytes};
  }
  static std::string Utf8(std::span<const uint8_t> units);
  std::vector<Block> blocks_;
};

}  // namespace nettrace
