namespace TraceScenarios;

/// <summary>
/// Thread-pool starvation and growth: more blocking work items than the pool has threads,
/// each blocked until all of them run at once. The pool starts with one thread per core
/// (its default minimum), so it must inject threads through starvation detection
/// (ThreadPoolWorkerThreadAdjustment with reason Starvation) before the items can finish.
/// </summary>
internal static class ThreadPoolScenario
{
    // Two more than the pool's default minimum (one thread per core), so at least two threads
    // must be injected on any machine.
    public static readonly int BlockingItems = Environment.ProcessorCount + 2;

    public static IEnumerable<string> Facts() =>
    [
        $"Environment.ProcessorCount + 2 = {BlockingItems} ThreadPool.UnsafeQueueUserWorkItem items on the recording machine, each blocked (ManualResetEventSlim.Wait, not a cooperative Task wait) until all {BlockingItems} run concurrently",
        "the pool starts with ProcessorCount workers, so it must inject ≥ 2 threads through starvation detection (ThreadPoolWorkerThreadAdjustment/Adjustment reason 6 = Starvation), roughly one every 0.5–1 s",
    ];

    public static async Task RunAsync()
    {
        using CountdownEvent started = new(BlockingItems);
        using ManualResetEventSlim release = new(false);
        using CountdownEvent finished = new(BlockingItems);
        for (int i = 0; i < BlockingItems; i++)
        {
            ThreadPool.UnsafeQueueUserWorkItem(_ =>
            {
                started.Signal();
                started.Wait();
                release.Wait();
                finished.Signal();
            }, null);
        }
        // Wait on a dedicated thread: the pool itself is the thing being starved.
        await Task.Factory.StartNew(() =>
        {
            if (!started.Wait(TimeSpan.FromSeconds(30)))
            {
                throw new InvalidOperationException($"only {BlockingItems - started.CurrentCount} of {BlockingItems} work items started in 30 s");
            }
            release.Set();
            finished.Wait();
        }, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        Console.Error.WriteLine($"TraceScenarios: thread pool has {ThreadPool.ThreadCount} threads after starvation");
    }
}
