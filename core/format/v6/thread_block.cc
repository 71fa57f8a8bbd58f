// NetTraceFormat.md §ThreadBlock: rows of (uint16 RowSize, varuint64 Index, optional
// thread info entries to the end of the row).
#include "format/decode_util.h"
#include "format/v6/blocks.h"

namespace nettrace {

namespace {
constexpr uint8_t kInfoName = 1;
constexpr uint8_t kInfoOsProcessId = 2;
constexpr uint8_t kInfoOsThreadId = 3;
constexpr uint8_t kInfoKeyValue = 4;
}  // namespace

Status DecodeThreadBlockV6(ByteCursor c, BlockContext& ctx) {
  while (!c.empty()) {
    uint16_t size;
    if (!c.ReadU16(&size)) return Overrun(c, "a thread row size");
    const uint64_t at = c.fileOffset();
    std::span<const uint8_t> bytes;
    if (!c.ReadBytes(size, &bytes)) return Overrun(c, "a thread row of " + std::to_string(size) + " bytes");
    ByteCursor row(bytes, at);
    ThreadInfo t;
    if (!row.ReadVarUInt64(&t.index)) return Overrun(row, "a thread index");
    while (!row.empty()) {
      uint8_t kind;
      row.ReadU8(&kind);
      bool ok = true;
      if (kind == kInfoName) {
        ok = row.ReadUtf8String(&t.name.emplace());
      } else if (kind == kInfoOsProcessId) {
        ok = row.ReadVarUInt64(&t.osProcessId.emplace());
      } else if (kind == kInfoOsThreadId) {
        ok = row.ReadVarUInt64(&t.osThreadId.emplace());
      } else if (kind == kInfoKeyValue) {
        KeyValue& kv = t.attributes.emplace_back();
        ok = row.ReadUtf8String(&kv.key) && row.ReadUtf8String(&kv.value);
      } else {
        // No size to skip by: keep what was read, drop the rest of the row
        // (format-pitfalls.md §14).
        ++ctx.stats->unknownThreadInfo;
        break;
      }
      if (!ok) return Overrun(row, "a thread info entry");
    }
    NETTRACE_RETURN_IF_ERROR(ctx.sink->OnThread(t));
  }
  return Status::Ok();
}

Status DecodeRemoveThreadBlockV6(ByteCursor c, BlockContext& ctx) {
  // NetTraceFormat.md §RemoveThreadBlock: (varuint Index, varuint SequenceNumber)*.
  while (!c.empty()) {
    ThreadSequence t;
    if (!c.ReadVarUInt64(&t.thread) || !c.ReadVarUInt32(&t.sequenceNumber))
      return Overrun(c, "a remove-thread entry");
    NETTRACE_RETURN_IF_ERROR(ctx.sink->OnRemoveThread(t));
  }
  return Status::Ok();
}

}  // namespace nettrace
