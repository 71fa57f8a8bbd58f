using System.Buffers.Binary;
using System.Net.Sockets;
using System.Text;

namespace NetPerfClient;

/// <summary>One provider of a CollectTracing request.</summary>
internal sealed record ProviderConfig(string Name, ulong Keywords, uint Level, string FilterData);

/// <summary>
/// The diagnostics IPC protocol as documented in dotnet/diagnostics
/// documentation/design-docs/ipc-protocol.md: a 20-byte header (magic "DOTNET_IPC_V1\0",
/// uint16 total size, uint8 command set, uint8 command id, uint16 reserved), little-endian
/// payloads, strings as uint32 UTF-16 length including the NUL then the code units.
/// </summary>
internal static class DiagnosticsIpc
{
    private static readonly byte[] Magic = Encoding.ASCII.GetBytes("DOTNET_IPC_V1\0");
    private const int HeaderSize = 20;
    private const byte EventPipeSet = 0x02;
    private const byte StopTracingId = 0x01;
    private const byte CollectTracing2Id = 0x03;
    private const byte ServerSet = 0xFF;
    private const byte OkId = 0x00;
    private const byte ErrorId = 0xFF;

    /// <summary>The default listening socket of process <paramref name="pid"/>, once it exists.</summary>
    public static string WaitForSocket(int pid, TimeSpan timeout)
    {
        string dir = Environment.GetEnvironmentVariable("TMPDIR") is { Length: > 0 } tmp ? tmp : "/tmp";
        DateTime deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            string[] found = Directory.GetFiles(dir, $"dotnet-diagnostic-{pid}-*-socket");
            if (found.Length > 0)
            {
                return found[0];
            }
            Thread.Sleep(20);
        }
        throw new TimeoutException($"no diagnostic socket for pid {pid} in {dir} after {timeout.TotalSeconds} s");
    }

    public static Socket Connect(string path)
    {
        Socket socket = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        socket.Connect(new UnixDomainSocketEndPoint(path));
        return socket;
    }

    /// <summary>
    /// Sends CollectTracing2 (0x02 0x03): uint circularBufferMB, uint format, bool
    /// requestRundown, array of {ulong keywords, uint level, string name, string filter}.
    /// Returns the session id of the OK reply; the socket then carries the trace stream.
    /// </summary>
    public static ulong CollectTracing2(Socket socket, uint bufferMB, uint format, bool rundown, IReadOnlyList<ProviderConfig> providers)
    {
        using MemoryStream payload = new();
        using (BinaryWriter w = new(payload, Encoding.Unicode, leaveOpen: true))
        {
            w.Write(bufferMB);
            w.Write(format);
            w.Write(rundown);
            w.Write((uint)providers.Count);
            foreach (ProviderConfig p in providers)
            {
                w.Write(p.Keywords);
                w.Write(p.Level);
                WriteString(w, p.Name);
                WriteString(w, p.FilterData);
            }
        }
        Send(socket, EventPipeSet, CollectTracing2Id, payload.ToArray());
        return ReadSessionReply(socket, "CollectTracing2");
    }

    /// <summary>Sends StopTracing (0x02 0x01) with the session id; returns the id the reply names.</summary>
    public static ulong StopTracing(Socket socket, ulong sessionId)
    {
        byte[] payload = new byte[8];
        BinaryPrimitives.WriteUInt64LittleEndian(payload, sessionId);
        Send(socket, EventPipeSet, StopTracingId, payload);
        return ReadSessionReply(socket, "StopTracing");
    }

    private static void WriteString(BinaryWriter w, string value)
    {
        if (value.Length == 0)
        {
            w.Write(0u);
            return;
        }
        w.Write((uint)(value.Length + 1));
        w.Write(Encoding.Unicode.GetBytes(value + "\0"));
    }

    private static void Send(Socket socket, byte commandSet, byte commandId, byte[] payload)
    {
        byte[] message = new byte[HeaderSize + payload.Length];
        Magic.CopyTo(message, 0);
        BinaryPrimitives.WriteUInt16LittleEndian(message.AsSpan(14), checked((ushort)message.Length));
        message[16] = commandSet;
        message[17] = commandId;
        payload.CopyTo(message, HeaderSize);
        socket.Send(message);
    }

    private static ulong ReadSessionReply(Socket socket, string command)
    {
        byte[] header = ReadExactly(socket, HeaderSize);
        if (!header.AsSpan(0, Magic.Length).SequenceEqual(Magic))
        {
            throw new InvalidDataException($"{command}: reply does not start with DOTNET_IPC_V1");
        }
        int size = BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(14));
        byte[] body = ReadExactly(socket, size - HeaderSize);
        if (header[16] == ServerSet && header[17] == ErrorId)
        {
            int hresult = BinaryPrimitives.ReadInt32LittleEndian(body);
            throw new InvalidOperationException($"{command}: runtime answered error 0x{hresult:X8}");
        }
        if (header[16] != ServerSet || header[17] != OkId || body.Length != 8)
        {
            throw new InvalidDataException($"{command}: unexpected reply {header[16]:X2} {header[17]:X2} with {body.Length} payload bytes");
        }
        return BinaryPrimitives.ReadUInt64LittleEndian(body);
    }

    private static byte[] ReadExactly(Socket socket, int count)
    {
        byte[] buffer = new byte[count];
        for (int read = 0; read < count;)
        {
            int n = socket.Receive(buffer, read, count - read, SocketFlags.None);
            if (n == 0)
            {
                throw new EndOfStreamException($"connection closed after {read} of {count} reply bytes");
            }
            read += n;
        }
        return buffer;
    }
}
