// Records real diagnostics-IPC byte sequences for the protocol unit tests (tests/unit/diag/):
//   IpcCapture OUT.txt [--dotnet-trace PATH]
// 1. What the reference client (Microsoft.Diagnostics.NETCore.Client 0.2.750501) sends: a
//    fake "runtime" listens on a socket named like this process's own diagnostic socket in a
//    private TMPDIR; DiagnosticsClient(own pid) connects there. Each request is saved whole
//    (header + payload) and answered OK so the client goes on.
// 2. With --dotnet-trace, what dotnet-trace 10 sends for each profile (same fake runtime).
// 3. What a real .NET 10 runtime answers: ProcessInfo 1/2/3, ResumeRuntime, an unknown
//    command, a bad encoding, a CollectTracing OK; and the ADVR_V1 advertise a child process
//    sends to a reverse (connect) diagnostic port.
// Output: one "name hex" line per message, '#' lines are comments.
using System.Buffers.Binary;
using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Net.Sockets;
using System.Text;
using Microsoft.Diagnostics.NETCore.Client;

namespace IpcCapture;

internal static class Program
{
    private static readonly List<string> Lines = new();

    private static int Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "child")
        {
            // Started suspended on a reverse port: reaching here means ResumeRuntime worked.
            Console.WriteLine("child-resumed");
            return 0;
        }
        string realTmp = Environment.GetEnvironmentVariable("TMPDIR") is { Length: > 0 } t ? t : "/tmp";
        string fakeDir = Directory.CreateTempSubdirectory("ipc-capture-").FullName;
        Environment.SetEnvironmentVariable("TMPDIR", fakeDir);
        string? dotnetTrace = args.Length >= 3 && args[1] == "--dotnet-trace" ? args[2] : null;
        try
        {
            CaptureReferenceClient(fakeDir);
            if (dotnetTrace != null)
            {
                CaptureDotnetTrace(fakeDir, dotnetTrace);
            }
            CaptureRuntimeReplies(realTmp);
            CaptureAdvertise(fakeDir);
        }
        finally
        {
            Directory.Delete(fakeDir, recursive: true);
        }
        File.WriteAllLines(args[0], Lines);
        return 0;
    }

    private static void Save(string name, ReadOnlySpan<byte> bytes) => Lines.Add($"{name} {Convert.ToHexString(bytes)}");

    private static EventPipeProvider Runtime(EventLevel level, long keywords) => new("Microsoft-Windows-DotNETRuntime", level, keywords);

    private static void CaptureReferenceClient(string fakeDir)
    {
        Lines.Add("# requests sent by Microsoft.Diagnostics.NETCore.Client 0.2.750501 (DiagnosticsClient)");
        using FakeRuntime fake = new(Path.Combine(fakeDir, $"dotnet-diagnostic-{Environment.ProcessId}-1-socket"));
        DiagnosticsClient client = new(Environment.ProcessId);
        EventPipeProvider sampler = new("Microsoft-DotNETCore-SampleProfiler", EventLevel.Informational);
        EventPipeProvider[] two = { Runtime(EventLevel.Verbose, 0x8001), sampler };

        Collect(fake, client, "client_collect2", new EventPipeSessionConfiguration(two, 256, requestRundown: true, requestStackwalk: true));
        Collect(fake, client, "client_collect2_norundown", new EventPipeSessionConfiguration(two, 64, requestRundown: false, requestStackwalk: true));
        Collect(fake, client, "client_collect3_nostackwalk", new EventPipeSessionConfiguration(two, 256, requestRundown: true, requestStackwalk: false));
        Collect(fake, client, "client_collect4_rundown_gc", new EventPipeSessionConfiguration(two, 256, rundownKeyword: 0x1, requestStackwalk: true));
        EventPipeProvider filtered = new("Microsoft-Windows-DotNETRuntime", EventLevel.Informational, 0x1,
            new Dictionary<string, string> { ["a"] = "1", ["b"] = "x;y" }, new EventPipeProviderEventFilter(true, new uint[] { 1, 2 }));
        Collect(fake, client, "client_collect5_filter", new EventPipeSessionConfiguration(new[] { filtered, sampler }, 256, rundownKeyword: 0x80020139, requestStackwalk: true));
        Collect(fake, client, "client_collect6_block", new EventPipeSessionConfiguration(two, 256, 0x80020139, true, EventPipeBufferingMode.Block));

        fake.Reply = FakeRuntime.Ok(Array.Empty<byte>());
        client.ResumeRuntime();
        Save("client_resume_runtime", fake.Requests.Last());
        // GetProcessInfo tries ProcessInfo3, then 2, then 1 while the runtime answers "unknown command".
        fake.Reply = FakeRuntime.Error(0x80131385);
        // (internal in this version: called through reflection)
        try { typeof(DiagnosticsClient).GetMethod("GetProcessInfo", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Instance)!.Invoke(client, null); }
        catch (Exception) { /* every version refused, as intended */ }
        for (int i = 0; i < fake.Requests.Count; i++)
        {
            byte[] r = fake.Requests[i];
            if (r[16] == 0x04 && r[17] != 0x01)
            {
                Save($"client_process_info_0x{r[17]:X2}", r);
            }
        }
    }

    private static void Collect(FakeRuntime fake, DiagnosticsClient client, string name, EventPipeSessionConfiguration config)
    {
        fake.Reply = FakeRuntime.Ok(BitConverter.GetBytes(0x1122334455667788UL));
        using EventPipeSession session = client.StartEventPipeSession(config);
        Save(name, fake.Requests.Last());
        session.Stop();
        Save(name + "_stop", fake.Requests.Last());
    }

    private static void CaptureDotnetTrace(string fakeDir, string dotnetTrace)
    {
        Lines.Add("# requests sent by dotnet-trace 10.0.750501 `collect -p PID --profile NAME`");
        using FakeRuntime fake = new(Path.Combine(fakeDir, $"dotnet-diagnostic-{Environment.ProcessId}-1-socket"));
        fake.Reply = FakeRuntime.Ok(BitConverter.GetBytes(0x1122334455667788UL));
        foreach (string profile in new[] { "dotnet-common", "dotnet-sampled-thread-time", "gc-verbose", "gc-collect", "database", "dotnet-common,dotnet-sampled-thread-time" })
        {
            int before = fake.Requests.Count;
            ProcessStartInfo psi = new(dotnetTrace) { RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (string a in new[] { "collect", "-p", Environment.ProcessId.ToString(), "--profile", profile, "-o", Path.Combine(fakeDir, "x.nettrace") })
            {
                psi.ArgumentList.Add(a);
            }
            psi.Environment["TMPDIR"] = fakeDir;
            using Process p = Process.Start(psi)!;
            DateTime deadline = DateTime.UtcNow.AddSeconds(30);
            while (fake.Requests.Count == before && DateTime.UtcNow < deadline)
            {
                Thread.Sleep(20);
            }
            if (!p.HasExited)
            {
                p.Kill(entireProcessTree: true);
            }
            p.WaitForExit();
            if (fake.Requests.Count == before)
            {
                throw new InvalidOperationException($"dotnet-trace sent nothing for {profile}: {p.StandardError.ReadToEnd()}");
            }
            Save("dotnet_trace_" + profile.Replace(',', '+'), fake.Requests[before]);
        }
    }

    private static void CaptureRuntimeReplies(string realTmp)
    {
        Lines.Add($"# replies of a real runtime ({Environment.Version}) to raw requests on its own socket");
        string socketPath = Directory.GetFiles(realTmp, $"dotnet-diagnostic-{Environment.ProcessId}-*-socket").Single();
        Save("runtime_process_info", Exchange(socketPath, Header(0x04, 0x00, 0)));
        Save("runtime_process_info2", Exchange(socketPath, Header(0x04, 0x04, 0)));
        Save("runtime_process_info3", Exchange(socketPath, Header(0x04, 0x08, 0)));
        Save("runtime_resume_runtime", Exchange(socketPath, Header(0x04, 0x01, 0)));
        Save("runtime_unknown_command", Exchange(socketPath, Header(0x02, 0x7F, 0)));
        byte[] bad = Header(0x02, 0x03, 3);   // CollectTracing2 whose payload stops after 3 bytes
        Save("runtime_bad_encoding", Exchange(socketPath, bad));
        Save("runtime_stop_unknown_session", Exchange(socketPath, WithPayload(Header(0x02, 0x01, 8), BitConverter.GetBytes(0x42UL))));
    }

    private static byte[] Header(byte set, byte id, int payloadSize)
    {
        byte[] m = new byte[20 + payloadSize];
        Encoding.ASCII.GetBytes("DOTNET_IPC_V1\0").CopyTo(m, 0);
        BinaryPrimitives.WriteUInt16LittleEndian(m.AsSpan(14), (ushort)m.Length);
        m[16] = set;
        m[17] = id;
        return m;
    }

    private static byte[] WithPayload(byte[] message, byte[] payload)
    {
        payload.CopyTo(message, 20);
        return message;
    }

    /// <summary>Sends one message and returns the whole reply (header + payload).</summary>
    private static byte[] Exchange(string socketPath, byte[] message)
    {
        using Socket s = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        s.Connect(new UnixDomainSocketEndPoint(socketPath));
        s.Send(message);
        byte[] header = FakeRuntime.ReadExactly(s, 20);
        int size = BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(14));
        return header.Concat(FakeRuntime.ReadExactly(s, size - 20)).ToArray();
    }

    private static void CaptureAdvertise(string fakeDir)
    {
        Lines.Add("# a child runtime started with DOTNET_DiagnosticPorts=PATH,connect,suspend: its advertise, then its reply to ResumeRuntime");
        string path = Path.Combine(fakeDir, "reverse.sock");
        using Socket listener = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        listener.Bind(new UnixDomainSocketEndPoint(path));
        listener.Listen(4);
        ProcessStartInfo psi = new(Environment.ProcessPath!) { RedirectStandardOutput = true };
        psi.ArgumentList.Add(typeof(Program).Assembly.Location);
        psi.ArgumentList.Add("child");
        psi.Environment["DOTNET_DiagnosticPorts"] = path + ",connect,suspend";
        using Process child = Process.Start(psi)!;
        using (Socket conn = listener.Accept())
        {
            byte[] advertise = FakeRuntime.ReadExactly(conn, 34);
            Save("runtime_advertise", advertise);
            conn.Send(Header(0x04, 0x01, 0));
            byte[] header = FakeRuntime.ReadExactly(conn, 20);
            Save("runtime_advertised_resume_reply", header.Concat(FakeRuntime.ReadExactly(conn, BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(14)) - 20)).ToArray());
        }
        string output = child.StandardOutput.ReadToEnd();
        child.WaitForExit();
        if (!output.Contains("child-resumed"))
        {
            throw new InvalidOperationException("the child did not resume");
        }
    }
}

