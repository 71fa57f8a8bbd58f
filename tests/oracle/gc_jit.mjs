// Our GC and JIT statistics (`nettrace gc|jit FILE`) against TraceEvent's own analyses
// (runtime.json: TraceLoadedDotNetRuntime's GC.GCs, GC.Stats(), GC.Generations(), JIT.Methods,
// JIT.Stats(); tests/oracle/README.md). Times compare to the microsecond (our JSON prints
// them with 6 decimals, TraceEvent's "R" doubles are rounded the same way), sizes exactly
// (TraceEvent's MB are bytes / 1e6 in doubles: ours divided the same way). Every difference
// that remains is returned; a named rule below may explain some, each counted.

// Named rules, each counted where it applies (compareGcJit's `rules`):
//   truncated-tail: on a trace TraceEvent read only with ContinueOnError (meta.json), it
//     delivers fewer events than we read before the fault (the differential test's rule of the
//     same name); GCs whose GC/Start comes after the last event TraceEvent delivered are ours
//     only. They must be last, and TraceEvent's totals must equal GCStats recomputed here over
//     our other GCs.
//   reason-beyond-traceevent: TraceEvent's GCReason enum ends at 13 (LowMemoryHostBlocking), so
//     a reason .NET writes beyond it prints as its number ("17"); we name it after the runtime's
//     gc_reason (src/coreclr/gc/gc.h; core/analysis/runtime/gc_stats.cc GcReasonName). Applies only
//     where TraceEvent's reason is a number and ours is the runtime's name for that number.
export const GC_JIT_RULES = {
  'truncated-tail': 'GCs after the last event TraceEvent delivered from a truncated trace (ContinueOnError)',
  'reason-beyond-traceevent': "a GC reason TraceEvent's GCReason lacks: its number there, the runtime's name here",
};

// The runtime's gc_reason values beyond TraceEvent's GCReason, as we name them.
const RUNTIME_GC_REASONS = { 14: 'BGCTuningSOH', 15: 'BGCTuningLOH', 16: 'BGCStepping', 17: 'InducedAggressive' };

// GCStats as TraceGarbageCollector.Calculate sums them (complete GCs, in list order).
export function gcTotals(gcs) {
  const t = { count: 0, induced: 0, totalPauseMs: 0, maxPauseMs: 0, maxSuspendMs: 0, totalAllocatedMB: 0 };
  for (const g of gcs.filter((x) => x.isComplete)) {
    t.count++;
    if (g.reason === 'Induced' || g.reason === 'InducedNotForced') t.induced++;
    t.totalPauseMs += g.pauseMs;
    t.maxPauseMs = Math.max(t.maxPauseMs, g.pauseMs);
    t.maxSuspendMs = Math.max(t.maxSuspendMs, g.suspendMs);
    t.totalAllocatedMB += g.allocedSinceLastGCMB;
  }
  return { ...t, meanPauseMs: t.count ? t.totalPauseMs / t.count : 0 };
}

const micro = (v) => Number(v).toFixed(6);
// A double that may be NaN or ±Infinity in TraceEvent ("R" text) and null in our JSON.
const microOrNull = (v) => (Number.isFinite(Number(v)) ? Number(v).toFixed(6) : null);
const ourMicro = (v) => (v === null ? null : v.toFixed(6));
const mb = (bytes) => (bytes === null ? -1 : Number(bytes) / 1e6);

// TraceGC fields we compute, as [name, theirs → comparable, ours → comparable].
const GC_FIELDS = [
  ['number', (t) => t.number, (o) => o.number],
  ['generation', (t) => t.generation, (o) => o.generation],
  ['type', (t) => t.type, (o) => o.type],
  ['reason', (t) => t.reason, (o) => o.reason],
  ['isInduced', (t) => t.isInduced, (o) => o.isInduced],
  ['isComplete', (t) => t.isComplete, (o) => o.isComplete],
  ['startRelativeMSec', (t) => micro(t.startRelativeMSec), (o) => o.startMs.toFixed(6)],
  ['durationMSec', (t) => micro(t.durationMSec), (o) => o.durationMs.toFixed(6)],
  ['pauseStartRelativeMSec', (t) => micro(t.pauseStartRelativeMSec), (o) => o.pauseStartMs.toFixed(6)],
  ['pauseDurationMSec', (t) => micro(t.pauseDurationMSec), (o) => o.pauseMs.toFixed(6)],
  ['suspendDurationMSec', (t) => micro(t.suspendDurationMSec), (o) => o.suspendMs.toFixed(6)],
  ['heapSizeBeforeMB', (t) => micro(t.heapSizeBeforeMB), (o) => o.heapSizeBeforeMB.toFixed(6)],
  ['allocedSinceLastGCMB', (t) => microOrNull(t.allocedSinceLastGCMB), (o) => ourMicro(o.allocedSinceLastGCMB)],
  ['allocRateMBSec', (t) => microOrNull(t.allocRateMBSec), (o) => ourMicro(o.allocRateMBSec)],
  ['pauseTimePercentageSinceLastGC', (t) => microOrNull(t.pauseTimePercentageSinceLastGC), (o) => ourMicro(o.pauseTimePercentageSinceLastGC)],
  ['heapSizeAfterMB', (t) => Number(t.heapSizeAfterMB), (o) => mb(o.heapSizeAfterBytes)],
  ['promotedMB', (t) => Number(t.promotedMB), (o) => mb(o.promotedBytes)],
  ['genSizeAfterMB', (t) => JSON.stringify(Object.values(t.genSizeAfterMB).map(Number)),
    (o) => JSON.stringify(o.genSizeAfterBytes === null ? Array(5).fill(NaN) : Object.values(o.genSizeAfterBytes).map((b) => b / 1e6))],
  ['pinnedObjectCount', (t) => t.pinnedObjectCount, (o) => o.pinnedObjectCount],
];

