// EventFlood RATE SECONDS: writes `Tick(i)` events of the EventSource "NetTrace-Flood" at
// RATE events/s (0 = as fast as it can) for SECONDS once a session enables the source, then
// prints "written N" and exits. Used by scripts/live-rate.sh to measure how many events/s a
// live `nettrace collect` session sustains without the runtime dropping any.
using System.Diagnostics;
using System.Diagnostics.Tracing;

namespace EventFlood;

[EventSource(Name = "NetTrace-Flood")]
internal sealed class FloodSource : EventSource
{
    public static readonly FloodSource Log = new();

    [Event(1, Level = EventLevel.Informational)]
    public void Tick(long i) => WriteEvent(1, i);
}

internal static class Program
{
    private static int Main(string[] args)
    {
        long rate = long.Parse(args[0]);
        double seconds = double.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture);
        Stopwatch wait = Stopwatch.StartNew();
        while (!FloodSource.Log.IsEnabled() && wait.Elapsed.TotalSeconds < 30)
        {
            Thread.Sleep(5);
        }
        Stopwatch clock = Stopwatch.StartNew();
        long written = 0;
        while (clock.Elapsed.TotalSeconds < seconds)
        {
            // Pace in 1 ms steps: write what the rate allows up to now.
            long due = rate == 0 ? written + 1000 : (long)(clock.Elapsed.TotalSeconds * rate);
            for (; written < due; written++)
            {
                FloodSource.Log.Tick(written);
            }
            if (rate != 0)
            {
                Thread.Sleep(1);
            }
        }
        Console.WriteLine($"written {written}");
        return 0;
    }
}
