// Prints TraceEvent's per-type counts of a trace, one line per key
// "ProviderName/EventName, count" in ordinal order (the key and count of counts.txt), for
// the raw EventPipeEventSource and for TraceLog, so the two can be told apart.
using System;
using System.Collections.Generic;
using System.IO;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;

static class Program
{
    static int Main(string[] args)
    {
        foreach (var trace in args)
        {
            Console.WriteLine("# " + Path.GetFileName(trace));
            try
            {
                var raw = new SortedDictionary<string, int>(StringComparer.Ordinal);
                using (var source = new EventPipeEventSource(trace))
                {
                    source.AllEvents += e => Count(raw, e);
                    source.Process();
                    Console.WriteLine($"raw pointerSize={source.PointerSize} processors={source.NumberOfProcessors}");
                }
                Print("raw", raw);
            }
            catch (Exception e) { Console.WriteLine($"raw error: {e.GetType()}: {e.Message}"); }
            try
            {
                string etlx = Path.Combine(Path.GetTempPath(), Guid.NewGuid() + ".etlx");
                TraceLog.CreateFromEventPipeDataFile(trace, etlx);
                var log = new SortedDictionary<string, int>(StringComparer.Ordinal);
                using (var traceLog = new TraceLog(etlx))
                {
                    var source = traceLog.Events.GetSource();
                    source.AllEvents += e => Count(log, e);
                    source.Process();
                }
                File.Delete(etlx);
                Print("tracelog", log);
            }
            catch (Exception e) { Console.WriteLine($"tracelog error: {e.GetType()}: {e.Message}"); }
        }
        return 0;
    }

    static void Count(SortedDictionary<string, int> counts, TraceEvent e)
    {
        string key = e.ProviderName + "/" + e.EventName;
        counts.TryGetValue(key, out int n);
        counts[key] = n + 1;
    }

    static void Print(string what, SortedDictionary<string, int> counts)
    {
        foreach (var kv in counts) Console.WriteLine($"{what} {kv.Key}, {kv.Value}");
    }
}
