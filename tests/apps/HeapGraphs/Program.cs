// Builds the object graphs of Graphs.cs, prints their measured sizes as JSON (one line),
// then "ready" and holds everything until a line "exit" arrives on stdin, so a snapshot
// (dotnet-gcdump collect, or a heap-dump EventPipe session) can be taken meanwhile.
//
//   HeapGraphs [--big N]      N: BigNode objects in a seeded random graph (default 0)
//
// Each size is what GC.GetAllocatedBytesForCurrentThread counted for one allocation of the
// type, which is the object's size on the GC heap (header and method table included).
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace HeapGraphs;

internal static class Program
{
    private static int Main(string[] args)
    {
        int big = 0;
        if (args.Length == 2 && args[0] == "--big")
        {
            big = int.Parse(args[1]);
        }
        else if (args.Length != 0)
        {
            Console.Error.WriteLine("usage: HeapGraphs [--big N]");
            return 2;
        }

        var sizes = new SortedDictionary<string, long>(StringComparer.Ordinal);
        Build(sizes);
        LocalHolder local = Measure(sizes, "LocalHolder", () => new LocalHolder());
        local.Detached = new ChainNode { Id = -1 };
        (GCHandle strong, GCHandle pin) = MakeHandles(sizes);
        if (big > 0)
        {
            BuildBig(big);
        }

        var facts = new Dictionary<string, object> { ["sizes"] = sizes, ["bigNodes"] = big, ["runtime"] = Environment.Version.ToString() };
        Console.WriteLine(JsonSerializer.Serialize(facts));
        Console.WriteLine($"ready {Environment.ProcessId}");
        while (Console.ReadLine() is string line && line != "exit")
        {
        }
        strong.Free();
        pin.Free();
        GC.KeepAlive(local);
        return 0;
    }

    // In a method of its own, so that no local variable of Main (kept alive by its
    // unoptimised code) also roots the handles' objects.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (GCHandle Strong, GCHandle Pinned) MakeHandles(SortedDictionary<string, long> sizes)
    {
        HandleTarget target = Measure(sizes, "HandleTarget", () => new HandleTarget());
        target.Shared = Roots.Shared;
        byte[] pinned = Measure(sizes, "Byte[4096]", () => new byte[4096]);
        return (GCHandle.Alloc(target, GCHandleType.Normal), GCHandle.Alloc(pinned, GCHandleType.Pinned));
    }

    private static T Measure<T>(SortedDictionary<string, long> sizes, string name, Func<T> make)
    {
        long before = GC.GetAllocatedBytesForCurrentThread();
        T made = make();
        long after = GC.GetAllocatedBytesForCurrentThread();
        sizes[name] = after - before;
        return made;
    }

    private static void Build(SortedDictionary<string, long> sizes)
    {
        ChainNode? head = null;
        for (int i = 5; i >= 1; i--)
        {
            ChainNode node = Measure(sizes, "ChainNode", () => new ChainNode());
            node.Id = i;
            node.Next = head;
            head = node;
        }
        Roots.Chain = head;

        DiamondBottom bottom = Measure(sizes, "DiamondBottom", () => new DiamondBottom());
        bottom.Payload = Measure(sizes, "Byte[1000]", () => new byte[1000]);
        DiamondLeft left = Measure(sizes, "DiamondLeft", () => new DiamondLeft());
        DiamondRight right = Measure(sizes, "DiamondRight", () => new DiamondRight());
        left.Bottom = bottom;
        right.Bottom = bottom;
        DiamondTop top = Measure(sizes, "DiamondTop", () => new DiamondTop());
        top.Left = left;
        top.Right = right;
        Roots.Diamond = top;

        CycleNode a = Measure(sizes, "CycleNode", () => new CycleNode());
        CycleNode b = new() { Next = a };
        CycleNode c = new() { Next = b };
        a.Next = c;
        Roots.Cycle = a;

        object[] items = Measure(sizes, "Object[100]", () => new object[100]);
        for (int i = 0; i < items.Length; i++)
        {
            items[i] = Measure(sizes, "ArrayItem", () => new ArrayItem { Value = i });
        }
        Roots.Items = items;
        Roots.Numbers = Measure(sizes, "Int32[256]", () => new int[256]);
        Roots.Shared = Measure(sizes, "SharedLeaf", () => new SharedLeaf { Value = 7 });
    }

    // A seeded random graph: node i points at up to three random nodes; every 100th node is
    // held by the static BigRoots array. Nodes no path reaches are garbage the snapshot's GC
    // collects before the walk.
    private static void BuildBig(int count)
    {
        var random = new Random(12345);
        var nodes = new BigNode[count];
        for (int i = 0; i < count; i++)
        {
            nodes[i] = new BigNode { Id = i };
        }
        foreach (BigNode node in nodes)
        {
            node.A = nodes[random.Next(count)];
            node.B = random.Next(2) == 0 ? nodes[random.Next(count)] : null;
            node.C = random.Next(4) == 0 ? nodes[random.Next(count)] : null;
        }
        var roots = new BigNode[(count + 99) / 100];
        for (int i = 0; i < roots.Length; i++)
        {
            roots[i] = nodes[i * 100];
        }
        Roots.BigRoots = roots;
    }
}
