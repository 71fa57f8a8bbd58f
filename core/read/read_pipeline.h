// core/read — reading a trace: the stages wired from bytes to the model, and the analyses
// that run while the file streams. Bytes go in as chunks of any size; the model
// (model/trace_model.h) is what comes out, readable after every Snapshot and frozen at
// Finish. After a fatal input error, everything read before the fault stays in the model.
//
// The stages: TraceReader (chunks → blocks → records, reference checks) → TypeResolver (what
// each metadata id is, each event's type and thread in the one table of each, decided once)
// → in file order: the RecordFacts (the records as written: blocks, tables, bytes, capture
// threads and drops), the StoreBuilder (stack and label tables, sorter, columnar store) and the
// SymbolCollector. Behind the store's sorter the events are counted as the store keeps them,
// and the analyses that need time order (runtime signals, GC and JIT statistics, the event
// views, the allocation records) read the sorted tap (model/sorted_tap.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/allocation_samples.h"
#include "analysis/clr_stats_sink.h"
#include "analysis/names_from_source.h"
#include "analysis/record_facts.h"
#include "analysis/runtime_signals.h"
#include "analysis/runtime_views.h"
#include "base/byte_range.h"
#include "base/stats.h"
#include "format/trace_reader.h"
#include "model/sorted_tap.h"
#include "model/store_builder.h"
#include "model/trace_model.h"
#include "read/session_fan_out.h"
#include "resolve/type_resolver.h"
#include "symbols/symbol_collector.h"

namespace nettrace {

class ReadPipeline {
 public:
  ReadPipeline() = default;
  ReadPipeline(const ReadPipeline&) = delete;
  ReadPipeline& operator=(const ReadPipeline&) = delete;

  Status Push(const uint8_t* data, size_t size);
  size_t TailWanted() const { return reader_.tailWanted(); }
  Status ProvideTail(const uint8_t* data, size_t size, uint64_t fileSize);
  Status Finish();
  // Seals what the sorter has released (and sorts the method ranges seen so far) so that
  // the model answers over it; after Finish it only counts.
  StoreSnapshot Snapshot();

  // Method names stay in the file (symbols/method_names.h): read back through `read` on
  // first use, or provided by the caller (NameRangesNeeded / ProvideNames).
  void KeepNamesInSource(BlockReader read);
  std::vector<ByteRange> NameRangesNeeded();
  void ProvideNames(uint64_t offset, const uint8_t* data, size_t size);

  const TraceReader& reader() const { return reader_; }
  uint64_t eventCount() const { return resolver_.nextOrdinal(); }
  uint64_t droppedEventCount() const { return records_.drops().total(); }

  // The model. Its symbols name frames only after PrepareSymbols (stack queries call it).
  const TraceModel& model() const { return model_; }
  // Sorts the method ranges once reading has ended and reads back names kept in the file
  // (when the pipeline can read them itself), before a query names frames.
  const TraceModel& PrepareSymbols();

 private:
  void FlushOnce();
  void ReadNames();

  // Declared in the order they are built; a stage's address is enough for the one before it.
  Stats stats_;
  RuntimeSignals runtime_;  // the summary's "runtime" key
  ClrStatsSink clrStats_;   // GC and JIT statistics
  RuntimeViews views_;      // exceptions, contention, activities, counters, thread pool
  AllocationSamples allocations_;  // AllocationSampled / AllocationTick records: the alloc weights, `allocations`
  SortedTap tap_{{&runtime_, &clrStats_, &views_, &allocations_}};
  RecordFacts records_{&stats_};
  StoreBuilder store_{&stats_, &resolver_, &tap_};
  SymbolCollector symbols_{&resolver_};  // method ranges and payload facts for stacks
  SessionFanOut fanOut_{&records_, &store_, &symbols_};
  TypeResolver resolver_{&fanOut_, &stats_};
  TraceReader reader_{&resolver_, &stats_};
  TraceModel model_{store_, resolver_,
                    {&reader_, &records_, &stats_, &runtime_, &clrStats_.gc(), &clrStats_.jit(), &views_, &allocations_,
                     &symbols_}};
  bool flushed_ = false;
  bool methodsSorted_ = false;
  BlockReader namesReader_;  // how method names kept in the file are read back (native)
  NamesFromSource names_;
};

}  // namespace nettrace
