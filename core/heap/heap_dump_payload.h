// core/heap — reading the GCBulk* payloads (docs/reference/ClrEtwAll.man.gz templates):
// win:Pointer fields take the trace's pointer size; everything else is fixed-size.
#pragma once

#include <cstdint>

#include "io/byte_cursor.h"

namespace nettrace::heap {

inline bool ReadPointer(ByteCursor& c, uint32_t pointerSize, uint64_t* v) {
  if (pointerSize == 8) return c.ReadU64(v);
  uint32_t narrow = 0;
  if (!c.ReadU32(&narrow)) return false;
  *v = narrow;
  return true;
}

}  // namespace nettrace::heap
