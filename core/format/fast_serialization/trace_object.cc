#include "format/fast_serialization/trace_object.h"

#include "format/decode_util.h"

namespace nettrace {

Status DecodeSystemTime(ByteCursor& c, SystemTime* t) {
  if (!c.ReadI16(&t->year) || !c.ReadI16(&t->month) || !c.ReadI16(&t->dayOfWeek) || !c.ReadI16(&t->day) ||
      !c.ReadI16(&t->hour) || !c.ReadI16(&t->minute) || !c.ReadI16(&t->second) || !c.ReadI16(&t->millisecond))
    return Overrun(c, "the trace's SyncTimeUTC");
  return Status::Ok();
}

Status DecodeTraceObjectFields(ByteCursor& c, TraceInfo* info) {
  NETTRACE_RETURN_IF_ERROR(DecodeSystemTime(c, &info->syncTimeUtc));
  int32_t pointerSize, pid, processors, rate;
  if (!c.ReadI64(&info->syncTimeTicks) || !c.ReadI64(&info->tickFrequency) || !c.ReadI32(&pointerSize) ||
      !c.ReadI32(&pid) || !c.ReadI32(&processors) || !c.ReadI32(&rate))
    return Overrun(c, "the Trace object");
  info->pointerSize = static_cast<uint32_t>(pointerSize);
  info->processId = static_cast<uint32_t>(pid);
  info->numberOfProcessors = static_cast<uint32_t>(processors);
  info->expectedCpuSamplingRate = static_cast<uint32_t>(rate);
  return Status::Ok();
}

}  // namespace nettrace
