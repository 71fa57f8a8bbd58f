namespace TraceScenarios;

/// <summary>
/// Background GCs of an exact number. On .NET 10 an induced GC.Collect(2, Forced or Default,
/// blocking: false) was a blocking gen2 GC on the recording machine (GCMemoryInfo.Concurrent
/// false), so the background GCs here are the GC's own: a survivor set that keeps growing
/// fills the gen2 budget, and the GC starts a background gen2 (concurrent GC is on by default,
/// stated in the project file). The program counts completed background GCs by
/// GC.GetGCMemoryInfo(GCKind.Background).Index changing and stops allocating at the Nth.
/// </summary>
internal static class BackgroundGcScenario
{
    public const int BackgroundGcs = 3;
    public const int ChunkObjects = 1_000;
    public const int ObjectBytes = 100;      // byte[100]: 124 bytes on the heap
    public const int MaxSurvivors = 400_000; // then the oldest half is dropped

    public static IEnumerable<string> Facts() =>
    [
        $"workstation GC, concurrent GC on (`<ConcurrentGarbageCollection>true` in TraceScenarios.csproj); allocates byte[{ObjectBytes}] in chunks of {ChunkObjects:N0}, all kept in a list of at most {MaxSurvivors:N0} (the oldest half dropped when full), so survivors reach gen2 and fill its budget",
        $"stops once exactly {BackgroundGcs} background GCs have completed (GC.GetGCMemoryInfo(GCKind.Background).Index changed {BackgroundGcs} times, checked after every chunk): {BackgroundGcs} GC/Start with Type = 1 (BackgroundGC) and Depth = 2, Reason = 0 (AllocSmall)",
        "ephemeral GCs before and during them (Type 0 NonConcurrentGC and Type 2 ForegroundGC) and any blocking gen2 GC depend on the machine's budgets; no GC is induced",
    ];

    public static void Run()
    {
        if (System.Runtime.GCSettings.IsServerGC || (AppContext.TryGetSwitch("System.GC.Concurrent", out bool concurrent) && !concurrent))
        {
            throw new InvalidOperationException("not workstation GC with concurrent GC on: no background GC can run");
        }
        long lastBackground = AllocateUntilBackgroundGcs(BackgroundGcs, ChunkObjects, ObjectBytes, MaxSurvivors);
        Console.Error.WriteLine($"TraceScenarios: {BackgroundGcs} background GCs, last GC index {lastBackground}");
    }

    /// <summary>
    /// Allocates byte[objectBytes] in chunks, all kept in a list of at most maxSurvivors (the
    /// oldest half dropped when full), until exactly `count` background GCs have completed
    /// (GC.GetGCMemoryInfo(GCKind.Background).Index changed that often, checked after every
    /// chunk); throws after 60 s. Returns the last background GC's index.
    /// </summary>
    public static long AllocateUntilBackgroundGcs(int count, int chunkObjects, int objectBytes, int maxSurvivors)
    {
        List<byte[]> survivors = new(maxSurvivors);
        long lastBackground = GC.GetGCMemoryInfo(GCKind.Background).Index;
        int completed = 0;
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while (completed < count)
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new InvalidOperationException($"only {completed} of {count} background GCs in 60 s");
            }
            for (int j = 0; j < chunkObjects; j++)
            {
                survivors.Add(new byte[objectBytes]);
            }
            if (survivors.Count >= maxSurvivors)
            {
                survivors.RemoveRange(0, maxSurvivors / 2);
            }
            long background = GC.GetGCMemoryInfo(GCKind.Background).Index;
            if (background != lastBackground)
            {
                completed++;
                lastBackground = background;
            }
        }
        GC.KeepAlive(survivors);
        return lastBackground;
    }
}
