using System.Diagnostics.Tracing;

namespace TraceScenarios;

/// <summary>A class payload for TraceLogging: [EventData] makes its public properties fields.</summary>
[EventData]
public sealed class Shipment
{
    public int Id { get; set; }
    public string Carrier { get; set; } = "";
    public double WeightKg { get; set; }
}

/// <summary>
/// Self-describing (TraceLogging) EventSource: every event carries its own field layout, so
/// it can hold what manifest events cannot: arrays of primitives, nested objects, arrays of
/// objects. [Event] methods here are serialized the self-describing way too.
/// </summary>
[EventSource(Name = "TraceScenarios-SelfDescribing")]
internal sealed class SelfDescribingEventSource : EventSource
{
    public static readonly SelfDescribingEventSource Log = new();

    private SelfDescribingEventSource() : base(EventSourceSettings.EtwSelfDescribingEventFormat) { }

    [Event(1, Level = EventLevel.Informational)]
    public void PrimitiveArrays(int[] ints, long[] longs, double[] doubles, int trailer) =>
        WriteEvent(1, ints, longs, doubles, trailer);

    [Event(2, Level = EventLevel.Informational)]
    public void Scalars(sbyte i8, ushort u16, ulong u64, float f32, char ch, string text, Guid id, DateTime when, IntPtr pointer, Color color) =>
        WriteEvent(2, i8, u16, u64, f32, ch, text, id, when, pointer, color);

    // The events below each hold one type whose encoding is easy to get wrong, alone with an
    // int trailer so a mistake shows and stays contained. The runtime writes a bool as 1 byte
    // here but describes it as Boolean (TypeCode 3, 4 bytes in NetTraceFormat); decimal gets
    // TypeCode 15, which the format does not define.
    [Event(6, Level = EventLevel.Informational)]
    public void Flag(bool flag, int trailer) => WriteEvent(6, flag, trailer);

    [Event(7, Level = EventLevel.Informational)]
    public void BoolArray(bool[] bools, int trailer) => WriteEvent(7, bools, trailer);

    [Event(3, Level = EventLevel.Informational)]
    public void ByteArray(byte[] bytes, int trailer) => WriteEvent(3, bytes, trailer);

    [Event(4, Level = EventLevel.Informational)]
    public void CharArray(char[] chars, int trailer) => WriteEvent(4, chars, trailer);

    [Event(5, Level = EventLevel.Informational)]
    public void Money(decimal amount, int trailer) => WriteEvent(5, amount, trailer);
}
