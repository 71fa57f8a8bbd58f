// exceptions.json: first-chance exceptions by throwing method, from TraceLog's own stacks. For
// every runtime Exception/Start event TraceLog delivers: its type and the frames of its call
// stack named as every TraceEvent stack view names them (TraceEventStackSource.GetFrameName).
// Two attributions are written per type:
// * "byLeafFrame": the first frame of the stack, under which PerfView's Exceptions view puts
//   its "Throw(<type>) <message>" node (PerfView's PerfViewData.cs, stream "Exceptions": the
//   node is interned on top of stackSource.GetCallStack(data.CallStackIndex(), data)); on
//   .NET 9+ that is the managed exception dispatcher, System.Runtime.EH.DispatchEx, for every throw;
// * "byFirstFrameOutsideDispatcher": the first frame that is not the dispatcher's
//   (System.Private.CoreLib!System.Runtime.EH.*): the method that threw or rethrew.
// A throw without a stack counts under "(no stack)". Types by count (descending, then name);
// frames likewise.
using System.Collections.Generic;
using System.Linq;
using System.Text;
using Microsoft.Diagnostics.Tracing.Etlx;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;
using Microsoft.Diagnostics.Tracing.Stacks;

namespace NetTraceOracle;

internal static class ExceptionReport
{
    private const string DispatcherPrefix = "System.Private.CoreLib!System.Runtime.EH.";
    private const string NoStack = "(no stack)";

    private sealed class ByType
    {
        public int Count;
        public readonly Dictionary<string, int> Leaf = new();
        public readonly Dictionary<string, int> Thrower = new();
    }

    /// Writes the file when the trace has Exception/Start events; returns how many it has.
    public static int Write(TraceLog log, string path)
    {
        var names = new TraceEventStackSource(log.Events);
        var types = new Dictionary<string, ByType>();
        int total = 0;
        var source = log.Events.GetSource();
        source.Clr.ExceptionStart += data =>
        {
            total++;
            if (!types.TryGetValue(data.ExceptionType, out var t)) types.Add(data.ExceptionType, t = new ByType());
            t.Count++;
            string leaf = NoStack, thrower = NoStack;
            for (var cur = data.CallStackIndex(); cur != CallStackIndex.Invalid; cur = log.CallStacks.Caller(cur))
            {
                var frame = names.GetFrameIndex((StackSourceCallStackIndex)((int)cur + (int)StackSourceCallStackIndex.Start));
                string name = names.GetFrameName(frame, false);
                if (leaf == NoStack) leaf = name;
                if (!name.StartsWith(DispatcherPrefix, System.StringComparison.Ordinal))
                {
                    thrower = name;
                    break;
                }
            }
            Add(t.Leaf, leaf);
            Add(t.Thrower, thrower);
        };
        source.Process();
        if (total == 0) return 0;

        var sb = new StringBuilder();
        var json = new Json(sb).BeginObject().Prop("count", total).Key("types").BeginArray();
        foreach (var (type, t) in types.OrderByDescending(kv => kv.Value.Count).ThenBy(kv => kv.Key, System.StringComparer.Ordinal))
        {
            json.BeginObject().Prop("type", type).Prop("count", t.Count);
            WriteCounts(json.Key("byLeafFrame"), t.Leaf);
            WriteCounts(json.Key("byFirstFrameOutsideDispatcher"), t.Thrower);
            json.EndObject();
        }
        json.EndArray().EndObject();
        Output.WriteText(path, sb.ToString() + "\n");
        return total;
    }

    private static void Add(Dictionary<string, int> map, string key) => map[key] = map.TryGetValue(key, out int n) ? n + 1 : 1;

    private static void WriteCounts(Json json, Dictionary<string, int> map)
    {
        json.BeginArray();
        foreach (var (frame, n) in map.OrderByDescending(kv => kv.Value).ThenBy(kv => kv.Key, System.StringComparer.Ordinal))
            json.BeginObject().Prop("frame", frame).Prop("count", n).EndObject();
        json.EndArray();
    }
}
