// The server (a minimal API on 127.0.0.1, ephemeral port) and its load: Clients HttpClient
// loops, each sending its share of GET /orders/{id} at once. The run counts every first-chance
// exception (AppDomain.FirstChanceException) by type, the threads they were thrown on, and
// fails unless the numbers are those of Facts.
using System.Collections.Concurrent;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace WebExceptions;

internal static class Load
{
    public const string Summary = "ASP.NET Core minimal API throwing five exception types from nested async methods on many thread-pool threads";
    public const int Clients = 16;
    public const int RequestsPerClient = 60;
    public const int Requests = Clients * RequestsPerClient;
    public const int MinWorkerThreads = 12;
    public const int MinThrowingThreads = 8;
    // Each failure happens for one order id in six (ids 0 .. Requests-1).
    public static int PerFailure => Requests / 6;

    // First-chance exceptions per throw: the throw itself plus one rethrow for each await
    // it crosses before a catch (awaiting a faulted task rethrows with ExceptionDispatchInfo).
    public static readonly (Failure Failure, string Type, string Thrower, string Catcher, int FirstChancePerThrow)[] Kinds =
    [
        (Failure.Argument, "System.ArgumentException", "Validation.ValidateAsync (level 2)", "the same method", 1),
        (Failure.KeyNotFound, "System.Collections.Generic.KeyNotFoundException", "Repository.LoadAsync (level 3, unwinding through a finally)", "OrderService.FindAsync (level 2, a catch with a `when` filter), after 1 await", 2),
        (Failure.InvalidOperation, "System.InvalidOperationException", "Pricing.RateAsync (level 3)", "the endpoint handler Endpoints.GetOrder (level 0), after 3 awaits (PriceAsync, GetOrderAsync, the handler)", 4),
        (Failure.Timeout, "System.TimeoutException", "Inventory.ReserveAsync (level 2)", "the app's FailureMiddleware, after the awaits in GetOrderAsync, the handler, one inside ASP.NET Core's request pipeline and the middleware's own", TimeoutFirstChance),
        (Failure.Format, "System.FormatException", "Codes.Parse (synchronous, level 3)", "its async caller OrderService.CodeOf (level 2)", 1),
    ];
    // Measured on .NET 10.0.12 / ASP.NET Core 10.0.12: the throw, then the awaits in
    // GetOrderAsync, the handler, one inside ASP.NET Core's request pipeline and the middleware's.
    public const int TimeoutFirstChance = 5;
    public const int ShutdownSocketExceptions = 1;

    public static IEnumerable<string> Facts()
    {
        yield return $"server: WebApplication (Kestrel) on http://127.0.0.1:<ephemeral port>, logging off; ThreadPool.SetMinThreads({MinWorkerThreads}, {MinWorkerThreads})";
        yield return $"load: {Clients} concurrent HttpClient loops × {RequestsPerClient} GET /orders/{{id}} = {Requests} requests, ids 0..{Requests - 1}; id % 6 = 0 succeeds (200), 1..5 meet one failure each";
        yield return "each request: endpoint → OrderService.GetOrderAsync → ValidateAsync, CodeOf → Codes.Parse, FindAsync → Repository.LoadAsync, Pricing.PriceAsync → RateAsync, Inventory.ReserveAsync; every async level awaits Task.Yield() and spins ~50 µs (Cpu.Work)";
        int total = 0;
        foreach (var k in Kinds)
        {
            int firstChance = PerFailure * k.FirstChancePerThrow;
            total += firstChance;
            yield return $"{k.Type}: {PerFailure} throw statements in {k.Thrower}, caught in {k.Catcher}; {firstChance} first-chance exceptions ({k.FirstChancePerThrow} per throw)";
        }
        yield return $"stopping the server (app.StopAsync) cancels Kestrel's pending accept: {ShutdownSocketExceptions} System.Net.Sockets.SocketException (\"Operation canceled\"), caught by Kestrel";
        yield return $"first-chance exceptions in all, from start-up to exit: {total + ShutdownSocketExceptions}, no other type; HTTP answers: {PerFailure} × 200 (ok) + {PerFailure * 3} × 200 (argument, key, format: handled inside) + {PerFailure} × 409 (invalid operation) + {PerFailure} × 503 (timeout)";
        yield return $"the throws run on at least {MinThrowingThreads} distinct thread-pool threads (the run checks it and fails otherwise)";
    }

