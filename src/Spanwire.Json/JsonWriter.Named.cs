using System.Buffers.Text;
using System.Text.Json;

namespace Spanwire.Json;

// Property name and value in one call: the name and the value are checked first (as Utf8JsonWriter checks them),
// then one validation and one reservation cover both, and "name":value is written in one pass. The bytes are
// those of WritePropertyName followed by the value call.
public sealed partial class JsonWriter
{
    /// <summary>Writes a pre-encoded property name and a pre-encoded string value.</summary>
    public void WriteString(JsonEncodedText propertyName, JsonEncodedText value)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, value.EncodedUtf8Bytes.Length + 2);
        EndValue(WriteQuoted(_buffer, p, value.EncodedUtf8Bytes, -1), JsonTokenType.String);
    }

    /// <summary>Writes a pre-encoded property name and a string value.</summary>
    public void WriteString(JsonEncodedText propertyName, ReadOnlySpan<char> value)
    {
        CheckTokenSize(value.Length);
        int valueFirst = _escaping.FirstToEscape(value);
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxQuotedLength(value.Length, valueFirst, 3));
        EndValue(WriteQuoted(_buffer, p, value, valueFirst), JsonTokenType.String);
    }

    /// <summary>Writes a pre-encoded property name and a UTF-8 string value.</summary>
    public void WriteString(JsonEncodedText propertyName, ReadOnlySpan<byte> utf8Value)
    {
        CheckTokenSize(utf8Value.Length);
        int valueFirst = _escaping.FirstToEscape(utf8Value);
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxQuotedLength(utf8Value.Length, valueFirst, 1));
        EndValue(WriteQuoted(_buffer, p, utf8Value, valueFirst), JsonTokenType.String);
    }

    /// <summary>Writes a pre-encoded property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(JsonEncodedText propertyName, DateTime value)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxDateLength);
        EndValue(DateTimeAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a pre-encoded property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(JsonEncodedText propertyName, DateTimeOffset value)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxDateLength);
        EndValue(DateTimeOffsetAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a pre-encoded property name and a Guid string.</summary>
    public void WriteString(JsonEncodedText propertyName, Guid value)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxGuidLength);
        EndValue(GuidAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, int value)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, (long)value), JsonTokenType.Number);
    }

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, long value)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, uint value)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, (ulong)value), JsonTokenType.Number);
    }

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, ulong value)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a pre-encoded property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(JsonEncodedText propertyName, float value)
    {
        CheckFinite(value);
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxFloatingLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a pre-encoded property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(JsonEncodedText propertyName, double value)
    {
        CheckFinite(value);
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxFloatingLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a pre-encoded property name and a decimal number.</summary>
    public void WriteNumber(JsonEncodedText propertyName, decimal value)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, MaxDecimalLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a pre-encoded property name and true or false.</summary>
    public void WriteBoolean(JsonEncodedText propertyName, bool value)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, 5);
        EndValue(BooleanAt(_buffer, p, value), value ? JsonTokenType.True : JsonTokenType.False);
    }

    /// <summary>Writes a pre-encoded property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(JsonEncodedText propertyName, ReadOnlySpan<byte> bytes)
    {
        CheckBase64Size(bytes.Length);
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, Base64.GetMaxEncodedToUtf8Length(bytes.Length) + 2);
        EndValue(Base64At(_buffer, p, bytes), JsonTokenType.String);
    }

    /// <summary>Writes a pre-encoded property name and a string value (null writes the null literal).</summary>
    public void WriteString(JsonEncodedText propertyName, string? value)
    {
        if (value is null)
        {
            WriteNull(propertyName);
            return;
        }

        WriteString(propertyName, value.AsSpan());
    }

    /// <summary>Writes a pre-encoded property name and null.</summary>
    public void WriteNull(JsonEncodedText propertyName)
    {
        int p = BeginNamed(propertyName.EncodedUtf8Bytes, -1, 4);
        EndValue(NullAt(_buffer, p), JsonTokenType.Null);
    }

    /// <summary>Writes a pre-encoded property name and the beginning of a JSON object.</summary>
    public void WriteStartObject(JsonEncodedText propertyName)
    {
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        WritePropertyName(propertyName);
        WriteStartObject();
    }

    /// <summary>Writes a pre-encoded property name and the beginning of a JSON array.</summary>
    public void WriteStartArray(JsonEncodedText propertyName)
    {
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        WritePropertyName(propertyName);
        WriteStartArray();
    }

    /// <summary>Writes a property name and a pre-encoded string value.</summary>
    public void WriteString(string propertyName, JsonEncodedText value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, value.EncodedUtf8Bytes.Length + 2);
        EndValue(WriteQuoted(_buffer, p, value.EncodedUtf8Bytes, -1), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a string value.</summary>
    public void WriteString(string propertyName, ReadOnlySpan<char> value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        CheckTokenSize(value.Length);
        int valueFirst = _escaping.FirstToEscape(value);
        int p = BeginNamed(name, nameFirst, MaxQuotedLength(value.Length, valueFirst, 3));
        EndValue(WriteQuoted(_buffer, p, value, valueFirst), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a UTF-8 string value.</summary>
    public void WriteString(string propertyName, ReadOnlySpan<byte> utf8Value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        CheckTokenSize(utf8Value.Length);
        int valueFirst = _escaping.FirstToEscape(utf8Value);
        int p = BeginNamed(name, nameFirst, MaxQuotedLength(utf8Value.Length, valueFirst, 1));
        EndValue(WriteQuoted(_buffer, p, utf8Value, valueFirst), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(string propertyName, DateTime value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, MaxDateLength);
        EndValue(DateTimeAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(string propertyName, DateTimeOffset value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, MaxDateLength);
        EndValue(DateTimeOffsetAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a Guid string.</summary>
    public void WriteString(string propertyName, Guid value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, MaxGuidLength);
        EndValue(GuidAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, int value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, (long)value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, long value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, uint value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, (ulong)value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, ulong value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(string propertyName, float value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        CheckFinite(value);
        int p = BeginNamed(name, nameFirst, MaxFloatingLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(string propertyName, double value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        CheckFinite(value);
        int p = BeginNamed(name, nameFirst, MaxFloatingLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and a decimal number.</summary>
    public void WriteNumber(string propertyName, decimal value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, MaxDecimalLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and true or false.</summary>
    public void WriteBoolean(string propertyName, bool value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, 5);
        EndValue(BooleanAt(_buffer, p, value), value ? JsonTokenType.True : JsonTokenType.False);
    }

    /// <summary>Writes a property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(string propertyName, ReadOnlySpan<byte> bytes)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        CheckBase64Size(bytes.Length);
        int p = BeginNamed(name, nameFirst, Base64.GetMaxEncodedToUtf8Length(bytes.Length) + 2);
        EndValue(Base64At(_buffer, p, bytes), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a string value (null writes the null literal).</summary>
    public void WriteString(string propertyName, string? value)
    {
        if (value is null)
        {
            WriteNull(propertyName);
            return;
        }

        WriteString(propertyName, value.AsSpan());
    }

    /// <summary>Writes a property name and null.</summary>
    public void WriteNull(string propertyName)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        ReadOnlySpan<char> name = propertyName;
        CheckTokenSize(name.Length);
        int nameFirst = _escaping.FirstToEscape(name);
        int p = BeginNamed(name, nameFirst, 4);
        EndValue(NullAt(_buffer, p), JsonTokenType.Null);
    }

    /// <summary>Writes a property name and the beginning of a JSON object.</summary>
    public void WriteStartObject(string propertyName)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        WritePropertyName(propertyName);
        WriteStartObject();
    }

    /// <summary>Writes a property name and the beginning of a JSON array.</summary>
    public void WriteStartArray(string propertyName)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        WritePropertyName(propertyName);
        WriteStartArray();
    }

    /// <summary>Writes a property name and a pre-encoded string value.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, JsonEncodedText value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, value.EncodedUtf8Bytes.Length + 2);
        EndValue(WriteQuoted(_buffer, p, value.EncodedUtf8Bytes, -1), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a string value.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, ReadOnlySpan<char> value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        CheckTokenSize(value.Length);
        int valueFirst = _escaping.FirstToEscape(value);
        int p = BeginNamed(propertyName, nameFirst, MaxQuotedLength(value.Length, valueFirst, 3));
        EndValue(WriteQuoted(_buffer, p, value, valueFirst), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a UTF-8 string value.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, ReadOnlySpan<byte> utf8Value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        CheckTokenSize(utf8Value.Length);
        int valueFirst = _escaping.FirstToEscape(utf8Value);
        int p = BeginNamed(propertyName, nameFirst, MaxQuotedLength(utf8Value.Length, valueFirst, 1));
        EndValue(WriteQuoted(_buffer, p, utf8Value, valueFirst), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, DateTime value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, MaxDateLength);
        EndValue(DateTimeAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, DateTimeOffset value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, MaxDateLength);
        EndValue(DateTimeOffsetAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a Guid string.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, Guid value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, MaxGuidLength);
        EndValue(GuidAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, int value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, (long)value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, long value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, uint value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, (ulong)value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, ulong value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, float value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        CheckFinite(value);
        int p = BeginNamed(propertyName, nameFirst, MaxFloatingLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, double value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        CheckFinite(value);
        int p = BeginNamed(propertyName, nameFirst, MaxFloatingLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and a decimal number.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, decimal value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, MaxDecimalLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a property name and true or false.</summary>
    public void WriteBoolean(ReadOnlySpan<char> propertyName, bool value)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, 5);
        EndValue(BooleanAt(_buffer, p, value), value ? JsonTokenType.True : JsonTokenType.False);
    }

    /// <summary>Writes a property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(ReadOnlySpan<char> propertyName, ReadOnlySpan<byte> bytes)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        CheckBase64Size(bytes.Length);
        int p = BeginNamed(propertyName, nameFirst, Base64.GetMaxEncodedToUtf8Length(bytes.Length) + 2);
        EndValue(Base64At(_buffer, p, bytes), JsonTokenType.String);
    }

    /// <summary>Writes a property name and a string value (null writes the null literal).</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, string? value)
    {
        if (value is null)
        {
            WriteNull(propertyName);
            return;
        }

        WriteString(propertyName, value.AsSpan());
    }

    /// <summary>Writes a property name and null.</summary>
    public void WriteNull(ReadOnlySpan<char> propertyName)
    {
        CheckTokenSize(propertyName.Length);
        int nameFirst = _escaping.FirstToEscape(propertyName);
        int p = BeginNamed(propertyName, nameFirst, 4);
        EndValue(NullAt(_buffer, p), JsonTokenType.Null);
    }

    /// <summary>Writes a property name and the beginning of a JSON object.</summary>
    public void WriteStartObject(ReadOnlySpan<char> propertyName)
    {
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        WritePropertyName(propertyName);
        WriteStartObject();
    }

    /// <summary>Writes a property name and the beginning of a JSON array.</summary>
    public void WriteStartArray(ReadOnlySpan<char> propertyName)
    {
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        WritePropertyName(propertyName);
        WriteStartArray();
    }

    /// <summary>Writes a UTF-8 property name and a pre-encoded string value.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, JsonEncodedText value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, value.EncodedUtf8Bytes.Length + 2);
        EndValue(WriteQuoted(_buffer, p, value.EncodedUtf8Bytes, -1), JsonTokenType.String);
    }

    /// <summary>Writes a UTF-8 property name and a string value.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<char> value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        CheckTokenSize(value.Length);
        int valueFirst = _escaping.FirstToEscape(value);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxQuotedLength(value.Length, valueFirst, 3));
        EndValue(WriteQuoted(_buffer, p, value, valueFirst), JsonTokenType.String);
    }

    /// <summary>Writes a UTF-8 property name and a UTF-8 string value.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<byte> utf8Value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        CheckTokenSize(utf8Value.Length);
        int valueFirst = _escaping.FirstToEscape(utf8Value);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxQuotedLength(utf8Value.Length, valueFirst, 1));
        EndValue(WriteQuoted(_buffer, p, utf8Value, valueFirst), JsonTokenType.String);
    }

    /// <summary>Writes a UTF-8 property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, DateTime value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxDateLength);
        EndValue(DateTimeAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a UTF-8 property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, DateTimeOffset value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxDateLength);
        EndValue(DateTimeOffsetAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a UTF-8 property name and a Guid string.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, Guid value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxGuidLength);
        EndValue(GuidAt(_buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, int value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, (long)value), JsonTokenType.Number);
    }

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, long value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, uint value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, (ulong)value), JsonTokenType.Number);
    }

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, ulong value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxInt64Length);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a UTF-8 property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, float value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        CheckFinite(value);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxFloatingLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a UTF-8 property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, double value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        CheckFinite(value);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxFloatingLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a UTF-8 property name and a decimal number.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, decimal value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, MaxDecimalLength);
        EndValue(NumberAt(_buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a UTF-8 property name and true or false.</summary>
    public void WriteBoolean(ReadOnlySpan<byte> utf8PropertyName, bool value)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, 5);
        EndValue(BooleanAt(_buffer, p, value), value ? JsonTokenType.True : JsonTokenType.False);
    }

    /// <summary>Writes a UTF-8 property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<byte> bytes)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        CheckBase64Size(bytes.Length);
        int p = BeginNamed(utf8PropertyName, nameFirst, Base64.GetMaxEncodedToUtf8Length(bytes.Length) + 2);
        EndValue(Base64At(_buffer, p, bytes), JsonTokenType.String);
    }

    /// <summary>Writes a UTF-8 property name and a string value (null writes the null literal).</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, string? value)
    {
        if (value is null)
        {
            WriteNull(utf8PropertyName);
            return;
        }

        WriteString(utf8PropertyName, value.AsSpan());
    }

    /// <summary>Writes a UTF-8 property name and null.</summary>
    public void WriteNull(ReadOnlySpan<byte> utf8PropertyName)
    {
        CheckTokenSize(utf8PropertyName.Length);
        int nameFirst = _escaping.FirstToEscape(utf8PropertyName);
        int p = BeginNamed(utf8PropertyName, nameFirst, 4);
        EndValue(NullAt(_buffer, p), JsonTokenType.Null);
    }

    /// <summary>Writes a UTF-8 property name and the beginning of a JSON object.</summary>
    public void WriteStartObject(ReadOnlySpan<byte> utf8PropertyName)
    {
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        WritePropertyName(utf8PropertyName);
        WriteStartObject();
    }

    /// <summary>Writes a UTF-8 property name and the beginning of a JSON array.</summary>
    public void WriteStartArray(ReadOnlySpan<byte> utf8PropertyName)
    {
        if (_depth >= _maxDepth)
        {
            ThrowDepthTooLarge();
        }

        WritePropertyName(utf8PropertyName);
        WriteStartArray();
    }
}
