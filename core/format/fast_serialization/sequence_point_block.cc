#include "format/fast_serialization/sequence_point_block.h"

#include "format/decode_util.h"

namespace nettrace {

Status DecodeSequencePointBlockV4V5(ByteCursor c, BlockContext& ctx) {
  SequencePoint sp;
  uint32_t count;
  if (!c.ReadU64(&sp.timestamp) || !c.ReadU32(&count)) return Overrun(c, "a sequence point header");
  if (count > c.remaining() / 12)
    return CorruptAt(c.fileOffset() - 4, "sequence point claims " + std::to_string(count) + " threads in " +
                                             std::to_string(c.remaining()) + " bytes");
  sp.threads.resize(count);
  for (auto& t : sp.threads) {
    if (!c.ReadU64(&t.thread) || !c.ReadU32(&t.sequenceNumber)) return Overrun(c, "a sequence point thread");
  }
  return ctx.sink->OnSequencePoint(sp);
}

}  // namespace nettrace
