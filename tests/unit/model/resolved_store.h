// The store's part of the pipeline for tests that read a trace into a StoreBuilder alone:
// the resolver stage (each event's type) followed by the store builder. Feed `resolver`.
#pragma once

#include "model/store_builder.h"
#include "resolve/type_resolver.h"

namespace nettrace::test {

struct ResolvedStore {
  explicit ResolvedStore(Stats* stats) : builder(stats, &resolver), resolver(&builder, stats) {}
  StoreBuilder builder;
  TypeResolver resolver;
};

}  // namespace nettrace::test
