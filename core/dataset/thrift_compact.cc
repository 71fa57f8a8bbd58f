// core/dataset — Thrift compact protocol writer (thrift-compact-protocol.md: struct, field
// header, list header, varint and zigzag encodings).
#include "dataset/thrift_compact.h"

#include "write/wire.h"

namespace nettrace::parquet {

void ThriftCompactWriter::ElementI32(int32_t v) { wire::PutVarInt(*out_, v); }
void ThriftCompactWriter::ElementI64(int64_t v) { wire::PutVarInt(*out_, v); }

void ThriftCompactWriter::EndStruct() {
  out_->push_back(0);  // stop field
  lastField_.pop_back();
}

// Short form (delta << 4 | type) when the id is 1..15 past the previous field of this
// struct; otherwise the type alone, then the id as a zigzag varint (an i16 widened to i32).
void ThriftCompactWriter::FieldHeader(int16_t id, ThriftType type) {
  int16_t& last = lastField_.back();
  const int delta = id - last;
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<uint8_t>(delta << 4 | static_cast<uint8_t>(type)));
  } else {
    out_->push_back(static_cast<uint8_t>(type));
    wire::PutVarInt(*out_, id);
  }
  last = id;
}

void ThriftCompactWriter::FieldI8(int16_t id, int8_t v) {
  FieldHeader(id, ThriftType::kI8);
  out_->push_back(static_cast<uint8_t>(v));
}

void ThriftCompactWriter::FieldI16(int16_t id, int16_t v) {
  FieldHeader(id, ThriftType::kI16);
  ElementI32(v);
}

void ThriftCompactWriter::FieldI32(int16_t id, int32_t v) {
  FieldHeader(id, ThriftType::kI32);
  ElementI32(v);
}

void ThriftCompactWriter::FieldI64(int16_t id, int64_t v) {
  FieldHeader(id, ThriftType::kI64);
  ElementI64(v);
}

void ThriftCompactWriter::FieldBinary(int16_t id, std::string_view bytes) {
  FieldHeader(id, ThriftType::kBinary);
  ElementBinary(bytes);
}

void ThriftCompactWriter::ElementBinary(std::string_view bytes) {
  wire::PutVarUInt(*out_, bytes.size());
  out_->insert(out_->end(), bytes.begin(), bytes.end());
}

void ThriftCompactWriter::FieldStruct(int16_t id) {
  FieldHeader(id, ThriftType::kStruct);
  BeginStruct();
}

// Size 0..14 in the header's high nibble; 15 and more as 0xF_ then a varint.
void ThriftCompactWriter::FieldList(int16_t id, ThriftType elementType, uint32_t size) {
  FieldHeader(id, ThriftType::kList);
  const uint8_t type = static_cast<uint8_t>(elementType);
  if (size < 15) {
    out_->push_back(static_cast<uint8_t>(size << 4 | type));
  } else {
    out_->push_back(static_cast<uint8_t>(0xF0 | type));
    wire::PutVarUInt(*out_, size);
  }
}

}  // namespace nettrace::parquet
