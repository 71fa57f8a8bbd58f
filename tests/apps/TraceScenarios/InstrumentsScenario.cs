using System.Diagnostics.Metrics;

namespace TraceScenarios;

/// <summary>
/// Every System.Diagnostics.Metrics instrument kind, each with values known at every tick, read
/// by a session through the System.Diagnostics.Metrics provider as dotnet-counters reads them;
/// the EventCounters of TraceScenarios-Counters (all four kinds) are updated on the same ticks.
/// </summary>
internal static class InstrumentsScenario
{
    public const string MeterName = "TraceScenarios.Instruments";
    public const int Ticks = 20;
    public const int TickMs = 150;

    public static IEnumerable<string> Facts() =>
    [
        $"{Ticks} ticks {TickMs} ms apart (~{Ticks * TickMs / 1000.0:0.#} s), then one more publishing interval; at tick t = 1..{Ticks}, meter `{MeterName}`:",
        $"Counter<long> `requests` Add(t): total {Ticks * (Ticks + 1) / 2}",
        $"UpDownCounter<long> `in-flight` Add(+3) then Add(−1): value 2·t after tick t, ends at {2 * Ticks} (each interval's change is 2 × the ticks in it)",
        $"ObservableCounter<long> `bytes-sent` observed as 1000·t (a running total): ends at {1000 * Ticks}",
        "ObservableUpDownCounter<int> `connections` observed as 10 + (t mod 4)",
        "ObservableGauge<double> `temperature` observed as 20 + 0.5·t",
        "Gauge<int> `queue-depth` Record(t mod 7)",
        $"Histogram<double> `latency` Record(t) and Record(2·t) (ms): {2 * Ticks} values in all, sum {3 * Ticks * (Ticks + 1) / 2}",
        "TraceScenarios-Counters EventCounters at the same ticks: `requests` +1, `latency-ms` records t, `bytes` +100·t, `queue-length` = t mod 7",
        "published every 1 s (RefreshInterval=1, EventCounterIntervalSec=1); observable instruments are read at each publication, so their values are those of the tick current then",
    ];

    public static async Task RunAsync()
    {
        using Meter meter = new(MeterName, "1.0");
        int tick = 0;
        int Current() => Volatile.Read(ref tick);
        Counter<long> requests = meter.CreateCounter<long>("requests", "{request}", "Requests handled");
        UpDownCounter<long> inFlight = meter.CreateUpDownCounter<long>("in-flight", "{request}", "Requests in flight");
        meter.CreateObservableCounter("bytes-sent", () => 1000L * Current(), "By", "Bytes sent");
        meter.CreateObservableUpDownCounter("connections", () => 10 + Current() % 4, "{connection}", "Open connections");
        meter.CreateObservableGauge("temperature", () => 20 + 0.5 * Current(), "Cel", "Temperature");
        Gauge<int> queueDepth = meter.CreateGauge<int>("queue-depth", "{item}", "Queue depth");
        Histogram<double> latency = meter.CreateHistogram<double>("latency", "ms", "Request latency");
        for (int t = 1; t <= Ticks; t++)
        {
            requests.Add(t);
            inFlight.Add(3);
            inFlight.Add(-1);
            queueDepth.Record(t % 7);
            latency.Record(t);
            latency.Record(2 * t);
            CountersEventSource.Log.Request(t, 100 * t);
            CountersEventSource.Log.QueueLength = t % 7;
            Volatile.Write(ref tick, t);
            await Task.Delay(TickMs);
        }
        // One more publishing interval so the last values reach the session.
        await Task.Delay(1200);
    }
}
