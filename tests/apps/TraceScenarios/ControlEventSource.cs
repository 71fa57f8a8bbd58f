using System.Diagnostics.Tracing;

namespace TraceScenarios;

/// <summary>
/// Marks where each scenario starts and stops in a trace (ScenarioStart/ScenarioStop, an
/// activity per scenario) and ends the run with RunDone, which dotnet-trace can stop on.
/// Its enable/disable commands tell the program when a tracing session begins and ends.
/// </summary>
[EventSource(Name = "TraceScenarios-Control")]
internal sealed class ControlEventSource : EventSource
{
    public static readonly ControlEventSource Log = new();

    private readonly ManualResetEventSlim _enabled = new(false);
    private readonly ManualResetEventSlim _disabled = new(false);

    private ControlEventSource() { }

    [Event(1, Level = EventLevel.Informational)]
    public void ScenarioStart(string name) => WriteEvent(1, name);

    [Event(2, Level = EventLevel.Informational)]
    public void ScenarioStop(string name) => WriteEvent(2, name);

    [Event(3, Level = EventLevel.Informational)]
    public void RunDone(int scenarioCount) => WriteEvent(3, scenarioCount);

    // Written by a scenario's own thread so a test can find that thread (e.g. "waiter").
    [Event(4, Level = EventLevel.Informational)]
    public void Marker(string what) => WriteEvent(4, what);

    [NonEvent]
    public bool WaitForEnabled(TimeSpan timeout) => IsEnabled() || _enabled.Wait(timeout);

    [NonEvent]
    public bool WaitForDisabled(TimeSpan timeout) => _disabled.Wait(timeout);

    protected override void OnEventCommand(EventCommandEventArgs command)
    {
        if (command.Command == EventCommand.Enable)
        {
            _enabled.Set();
        }
        else if (command.Command == EventCommand.Disable)
        {
            _disabled.Set();
        }
    }
}
