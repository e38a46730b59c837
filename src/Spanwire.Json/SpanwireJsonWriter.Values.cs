using System.Buffers.Text;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace Spanwire.Json;

// Values without a property name: strings, numbers, literals, Guid, dates, Base64.
public sealed partial class SpanwireJsonWriter
{
    private const int MaxBase64Source = 125_000_000; // Utf8JsonWriter's limit on bytes written as Base64

    /// <summary>Writes a string value, escaping it as the options' encoder requires; null writes the null literal.</summary>
    /// <param name="value">The value; escaped as the options' encoder requires.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteStringValue(string? value)
    {
        if (value is null)
        {
            WriteNullValue();
            return;
        }

        WriteStringValue(value.AsSpan());
    }

    /// <summary>Writes a string value, escaping it as the options' encoder requires.</summary>
    /// <param name="value">The value; escaped as the options' encoder requires.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteStringValue(ReadOnlySpan<char> value)
    {
        CheckTokenSize(value.Length);
        int first = _escaping.StartOfEscaping(value);
        if (first >= 0 && _w.End - _w.Pos < ValueRoom(TextCost(value.Length, first, 3) + 2))
        {
            WriteStringValueExact(value, first);
            return;
        }

        int p = BeginValue(TextCost(value.Length, first, 3) + 2);
        EndValue(WriteQuoted(_w.Buffer, p, value, first), JsonTokenType.String);
    }

    /// <summary>Writes a UTF-8 string value, escaping it as the options' encoder requires (invalid UTF-8 becomes \uFFFD).</summary>
    /// <param name="utf8Value">The value as UTF-8; escaped as the options' encoder requires.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteStringValue(ReadOnlySpan<byte> utf8Value)
    {
        CheckTokenSize(utf8Value.Length);
        int first = _escaping.StartOfEscaping(utf8Value);
        if (first >= 0 && _w.End - _w.Pos < ValueRoom(TextCost(utf8Value.Length, first, 1) + 2))
        {
            WriteStringValueExact(utf8Value, first);
            return;
        }

        int p = BeginValue(TextCost(utf8Value.Length, first, 1) + 2);
        EndValue(WriteQuoted(_w.Buffer, p, utf8Value, first), JsonTokenType.String);
    }

    /// <summary>
    /// A string value that may need escaping, where the room left is less than the most it could take: Utf8JsonWriter
    /// escapes the value first and asks for room by its escaped length, so that length is found first here too.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteStringValueExact<TUnit>(ReadOnlySpan<TUnit> value, int first)
        where TUnit : unmanaged
    {
        first = Scanned(value, first);
        if (first < 0)
        {
            int at = BeginValue(TextCost(value.Length, -1, typeof(TUnit) == typeof(char) ? 3 : 1) + 2);
            EndValue(typeof(TUnit) == typeof(char)
                ? WriteQuoted(_w.Buffer, at, MemoryMarshal.Cast<TUnit, char>(value), -1)
                : WriteQuoted(_w.Buffer, at, MemoryMarshal.Cast<TUnit, byte>(value), -1), JsonTokenType.String);
            return;
        }

        using EscapedText escaped = Escape(value, first);
        int p = BeginValue(escaped.Cost + 2);
        EndValue(WriteQuoted(_w.Buffer, p, escaped.Utf8, -1), JsonTokenType.String);
    }

    /// <summary>Writes a pre-encoded string value as it is.</summary>
    /// <param name="value">The pre-encoded value, written as it is.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteStringValue(JsonEncodedText value)
    {
        ReadOnlySpan<byte> encoded = value.EncodedUtf8Bytes;
        int p = BeginValue(encoded.Length + 2);
        EndValue(WriteQuoted(_w.Buffer, p, encoded, -1), JsonTokenType.String);
    }

    /// <summary>Writes an integer value.</summary>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteNumberValue(int value) => WriteNumberValue((long)value);

    /// <summary>Writes an integer value.</summary>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteNumberValue(uint value) => WriteNumberValue((ulong)value);

