// core/dataset — schema validation (LogicalTypes.md: which logical type annotates which
// physical type).
#include "dataset/parquet_schema.h"

#include <set>

namespace nettrace::parquet {

std::string SchemaProblem(const Schema& schema) {
  if (schema.empty()) return "a table needs at least one column";
  std::set<std::string> names;
  for (const ColumnSpec& c : schema) {
    if (c.name.empty()) return "a column has an empty name";
    if (!names.insert(c.name).second) return "column '" + c.name + "' is declared twice";
    bool fits = true;
    switch (c.logical) {
      case LogicalKind::kNone: break;
      case LogicalKind::kString: fits = c.type == PhysicalType::kByteArray; break;
      case LogicalKind::kSignedInt: fits = c.type == PhysicalType::kInt32 || c.type == PhysicalType::kInt64; break;
      case LogicalKind::kTimestampMicros:
      case LogicalKind::kTimestampNanos: fits = c.type == PhysicalType::kInt64; break;
    }
    if (!fits) return "column '" + c.name + "': its logical type does not annotate its physical type";
  }
  return {};
}

}  // namespace nettrace::parquet
