// core/heap — the FastSerialization constructs a .gcdump is made of (docs/format/gcdump.md
// §FastSerialization): tags, strings of UTF-16 characters each written as 1–3 bytes, and
// objects that open with their type (written once, then referred to by its stream offset)
// and close with an EndObject tag after any tagged fields a newer writer appended.
// Reads go through a ByteCursor whose offsets are file offsets, so every error names
// where the file went wrong. Running out of bytes is ErrorCode::kTruncated, which the
// push reader (gcdump_reader.h) takes as "wait for more" until the file has ended.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "base/status.h"
#include "io/byte_cursor.h"

namespace nettrace::heap {

// FastSerialization's Tags enum, in its order (docs/format/gcdump.md §Tags).
enum class FsTag : uint8_t {
  kError = 0,
  kNullReference = 1,
  kObjectReference = 2,
  kForwardReference = 3,
  kBeginObject = 4,
  kBeginPrivateObject = 5,
  kEndObject = 6,
  kForwardDefinition = 7,
  kByte = 8,
  kInt16 = 9,
  kInt32 = 10,
  kInt64 = 11,
  kSkipRegion = 12,
  kString = 13,
  kBlob = 14,
};

// A serialized type: its full name and the versions its writer declared.
struct FsType {
  std::string name;
  int32_t version = 0;
  int32_t minimumReaderVersion = 0;
};

class FsReader {
 public:
  explicit FsReader(ByteCursor* cursor) : c_(cursor) {}

  ByteCursor& cursor() { return *c_; }
  // An error at the cursor's offset.
  Status Error(ErrorCode code, std::string message) const;
  Status Truncated(const char* what) const;

  Status ReadI32(int32_t* v, const char* what);
  Status ReadI64(int64_t* v, const char* what);
  Status ReadU8(uint8_t* v, const char* what);
  // A string: int32 character count (-1: null, read as ""), then each UTF-16 character in
  // one to three bytes; converted to UTF-8. maxChars bounds what a corrupt count can ask.
  Status ReadString(std::string* out, const char* what, int32_t maxChars = 1 << 24);
  // The start of an object of type `expected`: *isNull when the file has a null reference.
  Status BeginObject(const char* expected, FsType* type, bool* isNull);
  // Skips the tagged fields a newer writer may have added, through the EndObject tag.
  Status EndObject(const char* what);

  // Types read so far by the offset of their definition, for ObjectReference tags. The
  // push reader re-parses a region when more bytes arrive, so it can start over.
  void ForgetTypes() { types_.clear(); }

 private:
  Status ReadType(FsType* type);

  ByteCursor* c_;
  std::unordered_map<uint64_t, FsType> types_;
};

}  // namespace nettrace::heap
