using System.Globalization;
using System.Runtime.CompilerServices;

namespace TraceScenarios;

/// <summary>Thrown at the deepest frame of the exception scenario; a type of our own.</summary>
internal sealed class ScenarioException(string message, Exception inner) : Exception(message, inner);

/// <summary>
/// First-chance exceptions with exact counts per type. Each is thrown once and caught once:
/// no rethrow (a rethrow raises a second first-chance event), no async (awaiting a faulted
/// task rethrows). Frames are kept with NoInlining so the stacks show every level.
/// </summary>
internal static class ExceptionScenario
{
    public const int InvalidOperationCount = 7;
    public const int ArgumentCount = 3;
    public const int ScenarioCount = 2;
    public const int FormatCount = 1;

    public static IEnumerable<string> Facts() =>
    [
        $"throws exactly {InvalidOperationCount + ArgumentCount + ScenarioCount + FormatCount} first-chance exceptions, all caught, none rethrown:",
        $"{InvalidOperationCount} System.InvalidOperationException (thrown 3 frames below the catch, caught by a `when` filter)",
        $"{ArgumentCount} System.ArgumentException (thrown 2 frames below the catch, through a `finally`)",
        $"{ScenarioCount} TraceScenarios.ScenarioException (thrown 4 frames below the catch; carries an InnerException that is never thrown)",
        $"{FormatCount} System.FormatException (thrown inside System.Private.CoreLib by int.Parse(\"not a number\"))",
    ];

    public static void Run()
    {
        int caught = 0;
        for (int i = 0; i < InvalidOperationCount; i++)
        {
            try { Level1(i); }
            catch (InvalidOperationException e) when (e.Message.StartsWith("level3", StringComparison.Ordinal)) { caught++; }
        }
        for (int i = 0; i < ArgumentCount; i++)
        {
            try { ArgumentOuter(i); }
            catch (ArgumentException) { caught++; }
        }
        for (int i = 0; i < ScenarioCount; i++)
        {
            try { Deep1(i); }
            catch (ScenarioException) { caught++; }
        }
        try { _ = int.Parse("not a number", CultureInfo.InvariantCulture); }
        catch (FormatException) { caught++; }

        int expected = InvalidOperationCount + ArgumentCount + ScenarioCount + FormatCount;
        if (caught != expected)
        {
            throw new InvalidOperationException($"caught {caught} exceptions, expected {expected}");
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Level1(int i) => Level2(i);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Level2(int i) => Level3(i);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Level3(int i) => throw new InvalidOperationException($"level3 failure #{i}");

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ArgumentOuter(int i)
    {
        try { ArgumentInner(i); }
        finally { Counter++; }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ArgumentInner(int i) => throw new ArgumentException($"bad argument #{i}", nameof(i));

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Deep1(int i) => Deep2(i);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Deep2(int i) => Deep3(i);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Deep3(int i) => Deep4(i);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Deep4(int i) =>
        throw new ScenarioException($"deep failure #{i}", new TimeoutException("inner, never thrown"));

    // Written in the finally block so the JIT keeps the try/finally.
    private static int Counter;
}
