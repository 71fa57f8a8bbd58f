namespace TraceScenarios;

/// <summary>
/// An exact number of wait-handle waits that really block (.NET 9+ WaitHandleWait/Start and
/// /Stop), on one thread that touches nothing else: each wait times out, so no other thread is
/// involved. (A first version released the waits from the main thread; re-acquiring the monitor
/// after Monitor.Pulse was then sometimes contended, and the runtime's contended-lock wait is
/// itself a WaitHandleWait, nested in Contention/Start–Stop: the count was no longer the
/// program's.) The thread announces itself with TraceScenarios-Control/Marker("waiter").
/// </summary>
internal static class WaitHandleScenario
{
    public const int EventWaits = 4;    // ManualResetEvent.WaitOne(timeout): WaitSource 0 (Unknown)
    public const int MonitorWaits = 3;  // Monitor.Wait(object, timeout): WaitSource 1 (MonitorWait)
    public const int TimeoutMs = 20;

    public static IEnumerable<string> Facts() =>
    [
        $"on one thread named `waiter` (its first event is TraceScenarios-Control/Marker \"waiter\"): {EventWaits} × ManualResetEvent.WaitOne({TimeoutMs}) on an event never set, then {MonitorWaits} × Monitor.Wait(object, {TimeoutMs}) on an object no other thread locks: {EventWaits + MonitorWaits} waits in all, each timing out after ≥ {TimeoutMs} ms",
        "WaitHandleWait/Start WaitSource: 0 (Unknown) for the event waits, 1 (MonitorWait) for the Monitor waits; the thread has no other wait and no contended lock",
    ];

    public static void Run()
    {
        Exception? failure = null;
        var waiter = new Thread(() =>
        {
            try
            {
                ControlEventSource.Log.Marker("waiter");
                using ManualResetEvent never = new(false);
                for (int i = 0; i < EventWaits; i++)
                {
                    if (never.WaitOne(TimeoutMs)) throw new InvalidOperationException("an event nobody sets was set");
                }
                object alone = new();
                lock (alone)
                {
                    for (int i = 0; i < MonitorWaits; i++)
                    {
                        if (Monitor.Wait(alone, TimeoutMs)) throw new InvalidOperationException("an object nobody pulses was pulsed");
                    }
                }
            }
            catch (Exception e)
            {
                failure = e;
            }
        }) { Name = "waiter" };
        waiter.Start();
        waiter.Join();
        if (failure is not null) throw new InvalidOperationException("the waiter failed", failure);
    }
}
