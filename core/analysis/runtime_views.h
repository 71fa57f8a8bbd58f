// core/analysis — the event views of issue 14 that .NET engineers open a trace for:
// exceptions, lock contention and waits, counters, the thread pool. Per-event payloads
// are not kept by the pipeline, so this sink follows the sorted tap (model/sorted_tap.h: the
// events in (timestamp, file order)) and keeps only what the views show: one small record
// per exception, per wait and per counter sample (each list capped), aggregates per
// type/lock/series. The views are written at the end from these records joined with the model
// (stacks and threads, matched through the file-order ordinal the store keeps per row). The
// activities view is built from the store instead (analysis/activity_view.h), by the rules the
// thread-time stacks' activity frames follow.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "analysis/contention_view.h"
#include "analysis/counter_view.h"
#include "analysis/exception_view.h"
#include "analysis/threadpool_view.h"
#include "analysis/view_format.h"
#include "model/sorted_tap.h"

namespace nettrace {

class TraceModel;
class SymbolCollector;
struct StackQuery;
struct StackSelection;

class RuntimeViews final : public TimeOrderedSink {
 public:
  void OnTraceInfo(const TraceInfo& info) override;
  void OnMetadataKind(EventKind kind) override;
  bool Reads(EventKind kind) const override;
  void OnTimeOrdered(const TimeOrderedEvent& e) override;

  std::string Exceptions(const TraceModel& model, const SymbolCollector& symbols, ViewFormat f) const;
  std::string Contention(const TraceModel& model, ViewFormat f) const;
  std::string Counters(ViewFormat f) const;
  std::string ThreadPool(ViewFormat f) const;

  // Narrows or re-weighs a stack selection for the view-specific parts of a query:
  // StackQuery::exceptionType keeps the throws of one type; WeightKind::kWaitTime weighs
  // each Contention/Start or WaitHandleWait/Start by its paired wait (unpaired ones leave).
  void Refine(const TraceModel& model, const StackQuery& query, StackSelection* sel) const;

 private:
  TraceInfo info_;
  ExceptionView exceptions_;
  ContentionView contention_;
  CounterView counters_;
  ThreadPoolView threadPool_;
};

}  // namespace nettrace
