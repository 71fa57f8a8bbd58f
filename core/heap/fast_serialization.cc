#include "heap/fast_serialization.h"

#include <string>
#include <vector>

namespace nettrace::heap {

Status FsReader::Error(ErrorCode code, std::string message) const {
  return Status::Error(code, c_->fileOffset(), "gcdump: " + message);
}

Status FsReader::Truncated(const char* what) const {
  return Error(ErrorCode::kTruncated, std::string("the file ends inside ") + what);
}

Status FsReader::ReadI32(int32_t* v, const char* what) {
  return c_->ReadI32(v) ? Status::Ok() : Truncated(what);
}

Status FsReader::ReadI64(int64_t* v, const char* what) {
  return c_->ReadI64(v) ? Status::Ok() : Truncated(what);
}

Status FsReader::ReadU8(uint8_t* v, const char* what) {
  return c_->ReadU8(v) ? Status::Ok() : Truncated(what);
}

// FastSerialization's StreamReader.ReadString: a lead byte below 0x80 is the character,
// below 0xE0 it opens a two-byte character, else a three-byte one; each continuation
// byte gives its low six bits. Characters are UTF-16 code units (a surrogate pair is two
// characters), so the units are collected and then converted to UTF-8 once.
Status FsReader::ReadString(std::string* out, const char* what, int32_t maxChars) {
  const uint64_t start = c_->fileOffset();
  int32_t count = 0;
  NETTRACE_RETURN_IF_ERROR(ReadI32(&count, what));
  out->clear();
  if (count < 0) {
    if (count != -1) return Status::Error(ErrorCode::kCorrupt, start, std::string("gcdump: negative length in ") + what);
    return Status::Ok();
  }
  if (count > maxChars) {
    return Status::Error(ErrorCode::kLimitExceeded, start,
                         std::string("gcdump: ") + what + " of " + std::to_string(count) + " characters");
  }
  // Each character takes at least one byte: a count beyond the bytes left cannot be read.
  if (static_cast<size_t>(count) > c_->remaining()) return Truncated(what);
  std::vector<uint8_t> units;
  units.reserve(static_cast<size_t>(count) * 2);
  for (int32_t i = 0; i < count; ++i) {
    uint8_t b = 0, b1 = 0, b2 = 0;
    if (!c_->ReadU8(&b)) return Truncated(what);
    uint32_t unit = b;
    if (b >= 0x80 && b < 0xE0) {
      if (!c_->ReadU8(&b1)) return Truncated(what);
      unit = (b & 0x1Fu) << 6 | (b1 & 0x3Fu);
    } else if (b >= 0xE0) {
      if (!c_->ReadU8(&b1) || !c_->ReadU8(&b2)) return Truncated(what);
      unit = ((b & 0xFu) << 12 | (b1 & 0x3Fu) << 6 | (b2 & 0x3Fu)) & 0xFFFFu;
    }
    units.push_back(static_cast<uint8_t>(unit & 0xFF));
    units.push_back(static_cast<uint8_t>(unit >> 8));
  }
  AppendUtf16AsUtf8(units.data(), units.size() / 2, out);
  return Status::Ok();
}

// A type is written like any object (BeginObject, its own type — a null reference —,
// version, minimum reader version, full name, EndObject) the first time, and as an
// ObjectReference to that definition's offset after that.
Status FsReader::ReadType(FsType* type) {
  const uint64_t at = c_->fileOffset();
  uint8_t tag = 0;
  NETTRACE_RETURN_IF_ERROR(ReadU8(&tag, "an object's type"));
  if (tag == static_cast<uint8_t>(FsTag::kObjectReference)) {
    uint32_t label = 0;
    if (!c_->ReadU32(&label)) return Truncated("a type reference");
    auto it = types_.find(label);
    if (it == types_.end()) {
      return Status::Error(ErrorCode::kBadReference, at, "gcdump: type reference to offset " + std::to_string(label) +
                                                             ", where no type was defined");
    }
    *type = it->second;
    return Status::Ok();
  }
  if (tag != static_cast<uint8_t>(FsTag::kBeginObject)) {
    return Status::Error(ErrorCode::kCorrupt, at, "gcdump: expected a type, found tag " + std::to_string(tag));
  }
  uint8_t typeOfType = 0;
  NETTRACE_RETURN_IF_ERROR(ReadU8(&typeOfType, "a type"));
  if (typeOfType != static_cast<uint8_t>(FsTag::kNullReference)) {
    return Status::Error(ErrorCode::kCorrupt, at + 1, "gcdump: a type's own type must be a null reference");
  }
  NETTRACE_RETURN_IF_ERROR(ReadI32(&type->version, "a type"));
  NETTRACE_RETURN_IF_ERROR(ReadI32(&type->minimumReaderVersion, "a type"));
  NETTRACE_RETURN_IF_ERROR(ReadString(&type->name, "a type name", 4096));
  uint8_t end = 0;
  NETTRACE_RETURN_IF_ERROR(ReadU8(&end, "a type"));
  if (end != static_cast<uint8_t>(FsTag::kEndObject)) {
    return Status::Error(ErrorCode::kCorrupt, c_->fileOffset() - 1, "gcdump: a type does not end with EndObject");
  }
  types_[at] = *type;
  return Status::Ok();
}

Status FsReader::BeginObject(const char* expected, FsType* type, bool* isNull) {
  const uint64_t at = c_->fileOffset();
  uint8_t tag = 0;
  NETTRACE_RETURN_IF_ERROR(ReadU8(&tag, expected));
  if (tag == static_cast<uint8_t>(FsTag::kForwardDefinition)) {  // an object others referred to ahead
    int32_t index = 0;
    NETTRACE_RETURN_IF_ERROR(ReadI32(&index, expected));
    NETTRACE_RETURN_IF_ERROR(ReadU8(&tag, expected));
  }
  *isNull = tag == static_cast<uint8_t>(FsTag::kNullReference);
  if (*isNull) return Status::Ok();
  if (tag != static_cast<uint8_t>(FsTag::kBeginObject) && tag != static_cast<uint8_t>(FsTag::kBeginPrivateObject)) {
    return Status::Error(ErrorCode::kCorrupt, at,
                         std::string("gcdump: expected the object ") + expected + ", found tag " + std::to_string(tag));
  }
  NETTRACE_RETURN_IF_ERROR(ReadType(type));
  if (type->name != expected) {
    return Status::Error(ErrorCode::kCorrupt, at,
                         std::string("gcdump: expected the object ") + expected + ", found " + type->name);
  }
  return Status::Ok();
}

// FastSerialization's rule for fields added after a type's first version: they are
// tagged, and a reader that does not know them reads on to the object's EndObject.
Status FsReader::EndObject(const char* what) {
  for (;;) {
    const uint64_t at = c_->fileOffset();
    uint8_t tag = 0;
    NETTRACE_RETURN_IF_ERROR(ReadU8(&tag, what));
    size_t skip = 0;
    switch (static_cast<FsTag>(tag)) {
      case FsTag::kEndObject: return Status::Ok();
      case FsTag::kByte: skip = 1; break;
      case FsTag::kInt16: skip = 2; break;
      case FsTag::kInt32: skip = 4; break;
      case FsTag::kInt64: skip = 8; break;
      case FsTag::kString: {
        std::string ignored;
        NETTRACE_RETURN_IF_ERROR(ReadString(&ignored, what));
        continue;
      }
      case FsTag::kBlob: {
        int32_t size = 0;
        NETTRACE_RETURN_IF_ERROR(ReadI32(&size, what));
        if (size < 0) return Status::Error(ErrorCode::kCorrupt, at, std::string("gcdump: negative blob in ") + what);
        skip = static_cast<size_t>(size);
        break;
      }
      default:
        return Status::Error(ErrorCode::kCorrupt, at,
                             std::string("gcdump: unexpected tag ") + std::to_string(tag) + " at the end of " + what);
    }
    if (!c_->Skip(skip)) return Truncated(what);
  }
}

}  // namespace nettrace::heap
