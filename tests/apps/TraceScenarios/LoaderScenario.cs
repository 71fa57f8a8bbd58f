using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;

namespace TraceScenarios;

/// <summary>
/// Loads PluginLib (built alongside, copied to plugins/) into a collectible
/// AssemblyLoadContext, calls into it, unloads the context and collects it, so a trace
/// holds the load, the methods jitted in the plugin's module and the unload.
/// </summary>
internal static class LoaderScenario
{
    public const string ContextName = "TraceScenarios.Plugin";
    public const int SquaresUpTo = 1000;
    public const long ExpectedSum = 333_833_500; // n(n+1)(2n+1)/6 for n = 1000

    public static IEnumerable<string> Facts() =>
    [
        $"loads plugins/PluginLib.dll into a collectible AssemblyLoadContext named `{ContextName}` (one AssemblyLoad of PluginLib, one ModuleLoad)",
        $"calls PluginLib.Plugin.SumOfSquares({SquaresUpTo}) by reflection (= {ExpectedSum:N0}), then Unload(); induces GC.Collect() until the context is gone (usually 1–2 induced gen2 GCs; checked ≤ 10)",
    ];

    public static void Run()
    {
        WeakReference context = LoadAndCall();
        for (int i = 0; context.IsAlive; i++)
        {
            if (i == 10)
            {
                throw new InvalidOperationException("the plugin's AssemblyLoadContext was not collected after 10 GCs");
            }
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
    }

    // Separate, non-inlined frame: no reference to the context may stay on this stack.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference LoadAndCall()
    {
        string path = Path.Combine(AppContext.BaseDirectory, "plugins", "PluginLib.dll");
        AssemblyLoadContext alc = new(ContextName, isCollectible: true);
        Assembly plugin = alc.LoadFromAssemblyPath(path);
        MethodInfo method = plugin.GetType("PluginLib.Plugin", throwOnError: true)!.GetMethod("SumOfSquares")!;
        long result = (long)method.Invoke(null, [SquaresUpTo])!;
        if (result != ExpectedSum)
        {
            throw new InvalidOperationException($"SumOfSquares({SquaresUpTo}) = {result}, expected {ExpectedSum}");
        }
        alc.Unload();
        return new WeakReference(alc);
    }
}
