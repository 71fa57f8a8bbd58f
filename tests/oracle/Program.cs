// The oracle: writes what TraceEvent sees in each trace as the files described in README.md.
//
//   oracle [--dotnet-trace <version text>] <out-root> <trace>...
//   oracle --clr-names <probe trace> <probe list> <out>   (ClrNames.cs)
//
// For each trace, writes <out-root>/<trace file name>/: counts.txt, events.jsonl, stacks.jsonl,
// cpu.folded (only with SampleProfiler samples), runtime.json, meta.json, or error.txt when
// TraceEvent cannot read the trace. Compression and the dotnet-trace outputs are the driver's
// job (scripts/oracle.sh). Timings go to stderr. Exit status 2 on a usage error, else 0: a
// trace TraceEvent rejects is a result (error.txt), not a failure of the oracle.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Threading;
using Microsoft.Diagnostics.Tracing.Etlx;

namespace NetTraceOracle;

internal static class Program
{
    private static int Main(string[] args)
    {
        if (args.Length == 4 && args[0] == "--clr-names") return ClrNames.Run(args[1], args[2], args[3]);
        var traces = new List<string>();
        string outRoot = null, dotnetTrace = null;
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] == "--dotnet-trace" && i + 1 < args.Length) dotnetTrace = args[++i];
            else if (outRoot == null) outRoot = args[i];
            else traces.Add(args[i]);
        }
        if (outRoot == null || traces.Count == 0)
        {
            Console.Error.WriteLine("usage: oracle [--dotnet-trace <version>] <out-root> <trace>...");
            return 2;
        }
        // en-US for everything TraceEvent formats itself (ToString, PayloadString), as in
        // TraceEvent's own baseline test; our own canonical values always pass the invariant culture.
        var enUs = CultureInfo.GetCultureInfo("en-US");
        CultureInfo.DefaultThreadCurrentCulture = enUs;
        Thread.CurrentThread.CurrentCulture = enUs;

        foreach (var trace in traces)
        {
            var dir = Path.Combine(outRoot, Path.GetFileName(trace));
            Directory.CreateDirectory(dir);
            new TraceRun(trace, dir, dotnetTrace).Run();
        }
        return 0;
    }
}

/// One trace: ETLX in a private temp folder, then the passes, each timed.
internal sealed class TraceRun
{
    private readonly string _trace, _dir, _dotnetTrace;
    private readonly List<string> _timings = new();
    private readonly List<string> _errors = new();
    private string _tmp;

    public TraceRun(string trace, string dir, string dotnetTrace)
    {
        _trace = Path.GetFullPath(trace);
        _dir = dir;
        _dotnetTrace = dotnetTrace;
    }

    public void Run()
    {
        var total = Stopwatch.StartNew();
        _tmp = Directory.CreateTempSubdirectory("nettrace-oracle-").FullName;
        try
        {
            var (etlx, continueOnError) = Timed("etlx", CreateEtlx);
            if (etlx != null) WriteAll(etlx, continueOnError);
        }
        catch (Exception ex)
        {
            _errors.Add("open: " + Describe(ex));
        }
        finally
        {
            Directory.Delete(_tmp, true);
        }
        if (_errors.Count > 0) Output.WriteText(Path.Combine(_dir, "error.txt"), string.Join("\n", _errors) + "\n");
        Console.Error.WriteLine($"oracle: {Path.GetFileName(_trace)}: {string.Join(", ", _timings)}, total {Sec(total)}");
    }

    // Default options first (what TraceEvent's tests and most tools do). When TraceEvent
    // rejects the trace, error.txt records why, and a second try with ContinueOnError = true
    // (dotnet-trace's fallback for broken traces) gives the events before the damage.
    // Returns the ETLX path (null when both failed) and whether ContinueOnError was needed.
    private (string, bool) CreateEtlx()
    {
        string etlx = Path.Combine(_tmp, "default.etlx");
        try
        {
            TraceLog.CreateFromEventPipeDataFile(_trace, etlx);
            return (etlx, false);
        }
        catch (Exception ex) { _errors.Add("default options: " + Describe(ex)); }

        etlx = Path.Combine(_tmp, "continue.etlx");
        try
        {
            TraceLog.CreateFromEventPipeDataFile(_trace, etlx, new TraceLogOptions { ContinueOnError = true });
            return (etlx, true);
        }
        catch (Exception ex) { _errors.Add("ContinueOnError: " + Describe(ex)); }
        return (null, false);
    }

    private void WriteAll(string etlx, bool continueOnError)
    {
        using var log = new TraceLog(etlx);
        EventPass pass = null;
        Stage("events", () =>
        {
            pass = new EventPass(log, Path.Combine(_dir, "events.jsonl"));
            pass.Run(Path.Combine(_dir, "counts.txt"), Path.Combine(_dir, "stacks.jsonl"));
        });
        if (pass == null) return;
        int samples = 0;
        if (pass.HasCpuSamples)
            Stage("cpu", () => samples = CpuFolded.Write(log, Path.Combine(_dir, "cpu.folded")));
        Stage("runtime", () => RuntimeReport.Write(log, Path.Combine(_dir, "runtime.json")));
        Stage("exceptions", () => ExceptionReport.Write(log, Path.Combine(_dir, "exceptions.json")));
        int activities = 0;
        Stage("activities", () => activities = ActivityReport.WritePairs(log, Path.Combine(_dir, "activities.json")));
        if (pass.HasCpuSamples && activities > 0)
            Stage("activity-time", () => ActivityReport.WriteThreadTime(log, Path.Combine(_dir, "activity-time.json")));
        RawView raw = null;
        Stage("raw", () => raw = MetaReport.ReadRaw(_trace));
        var counts = new RunCounts(pass.EventCount, pass.StackCount, samples, continueOnError);
        Stage("meta", () => MetaReport.Write(Path.Combine(_dir, "meta.json"), _trace, log, counts, raw, _dotnetTrace));
    }

    // A stage that throws is reported in error.txt; the other stages still run.
    private void Stage(string name, Action body)
    {
        Timed(name, () =>
        {
            try { body(); }
            catch (Exception ex) { _errors.Add(name + ": " + Describe(ex)); }
            return 0;
        });
    }

    private T Timed<T>(string name, Func<T> body)
    {
        var sw = Stopwatch.StartNew();
        try { return body(); }
        finally { _timings.Add(name + " " + Sec(sw)); }
    }

    private static string Sec(Stopwatch sw) => (sw.ElapsedMilliseconds / 1000.0).ToString("0.00", CultureInfo.InvariantCulture) + " s";

    // Exception type and message on one line, with the run's paths replaced so that the file
    // does not depend on where the trace was unpacked.
    private string Describe(Exception ex) =>
        (ex.GetType().FullName + ": " + ex.Message)
            .Replace(_trace, "<trace>").Replace(Path.GetDirectoryName(_trace)!, "<dir>").Replace(_tmp, "<tmp>")
            .Replace("\r", " ").Replace("\n", " ");
}
