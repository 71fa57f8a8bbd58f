using System.Diagnostics.Tracing;

namespace TraceScenarios;

/// <summary>
/// Emits every event of TraceScenarios-Types and TraceScenarios-SelfDescribing a known number
/// of times with fixed payloads (listed in <see cref="Facts"/>), plus TraceLogging
/// EventSource.Write events with anonymous types, nested objects and arrays.
/// </summary>
internal static class EventSourceScenario
{
    public const string International = "Grüße, 東京, 🚀";
    public static readonly Guid FixedGuid = new("0f8fad5b-d9cb-469f-a165-70867728950e");
    public static readonly DateTime FixedTime = new(2024, 2, 29, 12, 34, 56, 789, DateTimeKind.Utc);
    public const int Rounds = 2;

    public static IEnumerable<string> Facts() =>
    [
        $"each event below is written {Rounds} times (round r = 0, 1), in this order, on the main thread",
        "TraceScenarios-Types (manifest): Integers r=0: flag=true u8=255 i8=-128 i16=-32768 u16=65535 i32=-2147483648 u32=4294967295 i64=-9223372036854775808 u64=18446744073709551615; r=1: false 0 127 32767 0 2147483647 0 9223372036854775807 0",
        "Floats r=0: f32=3.5 f64=π(3.141592653589793) f32Special=NaN f64Special=-Infinity; r=1: -0.25 -1e-300 +Infinity -0.0",
        $"Text r=0: ch='Ж' ascii=\"hello\" international=\"{International}\" empty=\"\"; r=1: ch='A' ascii=\"round 1\" and the same others",
        $"Identity: id={FixedGuid} when={FixedTime:yyyy-MM-ddTHH:mm:ss.fffZ} pointer=0x12345678 + r",
        "Enums r=0: color=Green(2) permissions=Read|Write(3) tiny=Max(255) huge=Min; r=1: Blue(3) Read|Execute|All(0x80000005) Zero(0) Max",
        "Blob r=0: data=16 bytes 0x00..0x0F trailer=0x7EADBEEF; r=1: data=empty trailer=-1",
        "Shipped: order=1000 + r city=\"東京\" (Message \"order {0} shipped to {1}\")",
        "AtCritical/AtError/AtWarning/AtVerbose/AtLogAlways: n=r (levels 1/2/3/5/0)",
        "TransferInfo(id=r), TransferSend(id=r, bytes=512), TransferReceive(id=r, bytes=512), TransferExtension(id=r), TransferCheckpoint(id=r, stage=\"half\"): task Transfer(1), opcodes Info(0)/Send(9)/Receive(240)/Extension(5)/Checkpoint(11)",
        "TraceScenarios-SelfDescribing ([Event] methods, self-describing format; trailer = 0x7EADBEEF in round 0, -1 in round 1, arrays empty in round 1): PrimitiveArrays ints=[1,-2,2147483647] longs=[-1,0,1] doubles=[0.5,-0.5]; Flag flag=true/false; BoolArray [true,false,true]; ByteArray [1,2,3]; CharArray ['a','ß','東']",
        "Money amount=12345.6789m + r, trailer=42 (decimal: the runtime writes TypeCode 15, which NetTraceFormat does not define)",
        $"Scalars i8=-1 u16=65535 u64=18446744073709551615 f32=1.25 ch='€' text=\"{International}\" id={FixedGuid} when={FixedTime:yyyy-MM-ddTHH:mm:ss.fffZ} pointer=0x7FFF color=Red(1)",
        "EventSource.Write \"Order\" {Id=7+r, Customer=\"Grüße, 東京, 🚀\", Total=99.95, Address={City=\"東京\", Zip=1000001}, Shipment={Id=5, Carrier=\"DHL\", WeightKg=1.5} ([EventData] class)}; \"OrderCodes\" {Id=7+r, Codes=[10,20,30]}; \"OrderLines\" {Id=7+r, Lines=[{Sku=\"A-1\",Qty=2},{Sku=\"B-2\",Qty=1}]}",
        "EventSource.Write \"Point\" {X=1.5, Y=-2.5} at Verbose, and \"Batch\" {Size=3} with opcode Start, then again with opcode Stop (same name, two metadata records)",
    ];

