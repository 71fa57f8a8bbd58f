// core/dataset — the Thrift compact protocol, write side only: what a Parquet footer and
// page header are made of (docs/parquet-writer.md "Thrift compact protocol"). Fields are
// written in increasing id order inside each struct; the writer keeps the last field id of
// every open struct, so a field header is one byte when the id delta is 1..15.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace nettrace::parquet {

// The compact protocol's field types (field headers) and element types (list headers).
enum class ThriftType : uint8_t {
  kBoolTrue = 1,  // a bool field carries its value in the type nibble
  kBoolFalse = 2,
  kI8 = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kStruct = 12,
};

class ThriftCompactWriter {
 public:
  explicit ThriftCompactWriter(std::vector<uint8_t>* out) : out_(out) {}

  // Struct nesting: BeginStruct for the outermost struct (a footer or page header) and for
  // each list element that is a struct; FieldStruct opens a struct-valued field.
  void BeginStruct() { lastField_.push_back(0); }
  void EndStruct();  // the stop field; closes the innermost struct

  void FieldBool(int16_t id, bool v) { FieldHeader(id, v ? ThriftType::kBoolTrue : ThriftType::kBoolFalse); }
  void FieldI8(int16_t id, int8_t v);
  void FieldI16(int16_t id, int16_t v);
  void FieldI32(int16_t id, int32_t v);
  void FieldI64(int16_t id, int64_t v);
  void FieldBinary(int16_t id, std::string_view bytes);
  void FieldStruct(int16_t id);  // then the struct's fields, then EndStruct
  // A list field: the header; the caller then writes `size` elements with the Element*
  // calls (or BeginStruct/EndStruct per struct element).
  void FieldList(int16_t id, ThriftType elementType, uint32_t size);

  // Integers are zigzag varints (ULEB128 of (n << 1) ^ (n >> 63)): core/write/wire.h's
  // PutVarInt, the same encoding NetTrace uses.
  void ElementI32(int32_t v);
  void ElementI64(int64_t v);
  void ElementBinary(std::string_view bytes);

 private:
  void FieldHeader(int16_t id, ThriftType type);

  std::vector<uint8_t>* out_;
  std::vector<int16_t> lastField_;  // per open struct: the id of its last field written
};

}  // namespace nettrace::parquet
