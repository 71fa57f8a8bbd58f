// Entry point of the traced program: `run` executes named scenarios in order, `facts` prints
// what each scenario does in exact numbers (scripts/record-traces.sh copies them into
// tests/data/dotnet10/MANIFEST.md, so the manifest and the code cannot drift apart), and
// `version` prints the runtime that executes the program.
using System.Runtime.InteropServices;

namespace TraceScenarios;

internal static class Program
{
    private const string Usage =
        "usage: TraceScenarios run <scenario>[,<scenario>...] [--wait-session]\n" +
        "       TraceScenarios facts <scenario>[,<scenario>...]\n" +
        "       TraceScenarios version";

    private static async Task<int> Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "version")
        {
            Console.WriteLine($"{Environment.Version} ({RuntimeInformation.FrameworkDescription}, {RuntimeInformation.RuntimeIdentifier})");
            return 0;
        }
        if (args.Length < 2 || (args[0] != "run" && args[0] != "facts"))
        {
            Console.Error.WriteLine(Usage);
            return 2;
        }
        List<Scenario> scenarios = [];
        foreach (string name in args[1].Split(','))
        {
            Scenario? found = Scenarios.All.FirstOrDefault(s => s.Name == name);
            if (found is null)
            {
                Console.Error.WriteLine($"unknown scenario '{name}'; known: {string.Join(", ", Scenarios.All.Select(s => s.Name))}");
                return 2;
            }
            scenarios.Add(found);
        }
        if (args[0] == "facts")
        {
            PrintFacts(scenarios);
            return 0;
        }
        bool waitSession = args.Skip(2).Contains("--wait-session");
        return await RunAsync(scenarios, waitSession);
    }

    private static void PrintFacts(List<Scenario> scenarios)
    {
        foreach (Scenario s in scenarios)
        {
            Console.WriteLine($"- `{s.Name}`: {s.Summary}");
            foreach (string fact in s.Facts())
            {
                Console.WriteLine($"  - {fact}");
            }
        }
    }

    private static async Task<int> RunAsync(List<Scenario> scenarios, bool waitSession)
    {
        // With --wait-session the program is started before the tracing session exists
        // (the NetPerf IPC client, or dotnet-trace when it is told to stop on RunDone):
        // wait until a session enables the control source, so no scenario runs untraced.
        if (waitSession && !ControlEventSource.Log.WaitForEnabled(TimeSpan.FromSeconds(30)))
        {
            Console.Error.WriteLine("TraceScenarios: no tracing session enabled TraceScenarios-Control within 30 s");
            return 3;
        }
        foreach (Scenario s in scenarios)
        {
            ControlEventSource.Log.ScenarioStart(s.Name);
            await s.Run();
            ControlEventSource.Log.ScenarioStop(s.Name);
            Console.Error.WriteLine($"TraceScenarios: {s.Name} done");
        }
        ControlEventSource.Log.RunDone(scenarios.Count);
        // The IPC client reads this line to know when to send StopTracing.
        Console.Out.WriteLine("scenarios-done");
        Console.Out.Flush();
        if (waitSession && !ControlEventSource.Log.WaitForDisabled(TimeSpan.FromSeconds(30)))
        {
            Console.Error.WriteLine("TraceScenarios: the tracing session was not stopped within 30 s");
            return 4;
        }
        return 0;
    }
}