    /// <summary>Writes an integer value.</summary>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteNumberValue(long value)
    {
        int p = BeginValue(MaxInt64Length);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes an integer value.</summary>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteNumberValue(ulong value)
    {
        int p = BeginValue(MaxInt64Length);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a number in its shortest round-trip form.</summary>
    /// <exception cref="ArgumentException">The value is NaN or infinite.</exception>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    public void WriteNumberValue(double value)
    {
        CheckFinite(value);
        int p = BeginValue(MaxFloatingLength);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a number in its shortest round-trip form.</summary>
    /// <exception cref="ArgumentException">The value is NaN or infinite.</exception>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    public void WriteNumberValue(float value)
    {
        CheckFinite(value);
        int p = BeginValue(MaxFloatingLength);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes a decimal number (scale kept).</summary>
    /// <param name="value">The number, formatted as Utf8JsonWriter formats it.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteNumberValue(decimal value)
    {
        int p = BeginValue(MaxDecimalLength);
        EndValue(NumberAt(_w.Buffer, p, value), JsonTokenType.Number);
    }

    /// <summary>Writes true or false.</summary>
    /// <param name="value">The value: <c>true</c> or <c>false</c>.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteBooleanValue(bool value)
    {
        int p = BeginValue(value ? 4 : 5);
        EndValue(BooleanAt(_w.Buffer, p, value), value ? JsonTokenType.True : JsonTokenType.False);
    }

    /// <summary>Writes null.</summary>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteNullValue()
    {
        int p = BeginValue(4);
        EndValue(NullAt(_w.Buffer, p), JsonTokenType.Null);
    }

    /// <summary>Writes a Guid as a string in the "D" form (lower-case hex with hyphens).</summary>
    /// <param name="value">The Guid, written as a string in its "D" format.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteStringValue(Guid value)
    {
        int p = BeginValue(MaxGuidLength);
        EndValue(GuidAt(_w.Buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a DateTime as an ISO 8601-1:2019 string, as Utf8JsonWriter does (fraction trimmed of zeros).</summary>
    /// <param name="value">The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteStringValue(DateTime value)
    {
        int p = BeginValue(MaxDateLength);
        EndValue(DateTimeAt(_w.Buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes a DateTimeOffset as an ISO 8601-1:2019 string, as Utf8JsonWriter does (fraction trimmed of zeros).</summary>
    /// <param name="value">The date and time, written as an ISO 8601 string as Utf8JsonWriter writes it.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteStringValue(DateTimeOffset value)
    {
        int p = BeginValue(MaxDateLength);
        EndValue(DateTimeOffsetAt(_w.Buffer, p, value), JsonTokenType.String);
    }

    /// <summary>Writes bytes as a Base64 string.</summary>
    /// <param name="bytes">The bytes to write as Base64.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteBase64StringValue(ReadOnlySpan<byte> bytes)
    {
        CheckBase64Size(bytes.Length);
        int p = BeginValue(Base64.GetMaxEncodedToUtf8Length(bytes.Length) + 2);
        EndValue(Base64At(_w.Buffer, p, bytes), JsonTokenType.String);
    }

    // The most bytes each value form takes.
    private const int MaxInt64Length = 20;
    private const int MaxFloatingLength = 128;
    private const int MaxDecimalLength = 31;
    private const int MaxGuidLength = GuidFormatting.QuotedLength;
    private const int MaxDateLength = 35;

    // Each writes one value's bytes at p (room reserved by the caller) and returns where they end.
    private static int NumberAt(byte[] buffer, int p, long value) => IntegerFormatting.Write(buffer, p, value);

    private static int NumberAt(byte[] buffer, int p, ulong value) => IntegerFormatting.Write(buffer, p, value);

    private static int NumberAt(byte[] buffer, int p, double value)
    {
        bool formatted = value.TryFormat(buffer.AsSpan(p), out int n, default, CultureInfo.InvariantCulture);
        Debug.Assert(formatted, "the caller reserved the longest text of the type");
        return p + n;
    }

    private static int NumberAt(byte[] buffer, int p, float value)
    {
        bool formatted = value.TryFormat(buffer.AsSpan(p), out int n, default, CultureInfo.InvariantCulture);
        Debug.Assert(formatted, "the caller reserved the longest text of the type");
        return p + n;
    }

    private static int NumberAt(byte[] buffer, int p, decimal value)
    {
        bool formatted = Utf8Formatter.TryFormat(value, buffer.AsSpan(p), out int n);
        Debug.Assert(formatted, "the caller reserved the longest text of the type");
        return p + n;
    }

    private static int BooleanAt(byte[] buffer, int p, bool value)
    {
        ReadOnlySpan<byte> literal = value ? "true"u8 : "false"u8;
        literal.CopyTo(buffer.AsSpan(p));
        return p + literal.Length;
    }

    private static int NullAt(byte[] buffer, int p)
    {
        "null"u8.CopyTo(buffer.AsSpan(p));
        return p + 4;
    }

    private static int GuidAt(byte[] buffer, int p, Guid value) => GuidFormatting.WriteQuoted(buffer, p, value);

    private static int DateTimeAt(byte[] buffer, int p, DateTime value)
    {
        buffer[p++] = (byte)'"';
        p += JsonFormatting.WriteDateTime(buffer.AsSpan(p), value);
        buffer[p++] = (byte)'"';
        return p;
    }

    private static int DateTimeOffsetAt(byte[] buffer, int p, DateTimeOffset value)
    {
        buffer[p++] = (byte)'"';
        p += JsonFormatting.WriteDateTimeOffset(buffer.AsSpan(p), value);
        buffer[p++] = (byte)'"';
        return p;
    }

    private static int Base64At(byte[] buffer, int p, ReadOnlySpan<byte> bytes)
    {
        buffer[p++] = (byte)'"';
        Base64.EncodeToUtf8(bytes, buffer.AsSpan(p), out _, out int n);
        p += n;
        buffer[p++] = (byte)'"';
        return p;
    }

    private static void CheckBase64Size(int length)
    {
        if (length > MaxBase64Source)
        {
            JsonThrow.TooLarge(length);
        }
    }

    /// <summary>
    /// Writes a number given as its JSON text, exactly as given (formatted and indented as any value). A Spanwire
    /// addition to Utf8JsonWriter's members, for reformatting documents without changing their numbers.
    /// </summary>
    /// <exception cref="ArgumentException">The text is not a JSON number.</exception>
    /// <param name="utf8FormattedNumber">A JSON number, as UTF-8, written as it is after it is checked.</param>
    public void WriteNumberValue(ReadOnlySpan<byte> utf8FormattedNumber)
    {
        if (!JsonFormatting.IsJsonNumber(utf8FormattedNumber))
        {
            JsonThrow.Argument("The text is not a valid JSON number.");
        }

        int p = BeginValue(utf8FormattedNumber.Length);
        utf8FormattedNumber.CopyTo(_w.Buffer.AsSpan(p));
        EndValue(p + utf8FormattedNumber.Length, JsonTokenType.Number);
    }

    private static void CheckFinite(double value)
    {
        if (!double.IsFinite(value))
        {
            JsonThrow.NotFinite(value);
        }
    }
}
