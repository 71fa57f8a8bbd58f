// heap-oracle FILE.gcdump OUT.json: what PerfView's graph code (dotnet-gcdump's copy) makes of
// a .gcdump — per type (name and module) the object count and shallow size
// (MemoryGraph.GetHistogramByType), per type PerfView's inclusive size over its spanning tree
// (SpanningTree.ForEach / Parent: the bytes of every object with an object of that type on its
// tree path, counted once, as PerfView's By Name "Inc"), each node's spanning-tree parent, and
// the type table as stored (name, module, size) with each type index's count, which
// `dotnet-gcdump report` prints.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Graphs;

internal static class Program
{
    private static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine("usage: heap-oracle FILE.gcdump OUT.json");
            return 2;
        }
        GCHeapDump dump = new GCHeapDump(args[0]);
        MemoryGraph graph = dump.MemoryGraph;
        int n = (int)graph.NodeIndexLimit;
        Node node = graph.AllocNodeStorage();
        NodeType type = graph.AllocTypeNodeStorage();

        // Rows: types by (name, module), as the engine groups them; pseudo-nodes (address 0) apart.
        var rowOf = new Dictionary<string, int>();
        var rowKeys = new List<(string Name, string Module)>();
        var typeRow = new int[(int)graph.NodeTypeIndexLimit];
        for (int t = 0; t < typeRow.Length; t++)
        {
            graph.GetType((NodeTypeIndex)t, type);
            string key = (type.Name ?? "") + "\u0001" + (type.ModuleName ?? "");
            if (!rowOf.TryGetValue(key, out int row))
            {
                row = rowKeys.Count;
                rowOf.Add(key, row);
                rowKeys.Add((type.Name ?? "", type.ModuleName ?? ""));
            }
            typeRow[t] = row;
        }
        int RowOfNode(int v) => graph.GetAddress((NodeIndex)v) == 0 ? -1 : typeRow[(int)graph.GetNode((NodeIndex)v, node).TypeIndex];

        var count = new long[rowKeys.Count];
        var size = new long[rowKeys.Count];
        foreach (Graph.SizeAndCount sc in graph.GetHistogramByType())
        {
            if (sc.Count == 0) continue;
            // The histogram counts every node; pseudo-nodes are left out of the rows here too.
            int row = typeRow[(int)sc.TypeIdx];
            count[row] += sc.Count;
            size[row] += sc.Size;
        }
        var pseudoCount = new long[rowKeys.Count];
        for (int v = 0; v < n; v++)
        {
            if (graph.GetAddress((NodeIndex)v) == 0) pseudoCount[typeRow[(int)graph.GetNode((NodeIndex)v, node).TypeIndex]]++;
        }

        // PerfView's spanning tree, then inclusive sizes per row over it (iterative DFS).
        var tree = new SpanningTree(graph, TextWriter.Null);
        tree.ForEach(null);
        var parent = new int[n];
        for (int v = 0; v < n; v++) parent[v] = (int)tree.Parent((NodeIndex)v);
        long[] inclusive = Inclusive(graph, node, parent, n, RowOfNode, rowKeys.Count);

        var json = new StringBuilder();
        json.Append("{\"nodes\":").Append(n).Append(",\"rows\":[");
        bool first = true;
        for (int r = 0; r < rowKeys.Count; r++)
        {
            long objects = count[r] - pseudoCount[r];
            if (objects <= 0) continue;
            json.Append(first ? "" : ",").Append("{\"name\":").Append(Str(rowKeys[r].Name)).Append(",\"module\":").Append(Str(rowKeys[r].Module));
            json.Append(",\"count\":").Append(objects).Append(",\"size\":").Append(size[r]).Append(",\"inclusive\":").Append(inclusive[r]).Append('}');
            first = false;
        }
        json.Append("],\"parent\":[");
        for (int v = 0; v < n; v++) json.Append(v == 0 ? "" : ",").Append(parent[v]);
        json.Append("]}\n");
        File.WriteAllText(args[1], json.ToString());
        return 0;
    }

    // Bytes of every node with a node of the row on its tree path (itself included), once.
    private static long[] Inclusive(MemoryGraph graph, Node node, int[] parent, int n, Func<int, int> rowOf, int rows)
    {
        int top = n;
        var kids = new List<int>[n + 1];
        for (int v = 0; v <= n; v++) kids[v] = new List<int>();
        for (int v = 0; v < n; v++) kids[parent[v] < 0 || parent[v] >= n ? top : parent[v]].Add(v);
        var subtree = new long[n + 1];
        var result = new long[rows];
        var active = new int[rows];
        var stack = new Stack<(int Node, int Next, bool First)>();
        stack.Push((top, 0, false));
        while (stack.Count > 0)
        {
            var f = stack.Pop();
            if (f.Next < kids[f.Node].Count)
            {
                int child = kids[f.Node][f.Next];
                stack.Push((f.Node, f.Next + 1, f.First));
                int row = rowOf(child);
                bool firstOfRow = row >= 0 && active[row]++ == 0;
                subtree[child] = graph.GetNode((NodeIndex)child, node).Size;
                stack.Push((child, 0, firstOfRow));
                continue;
            }
            if (f.Node == top) break;
            int r = rowOf(f.Node);
            if (r >= 0)
            {
                active[r]--;
                if (f.First) result[r] += subtree[f.Node];
            }
            int p = parent[f.Node] < 0 || parent[f.Node] >= n ? top : parent[f.Node];
            subtree[p] += subtree[f.Node];
        }
        return result;
    }

    private static string Str(string s)
    {
        var b = new StringBuilder("\"");
        foreach (char c in s)
        {
            if (c == '"' || c == '\\') b.Append('\\').Append(c);
            else if (c < 0x20) b.Append("\\u").Append(((int)c).ToString("x4"));
            else b.Append(c);
        }
        return b.Append('"').ToString();
    }
}
