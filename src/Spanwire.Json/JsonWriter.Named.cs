using System.Buffers.Text;
using System.Text.Json;

namespace Spanwire.Json;

// Property name and value in one call. The name is checked and read first (PropertyNameText), then the value,
// then one validation and one reservation cover both and "name":value is written in one pass: the bytes of
// WritePropertyName followed by the value call, with Utf8JsonWriter's order of argument checks.
public sealed partial class JsonWriter
{
    private void WriteStringCore(in PropertyNameText name, JsonEncodedText value)
    {
        int p = BeginNamed(name, value.EncodedUtf8Bytes.Length + 2);
        EndValue(WriteQuoted(_buffer, p, value.EncodedUtf8Bytes, -1), JsonTokenType.String);
    }

    private void WriteStringCore(in PropertyNameText name, ReadOnlySpan<char> value)
    {
        CheckTokenSize(value.Length);
        int valueFirst = _escaping.StartOfEscaping(value);
        int p = BeginNamed(name, MaxQuotedLength(value.Length, valueFirst, 3));
        EndValue(WriteQuoted(_buffer, p, value, valueFirst), JsonTokenType.String);
    }

    private void WriteStringCore(in PropertyNameText name, ReadOnlySpan<byte> utf8Value)
    {
        CheckTokenSize(utf8Value.Length);
        int valueFirst = _escaping.StartOfEscaping(utf8Value);
        int p = BeginNamed(name, MaxQuotedLength(utf8Value.Length, valueFirst, 1));
        EndValue(WriteQuoted(_buffer, p, utf8Value, valueFirst), JsonTokenType.String);
    }

    private void WriteStringCore(in PropertyNameText name, DateTime value)
    {
        int p = BeginNamed(name, MaxDateLength);
        EndValue(DateTimeAt(_buffer, p, value), JsonTokenType.String);
    }

    private void WriteStringCore(in PropertyNameText name, DateTimeOffset value)
    {
        int p = BeginNamed(name, MaxDateLength);
        EndValue(DateTimeOffsetAt(_buffer, p, value), JsonTokenType.String);
    }

    private void WriteStringCore(in PropertyNameText name, Guid value)
    {
        int p = BeginNamed(name, MaxGuidLength);
        EndValue(GuidAt(_buffer, p, value), JsonTokenType.String);
    }

