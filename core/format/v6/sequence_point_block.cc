// NetTraceFormat.md §SequencePointBlock: TimeStamp, Flags, ThreadCount, then
// (varuint64 ThreadIndex, varuint32 SequenceNumber) pairs.
#include "format/decode_util.h"
#include "format/v6/blocks.h"

namespace nettrace {

Status DecodeSequencePointBlockV6(ByteCursor c, BlockContext& ctx) {
  SequencePoint sp;
  uint32_t count;
  if (!c.ReadU64(&sp.timestamp) || !c.ReadU32(&sp.flags) || !c.ReadU32(&count))
    return Overrun(c, "a sequence point header");
  if (count > c.remaining() / 2)
    return CorruptAt(c.fileOffset() - 4, "sequence point claims " + std::to_string(count) + " threads in " +
                                             std::to_string(c.remaining()) + " bytes");
  sp.threads.resize(count);
  for (auto& t : sp.threads) {
    if (!c.ReadVarUInt64(&t.thread) || !c.ReadVarUInt32(&t.sequenceNumber))
      return Overrun(c, "a sequence point thread entry");
  }
  return ctx.sink->OnSequencePoint(sp);
}

}  // namespace nettrace
