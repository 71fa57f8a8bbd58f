// The shapes of the runtime statistics (`nettrace gc` and `jit`: TraceEvent's TraceGC / GCStats
// and TraceJittedMethod / JITStats as core/analysis computes them; times are ms from the trace's
// sync time, as TraceEvent's TimeStampRelativeMSec) and of `nettrace ps --json`
// (api/result_schema.h).
#include "api/result_schema.h"

namespace nettrace::api {

namespace {
constexpr uint8_t S = kShapeRow, N = kNullable;
}  // namespace

Rows<ResultRow> RuntimeResultRows() {
  static const ResultRow rows[] = {
      {"GcGenerationSizes", nullptr, S, "Sizes after a GC by generation (HeapStats GenerationSize0..4), bytes."},
      {"gen0", "integer", 0, nullptr},
      {"gen1", "integer", 0, nullptr},
      {"gen2", "integer", 0, nullptr},
      {"loh", "integer", 0, nullptr},
      {"poh", "integer", 0, nullptr},

      {"GcRecord", nullptr, S, "One GC as TraceEvent's TraceGC. Size fields are null without a GC/HeapStats event."},
      {"number", "integer", 0, nullptr},
      {"generation", "integer", 0, nullptr},
      {"type", "string", 0, "GCType: \"NonConcurrentGC\", \"BackgroundGC\", \"ForegroundGC\"."},
      {"reason", "string", 0, "GCReason by name (\"AllocSmall\", \"Induced\", …)."},
      {"isInduced", "boolean", 0, nullptr},
      {"isComplete", "boolean", 0, nullptr},
      {"startMs", "number", 0, nullptr},
      {"durationMs", "number", 0, nullptr},
      {"pauseStartMs", "number", 0, "The pause runs from the GC's SuspendEEStart to the suspending thread's RestartEEStop."},
      {"pauseMs", "number", 0, nullptr},
      {"suspendMs", "number", 0, nullptr},
      {"heapSizeBeforeMB", "number", N, nullptr},
      {"allocedSinceLastGCMB", "number", N,
       "Allocated since the previous GC (per-heap histories, else allocation ticks), MB; null when TraceEvent's is NaN/Infinity."},
      {"allocRateMBSec", "number", N, nullptr},
      {"pauseTimePercentageSinceLastGC", "number", N, "This GC's pause over the time since the previous GC ended, %."},
      {"heapSizeAfterBytes", "integer", N, nullptr},
      {"promotedBytes", "integer", N, nullptr},
      {"genSizeAfterBytes", "GcGenerationSizes", N, nullptr},
      {"pinnedObjectCount", "integer", N, nullptr},

      {"GcProcessTotals", nullptr, S,
       "GCStats over the complete GCs of a process. `processDurationMs`: the first complete GC's pause start to the "
       "last GC/HeapStats; `pausedPercent`: total pause over it."},
      {"count", "integer", 0, nullptr},
      {"induced", "integer", 0, nullptr},
      {"totalPauseMs", "number", 0, nullptr},
      {"maxPauseMs", "number", 0, nullptr},
      {"meanPauseMs", "number", 0, nullptr},
      {"maxSuspendMs", "number", 0, nullptr},
      {"totalAllocatedMB", "number", N, nullptr},
      {"maxAllocRateMBSec", "number", N, nullptr},
      {"processDurationMs", "number", 0, nullptr},
      {"pausedPercent", "number", 0, nullptr},

      {"GcGenerationTotals", nullptr, S, "GCStats over the complete GCs of one generation."},
      {"generation", "integer", 0, nullptr},
      {"count", "integer", 0, nullptr},
      {"induced", "integer", 0, nullptr},
      {"totalPauseMs", "number", 0, nullptr},
      {"maxPauseMs", "number", 0, nullptr},
      {"meanPauseMs", "number", 0, nullptr},
      {"maxSuspendMs", "number", 0, nullptr},
      {"totalAllocatedMB", "number", N, nullptr},
      {"maxAllocRateMBSec", "number", N, nullptr},

      {"GcProcessStats", nullptr, S, nullptr},
      {"processId", "integer", 0, nullptr},
      {"totals", "GcProcessTotals", 0, nullptr},
      {"generations", "GcGenerationTotals[]", 0, nullptr},
      {"gcs", "GcRecord[]", 0, nullptr},

      {"GcStats", nullptr, S, "`nettrace gc`: one row per GC (TraceEvent's TraceGC) with totals, per process."},
      {"processes", "GcProcessStats[]", 0, nullptr},
      {"eventsNotMeasured", "integer", kOptional, "GC events beyond the engine's bound, not replayed (absent when none)."},

      {"JitMethod", nullptr, S, "One jitted method as TraceEvent's TraceJittedMethod."},
      {"name", "string", 0, "\"Namespace.Name(parameters)\", as TraceEvent names it (\"\" for a Method/Load without a start)."},
      {"module", "string", 0, "The module's IL path (ModuleILPath)."},
      {"threadId", "integer", 0, nullptr},
      {"startMs", "number", 0, nullptr},
      {"jitTimeMs", "number", 0, nullptr},
      {"ilSize", "integer", 0, nullptr},
      {"nativeSize", "integer", 0, nullptr},
      {"tier", "string", 0, "OptimizationTier by name (\"QuickJitted\", \"OptimizedTier1\", …, \"Unknown\")."},
      {"r2r", "boolean", 0, nullptr},
      {"thread", "string", 0, "CompilationThreadKind: \"Foreground\", \"TieredCompilationBackground\" or \"MulticoreJitBackground\"."},
      {"versionId", "integer", 0, nullptr},
      {"completed", "boolean", 0, "A Method/Load(Verbose) ended it (else it started and never finished in the trace)."},

      {"JitTotals", nullptr, S, "JITStats over the completed methods."},
      {"count", "integer", 0, nullptr},
      {"totalJitTimeMs", "number", 0, nullptr},
      {"countForeground", "integer", 0, nullptr},
      {"foregroundJitTimeMs", "number", 0, nullptr},
      {"countBackgroundTieredCompilation", "integer", 0, nullptr},
      {"backgroundTieredCompilationJitTimeMs", "number", 0, nullptr},
      {"countBackgroundMultiCoreJit", "integer", 0, "Methods compiled on the multicore-JIT (ProfileOptimization) background thread."},
      {"backgroundMultiCoreJitTimeMs", "number", 0, nullptr},
      {"totalILSize", "integer", 0, nullptr},
      {"totalNativeSize", "integer", 0, nullptr},

      {"JitProcessStats", nullptr, S, nullptr},
      {"processId", "integer", 0, nullptr},
      {"totals", "JitTotals", 0, nullptr},
      {"methods", "JitMethod[]", 0, nullptr},

      {"JitStats", nullptr, S, "`nettrace jit`: one row per jitted method (TraceEvent's TraceJittedMethod) with totals, per process."},
      {"processes", "JitProcessStats[]", 0, nullptr},

      {"DiagProcess", nullptr, S, "A .NET process with a diagnostics port (`nettrace ps --json`)."},
      {"pid", "integer", 0, nullptr},
      {"name", "string", 0, "The entrypoint assembly (\"\" from runtimes before ProcessInfo2)."},
      {"runtimeVersion", "string", 0, nullptr},
      {"os", "string", 0, nullptr},
      {"arch", "string", 0, nullptr},
      {"commandLine", "string", 0, nullptr},
      {"socket", "string", 0, nullptr},
  };
  return {rows, sizeof rows / sizeof rows[0]};
}

}  // namespace nettrace::api
