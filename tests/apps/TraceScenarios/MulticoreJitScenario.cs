using System.Runtime;
using System.Runtime.CompilerServices;

namespace TraceScenarios;

/// <summary>
/// Multicore JIT (System.Runtime.ProfileOptimization): the first run of the program records
/// which methods it jitted into a profile; a later run with the same profile replays it, and
/// the runtime compiles those methods on its multicore-JIT background thread before the
/// program calls them. scripts/record-traces.sh runs the program once untraced to write the
/// profile, then records the second run.
/// </summary>
internal static class MulticoreJitScenario
{
    public const string ProfileName = "TraceScenarios.mcj.profile";
    public const int Methods = 24;
    public const int HeadStartMs = 500;

    public static IEnumerable<string> Facts() =>
    [
        $"ProfileOptimization.SetProfileRoot(<folder of TraceScenarios.dll>/mcj) and StartProfile(\"{ProfileName}\") first, then a {HeadStartMs} ms sleep so the background thread compiles ahead of the program",
        $"then calls {Methods} methods MulticoreJitScenario.Step00..Step{Methods - 1:00} (each jitted once per run, tier 0), in order",
        "the recorded run is the program's second run with that profile folder: the first (untraced) wrote the profile at exit, the traced one replays it (multicore-JIT background thread, TraceEvent's CompilationThreadKind MulticoreJitBackground); which methods the background thread compiles before the program needs them depends on timing",
    ];

    public static void Run()
    {
        string root = Path.Combine(AppContext.BaseDirectory, "mcj");
        Directory.CreateDirectory(root);
        ProfileOptimization.SetProfileRoot(root);
        ProfileOptimization.StartProfile(ProfileName);
        Thread.Sleep(HeadStartMs);
        long sum = 0;
        Func<long, long>[] steps =
        [
            Step00, Step01, Step02, Step03, Step04, Step05, Step06, Step07, Step08, Step09, Step10, Step11,
            Step12, Step13, Step14, Step15, Step16, Step17, Step18, Step19, Step20, Step21, Step22, Step23,
        ];
        if (steps.Length != Methods) throw new InvalidOperationException("Methods does not match the steps");
        foreach (Func<long, long> step in steps) sum = step(sum);
        Console.Error.WriteLine($"TraceScenarios: multicore JIT steps = {sum}");
    }

    // Distinct bodies so each is its own compilation; NoInlining keeps them out of Run.
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step00(long x) => x * 31 + 1;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step01(long x) => x * 31 + 2;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step02(long x) => x * 31 + 3;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step03(long x) => x * 31 + 4;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step04(long x) => x * 31 + 5;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step05(long x) => x * 31 + 6;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step06(long x) => x * 31 + 7;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step07(long x) => x * 31 + 8;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step08(long x) => (x ^ 0x5A5A) + 9;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step09(long x) => (x ^ 0x5A5A) + 10;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step10(long x) => (x ^ 0x5A5A) + 11;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step11(long x) => (x ^ 0x5A5A) + 12;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step12(long x) => (x >> 1) + 13;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step13(long x) => (x >> 1) + 14;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step14(long x) => (x >> 1) + 15;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step15(long x) => (x >> 1) + 16;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step16(long x) => x % 1_000_003 + 17;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step17(long x) => x % 1_000_003 + 18;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step18(long x) => x % 1_000_003 + 19;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step19(long x) => x % 1_000_003 + 20;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step20(long x) => x - 21;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step21(long x) => x - 22;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step22(long x) => x - 23;
    [MethodImpl(MethodImplOptions.NoInlining)] private static long Step23(long x) => x - 24;
}
