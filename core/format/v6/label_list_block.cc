// NetTraceFormat.md §LabelListBlock: firstIndex, count, then label lists; each label
// starts with a kind byte whose high bit marks the last label of its list.
#include "format/decode_util.h"
#include "format/v6/blocks.h"

namespace nettrace {

namespace {

constexpr uint8_t kLastLabelBit = 0x80;

Status ReadLabel(ByteCursor& c, LabelKind kind, Label* l, bool* known) {
  l->kind = kind;
  bool ok = true;
  std::span<const uint8_t> g;
  uint8_t small = 0;
  switch (kind) {
    case LabelKind::kActivityId:
    case LabelKind::kRelatedActivityId:
    case LabelKind::kTraceId:
      ok = c.ReadBytes(16, &g);
      if (ok) std::copy(g.begin(), g.end(), l->guid.bytes.begin());
      break;
    case LabelKind::kSpanId:
    case LabelKind::kKeywords: ok = c.ReadU64(&l->number); break;
    case LabelKind::kStringKeyValue: ok = c.ReadUtf8String(&l->key) && c.ReadUtf8String(&l->value); break;
    case LabelKind::kIntKeyValue: ok = c.ReadUtf8String(&l->key) && c.ReadVarInt64(&l->intValue); break;
    case LabelKind::kOpCode:
    case LabelKind::kLevel:
    case LabelKind::kVersion:
      ok = c.ReadU8(&small);
      l->number = small;
      break;
    default: *known = false; return Status::Ok();
  }
  if (!ok) return Overrun(c, "a label");
  return Status::Ok();
}

}  // namespace

Status DecodeLabelListBlockV6(ByteCursor c, BlockContext& ctx) {
  uint32_t firstIndex, count;
  if (!c.ReadU32(&firstIndex) || !c.ReadU32(&count)) return Overrun(c, "a label list block header");
  if (firstIndex == 0) return CorruptAt(c.fileOffset() - 8, "label list block's first index is 0 (must be >= 1)");
  if (count > c.remaining())
    return CorruptAt(c.fileOffset() - 4, "label list block claims " + std::to_string(count) + " lists in " +
                                             std::to_string(c.remaining()) + " bytes");
  for (uint32_t i = 0; i < count; ++i) {
    LabelList list;
    for (;;) {
      uint8_t kindByte;
      if (!c.ReadU8(&kindByte)) return Overrun(c, "a label list");
      bool known = true;
      NETTRACE_RETURN_IF_ERROR(ReadLabel(c, static_cast<LabelKind>(kindByte & 0x7F), &list.labels.emplace_back(), &known));
      if (!known) {
        // Unknown kinds carry no size: nothing after this point in the block can be
        // located. Keep the labels read so far, report, and stop (format-pitfalls.md §14).
        list.labels.pop_back();
        ++ctx.stats->unknownLabelKinds;
        return ctx.sink->OnLabelList(firstIndex + i, list);
      }
      if (kindByte & kLastLabelBit) break;
    }
    NETTRACE_RETURN_IF_ERROR(ctx.sink->OnLabelList(firstIndex + i, list));
  }
  return Status::Ok();
}

}  // namespace nettrace
