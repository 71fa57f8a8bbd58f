// core/export — formats other tools open. Each takes the model, the symbols and a stack
// resolver (analysis/stack_frames) and returns the whole document as a string, or (the
// *Stream functions) produces it a part at a time with bounded memory (export_stream.h):
//   folded stacks   "a;b;c weight" per distinct stack, root first, lines sorted
//                   (flamegraph.pl, speedscope, pyroscope read it)
//   speedscope      https://www.speedscope.app/file-format-schema.json: one "sampled"
//                   profile per thread, frames shared, samples root first, in time order;
//                   for time weights one "evented" profile per thread in milliseconds
//   Chrome trace    the Trace Event Format's JSON object form (chrome://tracing, Perfetto):
//                   every event as a thread-scoped instant event (payload fields as args),
//                   stacks as stackFrames, activities and GCs as durations
//   CSV             every event: time, provider, name, thread, call-stack id (and, on
//                   request, the stack's text); a second CSV has each stack id's frames,
//                   so rows do not repeat stack text (48 MB for a 3.4 MB trace before)
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/call_tree.h"
#include "export/export_stream.h"

namespace nettrace {

// Frames always root first, also for an inverted view (the tools reading folded stacks take
// the first frame as the root); with groupByThread a "Thread (id)" frame outermost. Events
// with no stack (and no thread frame) have no line.
std::string ExportFolded(const TraceModel& model, const StackSelection& selection, StackResolver* resolver,
                         bool groupByThread);

// `name` is the file's profile group name (e.g. the trace's file name).
std::string ExportSpeedscope(const TraceModel& model, const StackSelection& selection, StackResolver* resolver,
                             const std::string& name);

// The evented form (speedscope_evented_export.cc) for selections weighed in time: one
// "evented" profile per thread, milliseconds, frames opening and closing at real times as
// dotnet-trace's file has them; activeProfileIndex is the thread with the most weight.
// spansEndAtEvent: an entry's weight is the time before its event (thread-time,
// managed-thread-time), not after it (traceevent-thread-time, wait-time).
// dotnetTrace: every stack under the process, activity and thread frames dotnet-trace's
// files have (export/dotnet_trace_frames.h), each profile named as dotnet-trace names it;
// nullptr: the stacks as selected (a thread frame above them with groupByThread).
class DotnetTraceFrames;
std::string ExportSpeedscopeEvented(const TraceModel& model, const StackSelection& selection,
                                    StackResolver* resolver, const std::string& name, bool groupByThread,
                                    bool spansEndAtEvent, DotnetTraceFrames* dotnetTrace = nullptr);

// A span the Chrome trace shows as a complete ("X") duration event: a Start/Stop activity
// pair, a GC, its pause and its suspension. Times in ms from the trace's sync time; durNs
// exact where the source counts ticks (activities), else the source's ms (GC records).
struct ChromeSpan {
  std::string name, category;
  double startMs = 0;
  double durMs = 0;
  uint64_t tid = 0;
  std::vector<std::pair<std::string, std::string>> args;  // shown as strings
};

// The Chrome trace in pieces (chrome_trace_export.cc): Head (metadata, then each span as a
// duration event; GC spans on a "GC" track, tid 0), Events (store rows as thread-scoped
// instant events, pages in store order, with `args` from ArgsOf where given), Tail.
class ChromeTraceWriter {
 public:
  // A row's payload fields as (name, text) pairs; empty when not at hand.
  using ArgsOf = std::function<std::vector<std::pair<std::string, std::string>>(uint32_t row)>;
  ChromeTraceWriter(const TraceModel& model, const SymbolCollector& symbols);
  std::string Head(const std::vector<ChromeSpan>& spans);
  std::string Events(uint32_t beginRow, uint32_t endRow, const ArgsOf& args);
  std::string Tail();

 private:
  void Item(const std::string& json, std::string* out);
  const TraceModel& model_;
  StackResolver resolver_;
  std::set<uint32_t> usedStacks_;
  bool first_ = true;
};

// The whole Chrome trace without payload args.
std::string ExportChromeTrace(const TraceModel& model, const SymbolCollector& symbols,
                              const std::vector<ChromeSpan>& spans = {});

// Columns TimeMs,Provider,Event,ThreadId,StackId[,Stack]; StackId is empty for an event
// without a stack. The ids are those of ExportStacksCsv from the same resolver state.
std::string ExportEventsCsv(const TraceModel& model, StackResolver* resolver, bool stackText = false);

// Columns StackId,Depth,Stack: every call stack an event has, ascending id, frames root
// first joined by ';'.
std::string ExportStacksCsv(const TraceModel& model, StackResolver* resolver);

// The same documents a part at a time: the same bytes as the functions above. They read
// `model`, `*resolver` and `selection` as they go: those must outlive the stream.
std::unique_ptr<ExportStream> FoldedStream(const TraceModel& model, const StackSelection& selection,
                                           StackResolver* resolver, bool groupByThread);
std::unique_ptr<ExportStream> SpeedscopeStream(const TraceModel& model, const StackSelection& selection,
                                               StackResolver* resolver, const std::string& name);
std::unique_ptr<ExportStream> SpeedscopeEventedStream(const TraceModel& model, const StackSelection& selection,
                                                      StackResolver* resolver, const std::string& name,
                                                      bool groupByThread, bool spansEndAtEvent,
                                                      DotnetTraceFrames* dotnetTrace = nullptr);
std::unique_ptr<ExportStream> EventsCsvStream(const TraceModel& model, StackResolver* resolver, bool stackText);
std::unique_ptr<ExportStream> StacksCsvStream(const TraceModel& model, StackResolver* resolver);

}  // namespace nettrace
