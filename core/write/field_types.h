// core/write — short constructors for metadata type trees (format/records.h FieldType),
// so code that builds metadata for the writer reads like the schema it describes:
//   ObjectOf({{"x", Scalar(TypeCode::kInt32)}, {"name", ArrayOf(Scalar(TypeCode::kUTF8CodeUnit))}})
// Type codes and their operands: NetTraceFormat.md §MetadataBlock "Type format".
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "format/records.h"

namespace nettrace {

inline FieldType Scalar(TypeCode code) {
  FieldType t;
  t.code = code;
  return t;
}

inline FieldType WithElement(TypeCode code, FieldType element) {
  FieldType t = Scalar(code);
  t.element.push_back(std::move(element));
  return t;
}

// Array: a uint16 count, then the elements.
inline FieldType ArrayOf(FieldType element) { return WithElement(TypeCode::kArray, std::move(element)); }
// FixedLengthArray: `count` elements, no prefix.
inline FieldType FixedArrayOf(FieldType element, uint16_t count) {
  FieldType t = WithElement(TypeCode::kFixedLengthArray, std::move(element));
  t.fixedLength = count;
  return t;
}
// RelLoc / DataLoc: a 4-byte (size, offset) reference to elements of fixed size.
inline FieldType RelLocOf(FieldType element) { return WithElement(TypeCode::kRelLoc, std::move(element)); }
inline FieldType DataLocOf(FieldType element) { return WithElement(TypeCode::kDataLoc, std::move(element)); }

inline FieldType ObjectOf(std::vector<FieldDescription> fields) {
  FieldType t = Scalar(TypeCode::kObject);
  t.fields = std::move(fields);
  return t;
}

inline FieldDescription Field(std::string name, FieldType type) {
  FieldDescription f;
  f.name = std::move(name);
  f.type = std::move(type);
  return f;
}

}  // namespace nettrace
