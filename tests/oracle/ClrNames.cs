// TraceEvent's name for every question of the CLR name probe (core/write/clr_name_probe.h):
//
//   oracle --clr-names <probe trace> <probe list> <out>
//
// <probe list> is what `nettrace write-clr-name-probe` writes beside the trace (OUT.probes.tsv):
// one line per event, `provider<TAB>id<TAB>version<TAB>dynamicName`, in the trace's order. <out>
// gets the same lines with TraceEvent's EventName as a fifth column, after a header saying
// where it comes from. The names come from a raw EventPipeEventSource with the parsers
// TraceLog registers for these providers (TraceLog.RegisterStandardParsers), because TraceLog
// itself drops rundown bookkeeping events; every event TraceLog does keep must have the same
// name there, else the tool fails (exit 1). Exit 1 too when the trace and the list disagree.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.EventPipe;
using Microsoft.Diagnostics.Tracing.Parsers;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

namespace NetTraceOracle;

internal static class ClrNames
{
    // The probe writes event k at QPC 1000 + 10·k, 10 MHz, sync time 0.
    private static int IndexOf(double relativeMSec) => (int)Math.Round((relativeMSec * 1e4 - 1000) / 10);

    public static int Run(string trace, string probeList, string outPath)
    {
        var probes = File.ReadAllLines(probeList).Where(l => l.Length > 0).Select(l => l.Split('\t')).ToList();
        var names = new List<(string provider, int id, int version, string name)>();
        using (var source = new EventPipeEventSource(trace))
        {
            // A parser adds its templates when subscribed to (TraceLog subscribes to all of them).
            source.Clr.All += Ignore;
            new GCDynamicTraceEventParser(source).All += Ignore;
            new ClrRundownTraceEventParser(source).All += Ignore;
            new ClrStressTraceEventParser(source).All += Ignore;
            new ClrPrivateTraceEventParser(source).All += Ignore;
            new SampleProfilerTraceEventParser(source).All += Ignore;
            source.AllEvents += e => names.Add((e.ProviderName, (int)e.ID, e.Version, e.EventName));
            source.Process();
        }
        int failures = 0;
        if (names.Count != probes.Count)
        {
            Console.Error.WriteLine($"oracle --clr-names: {names.Count} events read, {probes.Count} probes listed");
            return 1;
        }
        var lines = new List<string>
        {
            "# TraceEvent's EventName for each event of the CLR name probe (core/write/clr_name_probe.h),",
            "# written by scripts/oracle.sh (tests/oracle --clr-names) with TraceEvent " + TraceEventVersion() + ".",
            "# provider\tid\tversion\tGC dynamic event's Name:DataSize\tTraceEvent's EventName",
        };
        for (int i = 0; i < probes.Count; i++)
        {
            var p = probes[i];
            var n = names[i];
            // TraceEvent gives a GC dynamic event its template's id (TraceEventID.Illegal - 10 - k).
            bool dynamic = p.Length == 4 && p[3].Length > 0;
            if (p.Length != 4 || p[0] != n.provider || p[2] != n.version.ToString(CultureInfo.InvariantCulture)
                || (!dynamic && p[1] != n.id.ToString(CultureInfo.InvariantCulture)))
            {
                Console.Error.WriteLine($"oracle --clr-names: event {i} is {n.provider} {n.id} v{n.version}, the list says {string.Join(" ", p)}");
                failures++;
                continue;
            }
            lines.Add(string.Join("\t", p) + "\t" + n.name);
        }
        failures += CheckTraceLog(trace, names);
        if (failures > 0) return 1;
        File.WriteAllText(outPath, string.Join("\n", lines) + "\n", new UTF8Encoding(false));
        return 0;
    }

    private static void Ignore(TraceEvent e) { }

    // Every event TraceLog keeps has the raw pass's name.
    private static int CheckTraceLog(string trace, List<(string provider, int id, int version, string name)> names)
    {
        string tmp = Directory.CreateTempSubdirectory("nettrace-oracle-names-").FullName;
        int failures = 0, compared = 0;
        try
        {
            string etlx = Path.Combine(tmp, "probe.etlx");
            TraceLog.CreateFromEventPipeDataFile(trace, etlx);
            using var log = new TraceLog(etlx);
            foreach (var e in log.Events)
            {
                int i = IndexOf(e.TimeStampRelativeMSec);
                if (i < 0 || i >= names.Count || names[i].id != (int)e.ID || names[i].provider != e.ProviderName)
                    continue;  // an event TraceLog made itself
                compared++;
                if (names[i].name == e.EventName) continue;
                Console.Error.WriteLine($"oracle --clr-names: {e.ProviderName} {(int)e.ID}: TraceLog says {e.EventName}, the raw source {names[i].name}");
                failures++;
            }
        }
        finally
        {
            Directory.Delete(tmp, true);
        }
        Console.Error.WriteLine($"oracle --clr-names: {names.Count} names, {compared} of them checked against TraceLog's, {failures} differ");
        return failures;
    }

    private static string TraceEventVersion() =>
        typeof(TraceEvent).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion.Split('+')[0] ?? "?";
}
