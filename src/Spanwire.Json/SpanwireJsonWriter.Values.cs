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
    public void WriteStringValue(ReadOnlySpan<char> value) => WriteStringText(value);

    /// <summary>Writes a UTF-8 string value, escaping it as the options' encoder requires (invalid UTF-8 becomes \uFFFD).</summary>
    /// <param name="utf8Value">The value as UTF-8; escaped as the options' encoder requires.</param>
    /// <include file="SpanwireJsonWriter.docs.xml" path="docs/invalid-call/*"/>
    public void WriteStringValue(ReadOnlySpan<byte> utf8Value) => WriteStringText(utf8Value);

    /// <summary>A string value as UTF-16 or UTF-8 text (each compiled apart: the unit type is known to the JIT).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteStringText<TUnit>(ReadOnlySpan<TUnit> value)
        where TUnit : unmanaged
    {
        CheckTokenSize(value.Length);
        int first = StartOfEscaping(value);
        if (first >= 0 && _w.End - _w.Pos < ValueRoom(TextCost(value.Length, first, UnitCost<TUnit>()) + 2))
        {
            WriteStringValueExact(value, first);
            return;
        }

        int p = BeginValue(TextCost(value.Length, first, UnitCost<TUnit>()) + 2);
        EndValue(WriteQuotedText(_w.Buffer, p, value, first), JsonTokenType.String);
    }

    /// <summary>Where escaping starts in UTF-16 or UTF-8 text: see <see cref="JsonEscaping.StartOfEscaping(ReadOnlySpan{char})"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int StartOfEscaping<TUnit>(ReadOnlySpan<TUnit> value)
        where TUnit : unmanaged => typeof(TUnit) == typeof(char)
            ? _escaping.StartOfEscaping(MemoryMarshal.Cast<TUnit, char>(value))
            : _escaping.StartOfEscaping(MemoryMarshal.Cast<TUnit, byte>(value));

    /// <summary>The most UTF-8 bytes one unit of the text may take before escaping: 3 for UTF-16, 1 for UTF-8.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int UnitCost<TUnit>()
        where TUnit : unmanaged => typeof(TUnit) == typeof(char) ? 3 : 1;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int WriteQuotedText<TUnit>(byte[] buffer, int p, ReadOnlySpan<TUnit> value, int first)
        where TUnit : unmanaged => typeof(TUnit) == typeof(char)
            ? WriteQuoted(buffer, p, MemoryMarshal.Cast<TUnit, char>(value), first)
            : WriteQuoted(buffer, p, MemoryMarshal.Cast<TUnit, byte>(value), first);

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
            int at = BeginValue(TextCost(value.Length, -1, UnitCost<TUnit>()) + 2);
            EndValue(WriteQuotedText(_w.Buffer, at, value, -1), JsonTokenType.String);
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

    // The most bytes each value form takes.
    private const int MaxInt64Length = 20;
    private const int MaxFloatingLength = 128;
    private const int MaxDecimalLength = 31;
    private const int MaxGuidLength = GuidFormatting.QuotedLength;
    private const int MaxDateLength = 35;

    // Each writes one value's bytes at p (room reserved by the caller) and returns where they end.
    private static int NumberAt(byte[] buffer, int p, long value) => IntegerFormatting.Write(buffer, p, value);

    private static int NumberAt(byte[] buffer, int p, ulong value) => IntegerFormatting.Write(buffer, p, value);

    private static int NumberAt(byte[] buffer, int p, double value) => FloatingPointFormatting.Write(buffer, p, value);

    private static int NumberAt(byte[] buffer, int p, float value) => FloatingPointFormatting.Write(buffer, p, value);

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
