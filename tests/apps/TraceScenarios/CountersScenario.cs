using System.Diagnostics.Metrics;
using System.Diagnostics.Tracing;

namespace TraceScenarios;

/// <summary>
/// EventCounters of our own (published as EventCounters events every EventCounterIntervalSec
/// once a session asks for them) next to the runtime's System.Runtime counters.
/// </summary>
[EventSource(Name = "TraceScenarios-Counters")]
internal sealed class CountersEventSource : EventSource
{
    public static readonly CountersEventSource Log = new();

    private IncrementingEventCounter? _requests;
    private EventCounter? _latency;
    private PollingCounter? _queueLength;
    private IncrementingPollingCounter? _bytes;
    private long _bytesTotal;

    private CountersEventSource() { }

    public int QueueLength { get; set; }

    [NonEvent]
    public void Request(double latencyMs, int bytes)
    {
        _requests?.Increment();
        _latency?.WriteMetric(latencyMs);
        Interlocked.Add(ref _bytesTotal, bytes);
    }

    protected override void OnEventCommand(EventCommandEventArgs command)
    {
        // Counters are created when a session enables the source, the documented pattern.
        if (command.Command == EventCommand.Enable && _requests is null)
        {
            _requests = new IncrementingEventCounter("requests", this) { DisplayName = "Requests", DisplayRateTimeScale = TimeSpan.FromSeconds(1) };
            _latency = new EventCounter("latency-ms", this) { DisplayName = "Request latency", DisplayUnits = "ms" };
            _queueLength = new PollingCounter("queue-length", this, () => QueueLength) { DisplayName = "Queue length" };
            _bytes = new IncrementingPollingCounter("bytes", this, () => Interlocked.Read(ref _bytesTotal)) { DisplayName = "Bytes sent", DisplayUnits = "B" };
        }
    }
}

/// <summary>EventCounters plus System.Diagnostics.Metrics instruments, updated on a fixed schedule.</summary>
internal static class CountersScenario
{
    public const string MeterName = "TraceScenarios.Metrics";
    public const int Ticks = 25;
    public const int TickMs = 100;

    public static IEnumerable<string> Facts() =>
    [
        $"{Ticks} ticks {TickMs} ms apart (~{Ticks * TickMs / 1000.0:0.#} s); at tick t = 1..{Ticks}:",
        "TraceScenarios-Counters: `requests` (IncrementingEventCounter) +1, `latency-ms` (EventCounter) records t ms, `bytes` (IncrementingPollingCounter) +100·t, `queue-length` (PollingCounter) = t mod 7",
        $"Meter `{MeterName}`: Counter<long> `orders` +1 with tag region=eu|us alternating (t odd = eu), Histogram<double> `order-latency` records t·1.5 ms, UpDownCounter<int> `active-orders` +1 then −1 on every 3rd tick, ObservableGauge<int> `queue-depth` = t mod 7",
        $"totals: requests {Ticks}, bytes {100 * Ticks * (Ticks + 1) / 2}, orders {Ticks} ({(Ticks + 1) / 2} eu, {Ticks / 2} us), active-orders ends at {Ticks - Ticks / 3}",
        "published every 1 s when the session passes EventCounterIntervalSec=1 (EventCounters) and RefreshInterval=1 (System.Diagnostics.Metrics)",
    ];

    public static async Task RunAsync()
    {
        using Meter meter = new(MeterName, "1.0");
        int depth = 0;
        Counter<long> orders = meter.CreateCounter<long>("orders", "{order}", "Orders placed");
        Histogram<double> latency = meter.CreateHistogram<double>("order-latency", "ms", "Order latency");
        UpDownCounter<int> active = meter.CreateUpDownCounter<int>("active-orders", "{order}", "Orders in flight");
        meter.CreateObservableGauge("queue-depth", () => Volatile.Read(ref depth), "{item}", "Queue depth");
        for (int t = 1; t <= Ticks; t++)
        {
            CountersEventSource.Log.Request(t, 100 * t);
            CountersEventSource.Log.QueueLength = t % 7;
            orders.Add(1, new KeyValuePair<string, object?>("region", t % 2 == 1 ? "eu" : "us"));
            latency.Record(t * 1.5);
            active.Add(1);
            if (t % 3 == 0)
            {
                active.Add(-1);
            }
            Volatile.Write(ref depth, t % 7);
            await Task.Delay(TickMs);
        }
        // One more publishing interval so the last values reach the session.
        await Task.Delay(1200);
    }
}