    public static void Run()
    {
        for (int r = 0; r < Rounds; r++)
        {
            WriteManifestEvents(r);
            WriteSelfDescribingEvents(r);
        }
    }

    private static void WriteManifestEvents(int r)
    {
        TypesEventSource log = TypesEventSource.Log;
        if (r == 0)
        {
            log.Integers(true, byte.MaxValue, sbyte.MinValue, short.MinValue, ushort.MaxValue, int.MinValue, uint.MaxValue, long.MinValue, ulong.MaxValue);
            log.Floats(3.5f, Math.PI, float.NaN, double.NegativeInfinity);
            log.Text('Ж', "hello", International, "");
            log.Enums(Color.Green, Permissions.Read | Permissions.Write, Tiny.Max, Huge.Min);
            log.Blob([.. Enumerable.Range(0, 16).Select(i => (byte)i)], 0x7EADBEEF);
        }
        else
        {
            log.Integers(false, 0, sbyte.MaxValue, short.MaxValue, 0, int.MaxValue, 0, long.MaxValue, 0);
            log.Floats(-0.25f, -1e-300, float.PositiveInfinity, -0.0);
            log.Text('A', "round 1", International, "");
            log.Enums(Color.Blue, Permissions.Read | Permissions.Execute | Permissions.All, Tiny.Zero, Huge.Max);
            log.Blob([], -1);
        }
        log.Identity(FixedGuid, FixedTime, (IntPtr)(0x12345678 + r));
        log.Shipped(1000 + r, "東京");
        log.AtCritical(r);
        log.AtError(r);
        log.AtWarning(r);
        log.AtVerbose(r);
        log.AtLogAlways(r);
        log.TransferInfo(r);
        log.TransferSend(r, 512);
        log.TransferReceive(r, 512);
        log.TransferExtension(r);
        log.TransferCheckpoint(r, "half");
    }

    private static void WriteSelfDescribingEvents(int r)
    {
        SelfDescribingEventSource log = SelfDescribingEventSource.Log;
        bool full = r == 0;
        int trailer = full ? 0x7EADBEEF : -1;
        log.PrimitiveArrays(full ? [1, -2, int.MaxValue] : [], full ? [-1, 0, 1] : [], full ? [0.5, -0.5] : [], trailer);
        log.Flag(full, trailer);
        log.BoolArray(full ? [true, false, true] : [], trailer);
        log.ByteArray(full ? [1, 2, 3] : [], trailer);
        log.CharArray(full ? ['a', 'ß', '東'] : [], trailer);
        log.Money(12345.6789m + r, 42);
        log.Scalars(-1, ushort.MaxValue, ulong.MaxValue, 1.25f, '€', International, FixedGuid, FixedTime, 0x7FFF, Color.Red);
        WriteTraceLogging(log, r);
    }

    // EventSource.Write: the field layout comes from the (anonymous) type of the value.
    private static void WriteTraceLogging(SelfDescribingEventSource log, int r)
    {
        EventSourceOptions info = new() { Level = EventLevel.Informational };
        log.Write("Order", info, new
        {
            Id = 7 + r,
            Customer = International,
            Total = 99.95,
            Address = new { City = "東京", Zip = 1000001 },
            Shipment = new Shipment { Id = 5, Carrier = "DHL", WeightKg = 1.5 },
        });
        // Arrays in EventSource.Write values: .NET 10.0.12 writes these two events' metadata
        // without field descriptions (the same arrays as [Event] parameters are described).
        log.Write("OrderCodes", info, new { Id = 7 + r, Codes = new[] { 10, 20, 30 } });
        log.Write("OrderLines", info, new { Id = 7 + r, Lines = new[] { new { Sku = "A-1", Qty = 2 }, new { Sku = "B-2", Qty = 1 } } });
        log.Write("Point", new EventSourceOptions { Level = EventLevel.Verbose }, new { X = 1.5, Y = -2.5 });
        log.Write("Batch", new EventSourceOptions { Opcode = EventOpcode.Start }, new { Size = 3 });
        log.Write("Batch", new EventSourceOptions { Opcode = EventOpcode.Stop }, new { Size = 3 });
    }
}
