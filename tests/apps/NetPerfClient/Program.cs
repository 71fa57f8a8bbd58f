// Records one EventPipe session over the diagnostics IPC port of a program it starts:
//   NetPerfClient --output FILE [--format 0|1] [--buffer-mb N] --provider NAME:KEYWORDS:LEVEL[:FILTER]...
//                 -- COMMAND ARGS...
// The program must print the line "scenarios-done" on stdout when its work is over (then the
// session is stopped) and keep running until the session ends; TraceScenarios does both
// with --wait-session. Exit code: the program's, or 1 when recording failed.
using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;

namespace NetPerfClient;

internal static class Program
{
    private static int Main(string[] args)
    {
        int split = Array.IndexOf(args, "--");
        if (split < 0 || split == args.Length - 1)
        {
            Console.Error.WriteLine("usage: NetPerfClient --output FILE [--format 0|1] [--buffer-mb N] --provider NAME:KEYWORDS:LEVEL[:FILTER]... -- COMMAND ARGS...");
            return 2;
        }
        string? output = null;
        uint format = 0, bufferMB = 64;
        List<ProviderConfig> providers = [];
        for (int i = 0; i + 1 < split; i += 2)
        {
            switch (args[i])
            {
                case "--output": output = args[i + 1]; break;
                case "--format": format = uint.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
                case "--buffer-mb": bufferMB = uint.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
                case "--provider": providers.Add(ParseProvider(args[i + 1])); break;
                default: Console.Error.WriteLine($"NetPerfClient: unknown option {args[i]}"); return 2;
            }
        }
        if (output is null || providers.Count == 0)
        {
            Console.Error.WriteLine("NetPerfClient: --output and at least one --provider are required");
            return 2;
        }
        return Record(output, format, bufferMB, providers, args[(split + 1)..]);
    }

    // NAME:0xKEYWORDS:LEVEL[:FILTER]; the filter is everything after the third colon.
    private static ProviderConfig ParseProvider(string spec)
    {
        string[] parts = spec.Split(':', 4);
        if (parts.Length < 3)
        {
            throw new ArgumentException($"provider '{spec}' is not NAME:KEYWORDS:LEVEL[:FILTER]");
        }
        string keywords = parts[1].StartsWith("0x", StringComparison.OrdinalIgnoreCase) ? parts[1][2..] : parts[1];
        return new ProviderConfig(parts[0], ulong.Parse(keywords, NumberStyles.HexNumber, CultureInfo.InvariantCulture),
            uint.Parse(parts[2], CultureInfo.InvariantCulture), parts.Length == 4 ? parts[3] : "");
    }

    private static int Record(string output, uint format, uint bufferMB, List<ProviderConfig> providers, string[] command)
    {
        ProcessStartInfo start = new(command[0], command[1..]) { RedirectStandardOutput = true, UseShellExecute = false };
        using Process child = Process.Start(start) ?? throw new InvalidOperationException($"could not start {command[0]}");
        try
        {
            string socketPath = DiagnosticsIpc.WaitForSocket(child.Id, TimeSpan.FromSeconds(30));
            using Socket session = DiagnosticsIpc.Connect(socketPath);
            ulong sessionId = DiagnosticsIpc.CollectTracing2(session, bufferMB, format, rundown: true, providers);
            Console.Error.WriteLine($"NetPerfClient: session {sessionId} started on {Path.GetFileName(socketPath)}, format {format}");
            Task<long> copy = Task.Run(() => CopyStream(session, output));
            WaitForLine(child, "scenarios-done");
            using (Socket control = DiagnosticsIpc.Connect(socketPath))
            {
                ulong stopped = DiagnosticsIpc.StopTracing(control, sessionId);
                if (stopped != sessionId)
                {
                    throw new InvalidDataException($"StopTracing answered session {stopped}, asked {sessionId}");
                }
            }
            if (!copy.Wait(TimeSpan.FromSeconds(60)))
            {
                throw new TimeoutException("the runtime did not end the trace stream within 60 s of StopTracing");
            }
            Console.Error.WriteLine($"NetPerfClient: wrote {copy.Result} bytes to {output}");
            child.WaitForExit();
            return child.ExitCode;
        }
        catch (Exception e)
        {
            Console.Error.WriteLine($"NetPerfClient: {e.Message}");
            if (!child.HasExited)
            {
                child.Kill();
            }
            return 1;
        }
    }

    // Forwards the program's stdout to our stderr until the marker line; throws if it ended first.
    private static void WaitForLine(Process child, string marker)
    {
        while (child.StandardOutput.ReadLine() is string line)
        {
            Console.Error.WriteLine(line);
            if (line == marker)
            {
                return;
            }
        }
        throw new InvalidOperationException($"the program ended without printing '{marker}'");
    }

    // The stream ends when the runtime closes the connection after StopTracing's rundown.
    private static long CopyStream(Socket session, string output)
    {
        using NetworkStream source = new(session, ownsSocket: false);
        using FileStream file = File.Create(output);
        source.CopyTo(file);
        return file.Length;
    }
}
