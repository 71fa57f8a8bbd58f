// meta.json: what TraceLog and the raw EventPipeEventSource expose about a trace as a whole,
// plus the versions that produced the baselines and the counts of the other files. Only values
// that come from the trace bytes or the tools: no paths, dates of the run or machine names.
using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;

namespace NetTraceOracle;

/// Counts gathered by the other outputs, reported in meta.json.
internal sealed record RunCounts(long DeliveredEvents, int Stacks, int CpuSamples, bool ContinueOnError);

/// What the raw EventPipeEventSource (no TraceLog) reports: its own pass counts every event the
/// file holds, before TraceLog drops its bookkeeping events.
internal sealed record RawView(long Events, int EventsLost, int PointerSize, int Processors,
    DateTime SessionStart, double SessionEndRelativeMSec, string Error);

internal static class MetaReport
{
    public static string TraceEventVersion =>
        typeof(TraceEvent).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "";

    public static RawView ReadRaw(string tracePath)
    {
        try
        {
            using var raw = new EventPipeEventSource(tracePath);
            long n = 0;
            raw.AllEvents += _ => n++;
            raw.Process();
            return new RawView(n, raw.EventsLost, raw.PointerSize, raw.NumberOfProcessors,
                raw.SessionStartTime, raw.SessionEndTimeRelativeMSec, null);
        }
        catch (Exception ex)
        {
            return new RawView(0, 0, 0, 0, default, 0, ex.GetType().Name + ": " + ex.Message);
        }
    }

    public static void Write(string path, string tracePath, TraceLog log, RunCounts counts, RawView raw, string dotnetTrace)
    {
        var j = new Json(new StringBuilder());
        j.BeginObject()
            .Prop("traceFile", Path.GetFileName(tracePath))
            .Prop("traceBytes", new FileInfo(tracePath).Length)
            .Prop("traceSha256", Sha256(tracePath))
            .Prop("traceEventVersion", TraceEventVersion)
            .Prop("dotnetTrace", dotnetTrace ?? "")
            .Prop("continueOnError", counts.ContinueOnError);
        j.Key("traceLog").BeginObject()
            .Prop("eventCount", log.EventCount)
            .Prop("deliveredEvents", counts.DeliveredEvents)
            .Prop("eventsLost", log.EventsLost)
            .Prop("truncated", log.Truncated)
            .Prop("pointerSize", log.PointerSize)
            .Prop("numberOfProcessors", log.NumberOfProcessors)
            .Prop("cpuSpeedMHz", log.CpuSpeedMHz)
            .Prop("hasCallStacks", log.HasCallStacks)
            .PropR("sampleProfileIntervalMSec", log.SampleProfileInterval.TotalMilliseconds)
            .Prop("sessionStartTimeUtc", Utc(log.SessionStartTime))
            .PropR("sessionEndTimeRelativeMSec", log.SessionEndTimeRelativeMSec)
            .Prop("osVersion", log.OSVersion?.ToString() ?? "")
            .Prop("threads", log.Threads.Count)
            .Prop("codeAddresses", log.CodeAddresses.Count)
            .Prop("callStacks", log.CallStacks.Count)
            .Prop("methods", log.CodeAddresses.Methods.Count)
            .Prop("moduleFiles", log.ModuleFiles.Count);
        WriteProcesses(j, log);
        j.EndObject();
        j.Key("eventPipeEventSource").BeginObject();
        if (raw.Error != null) j.Prop("error", raw.Error);
        else
        {
            j.Prop("events", raw.Events)
                .Prop("eventsLost", raw.EventsLost)
                .Prop("pointerSize", raw.PointerSize)
                .Prop("numberOfProcessors", raw.Processors)
                .Prop("sessionStartTimeUtc", Utc(raw.SessionStart))
                .PropR("sessionEndTimeRelativeMSec", raw.SessionEndRelativeMSec);
        }
        j.EndObject();
        j.Prop("stacks", counts.Stacks).Prop("cpuSamples", counts.CpuSamples);
        j.EndObject();
        Output.WriteText(path, j.Builder.Append('\n').ToString());
    }

    private static void WriteProcesses(Json j, TraceLog log)
    {
        j.Key("processes").BeginArray();
        foreach (var p in log.Processes.OrderBy(p => p.ProcessID))
        {
            j.BeginObject()
                .Prop("pid", p.ProcessID)
                .Prop("name", p.Name ?? "")
                .Prop("commandLine", p.CommandLine ?? "")
                .Prop("is64Bit", p.Is64Bit)
                .PropR("startTimeRelativeMSec", p.StartTimeRelativeMsec)
                .PropR("endTimeRelativeMSec", p.EndTimeRelativeMsec)
                .Prop("threads", p.Threads.Count())
                .EndObject();
        }
        j.EndArray();
    }

    private static string Utc(DateTime t) =>
        (t.Kind == DateTimeKind.Local ? t.ToUniversalTime() : t).ToString("o", CultureInfo.InvariantCulture);

    private static string Sha256(string path)
    {
        using var f = File.OpenRead(path);
        return Convert.ToHexStringLower(SHA256.HashData(f));
    }
}