    public static async Task<int> RunAsync()
    {
        ThreadPool.SetMinThreads(MinWorkerThreads, MinWorkerThreads);
        var byType = new ConcurrentDictionary<string, int>();
        var threads = new ConcurrentDictionary<int, bool>();
        AppDomain.CurrentDomain.FirstChanceException += (_, e) =>
        {
            byType.AddOrUpdate(e.Exception.GetType().FullName!, 1, (_, n) => n + 1);
            if (e.Exception is not System.Net.Sockets.SocketException)  // the planned throws' threads only
                threads[Environment.CurrentManagedThreadId] = Thread.CurrentThread.IsThreadPoolThread;
        };

        WebApplication app = Build();
        await app.StartAsync();
        string address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.Single();
        var statuses = new ConcurrentDictionary<HttpStatusCode, int>();
        using (var client = new HttpClient { BaseAddress = new Uri(address) })
        {
            // One warm-up request (order 0 succeeds): first-time JIT and connection set-up.
            (await client.GetAsync("/orders/0")).EnsureSuccessStatusCode();
            await Task.WhenAll(Enumerable.Range(0, Clients).Select(c => Task.Run(async () =>
            {
                for (int r = 0; r < RequestsPerClient; r++)
                {
                    int id = r * Clients + c;
                    using HttpResponseMessage response = await client.GetAsync($"/orders/{id}");
                    _ = await response.Content.ReadAsStringAsync();
                    statuses.AddOrUpdate(response.StatusCode, 1, (_, n) => n + 1);
                }
            })));
        }
        await app.StopAsync();
        await app.DisposeAsync();
        return Check(byType, threads, statuses);
    }

    private static WebApplication Build()
    {
        WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Services.AddSingleton<OrderService>();
        WebApplication app = builder.Build();
        app.UseMiddleware<FailureMiddleware>();
        app.MapGet("/orders/{id:int}", Endpoints.GetOrder);
        return app;
    }

    private static int Check(ConcurrentDictionary<string, int> byType, ConcurrentDictionary<int, bool> threads,
                             ConcurrentDictionary<HttpStatusCode, int> statuses)
    {
        var problems = new List<string>();
        foreach (var k in Kinds)
        {
            if (Thrown.Of(k.Failure) != PerFailure) problems.Add($"{k.Type}: {Thrown.Of(k.Failure)} throw statements, expected {PerFailure}");
            int seen = byType.TryRemove(k.Type, out int n) ? n : 0;
            if (seen != PerFailure * k.FirstChancePerThrow) problems.Add($"{k.Type}: {seen} first-chance exceptions, expected {PerFailure * k.FirstChancePerThrow}");
        }
        int socket = byType.TryRemove("System.Net.Sockets.SocketException", out int s) ? s : 0;
        if (socket != ShutdownSocketExceptions) problems.Add($"System.Net.Sockets.SocketException: {socket} first-chance exceptions, expected {ShutdownSocketExceptions}");
        foreach (var (type, n) in byType) problems.Add($"{type}: {n} first-chance exceptions of a type not in the plan");
        int poolThreads = threads.Count(t => t.Value);
        if (poolThreads < MinThrowingThreads) problems.Add($"throws on {poolThreads} thread-pool threads, expected at least {MinThrowingThreads}");
        int ok = statuses.GetValueOrDefault(HttpStatusCode.OK), conflict = statuses.GetValueOrDefault(HttpStatusCode.Conflict);
        int unavailable = statuses.GetValueOrDefault(HttpStatusCode.ServiceUnavailable);
        if (ok != PerFailure * 4 || conflict != PerFailure || unavailable != PerFailure || statuses.Count != 3)
            problems.Add($"HTTP answers {string.Join(", ", statuses.Select(s => $"{(int)s.Key} × {s.Value}"))}");
        Console.WriteLine($"WebExceptions: {Requests} requests; throws on {poolThreads} thread-pool threads ({threads.Count} threads in all)");
        foreach (string p in problems) Console.Error.WriteLine("WebExceptions: " + p);
        return problems.Count == 0 ? 0 : 1;
    }
}

internal static class Endpoints
{
    // The handler (level 0): catches what pricing could not do; a timeout goes on up.
    public static async Task<IResult> GetOrder(int id, OrderService orders)
    {
        try
        {
            return Results.Text(await orders.GetOrderAsync(id));
        }
        catch (InvalidOperationException e)
        {
            return Results.Conflict(e.Message);
        }
    }
}

/// <summary>The application's own middleware: a timeout anywhere below becomes a 503.</summary>
internal sealed class FailureMiddleware(RequestDelegate next)
{
    public async Task InvokeAsync(HttpContext context)
    {
        try
        {
            await next(context);
        }
        catch (TimeoutException e)
        {
            context.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
            await context.Response.WriteAsync(e.Message);
        }
    }
}
