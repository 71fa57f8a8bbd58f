// core/model — the trace model: what reading a trace ends in, and the one thing every query,
// view and export reads (`const TraceModel&`). It is a read-only face over what the read
// stages built, table by table, so that a dataset writer can take them one at a time:
//   - the clock (events/trace_clock.h) and the trace header;
//   - the tables: event types and threads (the resolver's: resolve/event_type_table.h,
//     resolve/thread_table.h), stacks and label lists (model/trace_tables.h);
//   - the columnar store of events in time order (model/event_store.h), with each row's
//     place in the file: the block index that paged re-reads of payloads use;
//   - what the resolver told apart per event that rows cannot say (TraceLog's bookkeeping,
//     events of undefined threads) and the events counted as the store keeps them;
//   - the results built while the file streamed: the records as written (blocks, drops),
//     the anomaly counters, the runtime signals, GC and JIT statistics, the event views, the
//     allocation records and the symbols stacks are named with. These are classes of later stages, named here and
//     not included: a query includes the header of what it reads.
// Nothing writes through it. While a trace is still being read (a live session), it shows
// what the session's last Snapshot sealed; after Finish it is frozen.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "events/trace_clock.h"
#include "format/records.h"
#include "model/event_counts.h"
#include "model/event_store.h"
#include "model/trace_tables.h"

namespace nettrace {

class AllocationSamples;
class GcStats;
class JitStats;
class RecordFacts;
class RuntimeSignals;
class RuntimeViews;
class StoreBuilder;
class SymbolCollector;
class TraceReader;
class TypeResolver;
struct Stats;

// What a live session's queries see before Finish (read/read_pipeline.h Snapshot).
struct StoreSnapshot {
  uint64_t rows = 0;     // events released by the sorter, in time order: the store's rows
  uint64_t pending = 0;  // events read but still held by the sorter (their region is open)
};

// What reading produced besides the store builder's tables (none: a model of the tables
// alone, as tests build one).
struct TraceReadResults {
  const TraceReader* reader = nullptr;
  const RecordFacts* records = nullptr;
  const Stats* stats = nullptr;
  const RuntimeSignals* runtime = nullptr;
  const GcStats* gc = nullptr;
  const JitStats* jit = nullptr;
  const RuntimeViews* views = nullptr;
  const AllocationSamples* allocations = nullptr;
  const SymbolCollector* symbols = nullptr;
};

class TraceModel {
 public:
  TraceModel(const StoreBuilder& builder, const TypeResolver& resolver, TraceReadResults results = {});

  const TraceInfo& info() const;
  TraceClock clock() const { return TraceClock(info()); }

  const EventStore& store() const;
  const EventTypeTable& types() const;
  const ThreadTable& threads() const;
  const StackTable& stacks() const;
  const LabelTable& labels() const;
  // Events read so far, counted as the store keeps them (while reading: with those the
  // sorter still holds).
  EventCounts counts() const;
  // The resolver, for what it told apart per event (bookkeepingByType, unresolved threads).
  const TypeResolver& resolver() const { return *resolver_; }

  // The reader's state: format version, whether the stream ended, bytes read, first error.
  const TraceReader& reader() const { return *results_.reader; }
  const RecordFacts& records() const { return *results_.records; }
  const Stats& stats() const { return *results_.stats; }
  const RuntimeSignals& runtime() const { return *results_.runtime; }
  const GcStats& gc() const { return *results_.gc; }
  const JitStats& jit() const { return *results_.jit; }
  const RuntimeViews& views() const { return *results_.views; }
  // The allocation records (AllocationSampled, else GC/AllocationTick) the alloc-bytes and
  // alloc-objects weights and the allocations view read.
  const AllocationSamples& allocations() const { return *results_.allocations; }
  // Method ranges, modules and per-event payload facts stacks are named with. A session
  // keeping method names in the file reads them back before a query that names frames.
  const SymbolCollector& symbols() const { return *results_.symbols; }

 private:
  const StoreBuilder* builder_;
  const TypeResolver* resolver_;
  TraceReadResults results_;
};

}  // namespace nettrace
