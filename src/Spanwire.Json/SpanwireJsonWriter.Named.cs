using System.Buffers.Text;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace Spanwire.Json;

// Property name and value in one call. The name is checked and read first (Name, which also finds where its escaping
// starts), then the value, then one validation and one reservation cover both and "name":value is written in one
// pass: the bytes of WritePropertyName followed by the value call, with Utf8JsonWriter's order of argument checks.
public sealed partial class SpanwireJsonWriter
{
    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, JsonEncodedText value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, value.EncodedUtf8Bytes.Length + 2);
        EndValue(WriteQuoted(_w.Buffer, p, value.EncodedUtf8Bytes, -1), JsonTokenType.String);
    }

    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, ReadOnlySpan<char> value)
        where TName : unmanaged
    {
        CheckTokenSize(value.Length);
        int valueFirst = _escaping.StartOfEscaping(value);
        if (valueFirst >= 0 && _w.End - _w.Pos < NamedRoom(MaxNameCost(name, nameFirst), TextCost(value.Length, valueFirst, 3) + 2))
        {
            WriteStringExact(name, nameFirst, value, valueFirst);
            return;
        }

        int p = BeginNamed(name, nameFirst, TextCost(value.Length, valueFirst, 3) + 2);
        EndValue(WriteQuoted(_w.Buffer, p, value, valueFirst), JsonTokenType.String);
    }

    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, ReadOnlySpan<byte> utf8Value)
        where TName : unmanaged
    {
        CheckTokenSize(utf8Value.Length);
        int valueFirst = _escaping.StartOfEscaping(utf8Value);
        if (valueFirst >= 0 && _w.End - _w.Pos < NamedRoom(MaxNameCost(name, nameFirst), TextCost(utf8Value.Length, valueFirst, 1) + 2))
        {
            WriteStringExact(name, nameFirst, utf8Value, valueFirst);
            return;
        }

        int p = BeginNamed(name, nameFirst, TextCost(utf8Value.Length, valueFirst, 1) + 2);
        EndValue(WriteQuoted(_w.Buffer, p, utf8Value, valueFirst), JsonTokenType.String);
    }

    /// <summary>A name and a string value that may need escaping where the room left is short: see WriteStringValueExact.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteStringExact<TName, TUnit>(ReadOnlySpan<TName> name, int nameFirst, ReadOnlySpan<TUnit> value, int valueFirst)
        where TName : unmanaged
        where TUnit : unmanaged
    {
        valueFirst = Scanned(value, valueFirst);
        if (valueFirst < 0)
        {
            int at = BeginNamed(name, nameFirst, TextCost(value.Length, -1, typeof(TUnit) == typeof(char) ? 3 : 1) + 2);
            EndValue(typeof(TUnit) == typeof(char)
                ? WriteQuoted(_w.Buffer, at, MemoryMarshal.Cast<TUnit, char>(value), -1)
                : WriteQuoted(_w.Buffer, at, MemoryMarshal.Cast<TUnit, byte>(value), -1), JsonTokenType.String);
            return;
        }

        using EscapedText escaped = Escape(value, valueFirst);
        int p = BeginNamed(name, nameFirst, escaped.Cost + 2);
        EndValue(WriteQuoted(_w.Buffer, p, escaped.Utf8, -1), JsonTokenType.String);
    }

    /// <summary>The most a property name may cost in Utf8JsonWriter's room rule.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long MaxNameCost<TName>(ReadOnlySpan<TName> name, int nameFirst)
        where TName : unmanaged => MaxTextCost(name.Length, nameFirst, typeof(TName) == typeof(char) ? 3 : 1);

    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, DateTime value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxDateLength);
        EndValue(DateTimeAt(_w.Buffer, p, value), JsonTokenType.String);
    }

    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, DateTimeOffset value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxDateLength);
        EndValue(DateTimeOffsetAt(_w.Buffer, p, value), JsonTokenType.String);
    }

    private void WriteStringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, Guid value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxGuidLength);
        EndValue(GuidAt(_w.Buffer, p, value), JsonTokenType.String);
    }

    private void WriteNumberCore<TName>(ReadOnlySpan<TName> name, int nameFirst, long value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore<TName>(ReadOnlySpan<TName> name, int nameFirst, ulong value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore<TName>(ReadOnlySpan<TName> name, int nameFirst, float value)
        where TName : unmanaged
    {
        CheckFinite(value);
        int p = BeginNamed(name, nameFirst, MaxFloatingLength);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore<TName>(ReadOnlySpan<TName> name, int nameFirst, double value)
        where TName : unmanaged
    {
        CheckFinite(value);
        int p = BeginNamed(name, nameFirst, MaxFloatingLength);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore<TName>(ReadOnlySpan<TName> name, int nameFirst, decimal value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, MaxDecimalLength);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    private void WriteBooleanCore<TName>(ReadOnlySpan<TName> name, int nameFirst, bool value)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, value ? 4 : 5);
        EndValue(BooleanAt(_w.Buffer, p, value), value ? JsonTokenType.True : JsonTokenType.False);
    }

    private void WriteBase64StringCore<TName>(ReadOnlySpan<TName> name, int nameFirst, ReadOnlySpan<byte> bytes)
        where TName : unmanaged
    {
        CheckBase64Size(bytes.Length);
        int p = BeginNamed(name, nameFirst, Base64.GetMaxEncodedToUtf8Length(bytes.Length) + 2);
        EndValue(Base64At(_w.Buffer, p, bytes), JsonTokenType.String);
    }

    private void WriteNullCore<TName>(ReadOnlySpan<TName> name, int nameFirst)
        where TName : unmanaged
    {
        int p = BeginNamed(name, nameFirst, 4);
        EndValue(NullAt(_w.Buffer, p), JsonTokenType.Null);
    }

    private void WriteStartCore<TName>(ReadOnlySpan<TName> name, int nameFirst, bool isObject)
        where TName : unmanaged
    {
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        // One room request for "name": and the token, as Utf8JsonWriter makes.
        int p = BeginNamed(name, nameFirst, 1);
        byte token = isObject ? (byte)'{' : (byte)'[';
        _w.Buffer[p++] = token;
        _w.Pos = p;
        Opened(token, isObject ? JsonTokenType.StartObject : JsonTokenType.StartArray);
    }

    /// <summary>Writes a pre-encoded property name and a pre-encoded string value.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The pre-encoded value, written as it is.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(JsonEncodedText propertyName, JsonEncodedText value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and a string value.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The value; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(JsonEncodedText propertyName, ReadOnlySpan<char> value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and a UTF-8 string value.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="utf8Value">The value as UTF-8; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(JsonEncodedText propertyName, ReadOnlySpan<byte> utf8Value) => WriteStringCore(Name(propertyName, out int first), first, utf8Value);

    /// <summary>Writes a pre-encoded property name and a DateTime as an ISO 8601 string.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(JsonEncodedText propertyName, DateTime value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and a DateTimeOffset as an ISO 8601 string.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(JsonEncodedText propertyName, DateTimeOffset value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and a Guid string.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The Guid, written as a string in its "D" format.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(JsonEncodedText propertyName, Guid value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(JsonEncodedText propertyName, long value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(JsonEncodedText propertyName, ulong value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and a number (NaN and infinities are refused).</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(JsonEncodedText propertyName, float value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and a number (NaN and infinities are refused).</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(JsonEncodedText propertyName, double value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and a decimal number.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(JsonEncodedText propertyName, decimal value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and true or false.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The value: <c>true</c> or <c>false</c>.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteBoolean(JsonEncodedText propertyName, bool value) => WriteBooleanCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a pre-encoded property name and bytes as a Base64 string.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="bytes">The bytes to write as Base64.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteBase64String(JsonEncodedText propertyName, ReadOnlySpan<byte> bytes) => WriteBase64StringCore(Name(propertyName, out int first), first, bytes);

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(JsonEncodedText propertyName, int value) => WriteNumberCore(Name(propertyName, out int first), first, (long)value);

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(JsonEncodedText propertyName, uint value) => WriteNumberCore(Name(propertyName, out int first), first, (ulong)value);

    /// <summary>Writes a pre-encoded property name and a string value (null writes the null literal).</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <param name="value">The value; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(JsonEncodedText propertyName, string? value)
    {
        var name = Name(propertyName, out int first);
        if (value is null)
        {
            WriteNullCore(name, first);
        }
        else
        {
            WriteStringCore(name, first, value.AsSpan());
        }
    }

    /// <summary>Writes a pre-encoded property name and null.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNull(JsonEncodedText propertyName) => WriteNullCore(Name(propertyName, out int first), first);

    /// <summary>Writes a pre-encoded property name and the beginning of a JSON object.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteStartObject(JsonEncodedText propertyName) => WriteStartCore(Name(propertyName, out int first), first, isObject: true);

    /// <summary>Writes a pre-encoded property name and the beginning of a JSON array.</summary>
    /// <param name="propertyName">The pre-encoded property name, written as it is.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteStartArray(JsonEncodedText propertyName) => WriteStartCore(Name(propertyName, out int first), first, isObject: false);

    /// <summary>Writes a property name and a pre-encoded string value.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The pre-encoded value, written as it is.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(string propertyName, JsonEncodedText value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a string value.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The value; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(string propertyName, ReadOnlySpan<char> value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a UTF-8 string value.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="utf8Value">The value as UTF-8; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(string propertyName, ReadOnlySpan<byte> utf8Value) => WriteStringCore(Name(propertyName, out int first), first, utf8Value);

    /// <summary>Writes a property name and a DateTime as an ISO 8601 string.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(string propertyName, DateTime value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a DateTimeOffset as an ISO 8601 string.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(string propertyName, DateTimeOffset value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a Guid string.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The Guid, written as a string in its "D" format.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(string propertyName, Guid value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and an integer.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(string propertyName, long value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and an integer.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(string propertyName, ulong value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(string propertyName, float value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(string propertyName, double value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a decimal number.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(string propertyName, decimal value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and true or false.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The value: <c>true</c> or <c>false</c>.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteBoolean(string propertyName, bool value) => WriteBooleanCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and bytes as a Base64 string.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="bytes">The bytes to write as Base64.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteBase64String(string propertyName, ReadOnlySpan<byte> bytes) => WriteBase64StringCore(Name(propertyName, out int first), first, bytes);

    /// <summary>Writes a property name and an integer.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(string propertyName, int value) => WriteNumberCore(Name(propertyName, out int first), first, (long)value);

    /// <summary>Writes a property name and an integer.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(string propertyName, uint value) => WriteNumberCore(Name(propertyName, out int first), first, (ulong)value);

    /// <summary>Writes a property name and a string value (null writes the null literal).</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The value; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(string propertyName, string? value)
    {
        var name = Name(propertyName, out int first);
        if (value is null)
        {
            WriteNullCore(name, first);
        }
        else
        {
            WriteStringCore(name, first, value.AsSpan());
        }
    }

    /// <summary>Writes a property name and null.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNull(string propertyName) => WriteNullCore(Name(propertyName, out int first), first);

    /// <summary>Writes a property name and the beginning of a JSON object.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteStartObject(string propertyName) => WriteStartCore(Name(propertyName, out int first), first, isObject: true);

    /// <summary>Writes a property name and the beginning of a JSON array.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteStartArray(string propertyName) => WriteStartCore(Name(propertyName, out int first), first, isObject: false);

    /// <summary>Writes a property name and a pre-encoded string value.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The pre-encoded value, written as it is.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<char> propertyName, JsonEncodedText value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a string value.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The value; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<char> propertyName, ReadOnlySpan<char> value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a UTF-8 string value.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="utf8Value">The value as UTF-8; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<char> propertyName, ReadOnlySpan<byte> utf8Value) => WriteStringCore(Name(propertyName, out int first), first, utf8Value);

    /// <summary>Writes a property name and a DateTime as an ISO 8601 string.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<char> propertyName, DateTime value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a DateTimeOffset as an ISO 8601 string.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<char> propertyName, DateTimeOffset value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a Guid string.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The Guid, written as a string in its "D" format.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<char> propertyName, Guid value) => WriteStringCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and an integer.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<char> propertyName, long value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and an integer.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<char> propertyName, ulong value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<char> propertyName, float value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<char> propertyName, double value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and a decimal number.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<char> propertyName, decimal value) => WriteNumberCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and true or false.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The value: <c>true</c> or <c>false</c>.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteBoolean(ReadOnlySpan<char> propertyName, bool value) => WriteBooleanCore(Name(propertyName, out int first), first, value);

    /// <summary>Writes a property name and bytes as a Base64 string.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="bytes">The bytes to write as Base64.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteBase64String(ReadOnlySpan<char> propertyName, ReadOnlySpan<byte> bytes) => WriteBase64StringCore(Name(propertyName, out int first), first, bytes);

    /// <summary>Writes a property name and an integer.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<char> propertyName, int value) => WriteNumberCore(Name(propertyName, out int first), first, (long)value);

    /// <summary>Writes a property name and an integer.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<char> propertyName, uint value) => WriteNumberCore(Name(propertyName, out int first), first, (ulong)value);

    /// <summary>Writes a property name and a string value (null writes the null literal).</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <param name="value">The value; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<char> propertyName, string? value)
    {
        var name = Name(propertyName, out int first);
        if (value is null)
        {
            WriteNullCore(name, first);
        }
        else
        {
            WriteStringCore(name, first, value.AsSpan());
        }
    }

    /// <summary>Writes a property name and null.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNull(ReadOnlySpan<char> propertyName) => WriteNullCore(Name(propertyName, out int first), first);

    /// <summary>Writes a property name and the beginning of a JSON object.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteStartObject(ReadOnlySpan<char> propertyName) => WriteStartCore(Name(propertyName, out int first), first, isObject: true);

    /// <summary>Writes a property name and the beginning of a JSON array.</summary>
    /// <param name="propertyName">The property name; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteStartArray(ReadOnlySpan<char> propertyName) => WriteStartCore(Name(propertyName, out int first), first, isObject: false);

    /// <summary>Writes a UTF-8 property name and a pre-encoded string value.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The pre-encoded value, written as it is.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, JsonEncodedText value) => WriteStringCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and a string value.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The value; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<char> value) => WriteStringCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and a UTF-8 string value.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="utf8Value">The value as UTF-8; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<byte> utf8Value) => WriteStringCore(Name(utf8PropertyName, out int first), first, utf8Value);

    /// <summary>Writes a UTF-8 property name and a DateTime as an ISO 8601 string.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, DateTime value) => WriteStringCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and a DateTimeOffset as an ISO 8601 string.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, DateTimeOffset value) => WriteStringCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and a Guid string.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The Guid, written as a string in its "D" format.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, Guid value) => WriteStringCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, long value) => WriteNumberCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, ulong value) => WriteNumberCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and a number (NaN and infinities are refused).</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, float value) => WriteNumberCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and a number (NaN and infinities are refused).</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, double value) => WriteNumberCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and a decimal number.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, decimal value) => WriteNumberCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and true or false.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The value: <c>true</c> or <c>false</c>.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteBoolean(ReadOnlySpan<byte> utf8PropertyName, bool value) => WriteBooleanCore(Name(utf8PropertyName, out int first), first, value);

    /// <summary>Writes a UTF-8 property name and bytes as a Base64 string.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="bytes">The bytes to write as Base64.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteBase64String(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<byte> bytes) => WriteBase64StringCore(Name(utf8PropertyName, out int first), first, bytes);

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, int value) => WriteNumberCore(Name(utf8PropertyName, out int first), first, (long)value);

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, uint value) => WriteNumberCore(Name(utf8PropertyName, out int first), first, (ulong)value);

    /// <summary>Writes a UTF-8 property name and a string value (null writes the null literal).</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <param name="value">The value; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, string? value)
    {
        var name = Name(utf8PropertyName, out int first);
        if (value is null)
        {
            WriteNullCore(name, first);
        }
        else
        {
            WriteStringCore(name, first, value.AsSpan());
        }
    }

    /// <summary>Writes a UTF-8 property name and null.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteNull(ReadOnlySpan<byte> utf8PropertyName) => WriteNullCore(Name(utf8PropertyName, out int first), first);

    /// <summary>Writes a UTF-8 property name and the beginning of a JSON object.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteStartObject(ReadOnlySpan<byte> utf8PropertyName) => WriteStartCore(Name(utf8PropertyName, out int first), first, isObject: true);

    /// <summary>Writes a UTF-8 property name and the beginning of a JSON array.</summary>
    /// <param name="utf8PropertyName">The property name as UTF-8; escaped as the options' encoder requires.</param>
    /// <exception cref="InvalidOperationException">Validation is on and the call would make the JSON invalid (a value where a property name is expected, a property name outside an object, an end that does not match its start, a depth over the maximum), or a segmented string is open.</exception>
    public void WriteStartArray(ReadOnlySpan<byte> utf8PropertyName) => WriteStartCore(Name(utf8PropertyName, out int first), first, isObject: false);
}
