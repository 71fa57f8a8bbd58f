#include "model/trace_model.h"

#include "model/store_builder.h"

namespace nettrace {

TraceModel::TraceModel(const StoreBuilder& builder, const TypeResolver& resolver, TraceReadResults results)
    : builder_(&builder), resolver_(&resolver), results_(results) {}

const TraceInfo& TraceModel::info() const { return builder_->info(); }
const EventStore& TraceModel::store() const { return builder_->store(); }
const EventTypeTable& TraceModel::types() const { return resolver_->types(); }
const ThreadTable& TraceModel::threads() const { return resolver_->threads(); }
const StackTable& TraceModel::stacks() const { return builder_->stacks(); }
const LabelTable& TraceModel::labels() const { return builder_->labels(); }
EventCounts TraceModel::counts() const { return builder_->counts(); }

}  // namespace nettrace
