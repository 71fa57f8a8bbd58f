using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Text;

namespace TraceScenarios;

/// <summary>
/// Loopback HTTP: a minimal HTTP/1.1 server on a TcpListener bound to 127.0.0.1 port 0 (no
/// port race, no HttpListener prefix registration) answering HttpClient GET requests, first
/// one by one on a kept-alive connection, then concurrently.
/// </summary>
internal static class HttpScenario
{
    public const int SequentialRequests = 5;
    public const int ConcurrentRequests = 3;
    public const int ServerDelayMs = 10;

    public static IEnumerable<string> Facts() =>
    [
        $"{SequentialRequests} sequential + {ConcurrentRequests} concurrent HttpClient GET http://127.0.0.1:<port>/item/<n> (n = 0..{SequentialRequests + ConcurrentRequests - 1}), each answered 200 OK with body `item <n>`",
        $"the server awaits Task.Delay({ServerDelayMs}) before each response; HTTP/1.1 keep-alive; the accept loop ends on a last plain TCP connect, so nothing is cancelled and the scenario throws no exceptions",
    ];

    public static async Task RunAsync()
    {
        using TcpListener listener = new(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        StrongBox<bool> stop = new(false);
        Task server = ServeAsync(listener, stop);
        using (HttpClient client = new() { BaseAddress = new Uri($"http://127.0.0.1:{port}/") })
        {
            for (int i = 0; i < SequentialRequests; i++)
            {
                await GetAsync(client, i);
            }
            await Task.WhenAll(Enumerable.Range(SequentialRequests, ConcurrentRequests).Select(i => GetAsync(client, i)));
        }
        // Wake the accept loop with one last connection instead of cancelling it: a
        // cancelled accept throws, and this scenario should add no exceptions of its own.
        stop.Value = true;
        using (TcpClient wake = new())
        {
            await wake.ConnectAsync(IPAddress.Loopback, port);
        }
        await server;
        listener.Stop();
    }

    private static async Task GetAsync(HttpClient client, int n)
    {
        string body = await client.GetStringAsync($"item/{n}");
        if (body != $"item {n}")
        {
            throw new InvalidOperationException($"unexpected body '{body}' for item {n}");
        }
    }

    private static async Task ServeAsync(TcpListener listener, StrongBox<bool> stop)
    {
        List<Task> connections = [];
        while (true)
        {
            TcpClient tcp = await listener.AcceptTcpClientAsync();
            if (Volatile.Read(ref stop.Value))
            {
                tcp.Dispose();
                break;
            }
            connections.Add(ServeConnectionAsync(tcp));
        }
        await Task.WhenAll(connections);
    }

    private static async Task ServeConnectionAsync(TcpClient tcp)
    {
        using (tcp)
        {
            NetworkStream stream = tcp.GetStream();
            using StreamReader reader = new(stream, Encoding.ASCII, false, 1024, leaveOpen: true);
            while (await reader.ReadLineAsync() is string requestLine && requestLine.Length > 0)
            {
                // Skip the headers up to the blank line; GET requests carry no body.
                while (await reader.ReadLineAsync() is string header && header.Length > 0) { }
                string path = requestLine.Split(' ')[1];
                string body = "item " + path[(path.LastIndexOf('/') + 1)..];
                await Task.Delay(ServerDelayMs);
                byte[] response = Encoding.ASCII.GetBytes(
                    $"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {body.Length}\r\n\r\n{body}");
                await stream.WriteAsync(response);
            }
        }
    }
}
