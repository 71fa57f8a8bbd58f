#include "resolve/type_resolver.h"

namespace nettrace {

Status TypeResolver::OnMetadata(const EventMetadata& m) {
  const ResolvedType t{EventKindOf(m), m.version};
  if (m.id < types_.size()) {
    types_[m.id] = t;  // also an id redefined after a flush
  } else if (m.id < kMaxDenseId) {
    if (t.kind != EventKind::kNone) types_.resize(m.id + 1), types_[m.id] = t;
  } else if (t.kind != EventKind::kNone) {
    sparse_[m.id] = t;
  } else {
    sparse_.erase(m.id);
  }
  return next_->OnMetadata(m);
}

const ResolvedType& TypeResolver::SparseOf(uint32_t metadataId) const {
  auto it = sparse_.find(metadataId);
  return it == sparse_.end() ? kNoType : it->second;
}

}  // namespace nettrace
