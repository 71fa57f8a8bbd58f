using System.Runtime.CompilerServices;

namespace TraceScenarios;

/// <summary>
/// Garbage collections of every generation: induced ones (exact counts) and allocation-driven
/// ones (count depends on the GC's budgets, so only "at least one" is promised), with
/// small-object, large-object-heap and pinned-object-heap allocations in between.
/// </summary>
internal static class GcScenario
{
    public const int InducedPerGeneration = 2;
    public const int SmallObjects = 600_000;
    public const int SmallObjectBytes = 64;
    public const int SurvivorEvery = 50;
    // Bounds the allocation past SmallObjects (~1.3 GB): a gen0 budget is far below it.
    public const int MaxSmallObjects = 20_000_000;
    // 85,000 bytes is the LOH threshold; 100,000-byte arrays always land there.
    public const int LohArrays = 24;
    public const int LohArrayBytes = 100_000;
    public const int PohArrays = 40;
    public const int PohArrayBytes = 8_192;

    public static IEnumerable<string> Facts() =>
    [
        $"induced: GC.Collect(0) ×{InducedPerGeneration}, GC.Collect(1) ×{InducedPerGeneration}, GC.Collect(2) ×{InducedPerGeneration} (blocking, forced): exactly {3 * InducedPerGeneration} GC/Start with Reason = 1 (Induced), in that order; each GC's Depth is at least the generation asked for (the GC may escalate a gen0/gen1 request)",
        "allocation-driven GCs (Reason 0 = AllocSmall, before the induced ones): at least 1; how many depends on the machine's gen0 budget",
        $"{SmallObjects:N0} objects of {SmallObjectBytes} bytes (~{(long)SmallObjects * SmallObjectBytes / 1_000_000} MB), every {SurvivorEvery}th kept alive until the end; then, while no gen0 GC has happened yet (a machine whose gen0 budget is larger), more such objects, none kept, until one has (at most {MaxSmallObjects:N0} in all)",
        $"{LohArrays} byte[{LohArrayBytes:N0}] on the LOH (half kept alive), {PohArrays} byte[{PohArrayBytes:N0}] via GC.AllocateArray(pinned: true) on the POH (AllocationTick events of kind Small, Large and Pinned at GC Verbose level)",
    ];

    public static void Run()
    {
        int gen0Before = GC.CollectionCount(0);
        List<object> survivors = AllocateSmall(gen0Before);
        List<byte[]> large = AllocateLarge();
        List<byte[]> pinned = AllocatePinned();
        for (int gen = 0; gen <= 2; gen++)
        {
            for (int i = 0; i < InducedPerGeneration; i++)
            {
                GC.Collect(gen, GCCollectionMode.Forced, blocking: true);
            }
        }
        int gcs = GC.CollectionCount(0) - gen0Before;
        if (gcs < 3 * InducedPerGeneration + 1)
        {
            throw new InvalidOperationException($"expected at least one allocation-driven GC besides the induced ones, saw {gcs} GCs in all");
        }
        GC.KeepAlive(survivors);
        GC.KeepAlive(large);
        GC.KeepAlive(pinned);
    }

    private static List<object> AllocateSmall(int gen0Before)
    {
        List<object> survivors = new(SmallObjects / SurvivorEvery);
        // SmallObjects at least; more while no GC has been triggered by them: the promised
        // allocation-driven GC must happen whatever the machine's gen0 budget (a 24 GiB
        // machine's exceeded the 38 MB, and the scenario failed).
        for (int i = 0; i < SmallObjects || (GC.CollectionCount(0) == gen0Before && i < MaxSmallObjects); i++)
        {
            // byte[40] + array header = 64 bytes on 64-bit.
            byte[] obj = new byte[SmallObjectBytes - 24];
            obj[0] = (byte)i;
            if (i % SurvivorEvery == 0 && i < SmallObjects)
            {
                survivors.Add(obj);
            }
            Consume(obj);
        }
        return survivors;
    }

    private static List<byte[]> AllocateLarge()
    {
        List<byte[]> kept = [];
        for (int i = 0; i < LohArrays; i++)
        {
            byte[] array = new byte[LohArrayBytes];
            array[^1] = (byte)i;
            if (i % 2 == 0)
            {
                kept.Add(array);
            }
            Consume(array);
        }
        return kept;
    }

    private static List<byte[]> AllocatePinned()
    {
        List<byte[]> kept = [];
        for (int i = 0; i < PohArrays; i++)
        {
            byte[] array = GC.AllocateArray<byte>(PohArrayBytes, pinned: true);
            array[0] = (byte)i;
            kept.Add(array);
        }
        return kept;
    }

    // Not inlined, so the JIT cannot prove the allocations dead and remove them.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Consume(byte[] array) => GC.KeepAlive(array);
}
