// activities.json and activity-time.json: start-stop activities as TraceEvent itself pairs and
// charges them.
//
// activities.json: TraceEvent's StartStopActivityComputer over TraceLog's events (with its
// ActivityComputer, as SampleProfilerThreadTimeComputer builds them): one object per activity,
// in the order of the computer's Start callbacks: "index" (StartStopActivity.Index), "name"
// (Name: task, activity path, extra info), "task" (TaskName), "id" (ActivityID, "D"), "pid",
// "creator" (the creator's index or null), "startMs" (StartTimeRelativeMSec, "R"), "startTid"
// (the Start event's thread), and from its Stop callback (null when none came): "stopMs" (the
// Stop event's TimeStampRelativeMSec, "R"), "stopTid"; "durationMs" is DurationMSec ("R") after
// the pass, "stops" the number of Stop callbacks. Written when the computer started any.
//
// activity-time.json (traces with SampleProfiler samples and activities): thread time as
// `dotnet-trace convert` computes it (SampleProfilerThreadTimeComputer, IncludeEventSourceEvents
// false, on a MutableTraceEventStackSource with OnlyManagedCodeStacks), here with this TraceEvent
// version. Every sample's metric (float ms) is taken as whole nanoseconds, Math.Round(metric * 1e6),
// so sums do not depend on order. Samples without a thread frame (the computer's UNKNOWN_ASYNC
// samples, which sit under the process and the activity frames only) are what dotnet-trace's
// speedscope writer leaves out (StackSourceWriterHelper.GetSortedSamplesPerThread: "Sample with no
// Thread assigned ... we just ignore it"): they are only counted, "withoutThreadSamples" /
// "withoutThreadNs"; of the others: "totalNs", "activitiesNs" / "nonActivitiesNs" (under the
// "(Activities)" / "(Non-Activities)" frame), and "frames": per distinct "Activity …" frame name
// (ordinal order) its "samples" and "ns" (the samples with that frame anywhere in their stack,
// each counted once), "distinctFrames" their number.
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using Microsoft.Diagnostics.Symbols;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Stacks;

namespace NetTraceOracle;

internal static class ActivityReport
{
    private sealed class Row
    {
        public StartStopActivity Activity;
        public int StartTid;
        public double? StopMs;
        public int? StopTid;
        public int Stops;
    }

    /// Writes activities.json when TraceEvent starts any activity; returns how many it started.
    public static int WritePairs(TraceLog log, string path)
    {
        using var symbols = new SymbolReader(TextWriter.Null) { SymbolPath = "" };
        var source = log.Events.GetSource();
        var computer = new StartStopActivityComputer(source, new ActivityComputer(source, symbols));
        var rows = new List<Row>();
        var byIndex = new Dictionary<StartStopActivityIndex, Row>();
        computer.Start += (a, data) =>
        {
            var row = new Row { Activity = a, StartTid = data.ThreadID };
            rows.Add(row);
            byIndex[a.Index] = row;
        };
        computer.Stop += (a, data) =>
        {
            var row = byIndex[a.Index];
            row.Stops++;
            row.StopMs ??= data.TimeStampRelativeMSec;
            row.StopTid ??= data.ThreadID;
        };
        source.Process();
        if (rows.Count == 0) return 0;

        using var w = Output.CreateText(path);
        w.Write("{\"count\":" + rows.Count.ToString(CultureInfo.InvariantCulture) + ",\"activities\":[\n");
        for (int i = 0; i < rows.Count; i++)
        {
            var r = rows[i];
            var a = r.Activity;
            var sb = new StringBuilder();
            var json = new Json(sb).BeginObject().Prop("index", (int)a.Index).Prop("name", a.Name).Prop("task", a.TaskName)
                .Prop("id", a.ActivityID.ToString("D")).Prop("pid", a.ProcessID).Key("creator");
            if (a.Creator != null) json.Number((int)a.Creator.Index); else json.Null();
            json.Key("startMs").DoubleString(a.StartTimeRelativeMSec).Prop("startTid", r.StartTid).Key("stopMs");
            if (r.StopMs is double stop) json.DoubleString(stop); else json.Null();
            json.Key("stopTid");
            if (r.StopTid is int tid) json.Number(tid); else json.Null();
            json.Key("durationMs").DoubleString(a.DurationMSec).Prop("stops", r.Stops).EndObject();
            w.Write(sb.ToString() + (i + 1 < rows.Count ? ",\n" : "\n"));
        }
        w.Write("]}\n");
        return rows.Count;
    }

    public static void WriteThreadTime(TraceLog log, string path)
    {
        using var symbols = new SymbolReader(TextWriter.Null) { SymbolPath = "" };
        var stackSource = new MutableTraceEventStackSource(log) { OnlyManagedCodeStacks = true };
        new SampleProfilerThreadTimeComputer(log, symbols) { IncludeEventSourceEvents = false }.GenerateThreadTimeStacks(stackSource);
        long total = 0, activities = 0, nonActivities = 0, withoutThread = 0, withoutThreadSamples = 0;
        var frames = new SortedDictionary<string, (long Samples, long Ns)>(System.StringComparer.Ordinal);
        var seen = new HashSet<string>();
        var names = new List<string>();
        stackSource.ForEach(sample =>
        {
            long ns = (long)System.Math.Round(sample.Metric * 1e6);
            names.Clear();
            for (var s = sample.StackIndex; s != StackSourceCallStackIndex.Invalid; s = stackSource.GetCallerIndex(s))
                names.Add(stackSource.GetFrameName(stackSource.GetFrameIndex(s), false));
            if (!names.Exists(n => n.StartsWith("Thread (", System.StringComparison.Ordinal)))
            {
                withoutThread += ns;
                withoutThreadSamples++;
                return;
            }
            total += ns;
            seen.Clear();
            foreach (string name in names)
            {
                if (name == "(Activities)") activities += ns;
                else if (name == "(Non-Activities)") nonActivities += ns;
                else if (name.StartsWith("Activity ", System.StringComparison.Ordinal) && seen.Add(name))
                    frames[name] = frames.TryGetValue(name, out var f) ? (f.Samples + 1, f.Ns + ns) : (1, ns);
            }
        });
        var sb = new StringBuilder();
        var json = new Json(sb).BeginObject().Prop("withoutThreadSamples", withoutThreadSamples).Prop("withoutThreadNs", withoutThread).Prop("totalNs", total).Prop("activitiesNs", activities).Prop("nonActivitiesNs", nonActivities)
            .Prop("distinctFrames", frames.Count).Key("frames").BeginArray();
        foreach (var (name, f) in frames) json.BeginObject().Prop("name", name).Prop("samples", f.Samples).Prop("ns", f.Ns).EndObject();
        json.EndArray().EndObject();
        Output.WriteText(path, sb.ToString() + "\n");
    }
}
