// core/export — the frames dotnet-trace's speedscope files root every stack in, as TraceEvent's
// stack source names them (TraceEventStacks.cs, MutableTraceEventStackSource under
// SpeedScopeStackSourceWriter; TraceLog.cs for the process and thread names):
//
//   Process64 <name> (<pid>) Args: <arguments>      the process ("Process32" with 4-byte pointers)
//   (Non-Activities)                                 or "(Activities)" and the activity frames
//   Threads
//   Thread (<tid>)[ (<category>)]                    the thread, with TraceLog's category
//
// <name> and <arguments> come from the runtime's ProcessInfo CommandLine as TraceLog splits it
// (FromEventPipeProcessInfo: the image is the text before the first space, without surrounding
// quotes; its file name without a .dll or .exe extension; "Process(<pid>)" when there is none;
// the arguments are what follows the image, or its closing quote). The thread category is
// TraceLog's CategorizeThread for the runtime events a trace of ours can show: ".NET ThreadPool"
// (the thread writes ThreadPoolWorkerThreadAdjustment/Sample), ".NET Finalizer Thread"
// (GC/FinalizersStart or Stop), ".NET IO ThreadPool Worker" (ThreadPool/IODequeue, which
// overrides), the first one a thread earns in time order.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/stack_frames.h"
#include "model/trace_model.h"
#include "symbols/symbol_collector.h"

namespace nettrace {

class DotnetTraceFrames {
 public:
  DotnetTraceFrames(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver);

  // A selection stack's frames (root first: start-stop activity frames, if any, then the
  // stack's own) under the process, "(Activities)"/"(Non-Activities)", "Threads" and thread
  // frames, as dotnet-trace's file has them.
  std::vector<uint32_t> Wrap(uint16_t thread, const std::vector<uint32_t>& path);
  // The thread frame's name, which is also the name dotnet-trace gives the thread's profile.
  std::string ThreadName(uint16_t thread) const;

  // TraceLog's process name and arguments of a command line (see above), for tests.
  static std::string ProcessName(const std::string& commandLine, uint64_t pid);
  static std::string Arguments(const std::string& commandLine);

 private:
  uint32_t Intern(const std::string& name);

  const TraceModel& model_;
  const SymbolCollector& symbols_;
  StackResolver* resolver_;
  std::vector<std::string> categories_;  // by ThreadIndex; "" for none
  std::vector<std::pair<uint32_t, uint32_t>> frames_;  // by ThreadIndex: process and thread frame
  uint32_t nonActivities_, threads_;
};

}  // namespace nettrace
