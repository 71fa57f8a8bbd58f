using System.Runtime;

namespace TraceScenarios;

/// <summary>
/// Server GC with DATAS (dynamic adaptation, on by default for Server GC since .NET 9): memory
/// pressure (runtime events 200/201), background GCs of an exact number, one aggressive induced
/// GC (GCCollectionMode.Aggressive, GC reason 17 InducedAggressive) and one ordinary induced GC.
/// Needs `DOTNET_gcServer=1` (scripts/record-traces.sh sets it for the recordings that run it);
/// throws when the GC is not a concurrent Server GC, so a recording cannot silently hold
/// something else.
/// </summary>
internal static class ServerGcScenario
{
    public const int PressureCalls = 3;
    public const long PressureBytes = 16_000_000;
    public const int BackgroundGcs = 4;
    public const int ChunkObjects = 1_000;
    public const int ObjectBytes = 200;
    public const int MaxSurvivors = 1_000_000;

    public static IEnumerable<string> Facts() =>
    [
        "Server GC (`DOTNET_gcServer=1`), concurrent GC on, DATAS on (the default for Server GC; the GC starts with one heap and adapts the heap count)",
        $"GC.AddMemoryPressure({PressureBytes:N0}) ×{PressureCalls}, then GC.RemoveMemoryPressure({PressureBytes:N0}) ×{PressureCalls}: {PressureCalls} runtime events 200 (IncreaseMemoryPressure, BytesAllocated = {PressureBytes:N0}) and {PressureCalls} events 201 (DecreaseMemoryPressure, BytesFreed = {PressureBytes:N0}), GC keyword at Verbose level; the runtime may start GCs of its own for the pressure",
        $"allocates byte[{ObjectBytes}] in chunks of {ChunkObjects:N0}, kept in a list of at most {MaxSurvivors:N0} (the oldest half dropped when full), until exactly {BackgroundGcs} background GCs have completed (GC.GetGCMemoryInfo(GCKind.Background).Index changed {BackgroundGcs} times): at least {BackgroundGcs} GC/Start with Type = 1 (BackgroundGC), Depth = 2",
        "then GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true) ×1: one GC/Start with Reason = 17 (InducedAggressive), Depth = 2, Type = 0 (NonConcurrentGC)",
        "then GC.Collect() ×1: one GC/Start with Reason = 1 (Induced), Depth = 2",
    ];

    public static void Run()
    {
        bool concurrent = !AppContext.TryGetSwitch("System.GC.Concurrent", out bool c) || c;
        if (!GCSettings.IsServerGC || !concurrent)
        {
            throw new InvalidOperationException("not a concurrent Server GC: run with DOTNET_gcServer=1");
        }
        for (int i = 0; i < PressureCalls; i++)
        {
            GC.AddMemoryPressure(PressureBytes);
        }
        for (int i = 0; i < PressureCalls; i++)
        {
            GC.RemoveMemoryPressure(PressureBytes);
        }
        long lastBackground = BackgroundGcScenario.AllocateUntilBackgroundGcs(BackgroundGcs, ChunkObjects, ObjectBytes, MaxSurvivors);
        Console.Error.WriteLine($"TraceScenarios: {BackgroundGcs} background GCs (server GC), last GC index {lastBackground}");
        GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        GC.Collect();
    }
}
