// core/heap — what a .gcdump holds after its graph's arrays (docs/format/gcdump.md
// §GCHeapDump): the graph's pointer size and end, then GCHeapDump's own fields (sampling
// multipliers, the .NET heap's segments, the collection log, machine, process, time) and
// the fields added after version 8 as tagged values. A tagged object (InteropInfo) is a
// SkipRegion: a forward-reference index whose target, found through the table at the
// file's end, is where the object ends.
#include <cstring>
#include <string>

#include "heap/fast_serialization.h"
#include "heap/gcdump_reader.h"

namespace nettrace::heap {

namespace {

// The file's last four bytes give the trailer's offset; the trailer gives the forward
// reference table's; the table is a count and one 4-byte stream offset per reference.
Status ForwardTarget(std::span<const uint8_t> tail, uint64_t tailStart, int32_t index, uint64_t* target) {
  auto u32At = [&](uint64_t fileOffset, uint32_t* v) {
    if (fileOffset < tailStart || fileOffset + 4 > tailStart + tail.size()) return false;
    std::memcpy(v, tail.data() + (fileOffset - tailStart), 4);
    return true;
  };
  const uint64_t end = tailStart + tail.size();
  uint32_t trailer = 0, table = 0, count = 0, label = 0;
  if (tail.size() < 4 || !u32At(end - 4, &trailer) || !u32At(trailer, &table) || !u32At(table, &count) ||
      index < 0 || static_cast<uint32_t>(index) >= count || !u32At(table + 4 + uint64_t{4} * static_cast<uint32_t>(index), &label)) {
    return Status::Error(ErrorCode::kBadReference, end >= 4 ? end - 4 : 0,
                         "gcdump: forward reference " + std::to_string(index) + " is not in the file's reference table");
  }
  *target = label;
  return Status::Ok();
}

Status ReadHeapInfo(FsReader& fs, HeapInfo* info) {
  FsType type;
  bool isNull = false;
  NETTRACE_RETURN_IF_ERROR(fs.BeginObject("DotNetHeapInfo", &type, &isNull));
  if (isNull) return Status::Ok();
  int32_t segments = 0;
  NETTRACE_RETURN_IF_ERROR(fs.ReadI64(&info->sizeOfAllSegments, "DotNetHeapInfo"));
  NETTRACE_RETURN_IF_ERROR(fs.ReadI32(&segments, "DotNetHeapInfo"));
  if (segments < 0) return fs.Error(ErrorCode::kCorrupt, "negative segment count");
  for (int32_t i = 0; i < segments; ++i) {
    FsType segmentType;
    NETTRACE_RETURN_IF_ERROR(fs.BeginObject("GCHeapDumpSegment", &segmentType, &isNull));
    if (isNull) continue;
    // Start, End, Gen0End … Gen3End, and Gen4End from version 1 on.
    const size_t fields = segmentType.version >= 1 ? 7 : 6;
    if (!fs.cursor().Skip(fields * 8)) return fs.Truncated("a heap segment");
    NETTRACE_RETURN_IF_ERROR(fs.EndObject("a heap segment"));
  }
  return fs.EndObject("DotNetHeapInfo");
}

}  // namespace

Status GcdumpReader::ParseTail() {
  ByteCursor c(tail_, tailStart_);
  FsReader fs(&c);
  HeapInfo& info = graph_->info;
  info.source = "gcdump";
  uint8_t tag = 0;
  NETTRACE_RETURN_IF_ERROR(fs.ReadU8(&tag, "the graph's end"));
  if (tag == static_cast<uint8_t>(FsTag::kByte)) {  // MemoryGraph's tagged Is64Bit
    uint8_t is64 = 0;
    NETTRACE_RETURN_IF_ERROR(fs.ReadU8(&is64, "the graph's end"));
    info.pointerSize = is64 ? 8 : 4;
  } else {
    c.Seek(c.position() - 1);
  }
  NETTRACE_RETURN_IF_ERROR(fs.EndObject("the graph"));
  uint8_t is64Again = 0;  // GCHeapDump's own copy, kept for old readers
  NETTRACE_RETURN_IF_ERROR(fs.ReadU8(&is64Again, "GCHeapDump"));
  if (!c.Skip(8)) return fs.Truncated("GCHeapDump");  // average count and size multipliers (floats)
  FsType type;
  bool isNull = false;
  NETTRACE_RETURN_IF_ERROR(fs.BeginObject("JSHeapInfo", &type, &isNull));
  if (!isNull) NETTRACE_RETURN_IF_ERROR(fs.EndObject("JSHeapInfo"));
  NETTRACE_RETURN_IF_ERROR(ReadHeapInfo(fs, &info));
  std::string log;
  NETTRACE_RETURN_IF_ERROR(fs.ReadString(&log, "the collection log", 1 << 28));
  NETTRACE_RETURN_IF_ERROR(fs.ReadI64(&info.timeCollectedTicks, "GCHeapDump"));
  NETTRACE_RETURN_IF_ERROR(fs.ReadString(&info.machineName, "the machine name"));
  NETTRACE_RETURN_IF_ERROR(fs.ReadString(&info.processName, "the process name"));
  int32_t pid = 0, multipliers = 0;
  NETTRACE_RETURN_IF_ERROR(fs.ReadI32(&pid, "GCHeapDump"));
  info.processId = pid;
  NETTRACE_RETURN_IF_ERROR(fs.ReadI64(&info.totalProcessCommit, "GCHeapDump"));
  NETTRACE_RETURN_IF_ERROR(fs.ReadI64(&info.totalProcessWorkingSet, "GCHeapDump"));
  NETTRACE_RETURN_IF_ERROR(fs.ReadI32(&multipliers, "GCHeapDump"));
  if (multipliers < 0 || !c.Skip(static_cast<size_t>(multipliers) * 4)) {
    return fs.Error(ErrorCode::kCorrupt, "count multipliers by type: " + std::to_string(multipliers));
  }
  // Tagged fields of later versions: InteropInfo (a skip region), the creation tool.
  for (;;) {
    const uint64_t at = c.fileOffset();
    NETTRACE_RETURN_IF_ERROR(fs.ReadU8(&tag, "GCHeapDump's tagged fields"));
    if (tag == static_cast<uint8_t>(FsTag::kSkipRegion)) {
      int32_t index = 0;
      uint64_t target = 0;
      NETTRACE_RETURN_IF_ERROR(fs.ReadI32(&index, "a skip region"));
      NETTRACE_RETURN_IF_ERROR(ForwardTarget(tail_, tailStart_, index, &target));
      if (target < c.fileOffset() || !c.Seek(static_cast<size_t>(target - tailStart_))) {
        return Status::Error(ErrorCode::kCorrupt, at, "gcdump: a skip region ends outside the file");
      }
    } else if (tag == static_cast<uint8_t>(FsTag::kString) && info.creationTool.empty()) {
      NETTRACE_RETURN_IF_ERROR(fs.ReadString(&info.creationTool, "the creation tool"));
    } else {
      c.Seek(c.position() - 1);
      return fs.EndObject("GCHeapDump");
    }
  }
}

}  // namespace nettrace::heap
