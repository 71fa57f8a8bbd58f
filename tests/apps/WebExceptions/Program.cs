// An ordinary ASP.NET Core minimal API whose handlers throw five exception types from nested
// async methods, caught at different levels, on many thread-pool threads at once; the load
// comes from an HttpClient in the same process. `run` serves and drives it (and checks that
// what it threw is what `facts` says), `facts` prints the exact numbers that
// scripts/record-traces.sh copies into tests/data/dotnet10/MANIFEST.md, `version` the runtime.
using System.Runtime.InteropServices;

namespace WebExceptions;

internal static class Program
{
    private const string Usage =
        "usage: WebExceptions run exceptions\n" +
        "       WebExceptions facts exceptions\n" +
        "       WebExceptions version";

    private static async Task<int> Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "version")
        {
            Console.WriteLine($"{Environment.Version} ({RuntimeInformation.FrameworkDescription}, {RuntimeInformation.RuntimeIdentifier})");
            return 0;
        }
        if (args.Length < 2 || args[1] != "exceptions" || (args[0] != "run" && args[0] != "facts"))
        {
            Console.Error.WriteLine(Usage);
            return 2;
        }
        if (args[0] == "facts")
        {
            Console.WriteLine($"- `exceptions`: {Load.Summary}");
            foreach (string fact in Load.Facts())
            {
                Console.WriteLine($"  - {fact}");
            }
            return 0;
        }
        return await Load.RunAsync();
    }
}
