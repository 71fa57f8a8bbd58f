namespace PluginLib;

/// <summary>
/// Loaded by TraceScenarios through a collectible AssemblyLoadContext. Its methods are
/// jitted inside that context, so MethodLoad events name a module that is later unloaded.
/// </summary>
public static class Plugin
{
    /// <summary>Sum of the squares 1..n; deterministic work the loader scenario checks.</summary>
    public static long SumOfSquares(int n)
    {
        long total = 0;
        for (int i = 1; i <= n; i++)
        {
            total += (long)i * i;
        }
        return total;
    }
}
