// NetTraceFormat.md §MetadataBlock: header size + opaque header, then rows of
// (uint16 Size, id, provider, event id, name, FieldDescriptions, OptionalMetadata,
// extension bytes). Every size field bounds a sub-cursor so extensions are skipped.
#include "format/decode_util.h"
#include "format/v6/blocks.h"

namespace nettrace {

namespace {

Status ReadFieldDescriptions(ByteCursor& c, int depth, std::vector<FieldDescription>* fields);

// A type nested deeper than kMaxTypeDepth is not read further (a hostile file must not
// recurse the stack away) but does not reject the trace: it is left Empty, a type that
// describes no layout, so the reference tracker cuts that event type's field list before the
// field (metadataFieldsCut) and its events keep everything but the payload's later fields.
// Each field description carries its size, so the next field is found all the same.
Status ReadType(ByteCursor& c, int depth, FieldType* t) {
  if (depth > kMaxTypeDepth) {
    *t = FieldType{};
    t->code = TypeCode::kEmpty;
    return Status::Ok();
  }
  const uint64_t at = c.fileOffset();
  uint8_t code;
  if (!c.ReadU8(&code)) return Overrun(c, "a field type");
  t->code = static_cast<TypeCode>(code);
  switch (t->code) {
    case TypeCode::kArray:
    case TypeCode::kFixedLengthArray:
    case TypeCode::kRelLoc:
    case TypeCode::kDataLoc:
      t->element.resize(1);
      NETTRACE_RETURN_IF_ERROR(ReadType(c, depth + 1, &t->element[0]));
      if (depth + 1 > kMaxTypeDepth) return Status::Ok();  // the element was not read: nor is the rest
      if (t->code == TypeCode::kFixedLengthArray && !c.ReadU16(&t->fixedLength))
        return Overrun(c, "a fixed-length array count");
      if ((t->code == TypeCode::kRelLoc || t->code == TypeCode::kDataLoc) && !IsFixedSizeType(t->element[0]))
        return CorruptAt(at, std::string(t->code == TypeCode::kRelLoc ? "RelLoc" : "DataLoc") +
                                 " field has an element type of variable size");
      return Status::Ok();
    case TypeCode::kObject: return ReadFieldDescriptions(c, depth + 1, &t->fields);
    default: return Status::Ok();
  }
}

Status ReadFieldDescriptions(ByteCursor& c, int depth, std::vector<FieldDescription>* fields) {
  uint16_t count;
  if (!c.ReadU16(&count)) return Overrun(c, "a field count");
  if (count > c.remaining() / 2)
    return CorruptAt(c.fileOffset() - 2, "metadata claims " + std::to_string(count) + " fields in " +
                                             std::to_string(c.remaining()) + " bytes");
  fields->resize(count);
  for (auto& f : *fields) {
    uint16_t size;
    if (!c.ReadU16(&size)) return Overrun(c, "a field description size");
    std::span<const uint8_t> bytes;
    const uint64_t at = c.fileOffset();
    if (!c.ReadBytes(size, &bytes)) return Overrun(c, "a field description of " + std::to_string(size) + " bytes");
    ByteCursor fc(bytes, at);
    if (!fc.ReadUtf8String(&f.name)) return Overrun(fc, "a field name");
    NETTRACE_RETURN_IF_ERROR(ReadType(fc, depth, &f.type));
  }
  return Status::Ok();
}

// An unknown kind stops the list: it carries no size to skip by (format-pitfalls.md §14).
Status ReadOptionalMetadata(ByteCursor& c, EventMetadata* m, bool* sawUnknown) {
  while (!c.empty()) {
    uint8_t kind;
    c.ReadU8(&kind);
    bool ok = true;
    switch (static_cast<OptionalMetadataKind>(kind)) {
      case OptionalMetadataKind::kOpCode: {
        uint8_t op = 0;
        ok = c.ReadU8(&op);
        m->opcode = op;
        break;
      }
      case OptionalMetadataKind::kKeyword:
        ok = c.ReadU64(&m->keywords);
        m->hasKeywords = true;
        break;
      case OptionalMetadataKind::kMessageTemplate:
        ok = c.ReadUtf8String(&m->messageTemplate.emplace());
        break;
      case OptionalMetadataKind::kDescription:
        ok = c.ReadUtf8String(&m->description.emplace());
        break;
      case OptionalMetadataKind::kKeyValue: {
        KeyValue& kv = m->attributes.emplace_back();
        ok = c.ReadUtf8String(&kv.key) && c.ReadUtf8String(&kv.value);
        break;
      }
      case OptionalMetadataKind::kProviderGuid: {
        std::span<const uint8_t> g;
        ok = c.ReadBytes(16, &g);
        if (ok) std::copy(g.begin(), g.end(), m->providerGuid.emplace().bytes.begin());
        break;
      }
      case OptionalMetadataKind::kLevel: {
        uint8_t v = 0;
        ok = c.ReadU8(&v);
        m->level = v;
        m->hasLevel = true;
        break;
      }
      case OptionalMetadataKind::kVersion: {
        uint8_t v = 0;
        ok = c.ReadU8(&v);
        m->version = v;
        m->hasVersion = true;
        break;
      }
      default:
        *sawUnknown = true;
        return Status::Ok();
    }
    if (!ok) return Overrun(c, "an optional metadata entry");
  }
  return Status::Ok();
}

}  // namespace

Status DecodeMetadataBlockV6(ByteCursor c, BlockContext& ctx) {
  uint16_t headerSize;
  if (!c.ReadU16(&headerSize)) return Overrun(c, "a metadata block header");
  if (!c.Skip(headerSize)) return Overrun(c, "a metadata block header of " + std::to_string(headerSize) + " bytes");
  while (!c.empty()) {
    uint16_t size;
    if (!c.ReadU16(&size)) return Overrun(c, "a metadata row size");
    const uint64_t at = c.fileOffset();
    std::span<const uint8_t> bytes;
    if (!c.ReadBytes(size, &bytes)) return Overrun(c, "a metadata row of " + std::to_string(size) + " bytes");
    ByteCursor row(bytes, at);
    EventMetadata m;
    if (!row.ReadVarUInt32(&m.id) || !row.ReadUtf8String(&m.providerName) || !row.ReadVarUInt32(&m.eventId) ||
        !row.ReadUtf8String(&m.eventName))
      return Overrun(row, "a metadata row header");
    NETTRACE_RETURN_IF_ERROR(ReadFieldDescriptions(row, 0, &m.fields));
    uint16_t optionalSize;
    std::span<const uint8_t> optional;
    if (!row.ReadU16(&optionalSize)) return Overrun(row, "an optional metadata size");
    const uint64_t optionalAt = row.fileOffset();
    if (!row.ReadBytes(optionalSize, &optional))
      return Overrun(row, "optional metadata of " + std::to_string(optionalSize) + " bytes");
    bool unknown = false;
    ByteCursor oc(optional, optionalAt);
    NETTRACE_RETURN_IF_ERROR(ReadOptionalMetadata(oc, &m, &unknown));
    if (unknown) ++ctx.stats->unknownOptionalMetadata;
    NETTRACE_RETURN_IF_ERROR(ctx.sink->OnMetadata(m));
  }
  return Status::Ok();
}

}  // namespace nettrace
