#include "write/metadata_encoder.h"

#include <string>

#include "write/wire.h"

namespace nettrace::write_internal {

namespace {

Status Invalid(std::string message) {
  return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, std::move(message));
}

// Every uint16 size/count in a metadata row bounds what it measures to 65535 bytes.
Status PatchSize16(std::vector<uint8_t>& out, size_t at, const std::string& what) {
  const size_t size = out.size() - at - 2;
  if (size > 0xFFFF)
    return Status::Error(ErrorCode::kLimitExceeded, kNoOffset,
                         what + " is " + std::to_string(size) + " bytes; its uint16 size field allows 65535");
  wire::PatchU16(out, at, static_cast<uint16_t>(size));
  return Status::Ok();
}

bool IsContainer(TypeCode c) {
  return c == TypeCode::kArray || c == TypeCode::kFixedLengthArray || c == TypeCode::kRelLoc || c == TypeCode::kDataLoc;
}

Status EncodeFieldDescriptions(const std::vector<FieldDescription>& fields, int depth, const std::string& where,
                               std::vector<uint8_t>& out);

// §MetadataBlock "Type format": TypeCode, then ElementType (Array, FixedLengthArray,
// RelLoc, DataLoc), then ElementCount (FixedLengthArray), or ObjectFields (Object).
Status EncodeType(const FieldType& t, int depth, const std::string& where, std::vector<uint8_t>& out) {
  if (depth > kMaxTypeDepth) return Invalid(where + ": types nest deeper than 32 levels");
  if (!IsDefinedTypeCode(t.code))
    return Invalid(where + ": type code " + std::to_string(static_cast<int>(t.code)) + " has no v6 encoding");
  const bool container = IsContainer(t.code);
  if (container != (t.element.size() == 1))
    return Invalid(
        where + (container ? ": needs exactly one element type" : ": only arrays and locations have an element type"));
  if (t.code != TypeCode::kObject && !t.fields.empty()) return Invalid(where + ": only Object types have fields");
  if (t.code != TypeCode::kFixedLengthArray && t.fixedLength != 0)
    return Invalid(where + ": only FixedLengthArray has an element count");
  wire::PutU8(out, static_cast<uint8_t>(t.code));
  if (container) {
    // RelLoc/DataLoc sizes are in bytes, so their elements must have one size (§TypeCode).
    if ((t.code == TypeCode::kRelLoc || t.code == TypeCode::kDataLoc) && !IsFixedSizeType(t.element[0]))
      return Invalid(where + ": a RelLoc/DataLoc element type must be of fixed size");
    NETTRACE_RETURN_IF_ERROR(EncodeType(t.element[0], depth + 1, where + "[]", out));
    if (t.code == TypeCode::kFixedLengthArray) wire::PutU16(out, t.fixedLength);
  } else if (t.code == TypeCode::kObject) {
    NETTRACE_RETURN_IF_ERROR(EncodeFieldDescriptions(t.fields, depth + 1, where, out));
  }
  return Status::Ok();
}

// §MetadataBlock "FieldDescriptions format": uint16 Count, then per field uint16
// FieldSize (not counting itself), name, Type.
Status EncodeFieldDescriptions(const std::vector<FieldDescription>& fields, int depth, const std::string& where,
                               std::vector<uint8_t>& out) {
  if (fields.size() > 0xFFFF) return Invalid(where + ": more than 65535 fields");
  wire::PutU16(out, static_cast<uint16_t>(fields.size()));
  for (const FieldDescription& f : fields) {
    const std::string fieldWhere = where + "." + f.name;
    const size_t sizeAt = out.size();
    wire::PutU16(out, 0);
    wire::PutString(out, f.name);
    NETTRACE_RETURN_IF_ERROR(EncodeType(f.type, depth, fieldWhere, out));
    NETTRACE_RETURN_IF_ERROR(PatchSize16(out, sizeAt, "field description " + fieldWhere));
  }
  return Status::Ok();
}

// §MetadataBlock "OptionalMetadata format", in OptionalMetadataKind order so that equal
// structs always give equal bytes.
Status EncodeOptionalMetadata(const EventMetadata& m, const std::string& where, std::vector<uint8_t>& out) {
  // A value the struct carries but the flags say not to write would silently read back
  // as 0: refuse it instead.
  if (!m.hasKeywords && m.keywords != 0) return Invalid(where + ": keywords set but hasKeywords is false");
  if (!m.hasLevel && m.level != 0) return Invalid(where + ": level set but hasLevel is false");
  if (!m.hasVersion && m.version != 0) return Invalid(where + ": version set but hasVersion is false");
  if (m.level > 0xFF) return Invalid(where + ": level " + std::to_string(m.level) + " does not fit the uint8 Level");
  if (m.version > 0xFF)
    return Invalid(where + ": version " + std::to_string(m.version) + " does not fit the uint8 Version");
  auto kind = [&](OptionalMetadataKind k) { wire::PutU8(out, static_cast<uint8_t>(k)); };
  const size_t sizeAt = out.size();
  wire::PutU16(out, 0);
  if (m.opcode) kind(OptionalMetadataKind::kOpCode), wire::PutU8(out, *m.opcode);
  if (m.hasKeywords) kind(OptionalMetadataKind::kKeyword), wire::PutU64(out, m.keywords);
  if (m.messageTemplate) kind(OptionalMetadataKind::kMessageTemplate), wire::PutString(out, *m.messageTemplate);
  if (m.description) kind(OptionalMetadataKind::kDescription), wire::PutString(out, *m.description);
  for (const KeyValue& kv : m.attributes) {
    kind(OptionalMetadataKind::kKeyValue);
    wire::PutString(out, kv.key);
    wire::PutString(out, kv.value);
  }
  if (m.providerGuid) kind(OptionalMetadataKind::kProviderGuid), wire::PutBytes(out, m.providerGuid->bytes);
  if (m.hasLevel) kind(OptionalMetadataKind::kLevel), wire::PutU8(out, static_cast<uint8_t>(m.level));
  if (m.hasVersion) kind(OptionalMetadataKind::kVersion), wire::PutU8(out, static_cast<uint8_t>(m.version));
  return PatchSize16(out, sizeAt, where + " optional metadata");
}

}  // namespace

// §MetadataBlock row: uint16 Size (not counting itself), varuint32 MetaDataId, string
// ProviderName, varuint32 EventId, string EventName, FieldDescriptions, OptionalMetadata.
Status EncodeMetadataRow(const EventMetadata& m, std::vector<uint8_t>& out) {
  const std::string where = "metadata " + std::to_string(m.id) + " (" + m.eventName + ")";
  // §Event rows: an event's MetadataId keeps only its low 31 bits for the id (the high bit
  // is IsSorted in uncompressed rows), so a larger id could never be referenced.
  if (m.id > 0x7FFFFFFF) return Invalid(where + ": metadata ids are 31-bit");
  const size_t sizeAt = out.size();
  wire::PutU16(out, 0);
  wire::PutVarUInt(out, m.id);
  wire::PutString(out, m.providerName);
  wire::PutVarUInt(out, m.eventId);
  wire::PutString(out, m.eventName);
  NETTRACE_RETURN_IF_ERROR(EncodeFieldDescriptions(m.fields, 0, where, out));
  NETTRACE_RETURN_IF_ERROR(EncodeOptionalMetadata(m, where, out));
  return PatchSize16(out, sizeAt, where);
}

}  // namespace nettrace::write_internal
