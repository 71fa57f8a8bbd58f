// NetTraceFormat.md §TraceBlock.
#include "format/decode_util.h"
#include "format/v6/blocks.h"

namespace nettrace {

Status DecodeSystemTime(ByteCursor& c, SystemTime* t);  // fast_serialization/trace_object.cc

Status DecodeTraceBlockV6(ByteCursor c, TraceInfo* info) {
  NETTRACE_RETURN_IF_ERROR(DecodeSystemTime(c, &info->syncTimeUtc));
  int32_t pointerSize;
  uint32_t count;
  if (!c.ReadI64(&info->syncTimeTicks) || !c.ReadI64(&info->tickFrequency) || !c.ReadI32(&pointerSize) ||
      !c.ReadU32(&count))
    return Overrun(c, "the trace block");
  info->pointerSize = static_cast<uint32_t>(pointerSize);
  if (count > c.remaining() / 2)
    return CorruptAt(c.fileOffset() - 4, "trace block claims " + std::to_string(count) + " key/value pairs in " +
                                             std::to_string(c.remaining()) + " bytes");
  info->keyValues.resize(count);
  for (auto& kv : info->keyValues) {
    if (!c.ReadUtf8String(&kv.key) || !c.ReadUtf8String(&kv.value)) return Overrun(c, "a trace key/value string");
    // Well-known keys fill the v4/v5 header fields they replaced; the last one wins.
    if (kv.key == "ProcessId") info->processId = ParseTraceKeyDecimal(kv.value);
    if (kv.key == "HardwareThreadCount") info->numberOfProcessors = ParseTraceKeyDecimal(kv.value);
    if (kv.key == "ExpectedCPUSamplingRate") info->expectedCpuSamplingRate = ParseTraceKeyDecimal(kv.value);
  }
  return Status::Ok();
}

}  // namespace nettrace
