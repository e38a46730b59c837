using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;
using System.Text.Unicode;

namespace Spanwire.Json;

// Validation, what goes before each token (comma, new line, indentation), containers and property names.
public sealed partial class SpanwireJsonWriter
{
    /// <summary>Writes the beginning of a JSON object.</summary>
    /// <exception cref="InvalidOperationException">The depth limit is reached, or (validating) an object cannot start here.</exception>
    public void WriteStartObject() => WriteStart((byte)'{', JsonTokenType.StartObject);

    /// <summary>Writes the beginning of a JSON array.</summary>
    /// <exception cref="InvalidOperationException">The depth limit is reached, or (validating) an array cannot start here.</exception>
    public void WriteStartArray() => WriteStart((byte)'[', JsonTokenType.StartArray);

    /// <summary>Writes the end of a JSON object.</summary>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteEndObject() => WriteEnd((byte)'}', JsonTokenType.EndObject);

    /// <summary>Writes the end of a JSON array.</summary>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteEndArray() => WriteEnd((byte)']', JsonTokenType.EndArray);

    private void WriteStart(byte token, JsonTokenType tokenType)
    {
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        if (_validate)
        {
            ValidateWritingValue();
        }

        int p;
        if (_indented)
        {
            // Utf8JsonWriter asks for the token, a separator and up to 2 bytes of new line whatever the new line is.
            int indent = Indentation;
            Reserve(indent + 4);
            p = _w.Pos;
            if (_needsComma)
            {
                _w.Buffer[p++] = (byte)',';
            }

            if (_tokenType is not (JsonTokenType.PropertyName or JsonTokenType.None) || _commentAfterNoneOrPropertyName)
            {
                p = WriteNewLine(_w.Buffer, p);
                p = WriteIndentation(_w.Buffer, p, indent);
            }
        }
        else
        {
            Reserve(2);
            p = _w.Pos;
            if (_needsComma)
            {
                _w.Buffer[p++] = (byte)',';
            }
        }

        _w.Buffer[p++] = token;
        _w.Pos = p;
        Opened(token, tokenType);
    }

    /// <summary>Records a container opened with <paramref name="token"/>.</summary>
    private void Opened(byte token, JsonTokenType tokenType)
    {
        if (_validate)
        {
            bool isObject = token == (byte)'{';
            _stack.Push(isObject);
            _container = isObject ? Container.Object : Container.Array;
        }

        _needsComma = false;
        _depth++;
        _tokenType = tokenType;
        _commentAfterNoneOrPropertyName = false;
    }

    private void WriteEnd(byte token, JsonTokenType tokenType)
    {
        if (_validate)
        {
            ValidateEnd(token);
        }

        if (_indented && _tokenType is not (JsonTokenType.StartObject or JsonTokenType.StartArray))
        {
            // The end token goes on its own line at the outer level.
            int indent = Math.Max(0, Indentation - _indentSize);
            Reserve(indent + 3);
            byte[] buffer = _w.Buffer;
            int p = WriteNewLine(buffer, _w.Pos);
            p = WriteIndentation(buffer, p, indent);
            buffer[p++] = token;
            _w.Pos = p;
        }
        else
        {
            Reserve(1);
            _w.Buffer[_w.Pos++] = token;
        }

        _needsComma = true;
        if (_depth != 0)
        {
            _depth--;
        }

        _tokenType = tokenType;
    }

    private void ValidateEnd(byte token)
    {
        if (InSegmentedString || _tokenType == JsonTokenType.PropertyName ||
            _container != (token == (byte)'}' ? Container.Object : Container.Array))
        {
            ThrowMismatched(token);
        }

        bool parentIsObject = _stack.Pop();
        _container = _stack.Count == 0 ? Container.None : parentIsObject ? Container.Object : Container.Array;
    }

    /// <summary>
    /// Validates that a value may come next, reserves room for the separator, new line and indentation plus
    /// <paramref name="maxValueLength"/> bytes, writes what goes before the value, and returns where the value goes.
    /// The room asked for is Utf8JsonWriter's for the same call (see <see cref="ValueRoom"/>), so both writers ask
    /// their output for memory and commit at the same moments.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int BeginValue(int maxValueLength)
    {
        if (_validate)
        {
            ValidateWritingValue();
        }

        return BeginValueUnchecked(maxValueLength);
    }