const TOTAL_FIELDS = [
  ['count', (t) => t.count, (o) => o.count],
  ['numInduced', (t) => t.numInduced, (o) => o.induced],
  ['totalPauseTimeMSec', (t) => micro(t.totalPauseTimeMSec), (o) => o.totalPauseMs.toFixed(6)],
  ['maxPauseDurationMSec', (t) => micro(t.maxPauseDurationMSec), (o) => o.maxPauseMs.toFixed(6)],
  ['meanPauseDurationMSec', (t) => (t.count ? micro(t.meanPauseDurationMSec) : '0.000000'), (o) => o.meanPauseMs.toFixed(6)],
  ['maxSuspendDurationMSec', (t) => micro(t.maxSuspendDurationMSec), (o) => o.maxSuspendMs.toFixed(6)],
  ['totalAllocatedMB', (t) => microOrNull(t.totalAllocatedMB), (o) => ourMicro(o.totalAllocatedMB)],
];

const METHOD_FIELDS = [
  ['name', (t) => t.name, (o) => o.name],
  ['module', (t) => t.module, (o) => o.module],
  ['tid', (t) => t.tid, (o) => o.threadId],
  ['startTimeMSec', (t) => micro(t.startTimeMSec), (o) => o.startMs.toFixed(6)],
  ['jitTimeMSec', (t) => micro(t.jitTimeMSec), (o) => o.jitTimeMs.toFixed(6)],
  ['ilSize', (t) => t.ilSize, (o) => o.ilSize],
  ['nativeSize', (t) => t.nativeSize, (o) => o.nativeSize],
  ['tier', (t) => t.tier, (o) => o.tier],
  ['r2r', (t) => t.r2r, (o) => o.r2r],
  ['thread', (t) => t.thread, (o) => o.thread],
  ['versionId', (t) => t.versionId, (o) => o.versionId],
];

const JIT_TOTAL_FIELDS = [
  ['count', (t) => t.count, (o) => o.count],
  ['totalCpuTimeMSec', (t) => micro(t.totalCpuTimeMSec), (o) => o.totalJitTimeMs.toFixed(6)],
  ['countForeground', (t) => t.countForeground, (o) => o.countForeground],
  ['totalForegroundCpuTimeMSec', (t) => micro(t.totalForegroundCpuTimeMSec), (o) => o.foregroundJitTimeMs.toFixed(6)],
  ['countBackgroundMultiCoreJit', (t) => t.countBackgroundMultiCoreJit, (o) => o.countBackgroundMultiCoreJit],
  ['totalBackgroundMultiCoreJitCpuTimeMSec', (t) => micro(t.totalBackgroundMultiCoreJitCpuTimeMSec),
    (o) => o.backgroundMultiCoreJitTimeMs.toFixed(6)],
  ['countBackgroundTieredCompilation', (t) => t.countBackgroundTieredCompilation, (o) => o.countBackgroundTieredCompilation],
  ['totalBackgroundTieredCompilationCpuTimeMSec', (t) => micro(t.totalBackgroundTieredCompilationCpuTimeMSec),
    (o) => o.backgroundTieredCompilationJitTimeMs.toFixed(6)],
  ['totalILSize', (t) => Number(t.totalILSize), (o) => o.totalILSize],
  ['totalNativeSize', (t) => Number(t.totalNativeSize), (o) => o.totalNativeSize],
];

function compareFields(fields, theirs, ours, where, out) {
  for (const [name, t, o] of fields) {
    const a = t(theirs), b = o(ours);
    if (!Object.is(a, b) && a !== b) out.push(`${where} ${name}: TraceEvent ${JSON.stringify(a)}, ours ${JSON.stringify(b)}`);
  }
}

/**
 * Compares one trace: `runtime` is runtime.json, `gc` and `jit` our CLI's JSON. Returns
 * { differences: [...], compared: {gcs, methods, processes} }.
 */
