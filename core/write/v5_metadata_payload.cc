#include "write/v5_metadata_payload.h"

#include "io/byte_cursor.h"
#include "write/metadata_encoder.h"
#include "write/payload_builder.h"
#include "write/wire.h"

namespace nettrace::write_internal {

namespace {

// NetTraceFormat_v5.md §Metadata event encoding: "TagKind ... OpCode=1 V2Params=2".
constexpr uint8_t kTagOpCode = 1;
constexpr uint8_t kTagV2Params = 2;

Status Invalid(std::string message) {
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, std::move(message));
}

// The shape rules both field encodings share: a fixed length exists only in v6
// (FixedLengthArray), nested fields only on Objects.
Status CheckCommonShape(const FieldType& t, const std::string& where) {
  if (t.fixedLength != 0) return Invalid(where + ": a fixed element count has no v4/v5 encoding (v6 only)");
  if (t.code != TypeCode::kObject && !t.fields.empty()) return Invalid(where + ": only Object types have fields");
  return Status::Ok();
}

// V1 list (§Metadata event encoding): int FieldCount, then per field int TypeCode,
// [Object: a nested V1 list], name. V1 has no element types: arrays need V2Params.
Status EncodeV1Fields(const std::vector<FieldDescription>& fields, int depth, const std::string& where,
                      std::vector<uint8_t>& out) {
  // The reader's nesting limit for Object fields (metadata_payload.cc kMaxDepth).
  if (depth > kMaxTypeDepth) return Invalid(where + ": Object fields nest deeper than 32 levels");
  if (fields.size() > kMaxV5FieldsPerList) return Invalid(where + ": more than 4096 fields in one list");
  wire::PutI32(out, static_cast<int32_t>(fields.size()));
  for (const FieldDescription& f : fields) {
    const std::string fieldWhere = where + "." + f.name;
    NETTRACE_RETURN_IF_ERROR(CheckCommonShape(f.type, fieldWhere));
    if (!f.type.element.empty())
      return Invalid(fieldWhere + ": an element type needs the V2Params encoding (set fieldsFromV2Params; v5 only)");
    wire::PutI32(out, static_cast<int32_t>(f.type.code));
    if (f.type.code == TypeCode::kObject)
      NETTRACE_RETURN_IF_ERROR(EncodeV1Fields(f.type.fields, depth + 1, fieldWhere, out));
    NETTRACE_RETURN_IF_ERROR(PutNullTerminatedUtf16(out, f.name, fieldWhere + " name"));
  }
  return Status::Ok();
}

Status EncodeV2Fields(const std::vector<FieldDescription>& fields, int depth, const std::string& where,
                      std::vector<uint8_t>& out);

// V2 type (format-pitfalls.md §8): int TypeCode, then for an Array its element type (the
// same encoding, recursively), for an Object a nested V2 list.
Status EncodeV2Type(const FieldType& t, int depth, const std::string& where, std::vector<uint8_t>& out) {
  if (depth > kMaxTypeDepth) return Invalid(where + ": types nest deeper than 32 levels");
  NETTRACE_RETURN_IF_ERROR(CheckCommonShape(t, where));
  const bool array = t.code == TypeCode::kArray;
  if (array != (t.element.size() == 1))
    return Invalid(where + (array ? ": an Array needs exactly one element type"
                                  : ": only Array has an element type in v4/v5 (RelLoc, DataLoc and "
                                    "FixedLengthArray are v6 only)"));
  wire::PutI32(out, static_cast<int32_t>(t.code));
  if (array) return EncodeV2Type(t.element[0], depth + 1, where + "[]", out);
  if (t.code == TypeCode::kObject) return EncodeV2Fields(t.fields, depth + 1, where, out);
  return Status::Ok();
}

// V2 list: int V2FieldCount, then per field int FieldSize (counting itself), name, type.
Status EncodeV2Fields(const std::vector<FieldDescription>& fields, int depth, const std::string& where,
                      std::vector<uint8_t>& out) {
  if (depth > kMaxTypeDepth) return Invalid(where + ": types nest deeper than 32 levels");
  if (fields.size() > kMaxV5FieldsPerList) return Invalid(where + ": more than 4096 fields in one list");
  wire::PutI32(out, static_cast<int32_t>(fields.size()));
  for (const FieldDescription& f : fields) {
    const std::string fieldWhere = where + "." + f.name;
    const size_t sizeAt = out.size();
    wire::PutI32(out, 0);
    NETTRACE_RETURN_IF_ERROR(PutNullTerminatedUtf16(out, f.name, fieldWhere + " name"));
    NETTRACE_RETURN_IF_ERROR(EncodeV2Type(f.type, depth, fieldWhere, out));
    // Bounded by the metadata's block (< 1 GiB): fits the int.
    wire::PatchU32(out, sizeAt, static_cast<uint32_t>(out.size() - sizeAt));
  }
  return Status::Ok();
}

// What a v6 metadata row can say but a v4/v5 record cannot: refused, not dropped.
Status CheckNoV6OnlyMetadata(const EventMetadata& m, const std::string& where) {
  if (m.messageTemplate) return Invalid(where + ": a message template has no v4/v5 encoding");
  if (m.description) return Invalid(where + ": a description has no v4/v5 encoding");
  if (!m.attributes.empty()) return Invalid(where + ": key/value attributes have no v4/v5 encoding");
  if (m.providerGuid) return Invalid(where + ": a provider GUID has no v4/v5 encoding");
  return Status::Ok();
}

// v5 tags: int TagPayloadBytes (counting neither itself nor the kind), byte TagKind,
// payload (format-pitfalls.md §8). OpCode first, then V2Params; readers take any order.
Status EncodeTags(const EventMetadata& m, const std::string& where, std::vector<uint8_t>& out) {
  if (m.opcode) {
    wire::PutI32(out, 1);
    wire::PutU8(out, kTagOpCode);
    wire::PutU8(out, *m.opcode);
  }
  if (m.fieldsFromV2Params) {
    const size_t sizeAt = out.size();
    wire::PutI32(out, 0);
    wire::PutU8(out, kTagV2Params);
    NETTRACE_RETURN_IF_ERROR(EncodeV2Fields(m.fields, 0, where, out));
    wire::PatchU32(out, sizeAt, static_cast<uint32_t>(out.size() - sizeAt - 5));
  }
  return Status::Ok();
}

}  // namespace