    private void WriteNumberCore(in PropertyNameText name, long value)
    {
        int p = BeginNamed(name, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore(in PropertyNameText name, ulong value)
    {
        int p = BeginNamed(name, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore(in PropertyNameText name, float value)
    {
        CheckFinite(value);
        int p = BeginNamed(name, MaxFloatingLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore(in PropertyNameText name, double value)
    {
        CheckFinite(value);
        int p = BeginNamed(name, MaxFloatingLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    private void WriteNumberCore(in PropertyNameText name, decimal value)
    {
        int p = BeginNamed(name, MaxDecimalLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    private void WriteBooleanCore(in PropertyNameText name, bool value)
    {
        int p = BeginNamed(name, 5);
        EndValue(BooleanAt(_buffer, p, value), value ? JsonTokenType.True : JsonTokenType.False);
    }

    private void WriteBase64StringCore(in PropertyNameText name, ReadOnlySpan<byte> bytes)
    {
        CheckBase64Size(bytes.Length);
        int p = BeginNamed(name, Base64.GetMaxEncodedToUtf8Length(bytes.Length) + 2);
        EndValue(Base64At(_buffer, p, bytes), JsonTokenType.String);
    }

    private void WriteNullCore(in PropertyNameText name)
    {
        int p = BeginNamed(name, 4);
        EndValue(NullAt(_buffer, p), JsonTokenType.Null);
    }

    private void WriteStartCore(in PropertyNameText name, bool isObject)
    {
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        WritePropertyNameCore(name);

        if (isObject)
        {
            WriteStartObject();
        }
        else
        {
            WriteStartArray();
        }
    }

    /// <summary>Writes a pre-encoded property name and a pre-encoded string value.</summary>
    public void WriteString(JsonEncodedText propertyName, JsonEncodedText value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and a string value.</summary>
    public void WriteString(JsonEncodedText propertyName, ReadOnlySpan<char> value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and a UTF-8 string value.</summary>
    public void WriteString(JsonEncodedText propertyName, ReadOnlySpan<byte> utf8Value) => WriteStringCore(Name(propertyName), utf8Value);

    /// <summary>Writes a pre-encoded property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(JsonEncodedText propertyName, DateTime value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(JsonEncodedText propertyName, DateTimeOffset value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and a Guid string.</summary>
    public void WriteString(JsonEncodedText propertyName, Guid value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, long value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, ulong value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(JsonEncodedText propertyName, float value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(JsonEncodedText propertyName, double value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and a decimal number.</summary>
    public void WriteNumber(JsonEncodedText propertyName, decimal value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and true or false.</summary>
    public void WriteBoolean(JsonEncodedText propertyName, bool value) => WriteBooleanCore(Name(propertyName), value);

    /// <summary>Writes a pre-encoded property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(JsonEncodedText propertyName, ReadOnlySpan<byte> bytes) => WriteBase64StringCore(Name(propertyName), bytes);

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, int value) => WriteNumberCore(Name(propertyName), (long)value);

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, uint value) => WriteNumberCore(Name(propertyName), (ulong)value);

    /// <summary>Writes a pre-encoded property name and a string value (null writes the null literal).</summary>
    public void WriteString(JsonEncodedText propertyName, string? value)
    {
        PropertyNameText name = Name(propertyName);
        if (value is null)
        {
            WriteNullCore(name);
        }
        else
        {
            WriteStringCore(name, value.AsSpan());
        }
    }

    /// <summary>Writes a pre-encoded property name and null.</summary>
    public void WriteNull(JsonEncodedText propertyName) => WriteNullCore(Name(propertyName));

    /// <summary>Writes a pre-encoded property name and the beginning of a JSON object.</summary>
    public void WriteStartObject(JsonEncodedText propertyName) => WriteStartCore(Name(propertyName), isObject: true);

    /// <summary>Writes a pre-encoded property name and the beginning of a JSON array.</summary>
    public void WriteStartArray(JsonEncodedText propertyName) => WriteStartCore(Name(propertyName), isObject: false);

    /// <summary>Writes a property name and a pre-encoded string value.</summary>
    public void WriteString(string propertyName, JsonEncodedText value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a property name and a string value.</summary>
    public void WriteString(string propertyName, ReadOnlySpan<char> value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a property name and a UTF-8 string value.</summary>
    public void WriteString(string propertyName, ReadOnlySpan<byte> utf8Value) => WriteStringCore(Name(propertyName), utf8Value);

    /// <summary>Writes a property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(string propertyName, DateTime value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(string propertyName, DateTimeOffset value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a property name and a Guid string.</summary>
    public void WriteString(string propertyName, Guid value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, long value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, ulong value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(string propertyName, float value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(string propertyName, double value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a property name and a decimal number.</summary>
    public void WriteNumber(string propertyName, decimal value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a property name and true or false.</summary>
    public void WriteBoolean(string propertyName, bool value) => WriteBooleanCore(Name(propertyName), value);

    /// <summary>Writes a property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(string propertyName, ReadOnlySpan<byte> bytes) => WriteBase64StringCore(Name(propertyName), bytes);

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, int value) => WriteNumberCore(Name(propertyName), (long)value);

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, uint value) => WriteNumberCore(Name(propertyName), (ulong)value);

    /// <summary>Writes a property name and a string value (null writes the null literal).</summary>
    public void WriteString(string propertyName, string? value)
    {
        PropertyNameText name = Name(propertyName);
        if (value is null)
        {
            WriteNullCore(name);
        }
        else
        {
            WriteStringCore(name, value.AsSpan());
        }
    }

    /// <summary>Writes a property name and null.</summary>
    public void WriteNull(string propertyName) => WriteNullCore(Name(propertyName));

    /// <summary>Writes a property name and the beginning of a JSON object.</summary>
    public void WriteStartObject(string propertyName) => WriteStartCore(Name(propertyName), isObject: true);

    /// <summary>Writes a property name and the beginning of a JSON array.</summary>
    public void WriteStartArray(string propertyName) => WriteStartCore(Name(propertyName), isObject: false);

    /// <summary>Writes a property name and a pre-encoded string value.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, JsonEncodedText value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a property name and a string value.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, ReadOnlySpan<char> value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a property name and a UTF-8 string value.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, ReadOnlySpan<byte> utf8Value) => WriteStringCore(Name(propertyName), utf8Value);

    /// <summary>Writes a property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, DateTime value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, DateTimeOffset value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a property name and a Guid string.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, Guid value) => WriteStringCore(Name(propertyName), value);

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, long value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, ulong value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, float value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, double value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a property name and a decimal number.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, decimal value) => WriteNumberCore(Name(propertyName), value);

    /// <summary>Writes a property name and true or false.</summary>
    public void WriteBoolean(ReadOnlySpan<char> propertyName, bool value) => WriteBooleanCore(Name(propertyName), value);

    /// <summary>Writes a property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(ReadOnlySpan<char> propertyName, ReadOnlySpan<byte> bytes) => WriteBase64StringCore(Name(propertyName), bytes);

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, int value) => WriteNumberCore(Name(propertyName), (long)value);

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, uint value) => WriteNumberCore(Name(propertyName), (ulong)value);

    /// <summary>Writes a property name and a string value (null writes the null literal).</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, string? value)
    {
        PropertyNameText name = Name(propertyName);
        if (value is null)
        {
            WriteNullCore(name);
        }
        else
        {
            WriteStringCore(name, value.AsSpan());
        }
    }

    /// <summary>Writes a property name and null.</summary>
    public void WriteNull(ReadOnlySpan<char> propertyName) => WriteNullCore(Name(propertyName));

    /// <summary>Writes a property name and the beginning of a JSON object.</summary>
    public void WriteStartObject(ReadOnlySpan<char> propertyName) => WriteStartCore(Name(propertyName), isObject: true);

    /// <summary>Writes a property name and the beginning of a JSON array.</summary>
    public void WriteStartArray(ReadOnlySpan<char> propertyName) => WriteStartCore(Name(propertyName), isObject: false);

    /// <summary>Writes a UTF-8 property name and a pre-encoded string value.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, JsonEncodedText value) => WriteStringCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and a string value.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<char> value) => WriteStringCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and a UTF-8 string value.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<byte> utf8Value) => WriteStringCore(Name(utf8PropertyName), utf8Value);

    /// <summary>Writes a UTF-8 property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, DateTime value) => WriteStringCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, DateTimeOffset value) => WriteStringCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and a Guid string.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, Guid value) => WriteStringCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, long value) => WriteNumberCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, ulong value) => WriteNumberCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, float value) => WriteNumberCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, double value) => WriteNumberCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and a decimal number.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, decimal value) => WriteNumberCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and true or false.</summary>
    public void WriteBoolean(ReadOnlySpan<byte> utf8PropertyName, bool value) => WriteBooleanCore(Name(utf8PropertyName), value);

    /// <summary>Writes a UTF-8 property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<byte> bytes) => WriteBase64StringCore(Name(utf8PropertyName), bytes);

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, int value) => WriteNumberCore(Name(utf8PropertyName), (long)value);

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, uint value) => WriteNumberCore(Name(utf8PropertyName), (ulong)value);

    /// <summary>Writes a UTF-8 property name and a string value (null writes the null literal).</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, string? value)
    {
        PropertyNameText name = Name(utf8PropertyName);
        if (value is null)
        {
            WriteNullCore(name);
        }
        else
        {
            WriteStringCore(name, value.AsSpan());
        }
    }

    /// <summary>Writes a UTF-8 property name and null.</summary>
    public void WriteNull(ReadOnlySpan<byte> utf8PropertyName) => WriteNullCore(Name(utf8PropertyName));

    /// <summary>Writes a UTF-8 property name and the beginning of a JSON object.</summary>
    public void WriteStartObject(ReadOnlySpan<byte> utf8PropertyName) => WriteStartCore(Name(utf8PropertyName), isObject: true);

    /// <summary>Writes a UTF-8 property name and the beginning of a JSON array.</summary>
    public void WriteStartArray(ReadOnlySpan<byte> utf8PropertyName) => WriteStartCore(Name(utf8PropertyName), isObject: false);
}
