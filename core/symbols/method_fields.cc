#include "symbols/method_fields.h"

#include "format/clr_events.generated.h"

namespace nettrace {

namespace {
// The slot of an integer field of `bytes` bytes, or nullptr.
const ClrFieldSlot* Integer(const ClrFieldLayout& layout, std::string_view name, uint8_t bytes) {
  const ClrFieldSlot* s = layout.Find(name);
  return s && s->size == bytes && s->stringsBefore == 0 ? s : nullptr;
}
}  // namespace

MethodFieldPlan MethodFieldPlan::Of(const ClrFieldLayout* layout) {
  MethodFieldPlan plan;
  if (!layout) return plan;
  const ClrFieldSlot* id = Integer(*layout, "MethodID", 8);
  const ClrFieldSlot* module = Integer(*layout, "ModuleID", 8);
  const ClrFieldSlot* start = Integer(*layout, "MethodStartAddress", 8);
  const ClrFieldSlot* size = Integer(*layout, "MethodSize", 4);
  const ClrFieldSlot* flags = Integer(*layout, "MethodFlags", 4);
  if (!id || !module || !start || !size || !flags) return plan;
  plan.methodId = id->offset, plan.moduleId = module->offset, plan.start = start->offset, plan.size = size->offset;
  plan.fixedEnd = flags->offset + 4;
  if (const ClrFieldSlot* names = layout->Find("MethodNamespace"); names && names->plainString && names->stringsBefore == 0) plan.names = names->offset;
  if (const ClrFieldSlot* rejit = Integer(*layout, "ReJITID", 8)) plan.rejit = rejit->offset;
  plan.ok = true;
  return plan;
}

}  // namespace nettrace
