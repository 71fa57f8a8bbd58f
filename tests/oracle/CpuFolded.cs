// cpu.folded: the CPU-sample stacks as TraceEvent's own stack source builds them, one line per
// distinct (thread, stack): `Thread (<tid>);<root frame>;...;<leaf frame> <count>`, sorted
// ordinally. Plain sample counts, no thread-time weighting and no async stitching (that is what
// speedscope.json, from dotnet-trace, shows).
//
// Built with TraceEventStackSource over traceLog.Events filtered to
// Microsoft-DotNETCore-SampleProfiler/Thread/Sample, with OnlyManagedCodeStacks = true as
// dotnet-trace sets it (EventPipe stacks are managed only; without it every stack would get a
// BROKEN frame because its outermost frame is not a native thread-start frame). The stack source
// walks each sample up through its frames to a thread frame and a process frame: the process
// frame is dropped and the thread frame written as `Thread (<tid>)`, TraceEvent's
// VerboseThreadName without the " CPU=..ms" / thread-name suffixes it can carry.
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Stacks;

namespace NetTraceOracle;

internal static class CpuFolded
{
    public const string SampleProvider = "Microsoft-DotNETCore-SampleProfiler";
    public const string SampleEvent = "Thread/Sample";

    /// Writes the file and returns the number of samples in it.
    public static int Write(TraceLog log, string path)
    {
        var samples = log.Events.Filter(e => e.ProviderName == SampleProvider && e.EventName == SampleEvent);
        var source = new TraceEventStackSource(samples) { OnlyManagedCodeStacks = true };
        var threadNames = ThreadFrameNames(log);
        var counts = new Dictionary<string, int>();
        var frames = new List<string>();
        int total = 0;

        source.ForEach(sample =>
        {
            frames.Clear();
            for (var s = sample.StackIndex; s != StackSourceCallStackIndex.Invalid; s = source.GetCallerIndex(s))
            {
                frames.Add(source.GetFrameName(source.GetFrameIndex(s), false));
            }
            string key = FoldRootFirst(frames, threadNames);
            counts[key] = counts.TryGetValue(key, out int n) ? n + 1 : 1;
            total++;
        });

        var lines = new List<string>(counts.Count);
        foreach (var kv in counts) lines.Add(kv.Key + " " + kv.Value.ToString(CultureInfo.InvariantCulture));
        lines.Sort(System.StringComparer.Ordinal);
        using var w = Output.CreateText(path);
        foreach (var line in lines) w.Write(line + "\n");
        return total;
    }

    // VerboseThreadName -> "Thread (<tid>)"; several threads may share a verbose name only if
    // they share the id, so the map is unambiguous.
    private static Dictionary<string, string> ThreadFrameNames(TraceLog log)
    {
        var map = new Dictionary<string, string>();
        foreach (var t in log.Threads)
        {
            map[t.VerboseThreadName] = "Thread (" + t.ThreadID.ToString(CultureInfo.InvariantCulture) + ")";
        }
        return map;
    }

    // frames = leaf ... thread frame, process frame (the stack source's order). A sample with
    // no stack at all has only the thread and process frames.
    private static string FoldRootFirst(List<string> frames, Dictionary<string, string> threadNames)
    {
        int last = frames.Count - 1;                         // the process frame
        if (last >= 1 && frames[last].StartsWith("Process")) last--;
        var sb = new StringBuilder();
        for (int i = last; i >= 0; i--)
        {
            string name = frames[i];
            if (i == last)
            {
                // The stack source always ends a sample's chain at its thread; anything else
                // means the library's layout changed and the file would be wrong.
                if (!threadNames.TryGetValue(name, out var thread))
                    throw new System.InvalidOperationException("cpu.folded: root frame is not a thread: " + name);
                name = thread;
            }
            if (sb.Length > 0) sb.Append(';');
            sb.Append(name);
        }
        return sb.ToString();
    }
}
