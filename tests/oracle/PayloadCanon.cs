// The canonical, culture-free JSON form of a TraceEvent payload value (`PayloadValue(i)`), the
// "v" of every field in events.jsonl. The rules are the README's "Canonical values" table; the
// point is that our reader can produce the same text from its own decoded value without
// knowing .NET formatting. Also gives the "t" (the .NET type name of the value).
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;

namespace NetTraceOracle;

internal static class PayloadCanon
{
    private static readonly CultureInfo Inv = CultureInfo.InvariantCulture;

    /// .NET type name as Type.Name (e.g. "Int32", "Byte[]", "GCReason"); "null" for null.
    public static string TypeName(object value) => value == null ? "null" : value.GetType().Name;

    public static void Write(Json j, object value)
    {
        switch (value)
        {
            case null: j.Null(); return;
            case string s: j.String(s); return;
            case bool b: j.Bool(b); return;
            case Enum e: j.String(e.ToString()); return;     // name(s); the number when unnamed
            case double d: j.String(d.ToString("R", Inv)); return;
            case float f: j.String(f.ToString("R", Inv)); return;
            case Guid g: j.String(g.ToString("D")); return;  // "D" is lowercase
            case DateTime dt: j.String(ToUtc(dt).ToString("o", Inv)); return;
            case byte[] bytes: j.String(Convert.ToHexStringLower(bytes)); return;
            case IDictionary<string, object> dict: WriteDictionary(j, dict); return;
            case IList list: WriteList(j, list); return;
        }
        if (IsInteger(value)) { j.String(((IFormattable)value).ToString(null, Inv)); return; }
        j.String(Convert.ToString(value, Inv));
    }

    // TraceEvent hands out DateTimes of Kind Local (DateTime.FromFileTime); "o" of the UTC
    // instant makes the text independent of the machine's time zone. Unspecified is taken as UTC.
    private static DateTime ToUtc(DateTime dt) => dt.Kind switch
    {
        DateTimeKind.Local => dt.ToUniversalTime(),
        DateTimeKind.Unspecified => DateTime.SpecifyKind(dt, DateTimeKind.Utc),
        _ => dt,
    };

    private static bool IsInteger(object v) =>
        v is sbyte or byte or short or ushort or int or uint or long or ulong or nint or nuint
          or decimal or System.Numerics.BigInteger or Int128 or UInt128;

    private static void WriteDictionary(Json j, IDictionary<string, object> dict)
    {
        // Insertion order (TraceEvent builds struct values field by field, in metadata order).
        j.BeginObject();
        foreach (var kv in dict)
        {
            j.Key(kv.Key);
            Write(j, kv.Value);
        }
        j.EndObject();
    }

    private static void WriteList(Json j, IList list)
    {
        j.BeginArray();
        foreach (var item in list) Write(j, item);
        j.EndArray();
    }
}
