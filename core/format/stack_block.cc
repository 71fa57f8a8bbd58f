#include "format/stack_block.h"

#include "format/decode_util.h"

namespace nettrace {

Status DecodeStackBlock(ByteCursor c, BlockContext& ctx) {
  uint32_t firstId, count;
  if (!c.ReadU32(&firstId) || !c.ReadU32(&count)) return Overrun(c, "a stack block header");
  // Each stack needs at least its 4-byte size: a count beyond that is corrupt, caught
  // before looping on it.
  if (count > c.remaining() / 4)
    return CorruptAt(c.fileOffset() - 4, "stack block claims " + std::to_string(count) + " stacks in " +
                                             std::to_string(c.remaining()) + " bytes");
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t size;
    std::span<const uint8_t> ips;
    if (!c.ReadU32(&size)) return Overrun(c, "a stack size");
    if (!c.ReadBytes(size, &ips)) return Overrun(c, "a stack of " + std::to_string(size) + " bytes");
    NETTRACE_RETURN_IF_ERROR(ctx.sink->OnStack(firstId + i, ips));
  }
  return Status::Ok();
}

}  // namespace nettrace
