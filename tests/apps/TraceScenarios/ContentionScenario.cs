using System.Diagnostics;

namespace TraceScenarios;

/// <summary>
/// An exact number of contended lock acquisitions. The main thread holds the lock and lets
/// go only once the contender thread is seen blocked inside the acquisition (its state is
/// WaitSleepJoin after it announced the attempt), so every attempt is contended no matter
/// how busy the machine is.
/// </summary>
internal static class ContentionScenario
{
    public const int MonitorContentions = 8;
    public const int LockContentions = 4;

    public static IEnumerable<string> Facts() =>
    [
        $"{MonitorContentions} contended `lock (object)` (Monitor) acquisitions and {LockContentions} contended `lock (System.Threading.Lock)` acquisitions, {MonitorContentions + LockContentions} in all",
        "each by one contender thread named `contender` while the main thread holds the lock; every other acquisition in the scenario is uncontended",
    ];

    public static void Run()
    {
        object monitor = new();
        Lock typedLock = new();
        using SemaphoreSlim go = new(0);
        using SemaphoreSlim done = new(0);
        int attempt = -1;
        var contender = new Thread(() =>
        {
            for (int i = 0; i < MonitorContentions + LockContentions; i++)
            {
                go.Wait();
                Volatile.Write(ref attempt, i);
                if (i < MonitorContentions)
                {
                    lock (monitor) { }
                }
                else
                {
                    lock (typedLock) { }
                }
                done.Release();
            }
        }) { Name = "contender", IsBackground = true };
        contender.Start();

        for (int i = 0; i < MonitorContentions + LockContentions; i++)
        {
            if (i < MonitorContentions)
            {
                lock (monitor) { ReleaseWhenBlocked(contender, go, ref attempt, i); }
            }
            else
            {
                lock (typedLock) { ReleaseWhenBlocked(contender, go, ref attempt, i); }
            }
            if (!done.Wait(TimeSpan.FromSeconds(10)))
            {
                throw new InvalidOperationException($"contender did not finish attempt {i}");
            }
        }
        contender.Join();
    }

    // Called with the lock held: start attempt i and return once the contender waits on the lock.
    private static void ReleaseWhenBlocked(Thread contender, SemaphoreSlim go, ref int attempt, int i)
    {
        go.Release();
        var clock = Stopwatch.StartNew();
        while (Volatile.Read(ref attempt) != i || (contender.ThreadState & System.Threading.ThreadState.WaitSleepJoin) == 0)
        {
            if (clock.Elapsed > TimeSpan.FromSeconds(10))
            {
                throw new InvalidOperationException($"contender never blocked on attempt {i}");
            }
            Thread.Sleep(1);
        }
        // Blocked in the acquisition; give the runtime a moment past its spin phase.
        Thread.Sleep(5);
    }
}