    /// <summary>BeginValue without the validation.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int BeginValueUnchecked(int maxValueLength)
    {
        if (_indented)
        {
            return BeginValueIndented(maxValueLength);
        }

        Reserve(maxValueLength + 1);
        int p = _w.Pos;
        if (_needsComma)
        {
            _w.Buffer[p++] = (byte)',';
        }

        return p;
    }

    /// <summary>
    /// The room Utf8JsonWriter asks for before a value of at most <paramref name="maxValueLength"/> bytes without a
    /// property name: the value and a separator, and when indented the indentation and a new line.
    /// </summary>
    private int ValueRoom(int maxValueLength) => _indented ? Indentation + maxValueLength + 1 + NewLineLength : maxValueLength + 1;

    /// <summary>As <see cref="ValueRoom"/>, after a property name costing <paramref name="nameCost"/>: quotes, colon (and a space when indented).</summary>
    private long NamedRoom(long nameCost, int maxValueLength) =>
        _indented ? Indentation + nameCost + maxValueLength + 5 + NewLineLength : nameCost + maxValueLength + 4;

    private int NewLineLength => _crlf ? 2 : 1;

    private int BeginValueIndented(int maxValueLength)
    {
        int indent = Indentation;
        Reserve(indent + maxValueLength + 1 + NewLineLength);
        byte[] buffer = _w.Buffer;
        int p = _w.Pos;
        if (_needsComma)
        {
            buffer[p++] = (byte)',';
        }

        if (_tokenType != JsonTokenType.PropertyName)
        {
            if (_tokenType != JsonTokenType.None)
            {
                p = WriteNewLine(buffer, p);
            }

            p = WriteIndentation(buffer, p, indent);
        }

        return p;
    }

