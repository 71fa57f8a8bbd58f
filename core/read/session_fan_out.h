// core/read — where the resolved stream splits, in file order: the facts of the records as
// written (blocks, tables, bytes, capture threads and their drops), the store builder
// (tables, sorter, columnar store, and behind its sorter the event counts and the sorted
// tap) and the symbol collector, in that order. The first error stops the stream.
//
// The three are final classes called directly, not through RecordSink's virtual table:
// two TeeSink hops cost ~60 instructions per event before (callgrind, only_managed_samples
// written 20 times).
#pragma once

#include "analysis/record_facts.h"
#include "format/record_sink.h"
#include "model/store_builder.h"
#include "symbols/symbol_collector.h"

namespace nettrace {

class SessionFanOut final : public RecordSink {
 public:
  SessionFanOut(RecordFacts* records, StoreBuilder* store, SymbolCollector* symbols)
      : records_(records), store_(store), symbols_(symbols) {}
  Status OnTraceInfo(const TraceInfo& v) override { return All([&](auto& s) { return s.OnTraceInfo(v); }); }
  Status OnBlock(const BlockInfo& v) override { return All([&](auto& s) { return s.OnBlock(v); }); }
  Status OnMetadata(const EventMetadata& v) override { return All([&](auto& s) { return s.OnMetadata(v); }); }
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override {
    return All([&](auto& s) { return s.OnStack(id, ips); });
  }
  Status OnThread(const ThreadInfo& v) override { return All([&](auto& s) { return s.OnThread(v); }); }
  Status OnRemoveThread(const ThreadSequence& v) override { return All([&](auto& s) { return s.OnRemoveThread(v); }); }
  Status OnLabelList(uint32_t id, const LabelList& v) override {
    return All([&](auto& s) { return s.OnLabelList(id, v); });
  }
  Status OnEvent(const EventRecord& v) override { return All([&](auto& s) { return s.OnEvent(v); }); }
  Status OnSequencePoint(const SequencePoint& v) override { return All([&](auto& s) { return s.OnSequencePoint(v); }); }
  Status OnEndOfStream() override { return All([](auto& s) { return s.OnEndOfStream(); }); }

 private:
  template <typename F>
  Status All(F&& f) {
    NETTRACE_RETURN_IF_ERROR(f(*records_));
    NETTRACE_RETURN_IF_ERROR(f(*store_));
    return f(*symbols_);
  }
  RecordFacts* records_;
  StoreBuilder* store_;
  SymbolCollector* symbols_;
};

}  // namespace nettrace
