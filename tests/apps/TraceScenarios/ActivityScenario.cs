using System.Diagnostics.Tracing;

namespace TraceScenarios;

/// <summary>
/// Start/Stop pairs: EventSource gives events named XxxStart/XxxStop the Start/Stop opcodes
/// and, while TplEventSource's TasksFlowActivityIds keyword (0x80) is on, a fresh activity id
/// per Start whose related activity id is the enclosing one; the ids flow across awaits.
/// </summary>
[EventSource(Name = "TraceScenarios-Activities")]
internal sealed class ActivityEventSource : EventSource
{
    public static readonly ActivityEventSource Log = new();

    private ActivityEventSource() { }

    [Event(1, Level = EventLevel.Informational)]
    public void RequestStart(int request) => WriteEvent(1, request);

    [Event(2, Level = EventLevel.Informational)]
    public void RequestStop(int request) => WriteEvent(2, request);

    [Event(3, Level = EventLevel.Informational)]
    public void PhaseStart(int request, string phase) => WriteEvent(3, request, phase);

    [Event(4, Level = EventLevel.Informational)]
    public void PhaseStop(int request, string phase) => WriteEvent(4, request, phase);

    [Event(5, Level = EventLevel.Informational)]
    public void StepStart(int request, int step) => WriteEvent(5, request, step);

    [Event(6, Level = EventLevel.Informational)]
    public void StepStop(int request, int step) => WriteEvent(6, request, step);

    [Event(7, Level = EventLevel.Informational)]
    public void Note(int request, string text) => WriteEvent(7, request, text);
}

/// <summary>Requests → phases → steps, three levels of nested activities with awaits inside.</summary>
internal static class ActivityScenario
{
    public const int SequentialRequests = 2;
    public const int ConcurrentRequests = 2;
    public static readonly string[] Phases = ["parse", "execute"];
    public const int StepsPerPhase = 2;
    public const int StepDelayMs = 5;

    public static IEnumerable<string> Facts() =>
    [
        $"TraceScenarios-Activities: {SequentialRequests} requests one after another (ids 1..{SequentialRequests}), then {ConcurrentRequests} at once (ids {SequentialRequests + 1}..{SequentialRequests + ConcurrentRequests})",
        $"each request: RequestStart → for phase in [{string.Join(", ", Phases)}]: PhaseStart → {StepsPerPhase} × (StepStart, await Task.Delay({StepDelayMs}), Note, StepStop) → PhaseStop → RequestStop",
        $"per request: 1 RequestStart/Stop, {Phases.Length} PhaseStart/Stop, {Phases.Length * StepsPerPhase} StepStart/Stop, {Phases.Length * StepsPerPhase} Note; all requests: {Total(1)} RequestStart, {Total(Phases.Length)} PhaseStart, {Total(Phases.Length * StepsPerPhase)} StepStart, {Total(Phases.Length * StepsPerPhase)} Note",
        "activity ids need System.Threading.Tasks.TplEventSource with keyword 0x80 (TasksFlowActivityIds) in the session",
    ];

    private static int Total(int perRequest) => perRequest * (SequentialRequests + ConcurrentRequests);

    public static async Task RunAsync()
    {
        for (int id = 1; id <= SequentialRequests; id++)
        {
            await RequestAsync(id);
        }
        await Task.WhenAll(Enumerable.Range(SequentialRequests + 1, ConcurrentRequests).Select(RequestAsync));
    }

    private static async Task RequestAsync(int id)
    {
        ActivityEventSource.Log.RequestStart(id);
        foreach (string phase in Phases)
        {
            ActivityEventSource.Log.PhaseStart(id, phase);
            for (int step = 0; step < StepsPerPhase; step++)
            {
                ActivityEventSource.Log.StepStart(id, step);
                await Task.Delay(StepDelayMs);
                ActivityEventSource.Log.Note(id, $"{phase} step {step} done");
                ActivityEventSource.Log.StepStop(id, step);
            }
            ActivityEventSource.Log.PhaseStop(id, phase);
        }
        ActivityEventSource.Log.RequestStop(id);
    }
}
