// traceevent-bench MODE FILE: reads FILE once with TraceEvent and prints one JSON line:
// {"events":N,"readMs":T}. MODE "stream": EventPipeEventSource.Process() with a handler on
// every event (TraceEvent's cheapest full read: each event's header decoded, nothing kept).
// MODE "tracelog": TraceLog.CreateFromEventPipeDataFile (an indexed .etlx, as PerfView
// opens a trace), written to a temporary file that is removed afterwards.
using System;
using System.Diagnostics;
using System.IO;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;

namespace TraceEventBench {

public static class Program {
  public static int Main(string[] args) {
    if (args.Length != 2 || (args[0] != "stream" && args[0] != "tracelog")) {
      Console.Error.WriteLine("usage: traceevent-bench stream|tracelog FILE");
      return 2;
    }
    var watch = Stopwatch.StartNew();
    long events = args[0] == "stream" ? Stream(args[1]) : Indexed(args[1]);
    watch.Stop();
    Console.WriteLine("{\"events\":" + events + ",\"readMs\":" +
                      watch.Elapsed.TotalMilliseconds.ToString("F1", System.Globalization.CultureInfo.InvariantCulture) + "}");
    return 0;
  }

  static long Stream(string path) {
    long events = 0;
    using var source = new EventPipeEventSource(path);
    source.AllEvents += _ => events++;
    source.Process();
    return events;
  }

  static long Indexed(string path) {
    string etlx = Path.Combine(Path.GetTempPath(), "traceevent-bench-" + Environment.ProcessId + ".etlx");
    try {
      TraceLog.CreateFromEventPipeDataFile(path, etlx);
      using var log = new TraceLog(etlx);
      return log.EventCount;
    } finally {
      File.Delete(etlx);
    }
  }
}

}  // namespace TraceEventBench
