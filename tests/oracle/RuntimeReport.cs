// runtime.json: TraceEvent's own GC and JIT analyses (Microsoft.Diagnostics.Tracing.Analysis,
// what PerfView's GCStats and JITStats views show), from a second pass over the TraceLog with
// NeedLoadedDotNetRuntimes(). A separate pass so that the analysis' parser subscriptions cannot
// change what the AllEvents pass of events.jsonl sees. Int32 values and counts are JSON
// numbers; doubles ("R", invariant) and Int64 sizes are JSON strings; a member that throws is
// written as {"error":"<exception type>"}.
using System;
using System.Globalization;
using System.Linq;
using System.Text;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Analysis;
using Microsoft.Diagnostics.Tracing.Analysis.GC;
using Microsoft.Diagnostics.Tracing.Analysis.JIT;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

namespace NetTraceOracle;

internal static class RuntimeReport
{
    private static readonly Gens[] AllGens = { Gens.Gen0, Gens.Gen1, Gens.Gen2, Gens.GenLargeObj, Gens.GenPinObj };

    public static void Write(Microsoft.Diagnostics.Tracing.Etlx.TraceLog log, string path)
    {
        var source = log.Events.GetSource();
        source.NeedLoadedDotNetRuntimes();
        source.Process();

        var j = new Json(new StringBuilder());
        j.BeginObject().Key("processes").BeginArray();
        foreach (var process in source.Processes().OrderBy(p => p.ProcessID))
        {
            var runtime = process.LoadedDotNetRuntime();
            j.BeginObject()
                .Prop("pid", process.ProcessID)
                .Prop("name", process.Name ?? "")
                .Prop("hasRuntime", runtime != null);
            if (runtime != null) WriteRuntime(j, runtime);
            j.EndObject();
        }
        j.EndArray().EndObject();
        Output.WriteText(path, j.Builder.Append('\n').ToString());
    }

    private static void WriteRuntime(Json j, TraceLoadedDotNetRuntime rt)
    {
        j.Prop("runtimeVersion", rt.RuntimeVersion ?? "")
            .Prop("startupFlags", rt.StartupFlags.ToString())
            .Prop("tieredCompilation", rt.IsTieredCompilationEnabled);
        j.Key("gcTotals");
        if (Try(j, () => rt.GC.Stats(), out var totals)) WriteGcStats(j, totals);
        j.Key("gcGenerations").BeginArray();
        Try(j, () => rt.GC.Generations(), out var gens);
        for (int g = 0; gens != null && g < gens.Length; g++)
        {
            if (gens[g] == null) continue;
            j.BeginObject().Prop("generation", g);
            j.Key("stats");
            WriteGcStats(j, gens[g]);
            j.EndObject();
        }
        j.EndArray();
        j.Key("gcs").BeginArray();
        foreach (var gc in rt.GC.GCs) WriteGc(j, gc);
        j.EndArray();
        j.Key("jitTotals");
        if (Try(j, () => rt.JIT.Stats(), out var jit)) WriteJitStats(j, jit);
        j.Key("jitMethods").BeginArray();
        foreach (var m in rt.JIT.Methods) WriteMethod(j, m);
        j.EndArray();
    }

    private static void WriteGcStats(Json j, GCStats s)
    {
        j.BeginObject()
            .Prop("count", s.Count)
            .Prop("numInduced", s.NumInduced)
            .PropR("maxPauseDurationMSec", s.MaxPauseDurationMSec);
        R(j, "meanPauseDurationMSec", () => s.MeanPauseDurationMSec);
        j.PropR("totalPauseTimeMSec", s.TotalPauseTimeMSec)
            .PropR("maxSuspendDurationMSec", s.MaxSuspendDurationMSec)
            .PropR("maxSizePeakMB", s.MaxSizePeakMB)
            .PropR("totalAllocatedMB", s.TotalAllocatedMB)
            .PropR("totalPromotedMB", s.TotalPromotedMB)
            .PropR("totalSizeAfterMB", s.TotalSizeAfterMB)
            .PropR("totalCpuMSec", s.TotalCpuMSec)
            .Prop("pinnedObjectSizes", s.PinnedObjectSizes.ToString(CultureInfo.InvariantCulture))
            .Prop("pinnedObjectPercentage", s.PinnedObjectPercentage)
            .Prop("heapCount", s.HeapCount)
            .Prop("isServerGCUsed", s.IsServerGCUsed)
            .Prop("hasDetailedGCInfo", s.HasDetailedGCInfo)
            .EndObject();
    }

