// A minimal JSON text writer for the oracle's line-oriented outputs (events.jsonl, stacks.jsonl,
// runtime.json, meta.json). Hand-written instead of System.Text.Json so that (a) key order is
// exactly the order of the calls, (b) escaping is fixed and documented (README "JSON text"),
// and (c) strings holding lone UTF-16 surrogates (possible in trace payloads) are written as
// \uXXXX escapes instead of throwing or being replaced.
using System.Globalization;
using System.Text;

namespace NetTraceOracle;

internal sealed class Json
{
    private readonly StringBuilder _sb;
    // One flag per open object/array: true until the first member is written.
    private readonly System.Collections.Generic.Stack<bool> _first = new();
    // Set by Key(): the value that follows needs no separator.
    private bool _pendingValueAfterKey;

    public Json(StringBuilder sb) { _sb = sb; }

    public StringBuilder Builder => _sb;

    public Json BeginObject() { Separate(); _sb.Append('{'); _first.Push(true); return this; }
    public Json EndObject() { _first.Pop(); _sb.Append('}'); return this; }
    public Json BeginArray() { Separate(); _sb.Append('['); _first.Push(true); return this; }
    public Json EndArray() { _first.Pop(); _sb.Append(']'); return this; }

    /// Writes `"name":` inside an object; the next value call must not add a separator.
    public Json Key(string name)
    {
        Separate();
        WriteString(_sb, name);
        _sb.Append(':');
        _pendingValueAfterKey = true;
        return this;
    }

    public Json String(string value)
    {
        Separate();
        if (value == null) _sb.Append("null"); else WriteString(_sb, value);
        return this;
    }

    public Json Bool(bool value) { Separate(); _sb.Append(value ? "true" : "false"); return this; }
    public Json Null() { Separate(); _sb.Append("null"); return this; }

    /// A JSON number from an integer (used only for indexes and ids, never for payload values).
    public Json Number(long value)
    {
        Separate();
        _sb.Append(value.ToString(CultureInfo.InvariantCulture));
        return this;
    }

    /// A double as the JSON string of its shortest round-trip form ("R", invariant culture).
    public Json DoubleString(double value) => String(value.ToString("R", CultureInfo.InvariantCulture));

    public Json Prop(string name, string value) => Key(name).String(value);
    public Json Prop(string name, long value) => Key(name).Number(value);
    public Json Prop(string name, bool value) => Key(name).Bool(value);
    public Json PropR(string name, double value) => Key(name).DoubleString(value);

    private void Separate()
    {
        if (_pendingValueAfterKey) { _pendingValueAfterKey = false; return; }
        if (_first.Count == 0) return;
        if (_first.Peek()) { _first.Pop(); _first.Push(false); }
        else _sb.Append(',');
    }

    /// Escapes `"` `\` and U+0000..U+001F (short forms for \b \f \n \r \t), and lone
    /// surrogates as \uXXXX (lowercase hex); everything else is written as is (UTF-8 on output).
    public static void WriteString(StringBuilder sb, string s)
    {
        sb.Append('"');
        for (int i = 0; i < s.Length; i++)
        {
            char c = s[i];
            switch (c)
            {
                case '"': sb.Append("\\\""); continue;
                case '\\': sb.Append("\\\\"); continue;
                case '\b': sb.Append("\\b"); continue;
                case '\f': sb.Append("\\f"); continue;
                case '\n': sb.Append("\\n"); continue;
                case '\r': sb.Append("\\r"); continue;
                case '\t': sb.Append("\\t"); continue;
            }
            if (c < 0x20) { AppendEscape(sb, c); continue; }
            if (char.IsHighSurrogate(c) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1]))
            {
                sb.Append(c).Append(s[i + 1]);
                i++;
                continue;
            }
            if (char.IsSurrogate(c)) { AppendEscape(sb, c); continue; }
            sb.Append(c);
        }
        sb.Append('"');
    }

    private static void AppendEscape(StringBuilder sb, char c) =>
        sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
}
