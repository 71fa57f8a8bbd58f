// One pass over every event TraceLog delivers (traceLog.Events.GetSource(), AllEvents), in
// TraceLog's order, writing counts.txt, events.jsonl and (through StackNames) stacks.jsonl.
// TraceEvent reuses its event objects, so everything is read inside the callback.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;

namespace NetTraceOracle;

internal sealed class EventPass
{
    private readonly TraceLog _log;
    private readonly StackNames _stacks;
    private readonly SortedDictionary<string, (int Count, string Sample)> _counts = new(StringComparer.Ordinal);
    private readonly StreamWriter _events;
    private readonly StringBuilder _line = new();
    private long _index;

    public EventPass(TraceLog log, string eventsPath)
    {
        _log = log;
        _stacks = new StackNames(log);
        _events = Output.CreateText(eventsPath);
    }

    public long EventCount => _index;
    public int StackCount => _stacks.Lines.Count;
    public bool HasCpuSamples => _counts.ContainsKey(CpuFolded.SampleProvider + "/" + CpuFolded.SampleEvent);

    /// Runs the pass; the caller has set CurrentCulture to en-US (ToString, PayloadString).
    public void Run(string countsPath, string stacksPath)
    {
        using (_events)
        {
            var source = _log.Events.GetSource();
            source.AllEvents += OnEvent;
            source.Process();
        }
        WriteCounts(countsPath);
        using var stacks = Output.CreateText(stacksPath);
        foreach (var line in _stacks.Lines) stacks.Write(line + "\n");
    }

    private void OnEvent(TraceEvent e)
    {
        CountEvent(e);
        _line.Clear();
        WriteEvent(new Json(_line), e);
        _line.Append('\n');
        _events.Write(_line);
        _index++;
    }

    // As TraceEvent's EventPipeParsing.Basic test: the key's count and the ToString() of its
    // first event, \n and \r escaped, cut to 1000 UTF-16 units.
    private void CountEvent(TraceEvent e)
    {
        string key = e.ProviderName + "/" + e.EventName;
        if (_counts.TryGetValue(key, out var rec))
        {
            _counts[key] = (rec.Count + 1, rec.Sample);
            return;
        }
        string sample = e.ToString().Replace("\n", "\\n").Replace("\r", "\\r");
        if (sample.Length > 1000) sample = sample.Substring(0, 1000);
        _counts[key] = (1, sample);
    }

    private void WriteCounts(string path)
    {
        using var w = Output.CreateText(path);
        foreach (var kv in _counts)
        {
            w.Write(kv.Key + ", " + kv.Value.Count.ToString(CultureInfo.InvariantCulture) + ", " + kv.Value.Sample + "\n");
        }
    }

    private void WriteEvent(Json j, TraceEvent e)
    {
        var inv = CultureInfo.InvariantCulture;
        j.BeginObject()
            .Prop("i", _index)
            .Prop("p", e.ProviderName)
            .Prop("n", e.EventName)
            .Prop("id", (int)e.ID)
            .Prop("op", (int)e.Opcode)
            .Prop("ver", e.Version)
            .Prop("tid", e.ThreadID)
            .Prop("pid", e.ProcessID)
            .Prop("ms", e.TimeStampRelativeMSec.ToString("R", inv));
        if (e.ActivityID != Guid.Empty) j.Prop("act", e.ActivityID.ToString("D"));
        if (e.RelatedActivityID != Guid.Empty) j.Prop("rel", e.RelatedActivityID.ToString("D"));
        j.Key("f").BeginArray();
        WriteFields(j, e);
        j.EndArray();
        j.Prop("s", _stacks.Intern(e.CallStackIndex()));
        j.EndObject();
    }

    private static void WriteFields(Json j, TraceEvent e)
    {
        string[] names;
        try { names = e.PayloadNames ?? Array.Empty<string>(); }
        catch (Exception ex) { j.BeginObject().Prop("error", ex.GetType().Name).EndObject(); return; }

        for (int i = 0; i < names.Length; i++)
        {
            j.BeginObject().Prop("n", names[i]);
            j.Key("s");
            // No format provider: the same text as ToString()/PerfView (n0 group separators
            // of the current culture, which the caller set to en-US).
            try { j.String(e.PayloadString(i)); }
            catch (Exception ex) { ErrorValue(j, ex); }
            object value;
            try { value = e.PayloadValue(i); }
            catch (Exception ex)
            {
                j.Prop("t", "error").Key("v");
                ErrorValue(j, ex);
                j.EndObject();
                continue;
            }
            j.Prop("t", PayloadCanon.TypeName(value)).Key("v");
            PayloadCanon.Write(j, value);
            j.EndObject();
        }
    }

    private static void ErrorValue(Json j, Exception ex) =>
        j.BeginObject().Prop("error", ex.GetType().Name).EndObject();
}

/// Output files: UTF-8 without BOM, LF line ends (written explicitly), no culture involved.
internal static class Output
{
    public static StreamWriter CreateText(string path) =>
        new(path, false, new UTF8Encoding(false), 1 << 16) { NewLine = "\n" };

    public static void WriteText(string path, string text)
    {
        using var w = CreateText(path);
        w.Write(text);
    }
}
