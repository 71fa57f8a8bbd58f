// core/symbols — where the fields of a method event (MethodLoad/Unload, the rundown's
// MethodDCStart/DCEnd, and their Verbose forms) lie, found once per definition in the
// resolver's CLR field layout (format/payload/clr_field_read.h). A rundown is a hundred
// thousand of these events: each is then read by offset, with one bounds check, instead of
// being walked by hand or decoded.
#pragma once

#include <cstdint>

#include "format/payload/clr_field_read.h"

namespace nettrace {

struct MethodFieldPlan {
  // The plan for events of this layout; ok == false when the layout lacks the fields (or
  // places them unlike a method event: the event is then malformed for symbols).
  static MethodFieldPlan Of(const ClrFieldLayout* layout);

  bool ok = false;
  uint32_t methodId = 0, moduleId = 0, start = 0;  // UInt64 each, whatever the pointer size
  uint32_t size = 0;                               // MethodSize, UInt32
  uint32_t fixedEnd = 0;  // bytes every event needs: up to the end of MethodFlags
  int64_t names = -1;     // MethodNamespace (Verbose forms), the first of the three names
  int64_t rejit = -1;     // ReJITID (V2 forms without names), when placed
};

}  // namespace nettrace
