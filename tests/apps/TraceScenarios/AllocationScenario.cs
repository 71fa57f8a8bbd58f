using System.Runtime.CompilerServices;

namespace TraceScenarios;

/// <summary>A small class of a known size: header + method table + three doubles = 40 bytes.</summary>
internal sealed class Point3(double x, double y, double z)
{
    public readonly double X = x, Y = y, Z = z;
}

/// <summary>A 16-byte struct: arrays of it have a type name only this program allocates.</summary>
internal readonly struct Sample16(long a, long b)
{
    public readonly long A = a, B = b;
}

/// <summary>A linked node: header + method table + a reference + an int, padded = 32 bytes.</summary>
internal sealed class Node(Node? next, int value)
{
    public readonly Node? Next = next;
    public readonly int Value = value;
}

/// <summary>
/// Known amounts of allocation per type and per call site, on the main thread, for the
/// AllocationSampled estimates (.NET 10's randomized sampling: ~1 sample per 102,400 bytes).
/// Each phase is one method that allocates only its objects: GC.GetAllocatedBytesForCurrentThread
/// around it (exact, alloc context included) must equal count × size, or the scenario throws.
/// `facts allocations` runs the phases untraced and prints those measurements.
/// </summary>
internal static class AllocationScenario
{
    /// <summary>One call site: its method, type name (as the runtime writes it), count and object size.</summary>
    private sealed record Phase(string Method, string Type, long Count, long ObjectBytes, Action<long> Allocate);

    // Sized for ≥ 1,000 samples per type at the default rate (Point3, Sample16[], System.String),
    // one type from two call sites of different sizes (Sample16[]: small, and 100,024 bytes on the
    // LOH, larger than 1/p so most of each sampled object is not tried), and a rare type (Node).
    private static readonly Phase[] Phases =
    [
        new("MakePoints", "TraceScenarios.Point3", 4_000_000, 40, MakePoints),
        new("MakeSmallSamples", "TraceScenarios.Sample16[]", 104_000, 24 + 60 * 16, MakeSmallSamples),
        new("MakeLargeSamples", "TraceScenarios.Sample16[]", 2_000, 24 + 6_250 * 16, MakeLargeSamples),
        new("MakeStrings", "System.String", 500_000, 224, MakeStrings),
        new("MakeNodes", "TraceScenarios.Node", 300_000, 32, MakeNodes),
    ];

    // Written by every phase so the JIT cannot drop an allocation; a static field store allocates nothing.
    private static object? sink;

    public static IEnumerable<string> Facts()
    {
        yield return "all on the main thread, each call site a method of AllocationScenario that allocates only its objects; " +
            "bytes = count × object size, and GC.GetAllocatedBytesForCurrentThread around the call measured exactly that (run here untraced, and checked again in the traced run):";
        foreach ((Phase p, long measured) in Measure())
        {
            yield return $"`{p.Type}` from `AllocationScenario.{p.Method}`: {p.Count:N0} objects × {p.ObjectBytes:N0} bytes = {p.Count * p.ObjectBytes:N0} bytes (GC.GetAllocatedBytesForCurrentThread: {measured:N0})";
        }
        foreach (IGrouping<string, Phase> type in Phases.GroupBy(p => p.Type))
        {
            yield return $"type `{type.Key}`: {type.Sum(p => p.Count * p.ObjectBytes):N0} bytes in all from this scenario";
        }
    }

    public static void Run()
    {
        foreach ((Phase p, long measured) in Measure())
        {
            Console.Error.WriteLine($"TraceScenarios: allocations: {p.Method}: {measured:N0} bytes");
        }
    }

    private static List<(Phase, long)> Measure()
    {
        List<(Phase, long)> measured = [];
        foreach (Phase p in Phases)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            p.Allocate(p.Count);
            long bytes = GC.GetAllocatedBytesForCurrentThread() - before;
            if (bytes != p.Count * p.ObjectBytes)
            {
                throw new InvalidOperationException($"{p.Method}: allocated {bytes:N0} bytes, expected {p.Count:N0} × {p.ObjectBytes:N0}");
            }
            measured.Add((p, bytes));
        }
        return measured;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void MakePoints(long count)
    {
        for (long i = 0; i < count; i++)
        {
            sink = new Point3(i, i, i);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void MakeSmallSamples(long count)
    {
        for (long i = 0; i < count; i++)
        {
            sink = new Sample16[60];
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void MakeLargeSamples(long count)
    {
        for (long i = 0; i < count; i++)
        {
            sink = new Sample16[6_250];
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void MakeStrings(long count)
    {
        for (long i = 0; i < count; i++)
        {
            sink = new string('s', 100);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void MakeNodes(long count)
    {
        Node? head = null;
        for (long i = 0; i < count; i++)
        {
            // Every 1,000th starts a new list, so the survivors stay small.
            head = new Node(i % 1_000 == 0 ? null : head, (int)i);
        }
        sink = head;
    }
}
