#include "format/fast_serialization/metadata_payload.h"

#include "format/decode_util.h"
#include "io/byte_cursor.h"

namespace nettrace {

namespace {

// Nesting depth limit for Object fields: real metadata nests a few levels; a hostile
// file must not recurse the stack away.
constexpr int kMaxDepth = 32;
constexpr uint32_t kMaxFields = 4096;

constexpr uint8_t kTagOpCode = 1;
constexpr uint8_t kTagV2Params = 2;

Status ReadTypeCode(ByteCursor& c, TypeCode* out) {
  int32_t code;
  if (!c.ReadI32(&code)) return Overrun(c, "a metadata field type");
  if (code < 0 || code > 255) return CorruptAt(c.fileOffset() - 4, "metadata field type code " + std::to_string(code) + " is out of range");
  *out = static_cast<TypeCode>(code);
  return Status::Ok();
}

Status ReadV1Fields(ByteCursor& c, int depth, std::vector<FieldDescription>* fields);

// V1: int TypeCode; [Object: nested field list]; UTF-16 name.
Status ReadV1Field(ByteCursor& c, int depth, FieldDescription* f) {
  NETTRACE_RETURN_IF_ERROR(ReadTypeCode(c, &f->type.code));
  if (f->type.code == TypeCode::kObject) NETTRACE_RETURN_IF_ERROR(ReadV1Fields(c, depth + 1, &f->type.fields));
  if (!c.ReadNullTerminatedUtf16(&f->name)) return Overrun(c, "a metadata field name");
  return Status::Ok();
}

Status ReadV1Fields(ByteCursor& c, int depth, std::vector<FieldDescription>* fields) {
  if (depth > kMaxDepth) return CorruptAt(c.fileOffset(), "metadata fields nest deeper than 32 levels");
  int32_t count;
  if (!c.ReadI32(&count)) return Overrun(c, "a metadata field count");
  if (count < 0 || static_cast<uint32_t>(count) > kMaxFields || static_cast<size_t>(count) > c.remaining())
    return CorruptAt(c.fileOffset() - 4, "metadata field count " + std::to_string(count) + " is impossible");
  fields->resize(count);
  for (auto& f : *fields) NETTRACE_RETURN_IF_ERROR(ReadV1Field(c, depth, &f));
  return Status::Ok();
}

Status ReadV2Fields(ByteCursor& c, int depth, std::vector<FieldDescription>* fields);

// V2 type after the code: arrays carry their element type (int code, then nested fields
// when the element is an Object); objects carry a nested V2 field list.
Status ReadV2TypeTail(ByteCursor& c, int depth, FieldType* type) {
  if (type->code == TypeCode::kArray) {
    type->element.resize(1);
    NETTRACE_RETURN_IF_ERROR(ReadTypeCode(c, &type->element[0].code));
    return ReadV2TypeTail(c, depth + 1, &type->element[0]);
  }
  if (type->code == TypeCode::kObject) return ReadV2Fields(c, depth + 1, &type->fields);
  return Status::Ok();
}

// V2 field: int FieldSize (counting itself), UTF-16 name, int TypeCode, type tail; bytes
// left inside FieldSize are extensions and skipped.
Status ReadV2Field(ByteCursor& c, int depth, FieldDescription* f) {
  const size_t start = c.position();
  const uint64_t startOffset = c.fileOffset();
  int32_t fieldSize;
  if (!c.ReadI32(&fieldSize)) return Overrun(c, "a V2Params field size");
  if (fieldSize < 4 || static_cast<size_t>(fieldSize) > c.remaining() + 4)
    return CorruptAt(startOffset, "V2Params field size " + std::to_string(fieldSize) + " does not fit its tag");
  ByteCursor field(c.data().subspan(start, fieldSize), startOffset);
  field.Skip(4);
  if (!field.ReadNullTerminatedUtf16(&f->name)) return Overrun(field, "a V2Params field name");
  NETTRACE_RETURN_IF_ERROR(ReadTypeCode(field, &f->type.code));
  NETTRACE_RETURN_IF_ERROR(ReadV2TypeTail(field, depth, &f->type));
  c.Seek(start + fieldSize);
  return Status::Ok();
}

Status ReadV2Fields(ByteCursor& c, int depth, std::vector<FieldDescription>* fields) {
  if (depth > kMaxDepth) return CorruptAt(c.fileOffset(), "metadata fields nest deeper than 32 levels");
  int32_t count;
  if (!c.ReadI32(&count)) return Overrun(c, "a V2Params field count");
  if (count < 0 || static_cast<uint32_t>(count) > kMaxFields || static_cast<size_t>(count) * 4 > c.remaining())
    return CorruptAt(c.fileOffset() - 4, "V2Params field count " + std::to_string(count) + " is impossible");
  fields->resize(count);
  for (auto& f : *fields) NETTRACE_RETURN_IF_ERROR(ReadV2Field(c, depth, &f));
  return Status::Ok();
}

}  // namespace

Status ParseMetadataV4V5(std::span<const uint8_t> payload, uint64_t payloadOffset, EventMetadata* m,
                         MetadataParseResult* result) {
  ByteCursor c(payload, payloadOffset);
  int32_t id;
  if (!c.ReadI32(&id)) return Overrun(c, "a metadata id");
  if (!c.ReadNullTerminatedUtf16(&m->providerName)) return Overrun(c, "a metadata provider name");
  m->id = static_cast<uint32_t>(id);
  return ParseEventDescription(c, m, result);
}

Status ParseEventDescription(ByteCursor& c, EventMetadata* m, MetadataParseResult* result) {
  int32_t eventId, version, level;
  int64_t keywords;
  if (!c.ReadI32(&eventId)) return Overrun(c, "a metadata event id");
  if (!c.ReadNullTerminatedUtf16(&m->eventName)) return Overrun(c, "a metadata event name");
  if (!c.ReadI64(&keywords) || !c.ReadI32(&version) || !c.ReadI32(&level)) return Overrun(c, "a metadata header");
  m->eventId = static_cast<uint32_t>(eventId);
  m->keywords = static_cast<uint64_t>(keywords);
  m->version = static_cast<uint32_t>(version);
  m->level = static_cast<uint32_t>(level);
  // Some writers (NetPerf-era, empty events) end the record before the field count.
  if (c.empty()) return Status::Ok();
  NETTRACE_RETURN_IF_ERROR(ReadV1Fields(c, 0, &m->fields));
  // v5 tags: int TagPayloadBytes (excluding itself and the kind byte), byte TagKind.
  while (!c.empty()) {
    result->sawV5Tags = true;
    const uint64_t tagOffset = c.fileOffset();
    int32_t tagBytes;
    uint8_t kind;
    if (!c.ReadI32(&tagBytes) || !c.ReadU8(&kind)) return Overrun(c, "a metadata tag header");
    if (tagBytes < 0 || static_cast<size_t>(tagBytes) > c.remaining())
      return CorruptAt(tagOffset, "metadata tag of " + std::to_string(tagBytes) + " bytes runs past the end of its record");
    ByteCursor tag(c.data().subspan(c.position(), tagBytes), c.fileOffset());
    c.Skip(tagBytes);
    if (kind == kTagOpCode) {
      uint8_t opcode;
      if (!tag.ReadU8(&opcode)) return Overrun(tag, "an OpCode tag");
      m->opcode = opcode;
    } else if (kind == kTagV2Params) {
      // Replaces the V1 list, which the writer leaves empty (NetTraceFormat_v5.md).
      std::vector<FieldDescription> v2;
      NETTRACE_RETURN_IF_ERROR(ReadV2Fields(tag, 0, &v2));
      m->fields = std::move(v2);
      m->fieldsFromV2Params = true;
    } else {
      ++result->unknownTags;
    }
  }
  return Status::Ok();
}

}  // namespace nettrace
