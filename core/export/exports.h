// core/export — formats other tools open. Each takes the model, the symbols and a stack
// resolver (analysis/stack_frames) and returns the whole document as a string:
//   folded stacks   "a;b;c weight" per distinct stack, lines sorted (flamegraph.pl,
//                   speedscope, pyroscope read it)
//   speedscope      https://www.speedscope.app/file-format-schema.json: one "sampled"
//                   profile per thread, frames shared, samples root first, in time order
//   Chrome trace    the Trace Event Format's JSON object form (chrome://tracing, Perfetto):
//                   every event as a thread-scoped instant event, stacks as stackFrames
//   CSV             every event: time, provider, name, thread, call-stack id (and, on
//                   request, the stack's text); a second CSV has each stack id's frames,
//                   so rows do not repeat stack text (48 MB for a 3.4 MB trace before)
#pragma once

#include <string>

#include "analysis/call_tree.h"

namespace nettrace {

// Frames root first (leaf first when inverted); with groupByThread a "Thread (id)" frame
// outermost. Events with no stack (and no thread frame) have no line.
std::string ExportFolded(const StoreBuilder& model, const StackSelection& selection, StackResolver* resolver,
                         bool groupByThread, bool inverted = false);

// `name` is the file's profile group name (e.g. the trace's file name).
std::string ExportSpeedscope(const StoreBuilder& model, const StackSelection& selection, StackResolver* resolver,
                             const std::string& name);

std::string ExportChromeTrace(const StoreBuilder& model, StackResolver* resolver);

// Columns TimeMs,Provider,Event,ThreadId,StackId[,Stack]; StackId is empty for an event
// without a stack. The ids are those of ExportStacksCsv from the same resolver state.
std::string ExportEventsCsv(const StoreBuilder& model, StackResolver* resolver, bool stackText = false);

// Columns StackId,Depth,Stack: every call stack an event has, ascending id, frames root
// first joined by ';'.
std::string ExportStacksCsv(const StoreBuilder& model, StackResolver* resolver);

}  // namespace nettrace
