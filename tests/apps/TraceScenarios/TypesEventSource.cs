using System.Diagnostics.Tracing;

namespace TraceScenarios;

/// <summary>An int-based enum parameter.</summary>
public enum Color { Red = 1, Green = 2, Blue = 3 }

/// <summary>A [Flags] enum parameter with uint underlying type.</summary>
[Flags]
public enum Permissions : uint { None = 0, Read = 1, Write = 2, Execute = 4, All = 0x8000_0000 }

/// <summary>Enums with byte and long underlying types: their fields take the underlying size.</summary>
public enum Tiny : byte { Zero = 0, Max = 255 }

/// <summary>An enum with a long underlying type.</summary>
public enum Huge : long { Min = long.MinValue, Max = long.MaxValue }

/// <summary>
/// Manifest-based EventSource (the default format): one event per group of parameter types
/// EventSource supports, explicit levels and keywords, and explicit opcodes (Info, Send,
/// Receive, Extension and a custom one) on a task. Payload values are chosen at the edges of
/// each type's range so sign, width and byte order mistakes show. No decimal parameter: a
/// manifest-based source with one fails as a whole ("Unsupported type Decimal in event
/// source", an ArgumentException and an EventSourceMessage) and writes nothing. No null
/// string either: the event is dropped ("Null passed as a event argument").
/// </summary>
[EventSource(Name = "TraceScenarios-Types")]
internal sealed class TypesEventSource : EventSource
{
    public static readonly TypesEventSource Log = new();

    private TypesEventSource() { }

    public static class Keywords
    {
        public const EventKeywords Scalars = (EventKeywords)0x1;
        public const EventKeywords Text = (EventKeywords)0x2;
        public const EventKeywords Binary = (EventKeywords)0x4;
        public const EventKeywords Opcodes = (EventKeywords)0x8;
        public const EventKeywords Levels = (EventKeywords)0x10;
    }

    public static class Tasks
    {
        public const EventTask Transfer = (EventTask)1;
    }

    public static class Opcodes
    {
        // ETW reserves opcodes 0-10; custom opcodes start at 11.
        public const EventOpcode Checkpoint = (EventOpcode)11;
    }

    [Event(1, Level = EventLevel.Informational, Keywords = Keywords.Scalars)]
    public void Integers(bool flag, byte u8, sbyte i8, short i16, ushort u16, int i32, uint u32, long i64, ulong u64) =>
        WriteEvent(1, flag, u8, i8, i16, u16, i32, u32, i64, u64);

    [Event(2, Level = EventLevel.Informational, Keywords = Keywords.Scalars)]
    public void Floats(float f32, double f64, float f32Special, double f64Special) =>
        WriteEvent(2, f32, f64, f32Special, f64Special);

    [Event(3, Level = EventLevel.Informational, Keywords = Keywords.Text)]
    public void Text(char ch, string ascii, string international, string empty) =>
        WriteEvent(3, ch, ascii, international, empty);

    [Event(4, Level = EventLevel.Informational, Keywords = Keywords.Scalars)]
    public void Identity(Guid id, DateTime when, IntPtr pointer) => WriteEvent(4, id, when, pointer);

    // .NET 10.0.12 describes `tiny` as Byte but writes it as 4 bytes (enums up to 4 bytes wide
    // are widened to int32 on the way out), so `huge` starts 3 bytes after its described offset.
    [Event(5, Level = EventLevel.Informational, Keywords = Keywords.Scalars)]
    public void Enums(Color color, Permissions permissions, Tiny tiny, Huge huge) =>
        WriteEvent(5, color, permissions, tiny, huge);

    // .NET 10.0.12 writes this event's metadata without field descriptions (the payload is
    // int32 length, the bytes, then the trailer), so readers must cope with an empty schema.
    [Event(6, Level = EventLevel.Informational, Keywords = Keywords.Binary)]
    public void Blob(byte[] data, int trailer) => WriteEvent(6, data, trailer);

    [Event(8, Level = EventLevel.Informational, Keywords = Keywords.Text, Message = "order {0} shipped to {1}")]
    public void Shipped(int order, string city) => WriteEvent(8, order, city);

    [Event(10, Level = EventLevel.Critical, Keywords = Keywords.Levels)]
    public void AtCritical(int n) => WriteEvent(10, n);

    [Event(11, Level = EventLevel.Error, Keywords = Keywords.Levels)]
    public void AtError(int n) => WriteEvent(11, n);

    [Event(12, Level = EventLevel.Warning, Keywords = Keywords.Levels)]
    public void AtWarning(int n) => WriteEvent(12, n);

    [Event(13, Level = EventLevel.Verbose, Keywords = Keywords.Levels)]
    public void AtVerbose(int n) => WriteEvent(13, n);

    [Event(14, Level = EventLevel.LogAlways)]
    public void AtLogAlways(int n) => WriteEvent(14, n);

    [Event(20, Opcode = EventOpcode.Info, Task = Tasks.Transfer, Keywords = Keywords.Opcodes)]
    public void TransferInfo(int id) => WriteEvent(20, id);

    [Event(21, Opcode = EventOpcode.Send, Task = Tasks.Transfer, Keywords = Keywords.Opcodes)]
    public void TransferSend(int id, int bytes) => WriteEvent(21, id, bytes);

    [Event(22, Opcode = EventOpcode.Receive, Task = Tasks.Transfer, Keywords = Keywords.Opcodes)]
    public void TransferReceive(int id, int bytes) => WriteEvent(22, id, bytes);

    [Event(23, Opcode = EventOpcode.Extension, Task = Tasks.Transfer, Keywords = Keywords.Opcodes)]
    public void TransferExtension(int id) => WriteEvent(23, id);

    [Event(24, Opcode = Opcodes.Checkpoint, Task = Tasks.Transfer, Keywords = Keywords.Opcodes)]
    public void TransferCheckpoint(int id, string stage) => WriteEvent(24, id, stage);
}
