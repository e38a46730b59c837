using System.Text.Json;

namespace Spanwire.Json;

// Property name and value in one call. Each checks its value first (as Utf8JsonWriter does), then writes the
// name and the value; the bytes are those of WritePropertyName followed by the value call.
public sealed partial class JsonWriter
{
    /// <summary>Writes a pre-encoded property name and a pre-encoded string value.</summary>
    public void WriteString(JsonEncodedText propertyName, JsonEncodedText value)
    {
        WritePropertyName(propertyName);
        WriteStringValue(value);
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

    /// <summary>Writes a pre-encoded property name and a string value.</summary>
    public void WriteString(JsonEncodedText propertyName, ReadOnlySpan<char> value)
    {
        CheckTokenSize(value.Length);
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a pre-encoded property name and a UTF-8 string value.</summary>
    public void WriteString(JsonEncodedText propertyName, ReadOnlySpan<byte> utf8Value)
    {
        CheckTokenSize(utf8Value.Length);
        WritePropertyName(propertyName);
        WriteStringValue(utf8Value);
    }

    /// <summary>Writes a pre-encoded property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(JsonEncodedText propertyName, DateTime value)
    {
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a pre-encoded property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(JsonEncodedText propertyName, DateTimeOffset value)
    {
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a pre-encoded property name and a Guid string.</summary>
    public void WriteString(JsonEncodedText propertyName, Guid value)
    {
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, int value)
    {
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, long value)
    {
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, uint value)
    {
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a pre-encoded property name and an integer.</summary>
    public void WriteNumber(JsonEncodedText propertyName, ulong value)
    {
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a pre-encoded property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(JsonEncodedText propertyName, float value)
    {
        CheckFinite(value);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a pre-encoded property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(JsonEncodedText propertyName, double value)
    {
        CheckFinite(value);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a pre-encoded property name and a decimal number.</summary>
    public void WriteNumber(JsonEncodedText propertyName, decimal value)
    {
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a pre-encoded property name and true or false.</summary>
    public void WriteBoolean(JsonEncodedText propertyName, bool value)
    {
        WritePropertyName(propertyName);
        WriteBooleanValue(value);
    }

    /// <summary>Writes a pre-encoded property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(JsonEncodedText propertyName, ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length > MaxBase64Source)
                {
                    JsonThrow.TooLarge(bytes.Length);
                }
        WritePropertyName(propertyName);
        WriteBase64StringValue(bytes);
    }

    /// <summary>Writes a pre-encoded property name and null.</summary>
    public void WriteNull(JsonEncodedText propertyName)
    {
        WritePropertyName(propertyName);
        WriteNullValue();
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
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a property name and a string value (null writes the null literal).</summary>
    public void WriteString(string propertyName, string? value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        if (value is null)
        {
            WriteNull(propertyName);
            return;
        }

        WriteString(propertyName, value.AsSpan());
    }

    /// <summary>Writes a property name and a string value.</summary>
    public void WriteString(string propertyName, ReadOnlySpan<char> value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        CheckTokenSize(value.Length);
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a property name and a UTF-8 string value.</summary>
    public void WriteString(string propertyName, ReadOnlySpan<byte> utf8Value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        CheckTokenSize(utf8Value.Length);
        WritePropertyName(propertyName);
        WriteStringValue(utf8Value);
    }

    /// <summary>Writes a property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(string propertyName, DateTime value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(string propertyName, DateTimeOffset value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a property name and a Guid string.</summary>
    public void WriteString(string propertyName, Guid value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, int value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, long value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, uint value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(string propertyName, ulong value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(string propertyName, float value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        CheckFinite(value);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(string propertyName, double value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        CheckFinite(value);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and a decimal number.</summary>
    public void WriteNumber(string propertyName, decimal value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and true or false.</summary>
    public void WriteBoolean(string propertyName, bool value)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        WritePropertyName(propertyName);
        WriteBooleanValue(value);
    }

    /// <summary>Writes a property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(string propertyName, ReadOnlySpan<byte> bytes)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        if (bytes.Length > MaxBase64Source)
                {
                    JsonThrow.TooLarge(bytes.Length);
                }
        WritePropertyName(propertyName);
        WriteBase64StringValue(bytes);
    }

    /// <summary>Writes a property name and null.</summary>
    public void WriteNull(string propertyName)
    {
        ArgumentNullException.ThrowIfNull(propertyName);
        WritePropertyName(propertyName);
        WriteNullValue();
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
        WritePropertyName(propertyName);
        WriteStringValue(value);
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

    /// <summary>Writes a property name and a string value.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, ReadOnlySpan<char> value)
    {
        CheckTokenSize(value.Length);
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a property name and a UTF-8 string value.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, ReadOnlySpan<byte> utf8Value)
    {
        CheckTokenSize(utf8Value.Length);
        WritePropertyName(propertyName);
        WriteStringValue(utf8Value);
    }

    /// <summary>Writes a property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, DateTime value)
    {
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, DateTimeOffset value)
    {
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a property name and a Guid string.</summary>
    public void WriteString(ReadOnlySpan<char> propertyName, Guid value)
    {
        WritePropertyName(propertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, int value)
    {
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, long value)
    {
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, uint value)
    {
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, ulong value)
    {
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, float value)
    {
        CheckFinite(value);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, double value)
    {
        CheckFinite(value);
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and a decimal number.</summary>
    public void WriteNumber(ReadOnlySpan<char> propertyName, decimal value)
    {
        WritePropertyName(propertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a property name and true or false.</summary>
    public void WriteBoolean(ReadOnlySpan<char> propertyName, bool value)
    {
        WritePropertyName(propertyName);
        WriteBooleanValue(value);
    }

    /// <summary>Writes a property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(ReadOnlySpan<char> propertyName, ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length > MaxBase64Source)
                {
                    JsonThrow.TooLarge(bytes.Length);
                }
        WritePropertyName(propertyName);
        WriteBase64StringValue(bytes);
    }

    /// <summary>Writes a property name and null.</summary>
    public void WriteNull(ReadOnlySpan<char> propertyName)
    {
        WritePropertyName(propertyName);
        WriteNullValue();
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
        WritePropertyName(utf8PropertyName);
        WriteStringValue(value);
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

    /// <summary>Writes a UTF-8 property name and a string value.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<char> value)
    {
        CheckTokenSize(value.Length);
        WritePropertyName(utf8PropertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a UTF-8 property name and a UTF-8 string value.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<byte> utf8Value)
    {
        CheckTokenSize(utf8Value.Length);
        WritePropertyName(utf8PropertyName);
        WriteStringValue(utf8Value);
    }

    /// <summary>Writes a UTF-8 property name and a DateTime as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, DateTime value)
    {
        WritePropertyName(utf8PropertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a UTF-8 property name and a DateTimeOffset as an ISO 8601 string.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, DateTimeOffset value)
    {
        WritePropertyName(utf8PropertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a UTF-8 property name and a Guid string.</summary>
    public void WriteString(ReadOnlySpan<byte> utf8PropertyName, Guid value)
    {
        WritePropertyName(utf8PropertyName);
        WriteStringValue(value);
    }

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, int value)
    {
        WritePropertyName(utf8PropertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, long value)
    {
        WritePropertyName(utf8PropertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, uint value)
    {
        WritePropertyName(utf8PropertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a UTF-8 property name and an integer.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, ulong value)
    {
        WritePropertyName(utf8PropertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a UTF-8 property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, float value)
    {
        CheckFinite(value);
        WritePropertyName(utf8PropertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a UTF-8 property name and a number (NaN and infinities are refused).</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, double value)
    {
        CheckFinite(value);
        WritePropertyName(utf8PropertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a UTF-8 property name and a decimal number.</summary>
    public void WriteNumber(ReadOnlySpan<byte> utf8PropertyName, decimal value)
    {
        WritePropertyName(utf8PropertyName);
        WriteNumberValue(value);
    }

    /// <summary>Writes a UTF-8 property name and true or false.</summary>
    public void WriteBoolean(ReadOnlySpan<byte> utf8PropertyName, bool value)
    {
        WritePropertyName(utf8PropertyName);
        WriteBooleanValue(value);
    }

    /// <summary>Writes a UTF-8 property name and bytes as a Base64 string.</summary>
    public void WriteBase64String(ReadOnlySpan<byte> utf8PropertyName, ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length > MaxBase64Source)
                {
                    JsonThrow.TooLarge(bytes.Length);
                }
        WritePropertyName(utf8PropertyName);
        WriteBase64StringValue(bytes);
    }

    /// <summary>Writes a UTF-8 property name and null.</summary>
    public void WriteNull(ReadOnlySpan<byte> utf8PropertyName)
    {
        WritePropertyName(utf8PropertyName);
        WriteNullValue();
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
