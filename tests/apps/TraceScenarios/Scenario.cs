namespace TraceScenarios;

/// <summary>
/// One named workload. <see cref="Facts"/> states what the workload does in exact numbers,
/// built from the same constants the workload uses; a workload that cannot do what its
/// facts say throws, so a recording never silently holds something else.
/// </summary>
internal sealed record Scenario(string Name, string Summary, Func<Task> Run, Func<IEnumerable<string>> Facts);

/// <summary>The scenarios, in the order `facts` lists them.</summary>
internal static class Scenarios
{
    public static readonly Scenario[] All =
    [
        new("gc", "GCs of every generation, LOH and POH allocations, allocation ticks",
            () => { GcScenario.Run(); return Task.CompletedTask; }, GcScenario.Facts),
        new("exceptions", "first-chance exceptions of several types, thrown and caught across frames",
            () => { ExceptionScenario.Run(); return Task.CompletedTask; }, ExceptionScenario.Facts),
        new("contention", "contended Monitor (lock) and System.Threading.Lock acquisitions",
            () => { ContentionScenario.Run(); return Task.CompletedTask; }, ContentionScenario.Facts),
        new("threadpool", "thread-pool starvation: blocking work items force thread injection",
            ThreadPoolScenario.RunAsync, ThreadPoolScenario.Facts),
        new("async", "async/await chains over Task.Delay, timers and PeriodicTimer",
            AsyncScenario.RunAsync, AsyncScenario.Facts),
        new("http", "loopback HTTP/1.1 requests from HttpClient to a socket server on 127.0.0.1",
            HttpScenario.RunAsync, HttpScenario.Facts),
        new("jit", "tiered compilation: a hot method re-jitted at tier 1, OSR, framework R2R code",
            () => { JitScenario.Run(); return Task.CompletedTask; }, JitScenario.Facts),
        new("loader", "a second assembly loaded into a collectible AssemblyLoadContext, then unloaded",
            () => { LoaderScenario.Run(); return Task.CompletedTask; }, LoaderScenario.Facts),
        new("eventsource", "manifest and self-describing EventSource events with every parameter type",
            () => { EventSourceScenario.Run(); return Task.CompletedTask; }, EventSourceScenario.Facts),
        new("activities", "nested XxxStart/XxxStop events across awaits (activity ids)",
            ActivityScenario.RunAsync, ActivityScenario.Facts),
        new("counters", "EventCounters and System.Diagnostics.Metrics instruments over ~3 s",
            CountersScenario.RunAsync, CountersScenario.Facts),
        new("multicorejit", "multicore JIT: a ProfileOptimization profile replayed on the runtime's background thread",
            () => { MulticoreJitScenario.Run(); return Task.CompletedTask; }, MulticoreJitScenario.Facts),
        new("bgc", "background GCs of an exact number, with allocation while each runs",
            () => { BackgroundGcScenario.Run(); return Task.CompletedTask; }, BackgroundGcScenario.Facts),
        new("waits", "wait-handle waits (.NET 9+ WaitHandleWait events) of an exact number, each really blocking",
            () => { WaitHandleScenario.Run(); return Task.CompletedTask; }, WaitHandleScenario.Facts),
        new("servergc", "Server GC with DATAS: memory pressure, background GCs, an aggressive and an ordinary induced GC",
            () => { ServerGcScenario.Run(); return Task.CompletedTask; }, ServerGcScenario.Facts),
        new("instruments", "every System.Diagnostics.Metrics instrument kind and the four EventCounter kinds, with known values",
            InstrumentsScenario.RunAsync, InstrumentsScenario.Facts),
        new("allocations", "known bytes per type and call site for AllocationSampled (.NET 10 randomized allocation sampling)",
            () => { AllocationScenario.Run(); return Task.CompletedTask; }, AllocationScenario.Facts),
    ];
}
