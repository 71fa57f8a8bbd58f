using System.Runtime.CompilerServices;
using System.Text;

namespace TraceScenarios;

/// <summary>
/// Tiered compilation in action. A small hot method is called in bursts separated by sleeps:
/// after 30 calls and the runtime's 100 ms call-counting delay it is re-jitted at tier 1 (with
/// dynamic PGO, through an instrumented tier first). A method with one long loop is called
/// once, so it moves to optimized code through on-stack replacement. Framework code
/// (System.Linq, StringBuilder, Dictionary) starts from its ReadyToRun images and its hot
/// methods are re-jitted at tier 1 as well.
/// </summary>
internal static class JitScenario
{
    public const int Bursts = 12;
    public const int CallsPerBurst = 50;
    public const int BurstGapMs = 40;
    public const int OsrIterations = 20_000_000;

    public static IEnumerable<string> Facts() =>
    [
        $"JitScenario.Hot(int) called {Bursts} × {CallsPerBurst} times with {BurstGapMs} ms sleeps: jitted three times, MethodLoadVerbose OptimizationTier QuickJitted → QuickJittedInstrumented → OptimizedTier1 (dynamic PGO is on by default in .NET 10)",
        $"JitScenario.LongLoop(int) called once, one loop of {OsrIterations:N0} iterations: QuickJitted, then OptimizedTier1OSR (on-stack replacement)",
        "framework R2R code: Enumerable.Range/Where/Select/Sum, StringBuilder.Append, Dictionary<string,int> in the same bursts",
    ];

    public static void Run()
    {
        long total = 0;
        for (int burst = 0; burst < Bursts; burst++)
        {
            for (int i = 0; i < CallsPerBurst; i++)
            {
                total += Hot(burst * CallsPerBurst + i);
            }
            total += FrameworkWork(burst);
            Thread.Sleep(BurstGapMs);
        }
        total += LongLoop(OsrIterations);
        if (total == 0)
        {
            throw new InvalidOperationException("jit scenario computed nothing");
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long Hot(int n)
    {
        long acc = n;
        for (int i = 0; i < 64; i++)
        {
            acc = acc * 31 + i;
        }
        return acc & 0xFFFF;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long LongLoop(int iterations)
    {
        long acc = 1;
        for (int i = 0; i < iterations; i++)
        {
            acc += i ^ (acc >> 3);
        }
        return acc & 0xFFFF;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long FrameworkWork(int burst)
    {
        long sum = Enumerable.Range(0, 200).Where(x => x % 3 == burst % 3).Select(x => (long)x * x).Sum();
        StringBuilder sb = new();
        Dictionary<string, int> counts = [];
        for (int i = 0; i < 50; i++)
        {
            string key = "k" + (i % 7);
            counts[key] = counts.TryGetValue(key, out int c) ? c + 1 : 1;
            sb.Append(key).Append(',');
        }
        return sum + sb.Length + counts.Count;
    }
}