export function compareGcJit(runtime, gc, jit, { truncated = false, lastDeliveredMs = Infinity, lastHeapStatsMs = new Map() } = {}) {
  const differences = [];
  const compared = { gcs: 0, methods: 0, processes: 0 };
  const rules = {};
  for (const proc of runtime.processes.filter((p) => p.hasRuntime)) {
    const theirGcs = Array.isArray(proc.gcs) ? proc.gcs : [];
    const theirMethods = Array.isArray(proc.jitMethods) ? proc.jitMethods : [];
    if (!theirGcs.length && !theirMethods.length) continue;
    compared.processes++;
    const where = `pid ${proc.pid}`;
    const ourGc = gc.processes.find((p) => p.processId === proc.pid);
    const ourJit = jit.processes.find((p) => p.processId === proc.pid);
    if (theirGcs.length) {
      if (!ourGc) differences.push(`${where}: ${theirGcs.length} GCs in TraceEvent, none here`);
      else {
        let ours = ourGc.gcs;
        let totals = ourGc.totals;
        let generations = ourGc.generations;
        const extra = ours.slice(theirGcs.length);
        if (truncated && extra.length && extra.every((g) => g.startMs > lastDeliveredMs)) {
          rules['truncated-tail'] = (rules['truncated-tail'] ?? 0) + extra.length;
          // TraceEvent's totals are over the GCs it saw: GCStats recomputed over those of ours.
          ours = ours.slice(0, theirGcs.length);
          const round = (t) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Number.isInteger(v) ? v : Number(v.toFixed(6))]));
          totals = round(gcTotals(ours));
          generations = [0, 1, 2].map((gen) => round(gcTotals(ours.filter((g) => g.generation === gen))));
        }
        // GCStats.GetGCPauseTimePercentage (not in runtime.json): TraceEvent's total pause over
        // its ProcessDuration, from its first complete GC's pause start to the last GC/HeapStats
        // it delivered (events.jsonl.gz). Under truncated-tail our last HeapStats is later.
        const firstComplete = theirGcs.find((g) => g.isComplete);
        if (!rules['truncated-tail'] && firstComplete && lastHeapStatsMs.has(proc.pid)) {
          const duration = lastHeapStatsMs.get(proc.pid) - Number(firstComplete.pauseStartRelativeMSec);
          const theirs = { processDurationMs: duration.toFixed(6), pausedPercent: ((Number(proc.gcTotals.totalPauseTimeMSec) * 100) / duration).toFixed(6) };
          const mine = { processDurationMs: ourGc.totals.processDurationMs.toFixed(6), pausedPercent: ourGc.totals.pausedPercent.toFixed(6) };
          for (const k of Object.keys(theirs))
            if (theirs[k] !== mine[k]) differences.push(`${where} totals ${k}: TraceEvent ${theirs[k]}, ours ${mine[k]}`);
          compared.pausedPercent = (compared.pausedPercent ?? 0) + 1;
        }
        if (ours.length !== theirGcs.length) differences.push(`${where}: ${theirGcs.length} GCs in TraceEvent, ${ours.length} here`);
        for (let i = 0; i < Math.min(theirGcs.length, ours.length); i++, compared.gcs++) {
          let theirs = theirGcs[i];
          if (/^\d+$/.test(theirs.reason) && RUNTIME_GC_REASONS[theirs.reason] === ours[i].reason) {
            rules['reason-beyond-traceevent'] = (rules['reason-beyond-traceevent'] ?? 0) + 1;
            theirs = { ...theirs, reason: ours[i].reason };
          }
          compareFields(GC_FIELDS, theirs, ours[i], `${where} GC #${theirGcs[i].number}`, differences);
        }
        compareFields(TOTAL_FIELDS, proc.gcTotals, totals, `${where} totals`, differences);
        for (const g of proc.gcGenerations)
          compareFields(TOTAL_FIELDS, g.stats, generations[g.generation], `${where} gen${g.generation} totals`, differences);
      }
    }
    if (theirMethods.length) {
      if (!ourJit) differences.push(`${where}: ${theirMethods.length} jitted methods in TraceEvent, none here`);
      else {
        if (ourJit.methods.length !== theirMethods.length)
          differences.push(`${where}: ${theirMethods.length} methods in TraceEvent, ${ourJit.methods.length} here`);
        for (let i = 0; i < Math.min(theirMethods.length, ourJit.methods.length); i++, compared.methods++)
          compareFields(METHOD_FIELDS, theirMethods[i], ourJit.methods[i], `${where} method ${i}`, differences);
        compareFields(JIT_TOTAL_FIELDS, proc.jitTotals, ourJit.totals, `${where} JIT totals`, differences);
      }
    }
  }
  return { differences, compared, rules };
}
