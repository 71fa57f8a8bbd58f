// core/verdict — the numbers a budget limits and a many-run comparison totals, measured on one
// trace from what our views compute: the documents `nettrace gc`, `jit`, `exceptions`,
// `contention`, `activities`, `threadpool` and `allocations` print (read back, each once, when a metric asks
// for it), and the stack views (a frame pattern's inclusive weight is the total of the flame
// graph whose IncPats is that pattern, PerfView's inclusive filter). So a budget's measured
// value is the value those commands show, never a second computation of it.
//
// One row of the table (trace_metric_table.cc) per metric: adding a metric is one row.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/stacks/call_tree.h"
#include "api/query_options.h"
#include "model/trace_model.h"
#include "verdict/json_value.h"

namespace nettrace::verdict {

// The view documents of one trace's model (its symbols prepared), parsed on first use.
class TraceViews {
 public:
  explicit TraceViews(const TraceModel& model) : model_(model) {}
  const TraceModel& model() const { return model_; }
  const JsonValue& Gc();
  const JsonValue& Jit();
  const JsonValue& Exceptions();
  const JsonValue& Contention();
  const JsonValue& Activities();
  const JsonValue& ThreadPool();
  const JsonValue& Allocations();

 private:
  const JsonValue& Parsed(std::unique_ptr<JsonValue>& slot, const std::string& json);
  const TraceModel& model_;
  std::unique_ptr<JsonValue> gc_, jit_, exceptions_, contention_, activities_, threadPool_, allocations_;
};

// What a budget or a comparison asks a metric for, besides the trace.
struct MetricArgs {
  std::string argument;  // the metric's argument (an exception type, "Provider/Name", a frame pattern)
  StackQuery query;      // stacks.*: the selection (event, weight, …)
};

// A measurement: the value, or none with the reason ("no complete GC in the trace").
struct Measured {
  std::optional<double> value;
  std::string note;  // why there is no value; or what the value is made of (e.g. the function)
};

enum class MetricArgument : uint8_t { kNone, kOptional, kRequired };

struct MetricKind {
  const char* name;          // "gc.pauseP99Ms"
  const char* unit;          // "ms", "%", "count", "MB", "MB/s"
  const char* argumentName;  // the budget file's member carrying the argument ("type", …), or nullptr
  MetricArgument argument;
  bool stacks;               // takes a stack selection ("query")
  bool total;                // one of the runtime totals a many-run comparison tests
  const char* doc;
  Measured (*measure)(TraceViews& views, const MetricArgs& args);
};

api::Rows<MetricKind> MetricKinds();
const MetricKind* FindMetric(std::string_view name);

}  // namespace nettrace::verdict
