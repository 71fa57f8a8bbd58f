// Names call stacks the way TraceEvent's stack views do, and numbers the distinct ones in order
// of first appearance (stacks.jsonl line k = stack index k, the "s" of events.jsonl).
//
// Frame names come from the library itself: TraceEventStackSource.GetFrameName(frame, false),
// the function every TraceEvent stack view (PerfView, dotnet-trace's speedscope/chromium export
// and `report`) uses: "Module!FullMethodName", "Module!?" when the address is inside a known
// module but no method covers it, "?!?" when no module does. The walk itself follows TraceLog's
// call-stack table (CallStacks.Caller) so that only real frames are listed, without the
// thread/process pseudo-frames the stack source adds above the outermost frame.
using System.Collections.Generic;
using System.Text;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Stacks;

namespace NetTraceOracle;

internal sealed class StackNames
{
    private readonly TraceLog _log;
    private readonly TraceEventStackSource _names;
    // TraceLog's stack id -> our stack index; TraceLog interns per thread, we intern by content.
    private readonly Dictionary<CallStackIndex, int> _byLogIndex = new();
    private readonly Dictionary<string, int> _byContent = new();
    private readonly List<string> _lines = new();

    public StackNames(TraceLog log)
    {
        _log = log;
        _names = new TraceEventStackSource(log.Events);
    }

    /// The JSON lines of stacks.jsonl, in stack-index order.
    public IReadOnlyList<string> Lines => _lines;

    /// Our stack index for TraceLog's call stack `csi`, or -1 for none.
    public int Intern(CallStackIndex csi)
    {
        if (csi == CallStackIndex.Invalid) return -1;
        if (_byLogIndex.TryGetValue(csi, out int known)) return known;

        var sb = new StringBuilder();
        var json = new Json(sb).BeginArray();
        for (var cur = csi; cur != CallStackIndex.Invalid; cur = _log.CallStacks.Caller(cur))
        {
            json.String(FrameName(cur));
        }
        json.EndArray();

        string line = sb.ToString();
        if (!_byContent.TryGetValue(line, out int index))
        {
            index = _lines.Count;
            _lines.Add(line);
            _byContent.Add(line, index);
        }
        _byLogIndex.Add(csi, index);
        return index;
    }

    // TraceEventStackSource numbers its stacks as TraceLog's CallStackIndex + Start, so
    // GetFrameIndex maps a TraceLog stack to the frame (code address) the library names.
    private string FrameName(CallStackIndex cur)
    {
        var sourceIndex = (StackSourceCallStackIndex)((int)cur + (int)StackSourceCallStackIndex.Start);
        var frame = _names.GetFrameIndex(sourceIndex);
        return _names.GetFrameName(frame, false);
    }
}