/// <summary>A socket that answers every diagnostics request with a fixed reply and records it.</summary>
internal sealed class FakeRuntime : IDisposable
{
    private readonly Socket _listener = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
    private readonly string _path;
    private readonly Thread _thread;
    private readonly List<byte[]> _requests = new();

    public volatile byte[] Reply = Ok(Array.Empty<byte>());

    public FakeRuntime(string path)
    {
        _path = path;
        _listener.Bind(new UnixDomainSocketEndPoint(path));
        _listener.Listen(8);
        _thread = new Thread(Serve) { IsBackground = true };
        _thread.Start();
    }

    public IReadOnlyList<byte[]> Requests
    {
        get { lock (_requests) { return _requests.ToArray(); } }
    }

    public static byte[] Ok(byte[] payload) => Message(0xFF, 0x00, payload);

    public static byte[] Error(uint hresult) => Message(0xFF, 0xFF, BitConverter.GetBytes(hresult));

    private static byte[] Message(byte set, byte id, byte[] payload)
    {
        byte[] m = new byte[20 + payload.Length];
        Encoding.ASCII.GetBytes("DOTNET_IPC_V1\0").CopyTo(m, 0);
        BinaryPrimitives.WriteUInt16LittleEndian(m.AsSpan(14), (ushort)m.Length);
        m[16] = set;
        m[17] = id;
        payload.CopyTo(m, 20);
        return m;
    }

    public static byte[] ReadExactly(Socket s, int count)
    {
        byte[] buffer = new byte[count];
        for (int read = 0; read < count;)
        {
            int n = s.Receive(buffer, read, count - read, SocketFlags.None);
            if (n == 0)
            {
                throw new EndOfStreamException($"closed after {read} of {count} bytes");
            }
            read += n;
        }
        return buffer;
    }

    private void Serve()
    {
        while (true)
        {
            Socket conn;
            try { conn = _listener.Accept(); } catch (SocketException) { return; } catch (ObjectDisposedException) { return; }
            using (conn)
            {
                try
                {
                    byte[] header = ReadExactly(conn, 20);
                    int size = BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(14));
                    byte[] whole = header.Concat(ReadExactly(conn, size - 20)).ToArray();
                    lock (_requests) { _requests.Add(whole); }
                    conn.Send(Reply);
                    // A session's stream: keep it open a moment so the client sees the reply, then end it.
                    Thread.Sleep(50);
                }
                catch (Exception) { /* a client that went away */ }
            }
        }
    }

    public void Dispose()
    {
        _listener.Dispose();
        File.Delete(_path);
    }
}