    /// <summary>Records a complete value ending at <paramref name="end"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void EndValue(int end, JsonTokenType tokenType)
    {
        _w.Pos = end;
        _needsComma = true;
        _tokenType = tokenType;
        _commentAfterNoneOrPropertyName = false;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ValidateWritingValue()
    {
        bool ok = !InSegmentedString && _container switch
        {
            Container.Object => _tokenType == JsonTokenType.PropertyName,
            Container.Array => true,
            _ => _tokenType == JsonTokenType.None,
        };
        if (!ok)
        {
            ThrowCannotWriteValue();
        }
    }

    private void ValidateWritingProperty()
    {
        if (InSegmentedString)
        {
            ThrowWithinString();
        }

        if (_container != Container.Object || _tokenType == JsonTokenType.PropertyName)
        {
            JsonThrow.InvalidOperation(_tokenType == JsonTokenType.PropertyName
                ? "Cannot write a JSON property name following another property name. A JSON value is missing."
                : "Cannot write a JSON property within an array or as the first JSON token.");
        }
    }

    /// <summary>Writes a property name: separator, new line and indentation, then "name": escaped as the encoder requires.</summary>
    private void WritePropertyNameCore<TName>(ReadOnlySpan<TName> name, int nameFirst)
        where TName : unmanaged
    {
        _w.Pos = BeginNamed(name, nameFirst, 0);
        _needsComma = false;
        _tokenType = JsonTokenType.PropertyName;
        _commentAfterNoneOrPropertyName = false;
    }

    /// <summary>
    /// For a property name (and, in one call, its value): validates once, reserves room for the name and
    /// <paramref name="maxValueLength"/> more bytes, writes what goes before the name and "name": , and returns
    /// where the value goes. A caller writing a value then calls EndValue. <typeparamref name="TName"/> is char
    /// (UTF-16) or byte (UTF-8), and <paramref name="nameFirst"/> where its escaping starts (from Name).
    /// </summary>
    /// <remarks>
    /// The name travels as a span and an int, not as one struct of both forms: such a struct was built on the stack
    /// in pieces and read back whole, and the store-forwarding stalls that caused took half of a short call.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int BeginNamed<TName>(ReadOnlySpan<TName> name, int nameFirst, int maxValueLength)
        where TName : unmanaged
    {
        if (_validate)
        {
            ValidateWritingProperty();
        }

        int p;
        byte[] buffer;
        if (typeof(TName) == typeof(char))
        {
            ReadOnlySpan<char> utf16 = MemoryMarshal.Cast<TName, char>(name);
            if (nameFirst >= 0 && _w.End - _w.Pos < NamedRoom(MaxTextCost(utf16.Length, nameFirst, 3), maxValueLength))
            {
                return BeginNamedExact(utf16, nameFirst, maxValueLength);
            }

            p = BeginPropertyName(TextCost(utf16.Length, nameFirst, 3), maxValueLength);
            buffer = _w.Buffer;
            p = WriteQuoted(buffer, p, utf16, nameFirst);
        }
        else
        {
            ReadOnlySpan<byte> utf8 = MemoryMarshal.Cast<TName, byte>(name);
            if (nameFirst >= 0 && _w.End - _w.Pos < NamedRoom(MaxTextCost(utf8.Length, nameFirst, 1), maxValueLength))
            {
                return BeginNamedExact(utf8, nameFirst, maxValueLength);
            }

            p = BeginPropertyName(TextCost(utf8.Length, nameFirst, 1), maxValueLength);
            buffer = _w.Buffer;
            p = WriteQuoted(buffer, p, utf8, nameFirst);
        }

        return EndPropertyName(buffer, p);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int EndPropertyName(byte[] buffer, int p)
    {
        buffer[p++] = (byte)':';
        if (_indented)
        {
            buffer[p++] = (byte)' ';
        }

        return p;
    }

    /// <summary>
    /// A property name that may need escaping, where the room left is less than the most it could take: Utf8JsonWriter
    /// escapes the name first and asks for room by its escaped length, so that length is found first here too.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int BeginNamedExact<TName>(ReadOnlySpan<TName> name, int nameFirst, int maxValueLength)
        where TName : unmanaged
    {
        nameFirst = Scanned(name, nameFirst);
        if (nameFirst < 0)
        {
            // Nothing to escape: the cost is known, and the name is written in place.
            int at = BeginPropertyName(TextCost(name.Length, -1, typeof(TName) == typeof(char) ? 3 : 1), maxValueLength);
            at = typeof(TName) == typeof(char)
                ? WriteQuoted(_w.Buffer, at, MemoryMarshal.Cast<TName, char>(name), -1)
                : WriteQuoted(_w.Buffer, at, MemoryMarshal.Cast<TName, byte>(name), -1);
            return EndPropertyName(_w.Buffer, at);
        }

        using EscapedText escaped = Escape(name, nameFirst);
        int p = BeginPropertyName(escaped.Cost, maxValueLength);
        p = WriteQuoted(_w.Buffer, p, escaped.Utf8, -1);
        return EndPropertyName(_w.Buffer, p);
    }

    /// <summary>
    /// Text as it will be written (UTF-8, escaped, without quotes) and its cost in Utf8JsonWriter's room rule: escaped
    /// UTF-16 units times 3, or escaped UTF-8 bytes. Held in a pooled array when it had to be escaped.
    /// </summary>
    private readonly ref struct EscapedText(ReadOnlySpan<byte> utf8, int cost, byte[]? rented)
    {
        public ReadOnlySpan<byte> Utf8 { get; } = utf8;

        public int Cost { get; } = cost;

        public void Dispose()
        {
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    /// <summary>
    /// Escapes <paramref name="text"/> from <paramref name="first"/> on (0: not scanned yet) into a pooled array, or,
    /// when nothing needs escaping, returns UTF-8 text as it is.
    /// </summary>
    private EscapedText Escape<TUnit>(ReadOnlySpan<TUnit> text, int first)
        where TUnit : unmanaged
    {
        if (typeof(TUnit) == typeof(byte))
        {
            ReadOnlySpan<byte> utf8 = MemoryMarshal.Cast<TUnit, byte>(text);
            if (first == 0)
            {
                first = _escaping.FirstToEscape(utf8);
            }

            if (first < 0)
            {
                return new EscapedText(utf8, utf8.Length, null);
            }

            byte[] rented = ArrayPool<byte>.Shared.Rent(MaxQuotedLength(utf8.Length, first, 1));
            int end = WriteQuoted(rented, 0, utf8, first);
            return new EscapedText(rented.AsSpan(1, end - 2), end - 2, rented);
        }
        else
        {
            ReadOnlySpan<char> utf16 = MemoryMarshal.Cast<TUnit, char>(text);
            if (first == 0)
            {
                first = _escaping.FirstToEscape(utf16);
            }

            byte[] rented = ArrayPool<byte>.Shared.Rent(MaxQuotedLength(utf16.Length, first, 3));
            int end = WriteQuoted(rented, 0, utf16, first);
            ReadOnlySpan<byte> written = rented.AsSpan(1, end - 2);
            int units = first < 0 ? utf16.Length : Encoding.UTF8.GetCharCount(written);
            return new EscapedText(written, units * 3, rented);
        }
    }

    /// <summary>Where escaping starts in <paramref name="text"/>: <paramref name="first"/>, or found now if it is 0 (not scanned).</summary>
    private int Scanned<TUnit>(ReadOnlySpan<TUnit> text, int first)
        where TUnit : unmanaged
    {
        if (first != 0)
        {
            return first;
        }

        return typeof(TUnit) == typeof(char)
            ? _escaping.FirstToEscape(MemoryMarshal.Cast<TUnit, char>(text))
            : _escaping.FirstToEscape(MemoryMarshal.Cast<TUnit, byte>(text));
    }

    /// <summary>Text's cost in Utf8JsonWriter's room rule when it needs no escaping (<paramref name="first"/> &lt; 0), else at most.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int TextCost(int length, int first, int bytesPerUnit) =>
        first < 0 ? length * bytesPerUnit : (int)Math.Min(MaxTextCost(length, first, bytesPerUnit), int.MaxValue - 64);

    /// <summary>The most text may cost: every unit from <paramref name="first"/> on escaped as \uXXXX.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long MaxTextCost(int length, int first, int bytesPerUnit) =>
        first < 0 ? (long)length * bytesPerUnit : ((long)first + (long)JsonEscaping.MaxExpansion * (length - first)) * bytesPerUnit;

    // Reading a name: the checks Utf8JsonWriter makes on it, and where escaping starts (-1: nowhere; see
    // JsonEscaping.StartOfEscaping). A pre-encoded name is written as it is.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ReadOnlySpan<byte> Name(JsonEncodedText propertyName, out int first)
    {
        first = -1;
        return propertyName.EncodedUtf8Bytes;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ReadOnlySpan<char> Name(string propertyName, out int first)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        return Name(propertyName.AsSpan(), out first);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ReadOnlySpan<char> Name(ReadOnlySpan<char> propertyName, out int first)
    {
        CheckTokenSize(propertyName.Length);
        first = _escaping.StartOfEscaping(propertyName);
        return propertyName;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ReadOnlySpan<byte> Name(ReadOnlySpan<byte> utf8PropertyName, out int first)
    {
        CheckTokenSize(utf8PropertyName.Length);
        first = _escaping.StartOfEscaping(utf8PropertyName);
        return utf8PropertyName;
    }

    /// <summary>Room for quoted text of <paramref name="length"/> units: as it is (bytesPerUnit each) or escaped.</summary>
    private static int MaxQuotedLength(int length, int first, int bytesPerUnit) =>
        (first < 0 ? length * bytesPerUnit : length * JsonEscaping.MaxExpansion + JsonEscaping.Slack) + 2;

    /// <summary>
    /// Writes "value" at <paramref name="p"/>, through the escaping from <paramref name="first"/> on (0 for short
    /// text, which is escaped in the same pass as it is copied); returns the end.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int WriteQuoted(byte[] buffer, int p, ReadOnlySpan<char> value, int first)
    {
        buffer[p++] = (byte)'"';
        if (first == 0)
        {
            p += _escaping.Escape(value, buffer.AsSpan(p));
        }
        else if (first < 0)
        {
            p += Transcode(value, buffer.AsSpan(p));
        }
        else
        {
            p += Transcode(value[..first], buffer.AsSpan(p));
            p += _escaping.Escape(value[first..], buffer.AsSpan(p));
        }

        buffer[p++] = (byte)'"';
        return p;
    }

    /// <summary>Writes "value" for UTF-8 text, escaping from <paramref name="first"/> on; returns the end.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int WriteQuoted(byte[] buffer, int p, ReadOnlySpan<byte> value, int first)
    {
        buffer[p++] = (byte)'"';
        if (first == 0)
        {
            p += _escaping.Escape(value, buffer.AsSpan(p));
        }
        else if (first < 0)
        {
            value.CopyTo(buffer.AsSpan(p));
            p += value.Length;
        }
        else
        {
            value[..first].CopyTo(buffer.AsSpan(p));
            p += first;
            p += _escaping.Escape(value[first..], buffer.AsSpan(p));
        }

        buffer[p++] = (byte)'"';
        return p;
    }

    /// <summary>Reserves <see cref="NamedRoom"/> and writes what goes before a property name; returns where the name goes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int BeginPropertyName(int nameCost, int maxValueLength)
    {
        if (_indented)
        {
            int indent = Indentation;
            Reserve(indent + nameCost + maxValueLength + 5 + NewLineLength);
            int i = _w.Pos;
            if (_needsComma)
            {
                _w.Buffer[i++] = (byte)',';
            }

            if (_tokenType != JsonTokenType.None)
            {
                i = WriteNewLine(_w.Buffer, i);
            }

            return WriteIndentation(_w.Buffer, i, indent);
        }

        Reserve(nameCost + maxValueLength + 4);
        int p = _w.Pos;
        if (_needsComma)
        {
            _w.Buffer[p++] = (byte)',';
        }

        return p;
    }

    /// <summary>Writes a property name, escaping it as the options' encoder requires.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WritePropertyName(ReadOnlySpan<char> propertyName) => WritePropertyNameCore(Name(propertyName, out int first), first);

    /// <summary>Writes a UTF-8 property name, escaping it as the options' encoder requires.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WritePropertyName(ReadOnlySpan<byte> utf8PropertyName) => WritePropertyNameCore(Name(utf8PropertyName, out int first), first);

    /// <summary>Writes a property name.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="propertyName"/> is null.</exception>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    public void WritePropertyName(string propertyName) => WritePropertyNameCore(Name(propertyName, out int first), first);

    /// <summary>Writes a pre-encoded property name as it is.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WritePropertyName(JsonEncodedText propertyName) => WritePropertyNameCore(Name(propertyName, out int first), first);

    /// <summary>UTF-16 to UTF-8; invalid UTF-16 is an ArgumentException, as in Utf8JsonWriter.</summary>
    private static int Transcode(ReadOnlySpan<char> value, Span<byte> destination)
    {
        if (Utf8.FromUtf16(value, destination, out int read, out int written, replaceInvalidSequences: false) != OperationStatus.Done)
        {
            JsonThrow.Argument($"Cannot encode invalid UTF-16 text as JSON. Invalid surrogate value: '0x{(int)value[read]:X2}'.");
        }

        return written;
    }

    private static void CheckTokenSize(int length)
    {
        if (length > MaxTokenSize)
        {
            JsonThrow.TooLarge(length);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowDepthTooLarge() =>
        JsonThrow.InvalidOperation($"CurrentDepth ({_depth}) is equal to or larger than the maximum allowed depth of {_maxDepth}. Cannot write the next JSON object or array.");

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowMismatched(byte token) =>
        JsonThrow.InvalidOperation($"'{(char)token}' is invalid following {_tokenType}.");

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowCannotWriteValue() =>
        JsonThrow.InvalidOperation(InSegmentedString ? WithinStringMessage : _container == Container.Object
            ? "Cannot write a JSON value within an object without a property name."
            : "Cannot write a JSON value after a single JSON value or outside of an existing closed object/array.");
}