    private static void WriteGc(Json j, TraceGC gc)
    {
        j.BeginObject()
            .Prop("number", gc.Number)
            .Prop("generation", gc.Generation)
            .Prop("type", gc.Type.ToString())
            .Prop("reason", gc.Reason.ToString())
            // TraceGC has no IsInduced: derived from the reason as GCStats.NumInduced counts
            // (TraceManagedProcess.cs): Induced or InducedNotForced, no other reason.
            .Prop("isInduced", gc.Reason == GCReason.Induced || gc.Reason == GCReason.InducedNotForced)
            .Prop("isComplete", gc.IsComplete)
            .PropR("startRelativeMSec", gc.StartRelativeMSec)
            .PropR("durationMSec", gc.DurationMSec)
            .PropR("pauseStartRelativeMSec", gc.PauseStartRelativeMSec)
            .PropR("pauseDurationMSec", gc.PauseDurationMSec)
            .PropR("suspendDurationMSec", gc.SuspendDurationMSec)
            .PropR("heapSizeBeforeMB", gc.HeapSizeBeforeMB)
            .PropR("heapSizePeakMB", gc.HeapSizePeakMB);
        R(j, "heapSizeAfterMB", () => gc.HeapSizeAfterMB);
        R(j, "promotedMB", () => gc.PromotedMB);
        j.PropR("allocedSinceLastGCMB", gc.AllocedSinceLastGCMB)
            .PropR("allocRateMBSec", gc.AllocRateMBSec)
            .PropR("pauseTimePercentageSinceLastGC", gc.PauseTimePercentageSinceLastGC);
        R(j, "percentTimeInGC", () => gc.PercentTimeInGC);
        j.Prop("heapCount", gc.HeapCount);
        Int64(j, "pinnedObjectSizes", () => gc.GetPinnedObjectSizes());
        j.Key("pinnedObjectPercentage");
        if (Try(j, () => gc.GetPinnedObjectPercentage(), out var pinnedPercent)) j.Number(pinnedPercent);
        j.Prop("totalPinnedPlugSize", gc.TotalPinnedPlugSize.ToString(CultureInfo.InvariantCulture))
            .Prop("totalUserPinnedPlugSize", gc.TotalUserPinnedPlugSize.ToString(CultureInfo.InvariantCulture));
        j.Key("pinnedObjectCount");
        if (gc.HeapStats == null) j.Null(); else j.Number(gc.HeapStats.PinnedObjectCount);
        PerGen(j, "genSizeBeforeMB", g => gc.GenSizeBeforeMB == null ? double.NaN : gc.GenSizeBeforeMB[(int)g]);
        PerGen(j, "genSizeAfterMB", gc.GenSizeAfterMB);
        PerGen(j, "genFragmentationMB", gc.GenFragmentationMB);
        PerGen(j, "genPromotedMB", gc.GenPromotedMB);
        PerGen(j, "genBudgetMB", gc.GenBudgetMB);
        j.EndObject();
    }

    private static void WriteJitStats(Json j, JITStats s)
    {
        j.BeginObject()
            .Prop("count", s.Count)
            .PropR("totalCpuTimeMSec", s.TotalCpuTimeMSec)
            .Prop("countForeground", s.CountForeground)
            .PropR("totalForegroundCpuTimeMSec", s.TotalForegroundCpuTimeMSec)
            .Prop("countBackgroundMultiCoreJit", s.CountBackgroundMultiCoreJit)
            .PropR("totalBackgroundMultiCoreJitCpuTimeMSec", s.TotalBackgroundMultiCoreJitCpuTimeMSec)
            .Prop("countBackgroundTieredCompilation", s.CountBackgroundTieredCompilation)
            .PropR("totalBackgroundTieredCompilationCpuTimeMSec", s.TotalBackgroundTieredCompilationCpuTimeMSec)
            .Prop("totalILSize", s.TotalILSize.ToString(CultureInfo.InvariantCulture))
            .Prop("totalNativeSize", s.TotalNativeSize.ToString(CultureInfo.InvariantCulture))
            .EndObject();
    }

    private static void WriteMethod(Json j, TraceJittedMethod m)
    {
        var tier = m.OptimizationTier;
        j.BeginObject()
            .Prop("name", m.MethodName ?? "")
            .Prop("module", m.ModuleILPath ?? "")
            .Prop("tid", m.ThreadID)
            .PropR("startTimeMSec", m.StartTimeMSec)
            .PropR("jitTimeMSec", m.CompileCpuTimeMSec)
            .Prop("ilSize", m.ILSize)
            .Prop("nativeSize", m.NativeSize)
            .Prop("tier", tier.ToString())
            // ReadyToRun/PreJIT code is loaded, not compiled; every other tier is jitted.
            .Prop("r2r", tier == OptimizationTier.ReadyToRun || tier == OptimizationTier.PreJIT)
            .Prop("thread", m.CompilationThreadKind.ToString())
            .Prop("versionId", m.VersionID)
            .Prop("isDefaultVersion", m.IsDefaultVersion)
            .EndObject();
    }

    private static void PerGen(Json j, string name, Func<Gens, double> f)
    {
        j.Key(name).BeginObject();
        foreach (var g in AllGens) R(j, g.ToString(), () => f(g));
        j.EndObject();
    }

    private static void R(Json j, string name, Func<double> f)
    {
        j.Key(name);
        if (Try(j, f, out var v)) j.DoubleString(v);
    }

    private static void Int64(Json j, string name, Func<long> f)
    {
        j.Key(name);
        if (Try(j, f, out var v)) j.String(v.ToString(CultureInfo.InvariantCulture));
    }

    // Computes a value before anything is written; on an exception writes the error object in
    // its place (the analyses index per-generation arrays that a short trace may not have
    // filled). Returns whether the caller should write the value.
    private static bool Try<T>(Json j, Func<T> f, out T value)
    {
        try
        {
            value = f();
            return true;
        }
        catch (Exception ex)
        {
            value = default;
            j.BeginObject().Prop("error", ex.GetType().Name).EndObject();
            return false;
        }
    }
}
