using System.Runtime.CompilerServices;

namespace TraceScenarios;

/// <summary>
/// async/await chains several levels deep over Task.Delay, with CPU work at each level so
/// CPU samples land inside the async methods, plus a System.Threading.Timer and a
/// PeriodicTimer. Thread-time and async-stitching views need exactly this shape.
/// </summary>
internal static class AsyncScenario
{
    public const int SequentialChains = 4;
    public const int ConcurrentChains = 3;
    public const int DelayMs = 15;
    public const int TimerTicks = 5;
    public const int PeriodicTicks = 5;

    public static IEnumerable<string> Facts() =>
    [
        $"chain: RunChainAsync → Level1Async → Level2Async → Level3Async → Task.Delay({DelayMs}), each level with ~1–2 ms of CPU work (SpinWork) before and after its await",
        $"{SequentialChains} chains awaited one after another, then {ConcurrentChains} at once under Task.WhenAll ({SequentialChains + ConcurrentChains} chains, {SequentialChains + ConcurrentChains} Task.Delay awaits at level 3)",
        $"a System.Threading.Timer that fires {TimerTicks} times (20 ms period) and a PeriodicTimer awaited for {PeriodicTicks} ticks (20 ms)",
    ];

    public static async Task RunAsync()
    {
        long total = 0;
        for (int i = 0; i < SequentialChains; i++)
        {
            total += await RunChainAsync(i);
        }
        long[] parallel = await Task.WhenAll(Enumerable.Range(SequentialChains, ConcurrentChains).Select(RunChainAsync));
        total += parallel.Sum();
        await TimersAsync();
        if (total == 0)
        {
            throw new InvalidOperationException("the chains did no work");
        }
    }

    private static async Task<long> RunChainAsync(int id)
    {
        await Task.Yield();
        return await Level1Async(id) + SpinWork(id);
    }

    private static async Task<long> Level1Async(int id)
    {
        long before = SpinWork(id);
        long inner = await Level2Async(id);
        return before + inner + SpinWork(id + 1);
    }

    private static async Task<long> Level2Async(int id)
    {
        long before = SpinWork(id);
        long inner = await Level3Async(id).ConfigureAwait(false);
        return before + inner;
    }

    private static async Task<long> Level3Async(int id)
    {
        long before = SpinWork(id);
        await Task.Delay(DelayMs);
        return before + SpinWork(id);
    }

    private static async Task TimersAsync()
    {
        var fired = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        int ticks = 0;
        using (new Timer(_ =>
        {
            if (Interlocked.Increment(ref ticks) == TimerTicks)
            {
                fired.TrySetResult();
            }
        }, null, 20, 20))
        {
            await fired.Task.WaitAsync(TimeSpan.FromSeconds(10));
        }
        using PeriodicTimer periodic = new(TimeSpan.FromMilliseconds(20));
        for (int i = 0; i < PeriodicTicks; i++)
        {
            await periodic.WaitForNextTickAsync();
        }
    }

    // Deterministic CPU work of roughly 1-2 ms, never inlined so it is its own frame.
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static long SpinWork(int seed)
    {
        ulong x = (ulong)seed + 0x9E3779B97F4A7C15UL;
        for (int i = 0; i < 400_000; i++)
        {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
        return (long)(x & 0xFFFF) + 1;
    }
}