Status PutNullTerminatedUtf16(std::vector<uint8_t>& out, std::string_view utf8, const std::string& what) {
  const std::u16string units = Utf8ToUtf16(utf8);
  if (units.find(u'\0') != std::u16string::npos)
    return Invalid(what + " contains a NUL character, which would end its UTF-16 string early");
  const size_t at = out.size();
  for (char16_t u : units) wire::PutU16(out, static_cast<uint16_t>(u));
  // Decode what was written the way the reader will: invalid UTF-8 became U+FFFD.
  std::string back;
  AppendUtf16AsUtf8(out.data() + at, units.size(), &back);
  if (back != utf8) return Invalid(what + " is not valid UTF-8, so it would not read back unchanged");
  wire::PutU16(out, 0);
  return Status::Ok();
}

// §Metadata event encoding: int MetaDataId, string ProviderName, int EventId, string
// EventName, long Keywords, int Version, int Level, the V1 list, then (v5) tags.
Status EncodeV5MetadataPayload(const EventMetadata& m, bool allowTags, std::vector<uint8_t>& out) {
  const std::string where = "metadata " + std::to_string(m.id) + " (" + m.eventName + ")";
  // §Uncompressed events: an event's MetadataId keeps 31 bits for the id (the high bit is
  // IsSorted), so a larger id could never be referenced.
  if (m.id > 0x7FFFFFFF) return Invalid(where + ": metadata ids are 31-bit");
  NETTRACE_RETURN_IF_ERROR(CheckNoV6OnlyMetadata(m, where));
  if (!allowTags && (m.opcode || m.fieldsFromV2Params))
    return Invalid(where + ": an opcode or V2Params fields need the v5 metadata tags; this is a v4 writer");
  wire::PutI32(out, static_cast<int32_t>(m.id));
  NETTRACE_RETURN_IF_ERROR(PutNullTerminatedUtf16(out, m.providerName, where + " provider name"));
  wire::PutI32(out, static_cast<int32_t>(m.eventId));
  NETTRACE_RETURN_IF_ERROR(PutNullTerminatedUtf16(out, m.eventName, where + " event name"));
  wire::PutI64(out, static_cast<int64_t>(m.keywords));
  wire::PutI32(out, static_cast<int32_t>(m.version));
  wire::PutI32(out, static_cast<int32_t>(m.level));
  // "If the metadata event specifies a V2Params tag, the event must have an empty V1
  // parameter FieldCount and no field definitions."
  static const std::vector<FieldDescription> kNoFields;
  NETTRACE_RETURN_IF_ERROR(EncodeV1Fields(m.fieldsFromV2Params ? kNoFields : m.fields, 0, where, out));
  return EncodeTags(m, where, out);
}

}  // namespace nettrace::write_internal
