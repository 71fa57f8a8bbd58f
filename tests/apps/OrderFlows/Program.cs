// Four concurrent order flows, each order an EventSource activity with phases and steps nested
// three deep across awaits, with CPU work inside every step. `run orders` does it (and checks its
// counts), `facts orders` prints the exact numbers that scripts/record-traces.sh copies into
// tests/data/dotnet10/MANIFEST.md, `version` the runtime.
using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace OrderFlows;

/// <summary>
/// XxxStart/XxxStop events get the Start/Stop opcodes; while TplEventSource's
/// TasksFlowActivityIds keyword (0x80) is on, each Start gets a fresh activity id whose related
/// id is the enclosing activity's, and the id flows with the async context across awaits.
/// </summary>
[EventSource(Name = "OrderFlows-Events")]
internal sealed class OrderEvents : EventSource
{
    public static readonly OrderEvents Log = new();

    private OrderEvents() { }

    [Event(1, Level = EventLevel.Informational)]
    public void OrderStart(string order, int flow) => WriteEvent(1, order, flow);

    [Event(2, Level = EventLevel.Informational)]
    public void OrderStop(string order, int flow) => WriteEvent(2, order, flow);

    [Event(3, Level = EventLevel.Informational)]
    public void PhaseStart(int order, string phase) => WriteEvent(3, order, phase);

    [Event(4, Level = EventLevel.Informational)]
    public void PhaseStop(int order, string phase) => WriteEvent(4, order, phase);

    [Event(5, Level = EventLevel.Informational)]
    public void StepStart(int order, int step) => WriteEvent(5, order, step);

    [Event(6, Level = EventLevel.Informational)]
    public void StepStop(int order, int step) => WriteEvent(6, order, step);
}

internal static class Program
{
    public const int Flows = 4;
    public const int OrdersPerFlow = 6;
    public static readonly string[] Phases = ["validate", "price", "ship"];
    public const int StepsPerPhase = 3;
    public const int StepSpinMicroseconds = 4000;
    public const int StepDelayMs = 3;

    internal static int s_orders, s_phases, s_steps;

    private static async Task<int> Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "version")
        {
            Console.WriteLine($"{Environment.Version} ({RuntimeInformation.FrameworkDescription}, {RuntimeInformation.RuntimeIdentifier})");
            return 0;
        }
        if (args.Length < 2 || args[1] != "orders" || (args[0] != "run" && args[0] != "facts"))
        {
            Console.Error.WriteLine("usage: OrderFlows (run|facts) orders | OrderFlows version");
            return 2;
        }
        if (args[0] == "facts")
        {
            Console.WriteLine("- `orders`: nested EventSource activities (Order → Phase → Step) across awaits, four concurrent flows, CPU work inside");
            foreach (string fact in Facts()) Console.WriteLine($"  - {fact}");
            return 0;
        }
        await Task.WhenAll(Enumerable.Range(0, Flows).Select(f => Task.Run(() => FlowAsync(f))));
        int orders = Flows * OrdersPerFlow;
        if (s_orders != orders || s_phases != orders * Phases.Length || s_steps != orders * Phases.Length * StepsPerPhase)
        {
            Console.Error.WriteLine($"OrderFlows: ran {s_orders} orders, {s_phases} phases, {s_steps} steps");
            return 1;
        }
        Console.WriteLine($"OrderFlows: {s_orders} orders, {s_phases} phases, {s_steps} steps");
        return 0;
    }

    private static IEnumerable<string> Facts()
    {
        int orders = Flows * OrdersPerFlow, phases = orders * Phases.Length, steps = phases * StepsPerPhase;
        yield return $"OrderFlows-Events: {Flows} flows at once (Task.Run each), each {OrdersPerFlow} orders one after another: order n = flow + {Flows} × k (k = 0..{OrdersPerFlow - 1}), named \"order-<n>\"";
        yield return $"each order: OrderStart(order: \"order-<n>\", flow) → for phase in [{string.Join(", ", Phases)}]: PhaseStart(n, phase) → {StepsPerPhase} × (StepStart(n, step), Spin {StepSpinMicroseconds / 2} µs, await Task.Delay({StepDelayMs}), Spin {StepSpinMicroseconds / 2} µs, StepStop) → PhaseStop → OrderStop";
        yield return $"in all: {orders} OrderStart/Stop, {phases} PhaseStart/Stop, {steps} StepStart/Stop (Start and Stop opcodes, nested by related activity id when TplEventSource keyword 0x80 is on)";
        yield return $"CPU work: {steps * StepSpinMicroseconds / 1000} ms of spinning in Steps.SpinBefore / Steps.SpinAfter (wall clock; {Flows} flows share the machine's processors)";
    }

    private static async Task FlowAsync(int flow)
    {
        for (int k = 0; k < OrdersPerFlow; k++)
        {
            await OrderAsync(flow + Flows * k, flow);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task OrderAsync(int order, int flow)
    {
        OrderEvents.Log.OrderStart($"order-{order}", flow);
        foreach (string phase in Phases)
        {
            await PhaseAsync(order, phase);
        }
        OrderEvents.Log.OrderStop($"order-{order}", flow);
        Interlocked.Increment(ref s_orders);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task PhaseAsync(int order, string phase)
    {
        OrderEvents.Log.PhaseStart(order, phase);
        for (int step = 0; step < StepsPerPhase; step++)
        {
            await Steps.StepAsync(order, step);
        }
        OrderEvents.Log.PhaseStop(order, phase);
        Interlocked.Increment(ref s_phases);
    }
}

internal static class Steps
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task StepAsync(int order, int step)
    {
        OrderEvents.Log.StepStart(order, step);
        SpinBefore(Program.StepSpinMicroseconds / 2);
        await Task.Delay(Program.StepDelayMs);
        SpinAfter(Program.StepSpinMicroseconds / 2);
        OrderEvents.Log.StepStop(order, step);
        Interlocked.Increment(ref Program.s_steps);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void SpinBefore(int microseconds) => Spin(microseconds);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void SpinAfter(int microseconds) => Spin(microseconds);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Spin(int microseconds)
    {
        long end = System.Diagnostics.Stopwatch.GetTimestamp() + microseconds * System.Diagnostics.Stopwatch.Frequency / 1_000_000;
        int x = microseconds;
        while (System.Diagnostics.Stopwatch.GetTimestamp() < end)
        {
            for (int i = 0; i < 200; i++) x = unchecked(x * 1_103_515_245 + 12_345);
        }
        GC.KeepAlive(x);
    }
}
