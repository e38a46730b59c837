using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace Spanwire.Json.Tests;

/// <summary>Seeded random writer calls: mostly well-formed documents, with every value kind and edge value, and now and then a call that is invalid where it stands.</summary>
internal sealed class RandomJson(int seed)
{
    private readonly Random _random = new(seed);
    private readonly List<JsonOp> _ops = [];
    private int _depth;

    public static List<JsonOp> Document(int seed) => new RandomJson(seed).Build();

    private List<JsonOp> Build()
    {
        int budget = _random.Next(1, 40);
        if (_random.Next(6) == 0)
        {
            AddComment(); // a comment before the root: the next token's new line depends on it
        }

        if (_random.Next(8) == 0)
        {
            AddValue(named: _random.Next(4) == 0); // a lone root value (named: valid only without validation)
        }
        else
        {
            AddContainer(named: false, ref budget);
        }

        if (_random.Next(20) == 0)
        {
            AddAnything(); // trailing garbage: a second root value, an end too many, ...
        }

        return _ops;
    }

    private void Add(string description, Action<Utf8JsonWriter> incumbent, Action<SpanwireJsonWriter> spanwire) =>
        _ops.Add(new JsonOp(description, incumbent, spanwire));

    private void AddContainer(bool named, ref int budget)
    {
        bool isObject = _random.Next(2) == 0;
        AddStart(isObject, named);
        _depth++;
        int items = _random.Next(0, 6);
        for (int i = 0; i < items && budget-- > 0; i++)
        {
            if (_random.Next(25) == 0)
            {
                AddComment();
            }

            if (_random.Next(60) == 0)
            {
                AddAnything();
            }

            if (_random.Next(50) == 0)
            {
                AddFlushOrReset();
            }

            bool child = _depth < 12 && _random.Next(4) == 0;
            if (isObject)
            {
                if (child)
                {
                    if (_random.Next(2) == 0)
                    {
                        AddPropertyName();
                        AddContainer(named: false, ref budget);
                    }
                    else
                    {
                        AddContainer(named: true, ref budget);
                    }
                }
                else if (_random.Next(3) == 0)
                {
                    AddPropertyName();
                    if (_random.Next(20) == 0)
                    {
                        AddComment();
                    }

                    AddValue(named: false);
                }
                else
                {
                    AddValue(named: true);
                }
            }
            else if (child)
            {
                AddContainer(named: false, ref budget);
            }
            else
            {
                AddValue(named: false);
            }
        }

        if (_random.Next(30) == 0)
        {
            AddComment();
        }

        _depth--;
        if (isObject)
        {
            Add("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject());
        }
        else
        {
            Add("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray());
        }
    }

    private void AddAnything()
    {
        switch (_random.Next(6))
        {
            case 0: Add("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()); break;
            case 1: Add("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray()); break;
            case 2: AddPropertyName(); break;
            case 3: AddValue(named: _random.Next(2) == 0); break;
            case 4: AddStart(_random.Next(2) == 0, named: _random.Next(2) == 0); break;
            default: AddRaw(); break;
        }
    }

    private void AddStart(bool isObject, bool named)
    {
        if (!named)
        {
            if (isObject)
            {
                Add("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject());
            }
            else
            {
                Add("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray());
            }

            return;
        }

        string name = Text();
        byte[] utf8 = Utf8(name);
        switch ((_random.Next(4), isObject))
        {
            case (0, true): Add($"StartObject(\"{name}\")", w => w.WriteStartObject(name), w => w.WriteStartObject(name)); break;
            case (0, false): Add($"StartArray(\"{name}\")", w => w.WriteStartArray(name), w => w.WriteStartArray(name)); break;
            case (1, true): Add($"StartObject(chars \"{name}\")", w => w.WriteStartObject(name.AsSpan()), w => w.WriteStartObject(name.AsSpan())); break;
            case (1, false): Add($"StartArray(chars \"{name}\")", w => w.WriteStartArray(name.AsSpan()), w => w.WriteStartArray(name.AsSpan())); break;
            case (2, true): Add($"StartObject(utf8 {Hex(utf8)})", w => w.WriteStartObject(utf8), w => w.WriteStartObject(utf8)); break;
            case (2, false): Add($"StartArray(utf8 {Hex(utf8)})", w => w.WriteStartArray(utf8), w => w.WriteStartArray(utf8)); break;
            default:
                if (Encoded(name) is { } encoded)
                {
                    if (isObject)
                    {
                        Add($"StartObject(encoded \"{name}\")", w => w.WriteStartObject(encoded), w => w.WriteStartObject(encoded));
                    }
                    else
                    {
                        Add($"StartArray(encoded \"{name}\")", w => w.WriteStartArray(encoded), w => w.WriteStartArray(encoded));
                    }
                }

                break;
        }
    }

    private void AddPropertyName()
    {
        string name = Text();
        byte[] utf8 = _random.Next(10) == 0 ? InvalidUtf8() : Utf8(name);
        switch (_random.Next(4))
        {
            case 0: Add($"PropertyName(\"{name}\")", w => w.WritePropertyName(name), w => w.WritePropertyName(name)); break;
            case 1: Add($"PropertyName(chars \"{name}\")", w => w.WritePropertyName(name.AsSpan()), w => w.WritePropertyName(name.AsSpan())); break;
            case 2: Add($"PropertyName(utf8 {Hex(utf8)})", w => w.WritePropertyName(utf8), w => w.WritePropertyName(utf8)); break;
            default:
                if (Encoded(name) is { } encoded)
                {
                    Add($"PropertyName(encoded \"{name}\")", w => w.WritePropertyName(encoded), w => w.WritePropertyName(encoded));
                }

                break;
        }
    }

    /// <summary>Flush, or Reset (which drops what is pending and starts a new document on the same output).</summary>
    private void AddFlushOrReset()
    {
        if (_random.Next(3) == 0)
        {
            Add("Reset", w => w.Reset(), w => w.Reset());
        }
        else
        {
            Add("Flush", w => w.Flush(), w => w.Flush());
        }
    }

    private void AddComment()
    {
        string text = _random.Next(15) == 0 ? "a*/b" : Text();
        byte[] utf8 = _random.Next(12) == 0 ? InvalidUtf8() : Utf8(text);
        if (_random.Next(2) == 0)
        {
            Add($"Comment(\"{text}\")", w => w.WriteCommentValue(text), w => w.WriteCommentValue(text));
        }
        else
        {
            Add($"Comment(utf8 {Hex(utf8)})", w => w.WriteCommentValue(utf8), w => w.WriteCommentValue(utf8));
        }
    }

    private void AddRaw()
    {
        string[] samples = ["1", "\"x\"", "{\"a\":[1,2]}", "[]", " true ", "nul", "{", "", "1 2", "/*c*/1", "[1,]", "\"\\u00e9\""];
        string json = samples[_random.Next(samples.Length)];
        bool skip = _random.Next(3) == 0;
        byte[] utf8 = Encoding.UTF8.GetBytes(json);
        if (_random.Next(2) == 0)
        {
            Add($"Raw(\"{json}\", skip {skip})", w => w.WriteRawValue(json, skip), w => w.WriteRawValue(json, skip));
        }
        else
        {
            Add($"Raw(utf8 \"{json}\", skip {skip})", w => w.WriteRawValue(utf8, skip), w => w.WriteRawValue(utf8, skip));
        }
    }

    /// <summary>A value, with or without a property name.</summary>
    private void AddValue(bool named)
    {
        string name = Text();
        byte[] utf8Name = Utf8(name);
        int nameKind = _random.Next(4);
        JsonEncodedText? encodedName = nameKind == 3 ? Encoded(name) : null;
        if (nameKind == 3 && encodedName is null)
        {
            nameKind = 0;
        }

        string label = named ? $"[{nameKind}:\"{name}\"] " : "";

        // The value kinds. Each is written either as WriteXValue or as WriteX(name, value).
        void Value<T>(string what, T value,
            Action<Utf8JsonWriter, T> unnamed, Action<SpanwireJsonWriter, T> unnamedSpanwire,
            Action<Utf8JsonWriter, string, T> byString, Action<SpanwireJsonWriter, string, T> byStringSpanwire,
            Action<Utf8JsonWriter, ReadOnlyMemory<char>, T> byChars, Action<SpanwireJsonWriter, ReadOnlyMemory<char>, T> byCharsSpanwire,
            Action<Utf8JsonWriter, byte[], T> byUtf8, Action<SpanwireJsonWriter, byte[], T> byUtf8Spanwire,
            Action<Utf8JsonWriter, JsonEncodedText, T> byEncoded, Action<SpanwireJsonWriter, JsonEncodedText, T> byEncodedSpanwire)
        {
            string description = label + what;
            if (!named)
            {
                Add(description, w => unnamed(w, value), w => unnamedSpanwire(w, value));
                return;
            }

            switch (nameKind)
            {
                case 0: Add(description, w => byString(w, name, value), w => byStringSpanwire(w, name, value)); break;
                case 1: Add(description, w => byChars(w, name.AsMemory(), value), w => byCharsSpanwire(w, name.AsMemory(), value)); break;
                case 2: Add(description, w => byUtf8(w, utf8Name, value), w => byUtf8Spanwire(w, utf8Name, value)); break;
                default: Add(description, w => byEncoded(w, encodedName!.Value, value), w => byEncodedSpanwire(w, encodedName!.Value, value)); break;
            }
        }

        if (_random.Next(18) == 0)
        {
            if (named)
            {
                AddPropertyName();
            }

            AddSegments();
            return;
        }

        switch (_random.Next(17))
        {
            case 0:
                {
                    string s = Text();
                    Value($"String(\"{s}\")", s,
                        (w, v) => w.WriteStringValue(v), (w, v) => w.WriteStringValue(v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                        (w, n, v) => w.WriteString(n.Span, v), (w, n, v) => w.WriteString(n.Span, v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v));
                    break;
                }

            case 1:
                {
                    string s = Text();
                    Value($"String(chars \"{s}\")", s.AsMemory(),
                        (w, v) => w.WriteStringValue(v.Span), (w, v) => w.WriteStringValue(v.Span),
                        (w, n, v) => w.WriteString(n, v.Span), (w, n, v) => w.WriteString(n, v.Span),
                        (w, n, v) => w.WriteString(n.Span, v.Span), (w, n, v) => w.WriteString(n.Span, v.Span),
                        (w, n, v) => w.WriteString(n, v.Span), (w, n, v) => w.WriteString(n, v.Span),
                        (w, n, v) => w.WriteString(n, v.Span), (w, n, v) => w.WriteString(n, v.Span));
                    break;
                }

            case 2:
                {
                    byte[] s = _random.Next(8) == 0 ? InvalidUtf8() : Utf8(Text());
                    Value($"String(utf8 {Hex(s)})", s,
                        (w, v) => w.WriteStringValue(v), (w, v) => w.WriteStringValue(v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                        (w, n, v) => w.WriteString(n.Span, v), (w, n, v) => w.WriteString(n.Span, v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v));
                    break;
                }

            case 3:
                {
                    if (Encoded(Text()) is { } e)
                    {
                        Value($"String(encoded {e})", e,
                            (w, v) => w.WriteStringValue(v), (w, v) => w.WriteStringValue(v),
                            (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                            (w, n, v) => w.WriteString(n.Span, v), (w, n, v) => w.WriteString(n.Span, v),
                            (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                            (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v));
                    }

                    break;
                }

            case 4:
                {
                    long v0 = EdgeLong();
                    Value($"Number(long {v0})", v0,
                        (w, v) => w.WriteNumberValue(v), (w, v) => w.WriteNumberValue(v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n.Span, v), (w, n, v) => w.WriteNumber(n.Span, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v));
                    break;
                }

            case 5:
                {
                    int v0 = (int)EdgeLong();
                    Value($"Number(int {v0})", v0,
                        (w, v) => w.WriteNumberValue(v), (w, v) => w.WriteNumberValue(v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n.Span, v), (w, n, v) => w.WriteNumber(n.Span, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v));
                    break;
                }

            case 6:
                {
                    ulong v0 = unchecked((ulong)EdgeLong());
                    Value($"Number(ulong {v0})", v0,
                        (w, v) => w.WriteNumberValue(v), (w, v) => w.WriteNumberValue(v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n.Span, v), (w, n, v) => w.WriteNumber(n.Span, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v));
                    break;
                }

            case 7:
                {
                    uint v0 = unchecked((uint)EdgeLong());
                    Value($"Number(uint {v0})", v0,
                        (w, v) => w.WriteNumberValue(v), (w, v) => w.WriteNumberValue(v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n.Span, v), (w, n, v) => w.WriteNumber(n.Span, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v));
                    break;
                }

            case 8:
                {
                    double v0 = EdgeDouble();
                    Value($"Number(double {v0:R})", v0,
                        (w, v) => w.WriteNumberValue(v), (w, v) => w.WriteNumberValue(v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n.Span, v), (w, n, v) => w.WriteNumber(n.Span, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v));
                    break;
                }

            case 9:
                {
                    float v0 = (float)EdgeDouble();
                    if (_random.Next(4) == 0)
                    {
                        v0 = BitConverter.Int32BitsToSingle(_random.Next());
                    }

                    Value($"Number(float {v0:R})", v0,
                        (w, v) => w.WriteNumberValue(v), (w, v) => w.WriteNumberValue(v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n.Span, v), (w, n, v) => w.WriteNumber(n.Span, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v));
                    break;
                }

            case 10:
                {
                    decimal v0 = EdgeDecimal();
                    Value($"Number(decimal {v0})", v0,
                        (w, v) => w.WriteNumberValue(v), (w, v) => w.WriteNumberValue(v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n.Span, v), (w, n, v) => w.WriteNumber(n.Span, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v),
                        (w, n, v) => w.WriteNumber(n, v), (w, n, v) => w.WriteNumber(n, v));
                    break;
                }

            case 11:
                {
                    bool v0 = _random.Next(2) == 0;
                    Value($"Boolean({v0})", v0,
                        (w, v) => w.WriteBooleanValue(v), (w, v) => w.WriteBooleanValue(v),
                        (w, n, v) => w.WriteBoolean(n, v), (w, n, v) => w.WriteBoolean(n, v),
                        (w, n, v) => w.WriteBoolean(n.Span, v), (w, n, v) => w.WriteBoolean(n.Span, v),
                        (w, n, v) => w.WriteBoolean(n, v), (w, n, v) => w.WriteBoolean(n, v),
                        (w, n, v) => w.WriteBoolean(n, v), (w, n, v) => w.WriteBoolean(n, v));
                    break;
                }

            case 12:
                Value("Null", 0,
                    (w, _) => w.WriteNullValue(), (w, _) => w.WriteNullValue(),
                    (w, n, _) => w.WriteNull(n), (w, n, _) => w.WriteNull(n),
                    (w, n, _) => w.WriteNull(n.Span), (w, n, _) => w.WriteNull(n.Span),
                    (w, n, _) => w.WriteNull(n), (w, n, _) => w.WriteNull(n),
                    (w, n, _) => w.WriteNull(n), (w, n, _) => w.WriteNull(n));
                break;

            case 13:
                {
                    byte[] g = new byte[16];
                    _random.NextBytes(g);
                    Guid v0 = _random.Next(5) == 0 ? Guid.Empty : new Guid(g);
                    Value($"Guid({v0})", v0,
                        (w, v) => w.WriteStringValue(v), (w, v) => w.WriteStringValue(v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                        (w, n, v) => w.WriteString(n.Span, v), (w, n, v) => w.WriteString(n.Span, v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v));
                    break;
                }

            case 14:
                {
                    DateTime v0 = EdgeDateTime();
                    Value($"DateTime({v0:O} {v0.Kind})", v0,
                        (w, v) => w.WriteStringValue(v), (w, v) => w.WriteStringValue(v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                        (w, n, v) => w.WriteString(n.Span, v), (w, n, v) => w.WriteString(n.Span, v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v));
                    break;
                }

            case 15:
                {
                    DateTime d = EdgeDateTime();
                    var local = DateTime.SpecifyKind(d, DateTimeKind.Unspecified);
                    TimeSpan offset = TimeSpan.FromMinutes(_random.Next(-14 * 60, 14 * 60 + 1));
                    bool fits = local.Ticks - offset.Ticks >= DateTime.MinValue.Ticks && local.Ticks - offset.Ticks <= DateTime.MaxValue.Ticks;
                    var v0 = new DateTimeOffset(local, fits ? offset : TimeSpan.Zero); // the edges of the calendar only take offset 0
                    Value($"DateTimeOffset({v0:O})", v0,
                        (w, v) => w.WriteStringValue(v), (w, v) => w.WriteStringValue(v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                        (w, n, v) => w.WriteString(n.Span, v), (w, n, v) => w.WriteString(n.Span, v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v),
                        (w, n, v) => w.WriteString(n, v), (w, n, v) => w.WriteString(n, v));
                    break;
                }

            default:
                {
                    byte[] v0 = new byte[_random.Next(0, 40)];
                    _random.NextBytes(v0);
                    Value($"Base64({Hex(v0)})", v0,
                        (w, v) => w.WriteBase64StringValue(v), (w, v) => w.WriteBase64StringValue(v),
                        (w, n, v) => w.WriteBase64String(n, v), (w, n, v) => w.WriteBase64String(n, v),
                        (w, n, v) => w.WriteBase64String(n.Span, v), (w, n, v) => w.WriteBase64String(n.Span, v),
                        (w, n, v) => w.WriteBase64String(n, v), (w, n, v) => w.WriteBase64String(n, v),
                        (w, n, v) => w.WriteBase64String(n, v), (w, n, v) => w.WriteBase64String(n, v));
                    break;
                }
        }
    }

    /// <summary>
    /// One string value in segments of random sizes (UTF-16, UTF-8 or Base64), splitting characters and Base64 groups
    /// anywhere; now and then another call in the middle, or a segment of another kind.
    /// </summary>
    private void AddSegments()
    {
        int kind = _random.Next(3);
        string text = Text();
        byte[] bytes = kind == 2 ? new byte[_random.Next(0, 40)] : _random.Next(8) == 0 ? InvalidUtf8() : Utf8(text);
        _random.NextBytes(kind == 2 ? bytes : []);
        int length = kind == 0 ? text.Length : bytes.Length;
        int at = 0;
        do
        {
            int size = Math.Min(length - at, _random.Next(0, 6));
            int from = at;
            at += size;
            bool final = at == length && _random.Next(4) != 0 || _random.Next(30) == 0;
            switch (kind)
            {
                case 0:
                    {
                        string piece = text.Substring(from, size);
                        Add($"Segment(\"{piece}\", {final})", w => w.WriteStringValueSegment(piece, final), w => w.WriteStringValueSegment(piece, final));
                        break;
                    }

                case 1:
                    {
                        byte[] piece = bytes[from..at];
                        Add($"Segment(utf8 {Hex(piece)}, {final})", w => w.WriteStringValueSegment(piece, final), w => w.WriteStringValueSegment(piece, final));
                        break;
                    }

                default:
                    {
                        byte[] piece = bytes[from..at];
                        Add($"Base64Segment({Hex(piece)}, {final})", w => w.WriteBase64StringSegment(piece, final), w => w.WriteBase64StringSegment(piece, final));
                        break;
                    }
            }

            if (final)
            {
                return;
            }

            if (_random.Next(25) == 0)
            {
                AddAnything(); // refused while the string is open, unless validation is off
            }

            if (_random.Next(25) == 0)
            {
                kind = _random.Next(3); // another kind of segment: refused, unless validation is off
                length = kind == 0 ? text.Length : bytes.Length;
                at = Math.Min(at, length);
            }
        }
        while (at < length || _random.Next(3) != 0);

        Add("Segment(\"\", True)", w => w.WriteStringValueSegment("", true), w => w.WriteStringValueSegment("", true));
    }

    // Characters from every class escaping treats differently.
    private static readonly string[] s_pieces =
    [
        "a", "Z", "0", " ", "_", "-", ".", "~", "/", ":",
        "\"", "\\", "<", ">", "&", "'", "+", "`", "\u007F",
        "\0", "\b", "\f", "\n", "\r", "\t", "\u0001", "\u001F",
        "é", "ß", "\u00A0", "\u00AD", "\u0080", "\u0600", "中文", "日本", "\u2028", "\u2029", "\uFEFF", "\uFFFD", "\uE000",
        "😀", "𝄞", "\uD83D", "\uDE00", "\uDBFF\uDFFF",
    ];

    private string Text()
    {
        int length = _random.Next(12) switch
        {
            0 => 0,
            < 9 => _random.Next(1, 12),
            < 11 => _random.Next(12, 60),
            _ => _random.Next(60, 400),
        };
        var text = new StringBuilder(length);
        bool plain = _random.Next(3) == 0;
        for (int i = 0; i < length; i++)
        {
            text.Append(plain ? (char)('a' + _random.Next(26)) : s_pieces[_random.Next(s_pieces.Length)]);
        }

        return text.ToString();
    }

    private static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);

    private byte[] InvalidUtf8()
    {
        byte[][] bad = [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80]];
        return [.. Utf8("ab"), .. bad[_random.Next(bad.Length)], .. Utf8("cd")];
    }

    private JsonEncodedText? Encoded(string text)
    {
        try
        {
            JavaScriptEncoder? encoder = _random.Next(3) switch { 0 => null, 1 => JavaScriptEncoder.UnsafeRelaxedJsonEscaping, _ => JavaScriptEncoder.Default };
            return JsonEncodedText.Encode(text, encoder);
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    private long EdgeLong() => _random.Next(12) switch
    {
        0 => 0,
        1 => long.MaxValue,
        2 => long.MinValue,
        3 => int.MaxValue,
        4 => int.MinValue,
        5 => -1,
        6 => uint.MaxValue,
        _ => _random.NextInt64(-1_000_000_000_000, 1_000_000_000_000) >> _random.Next(40),
    };

    private double EdgeDouble() => _random.Next(16) switch
    {
        0 => 0.0,
        1 => -0.0,
        2 => double.NaN,
        3 => double.PositiveInfinity,
        4 => double.NegativeInfinity,
        5 => double.MaxValue,
        6 => double.MinValue,
        7 => double.Epsilon,
        8 => 1.0 / 3.0,
        9 => 1e21,
        10 => 1e-7,
        11 => BitConverter.Int64BitsToDouble(_random.NextInt64()),
        12 => Math.Round(_random.NextDouble() * 1e6, _random.Next(6)),
        _ => (_random.NextDouble() - 0.5) * Math.Pow(10, _random.Next(-20, 20)),
    };

    private decimal EdgeDecimal() => _random.Next(8) switch
    {
        0 => decimal.MaxValue,
        1 => decimal.MinValue,
        2 => 0m,
        3 => -0.000m,
        4 => 1.20m,
        5 => new decimal(_random.Next(), _random.Next(), _random.Next(), _random.Next(2) == 0, (byte)_random.Next(29)),
        _ => (decimal)_random.NextDouble() * _random.Next(-100000, 100000),
    };

    private DateTime EdgeDateTime()
    {
        var kind = (DateTimeKind)_random.Next(3);
        return _random.Next(8) switch
        {
            0 => DateTime.SpecifyKind(DateTime.MinValue, kind == DateTimeKind.Local ? DateTimeKind.Unspecified : kind),
            1 => DateTime.SpecifyKind(DateTime.MaxValue, kind == DateTimeKind.Local ? DateTimeKind.Unspecified : kind),
            2 => new DateTime(2000, 1, 1, 0, 0, 0, kind),
            3 => new DateTime(2024, 2, 29, 23, 59, 59, 120, kind),
            _ => new DateTime(_random.NextInt64(DateTime.MinValue.Ticks + TimeSpan.TicksPerDay, DateTime.MaxValue.Ticks - TimeSpan.TicksPerDay), kind),
        };
    }

    private static string Hex(byte[] bytes) => bytes.Length > 24 ? Convert.ToHexString(bytes, 0, 24) + "..." : Convert.ToHexString(bytes);
}
