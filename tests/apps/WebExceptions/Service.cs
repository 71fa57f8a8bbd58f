// The application code the endpoints call: order service → repository / pricing / inventory /
// validation, each level an async method that hops to the thread pool (Task.Yield) and does a
// little CPU work before going deeper, so throws happen on thread-pool threads inside nested
// async state machines. Which exception a request meets depends only on its order id (Plan).
using System.Globalization;
using System.Runtime.CompilerServices;

namespace WebExceptions;

/// <summary>What an order id leads to: id % 6 picks one of five failures, or none.</summary>
internal enum Failure { None = 0, Argument = 1, KeyNotFound = 2, InvalidOperation = 3, Timeout = 4, Format = 5 }

internal static class Plan
{
    public static Failure For(int orderId) => (Failure)(orderId % 6);
}

/// <summary>Counts the `throw` statements executed, per failure, for the run's own check.</summary>
internal static class Thrown
{
    private static readonly int[] Counts = new int[6];

    public static void Count(Failure f) => Interlocked.Increment(ref Counts[(int)f]);

    public static int Of(Failure f) => Volatile.Read(ref Counts[(int)f]);
}

internal sealed class OrderService
{
    // Level 1, called by the endpoint.
    [MethodImpl(MethodImplOptions.NoInlining)]
    public async Task<string> GetOrderAsync(int id)
    {
        await Task.Yield();
        Cpu.Work(id);
        bool valid = await Validation.ValidateAsync(id);
        string code = await CodeOf(id);
        string item = await FindAsync(id);
        decimal price = await Pricing.PriceAsync(id);
        await Inventory.ReserveAsync(id);
        return $"order {id}: {item} code {code} valid {valid} price {price.ToString(CultureInfo.InvariantCulture)}";
    }

    // KeyNotFoundException: thrown in Repository.LoadAsync (level 3), caught here (level 2),
    // after crossing one await (FindAsync awaits LoadAsync; its rethrow is caught here, by a
    // catch with a `when` filter: the runtime's ExceptionFilter events).
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<string> FindAsync(int id)
    {
        await Task.Yield();
        Cpu.Work(id);
        try
        {
            return await Repository.LoadAsync(id);
        }
        catch (KeyNotFoundException e) when (e.Message.StartsWith("no item", StringComparison.Ordinal))
        {
            return "(missing item)";
        }
    }

    // FormatException: thrown by the synchronous Codes.Parse, caught by its async caller.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<string> CodeOf(int id)
    {
        await Task.Yield();
        try
        {
            return Codes.Parse(id);
        }
        catch (FormatException)
        {
            return "(bad code)";
        }
    }
}

internal static class Validation
{
    // ArgumentException: thrown and caught in the same async method (level 2).
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<bool> ValidateAsync(int id)
    {
        await Task.Yield();
        Cpu.Work(id);
        try
        {
            if (Plan.For(id) == Failure.Argument)
            {
                Thrown.Count(Failure.Argument);
                throw new ArgumentException($"order {id} has no lines", nameof(id));
            }
            return true;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }
}

internal static class Repository
{
    private static int s_openReads;

    // The throw unwinds through a `finally` (the runtime's ExceptionFinally events).
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<string> LoadAsync(int id)
    {
        await Task.Yield();
        Cpu.Work(id);
        Interlocked.Increment(ref s_openReads);
        try
        {
            if (Plan.For(id) == Failure.KeyNotFound)
            {
                Thrown.Count(Failure.KeyNotFound);
                throw new KeyNotFoundException($"no item for order {id}");
            }
            return $"item-{id}";
        }
        finally
        {
            Interlocked.Decrement(ref s_openReads);
        }
    }
}

internal static class Pricing
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<decimal> PriceAsync(int id)
    {
        await Task.Yield();
        Cpu.Work(id);
        return await RateAsync(id) * 10m;
    }

    // InvalidOperationException: thrown here (level 3), crosses PriceAsync and GetOrderAsync,
    // caught by the endpoint handler (Endpoints.GetOrder).
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<decimal> RateAsync(int id)
    {
        await Task.Yield();
        Cpu.Work(id);
        if (Plan.For(id) == Failure.InvalidOperation)
        {
            Thrown.Count(Failure.InvalidOperation);
            throw new InvalidOperationException($"no rate for order {id}");
        }
        return 1.5m;
    }
}

internal static class Inventory
{
    // TimeoutException: thrown here (level 2), crosses GetOrderAsync and the endpoint handler,
    // caught by the application's own middleware (FailureMiddleware), which answers 503.
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task ReserveAsync(int id)
    {
        await Task.Yield();
        Cpu.Work(id);
        if (Plan.For(id) == Failure.Timeout)
        {
            Thrown.Count(Failure.Timeout);
            throw new TimeoutException($"inventory timed out for order {id}");
        }
    }
}

internal static class Codes
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static string Parse(int id)
    {
        if (Plan.For(id) == Failure.Format)
        {
            Thrown.Count(Failure.Format);
            throw new FormatException($"order {id} has a malformed code");
        }
        return $"C{id:D5}";
    }
}

/// <summary>A little CPU work (~50 µs), so each level shows in CPU samples now and then.</summary>
internal static class Cpu
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static int Work(int seed)
    {
        int x = seed;
        for (int i = 0; i < 20_000; i++)
        {
            x = unchecked(x * 1_103_515_245 + 12_345) ^ (x >> 7);
        }
        return x;
    }
}
