// core/symbols — the names of managed methods as the runtime wrote them (UTF-16LE), decoded
// only when a frame is named. A rundown announces every method of every loaded module,
// tens of thousands of records, while a profile names a few hundred of them: converting
// every record's names at read time was most of the reading work.
//
// Two ways to keep them, chosen once per session before reading:
//   copied     the namespace and name are copied into the pool as they are read (a source
//              that cannot be read again: a live session, a stream);
//   in source  only where they are in the file is kept (its offset and the bytes to the
//              payload's end): nothing is scanned or copied while reading. Before frames
//              are named, the session asks for the byte ranges of the names that stacks can
//              reach (InSourceRanges), the caller reads them again from the file, as it
//              re-reads event blocks, and hands them back (Load). A summary names no frame,
//              and reads no name twice.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/byte_range.h"
#include "io/byte_cursor.h"

namespace nettrace {

// Where one method's namespace and name are (an empty ref: no names). Copied: in the pool,
// the namespace's code units then the name's. In source: the file offset of MethodNamespace
// and the bytes from there to its payload's end (MethodNamespace, MethodName,
// MethodSignature, then the template's last fields).
struct MethodNamesRef {
  uint64_t at = 0;              // copied: block << 32 | offset in the block; in source: file offset
  uint32_t nameSpaceBytes = 0;  // copied: UTF-16LE bytes, terminator excluded; in source: kInSource
  uint32_t nameBytes = 0;       // copied: as nameSpaceBytes; in source: the bytes to the payload's end
  static constexpr uint32_t kInSource = UINT32_MAX;
  bool inSource() const { return nameSpaceBytes == kInSource; }
};

class MethodNamePool {
 public:
  // Whether names are kept in source (see above); before the first Read.
  void KeepInSource(bool inSource) { inSource_ = inSource; }
  bool keepsInSource() const { return inSource_; }

  // Reads MethodNamespace, MethodName and MethodSignature (three null-terminated UTF-16
  // strings) at the cursor and keeps the first two as written (PerfView's frame names leave
  // the signature out). False, with nothing kept, when one of them is unterminated.
  // A caller that reads nothing after the signature (events before version 2, where only
  // ClrInstanceID follows it) passes readPastSignature = false: the signature, usually the
  // longest of the three, is then only checked to be terminated, from the payload's end,
  // and the cursor stays at its start. Kept in source, such a record is not read at all
  // (true, the cursor unmoved): whether its names are terminated is known when they are
  // loaded, and a ref whose names are not is then no names at all (Resolve).
  // Inline: the not-read case is a rundown's hundred thousand records, and the call cost a
  // third of it (HeartRateMonitor, callgrind).
  bool Read(ByteCursor* c, MethodNamesRef* out, bool readPastSignature = true) {
    if (!inSource_ || readPastSignature) return ReadNames(c, out, readPastSignature);
    *out = InSource(c->fileOffset(), c->remaining());
    return true;
  }

  // Kept in source: the byte ranges holding these refs' names (refs not in source are left
  // out), ascending, neighbours less than kGap apart read as one range of at most kMaxRange.
  static constexpr uint64_t kGap = 64 * 1024, kMaxRange = 4 * 1024 * 1024;
  static std::vector<ByteRange> InSourceRanges(std::vector<MethodNamesRef> refs);
  // The bytes of a range InSourceRanges gave (or any range of the file): the names of the
  // refs in it that are wanted are copied into the pool. `wanted`: the refs asked for.
  void Load(uint64_t offset, std::span<const uint8_t> bytes, const std::vector<MethodNamesRef>& wanted);
  // Whether a ref in source was in a range given to Load.
  bool IsLoaded(const MethodNamesRef& r) const { return r.inSource() && loaded_.count(r.at) != 0; }
  // A ref in source, once its names were loaded: their copy (an empty ref: they were not
  // terminated, or not loaded). Other refs as they are.
  MethodNamesRef Resolve(const MethodNamesRef& r) const;
  // Whether a loaded ref's names were not terminated (Resolve gives no names).
  bool Unterminated(const MethodNamesRef& r) const;

  // Copied names as UTF-8; "" for a ref in source (its names were never loaded: a read of
  // them back that was cancelled or failed), whose sizes are not those of bytes in the pool.
  std::string NameSpace(const MethodNamesRef& r) const { return r.inSource() ? std::string() : Utf8(Bytes(r).first(r.nameSpaceBytes)); }
  std::string Name(const MethodNamesRef& r) const { return r.inSource() ? std::string() : Utf8(Bytes(r).last(r.nameBytes)); }
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
    if (r.inSource() || r.nameSpaceBytes + r.nameBytes == 0) return {};
    return {blocks_[r.at >> 32].bytes.get() + (r.at & UINT32_MAX), size_t{r.nameSpaceBytes} + r.nameBytes};
  }
  struct Parts {
    size_t nameSpace = 0, name = 0;  // code units, terminators excluded
    size_t consumed = 0;             // code units read, terminators included
  };
  static bool Split(const uint8_t* p, size_t units, bool readPastSignature, Parts* out);
  bool ReadNames(ByteCursor* c, MethodNamesRef* out, bool readPastSignature);
  static MethodNamesRef InSource(uint64_t at, size_t bytes) {
    MethodNamesRef r;
    r.at = at;
    r.nameSpaceBytes = MethodNamesRef::kInSource;
    r.nameBytes = static_cast<uint32_t>(bytes < UINT32_MAX - 1 ? bytes : UINT32_MAX - 1);
    return r;
  }
  // Copies a namespace and a name (without the namespace's terminator) into the pool.
  MethodNamesRef Copy(const uint8_t* nameSpace, size_t nameSpaceBytes, const uint8_t* name, size_t nameBytes);
  static std::string Utf8(std::span<const uint8_t> units);
  std::vector<Block> blocks_;
  bool inSource_ = false;
  // Refs in source whose names were loaded, by file offset: their copy, or that they were
  // not terminated.
  struct Loaded {
    MethodNamesRef copy;
    bool terminated = false;
  };
  std::unordered_map<uint64_t, Loaded> loaded_;
};

}  // namespace nettrace
