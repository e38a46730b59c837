using System.Buffers;
using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Unicode;

namespace Spanwire.Json;

/// <summary>
/// Which characters an encoder escapes, and into what: the stateless escaping layer of <see cref="SpanwireJsonWriter"/>.
/// Everything is read off the encoder itself once: the ASCII characters it leaves alone (as SearchValues, so
/// "nothing to escape" is one vectorized scan) and the escape of every other ASCII character (packed into a ulong,
/// so escaping writes one 8-byte store per character). Non-ASCII: the default encoder escapes every UTF-16 unit as
/// \uXXXX and invalid ones as \uFFFD; any other encoder is asked per scalar. This is byte for byte what
/// Utf8JsonWriter writes (the differential tests hold it to that).
/// </summary>
/// <remarks>
/// Short text is not scanned before it is written: <see cref="Escape(ReadOnlySpan{char}, Span{byte})"/> checks
/// and copies 16 units per step (32 for UTF-16 where 256-bit vectors are fast) in one pass, UTF-16 narrowed with
/// saturation so that anything non-ASCII stops the step. That is what makes short strings cheaper than
/// Utf8JsonWriter's scan-then-transcode. Long text is scanned first, so that room is reserved for its escaped size
/// only when something needs escaping.
/// </remarks>
internal sealed class JsonEscaping
{
    /// <summary>Most bytes one input char, or one input byte, can become (\uXXXX), plus two bytes of slack for the 8-byte stores.</summary>
    public const int MaxExpansion = 6;

    /// <summary>Extra room escaping needs past its output for its 8-byte stores.</summary>
    public const int Slack = 2;

    /// <summary>Text up to this many units goes straight to <see cref="Escape(ReadOnlySpan{char}, Span{byte})"/>, unscanned.</summary>
    public const int UnscannedLength = 512;

    private static readonly ConditionalWeakTable<JavaScriptEncoder, JsonEscaping> s_byEncoder = [];

    public static readonly JsonEscaping Default = new(JavaScriptEncoder.Default);

    private readonly JavaScriptEncoder _encoder;
    private readonly bool _isDefault;
    private readonly SearchValues<byte> _allowedBytes;
    private readonly SearchValues<char> _allowedChars;

    // Per ASCII character: 0 when it is written as it is, else its escape in the low bytes and its length in the top byte.
    private readonly ulong[] _asciiEscapes = new ulong[128];

    // The ASCII characters left alone, as a nibble bitmap: entry (c & 15) has bit (c >> 4) set. Looked up 16 bytes
    // at a time with a shuffle; bytes of 0x80 and up index bits 8..15 of the other table, which are zero.
    private readonly Vector128<byte> _allowedByLowNibble;
    private static readonly Vector128<byte> s_bitOfHighNibble = Vector128.Create(1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, (byte)0);
    private static readonly Vector256<byte> s_bitOfHighNibble256 = Vector256.Create(s_bitOfHighNibble, s_bitOfHighNibble);

    private JsonEscaping(JavaScriptEncoder encoder)
    {
        _encoder = encoder;
        _isDefault = ReferenceEquals(encoder, JavaScriptEncoder.Default);
        var allowed = new List<byte>(128);
        Span<byte> bitmap = stackalloc byte[16];
        for (int c = 0; c < 128; c++)
        {
            if (!encoder.WillEncode(c))
            {
                allowed.Add((byte)c);
                bitmap[c & 15] |= (byte)(1 << (c >> 4));
                continue;
            }

            string escaped = encoder.Encode(((char)c).ToString());
            ulong packed = (ulong)escaped.Length << 56;
            for (int i = 0; i < escaped.Length; i++)
            {
                packed |= (ulong)(byte)escaped[i] << (8 * i);
            }

            _asciiEscapes[c] = packed;
        }

        _allowedByLowNibble = Vector128.Create<byte>(bitmap);
        _allowedBytes = SearchValues.Create(allowed.ToArray());
        _allowedChars = SearchValues.Create(Encoding.ASCII.GetString(allowed.ToArray()));
    }

    /// <summary>The escaping for an options' encoder (null is the default encoder, as in Utf8JsonWriter).</summary>
    public static JsonEscaping For(JavaScriptEncoder? encoder) =>
        encoder is null || ReferenceEquals(encoder, JavaScriptEncoder.Default)
            ? Default
            : s_byEncoder.GetValue(encoder, static e => new JsonEscaping(e));

    /// <summary>
    /// Where writing through <see cref="Escape(ReadOnlySpan{char}, Span{byte})"/> must start: 0 for short text
    /// (not scanned), else the first char that must be escaped, or -1 when none must.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int StartOfEscaping(ReadOnlySpan<char> value) => value.Length <= UnscannedLength ? 0 : FirstToEscape(value);

    /// <summary>As <see cref="StartOfEscaping(ReadOnlySpan{char})"/>, for UTF-8 text.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int StartOfEscaping(ReadOnlySpan<byte> utf8Value) => utf8Value.Length <= UnscannedLength ? 0 : FirstToEscape(utf8Value);

    /// <summary>Index of the first char that must be escaped, or -1.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int FirstToEscape(ReadOnlySpan<char> value)
    {
        int i = value.IndexOfAnyExcept(_allowedChars);
        if (i < 0 || value[i] < 0x80 || _isDefault)
        {
            return i;
        }

        return FirstToEscapeNonAscii(value, i);
    }

    /// <summary>Index of the first byte that must be escaped (or starts invalid UTF-8), or -1.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int FirstToEscape(ReadOnlySpan<byte> utf8Value)
    {
        int i = utf8Value.IndexOfAnyExcept(_allowedBytes);
        if (i < 0 || utf8Value[i] < 0x80 || _isDefault)
        {
            return i;
        }

        int rest = _encoder.FindFirstCharacterToEncodeUtf8(utf8Value[i..]);
        return rest < 0 ? -1 : i + rest;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private int FirstToEscapeNonAscii(ReadOnlySpan<char> value, int from)
    {
        while (from < value.Length)
        {
            char c = value[from];
            if (c < 0x80)
            {
                if (_asciiEscapes[c] != 0)
                {
                    return from;
                }

                from++;
                continue;
            }

            if (Rune.DecodeFromUtf16(value[from..], out Rune rune, out int consumed) != OperationStatus.Done ||
                _encoder.WillEncode(rune.Value))
            {
                return from;
            }

            from += consumed;
        }

        return -1;
    }

    /// <summary>
    /// Writes <paramref name="value"/> escaped, as UTF-8, into <paramref name="destination"/>, which must hold
    /// <see cref="MaxExpansion"/> bytes per char plus <see cref="Slack"/>. Returns the bytes written.
    /// </summary>
    public int Escape(ReadOnlySpan<char> value, Span<byte> destination) => EscapeUnits(value, destination);

    /// <summary>As <see cref="Escape(ReadOnlySpan{char}, Span{byte})"/>, for UTF-8 input; invalid UTF-8 becomes \uFFFD (or the encoder's replacement).</summary>
    public int Escape(ReadOnlySpan<byte> value, Span<byte> destination) => EscapeUnits(value, destination);

    /// <summary>
    /// Both Escape forms: <typeparamref name="TUnit"/> is char (UTF-16) or byte (UTF-8). The JIT compiles each form on
    /// its own, so the tests of <typeparamref name="TUnit"/> below cost nothing.
    /// </summary>
    /// <remarks>
    /// Never inlined: the writer's methods that reach it are themselves inlined into the public calls, and with this
    /// too the JIT ran out of inlining budget there and left the small vector helpers below as calls.
    /// </remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int EscapeUnits<TUnit>(ReadOnlySpan<TUnit> value, Span<byte> destination)
        where TUnit : unmanaged
    {
        ulong[] escapes = _asciiEscapes;
        int written = 0;
        int i = 0;
        while (true)
        {
            int copied = CopyAllowedAscii(value[i..], destination[written..]);
            i += copied;
            written += copied;
            if (i == value.Length)
            {
                return written;
            }

            // Escape this unit and any that follow it needing escapes too, then go back to copying.
            do
            {
                uint c = UnitAt(value, i);
                if (c < 0x80)
                {
                    ulong packed = escapes[c];
                    if (packed == 0)
                    {
                        break;
                    }

                    BinaryPrimitives.WriteUInt64LittleEndian(destination[written..], packed);
                    written += (int)(packed >> 56);
                    i++;
                    continue;
                }

                i += typeof(TUnit) == typeof(char)
                    ? EscapeNonAscii(MemoryMarshal.Cast<TUnit, char>(value[i..]), destination, ref written)
                    : EscapeNonAscii(MemoryMarshal.Cast<TUnit, byte>(value[i..]), destination, ref written);
            }
            while (i < value.Length);
        }
    }

    /// <summary>One non-ASCII scalar of UTF-16 input (or a lone surrogate). Returns chars consumed.</summary>
    private int EscapeNonAscii(ReadOnlySpan<char> value, Span<byte> destination, ref int written) => _isDefault
        ? EscapeNonAsciiDefault(value, destination, ref written)
        : EscapeNonAsciiByEncoder(value, destination, ref written);

    /// <summary>One non-ASCII scalar of UTF-8 input (or one invalid sequence). Returns bytes consumed.</summary>
    private int EscapeNonAscii(ReadOnlySpan<byte> value, Span<byte> destination, ref int written)
    {
        OperationStatus status = Rune.DecodeFromUtf8(value, out Rune rune, out int consumed);
        if (status != OperationStatus.Done)
        {
            // Invalid UTF-8: every encoder writes the replacement character, escaped.
            WriteUnicodeEscape('\uFFFD', destination, ref written);
            return consumed;
        }

        Span<char> chars = stackalloc char[2];
        int n = rune.EncodeToUtf16(chars);
        if (_isDefault)
        {
            EscapeNonAsciiDefault(chars[..n], destination, ref written);
        }
        else if (!_encoder.WillEncode(rune.Value))
        {
            value[..consumed].CopyTo(destination[written..]);
            written += consumed;
        }
        else
        {
            EncodeWithEncoder(chars[..n], destination, ref written);
        }

        return consumed;
    }

    /// <summary>
    /// Copies the leading units that are ASCII characters left alone (UTF-16 narrowed to bytes) and returns how many.
    /// May write up to 16 bytes past them (the room <see cref="Escape(ReadOnlySpan{char}, Span{byte})"/> is given
    /// covers it). Source and destination offsets are equal throughout, so a block may be stored again overlapping
    /// the one before it.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int CopyAllowedAscii<TUnit>(ReadOnlySpan<TUnit> value, Span<byte> destination)
        where TUnit : unmanaged
    {
        int length = value.Length;
        if (!Vector128.IsHardwareAccelerated || length < 4)
        {
            return CopyAllowedAsciiScalar(value, destination);
        }

        Vector128<byte> allowed = _allowedByLowNibble;
        if (length < 16)
        {
            // Two blocks, the second ending at the end: of 4 units below 8 (the names and short values most documents
            // are made of), else of 8.
            int block = length < 8 ? 4 : 8;
            uint mask = (1u << block) - 1;
            uint stops = Stops(CopyBlock(value[..block], destination), allowed) & mask;
            if (stops != 0)
            {
                return BitOperations.TrailingZeroCount(stops);
            }

            int last = length - block;
            stops = Stops(CopyBlock(value.Slice(last, block), destination[last..]), allowed) & mask;
            return stops == 0 ? length : last + BitOperations.TrailingZeroCount(stops);
        }

        return CopyAllowedAsciiLong(value, destination, allowed);
    }

    /// <summary><see cref="CopyAllowedAscii"/> for 16 units or more.</summary>
    private static int CopyAllowedAsciiLong<TUnit>(ReadOnlySpan<TUnit> value, Span<byte> destination, Vector128<byte> allowed)
        where TUnit : unmanaged
    {
        int length = value.Length;
        if (typeof(TUnit) == typeof(char) && Vector256.IsHardwareAccelerated && length >= 32)
        {
            return CopyAllowedAscii32(MemoryMarshal.Cast<TUnit, ushort>(value), destination, Vector256.Create(allowed, allowed));
        }

        int i = 0;
        while (true)
        {
            Vector128<byte> bytes = Load16(value, i);
            bytes.CopyTo(destination[i..]);
            uint stops = Stops(bytes, allowed);
            if (stops != 0)
            {
                return i + BitOperations.TrailingZeroCount(stops);
            }

            if (i == length - 16)
            {
                return length;
            }

            // The last block ends at the end, overlapping units already copied.
            i = Math.Min(i + 16, length - 16);
        }
    }

    /// <summary>The unit at <paramref name="i"/> as a number (char or byte, chosen when the JIT compiles the form).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint UnitAt<TUnit>(ReadOnlySpan<TUnit> value, int i)
        where TUnit : unmanaged
    {
        return typeof(TUnit) == typeof(char) ? MemoryMarshal.Cast<TUnit, char>(value)[i] : MemoryMarshal.Cast<TUnit, byte>(value)[i];
    }

    /// <summary>Sixteen units from <paramref name="at"/> as bytes; UTF-16 narrowed with saturation, so non-ASCII stays 0x80 or more.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<byte> Load16<TUnit>(ReadOnlySpan<TUnit> value, int at)
        where TUnit : unmanaged
    {
        if (typeof(TUnit) == typeof(char))
        {
            ReadOnlySpan<ushort> units = MemoryMarshal.Cast<TUnit, ushort>(value);
            return Vector128.NarrowWithSaturation(Vector128.Create(units.Slice(at, 8)), Vector128.Create(units.Slice(at + 8, 8)));
        }

        return Vector128.Create(MemoryMarshal.Cast<TUnit, byte>(value).Slice(at, 16));
    }

    /// <summary>Copies eight units, as bytes, to the front of <paramref name="destination"/>; returns them in a vector's low bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<byte> CopyEight<TUnit>(ReadOnlySpan<TUnit> units, Span<byte> destination)
        where TUnit : unmanaged
    {
        Vector128<byte> bytes;
        if (typeof(TUnit) == typeof(char))
        {
            Vector128<ushort> eight = Vector128.Create(MemoryMarshal.Cast<TUnit, ushort>(units)[..8]);
            bytes = Vector128.NarrowWithSaturation(eight, eight);
        }
        else
        {
            bytes = Vector128.CreateScalar(MemoryMarshal.Read<ulong>(MemoryMarshal.AsBytes(units[..8]))).AsByte();
        }

        MemoryMarshal.Write(destination, bytes.AsUInt64().ToScalar());
        return bytes;
    }

    /// <summary>Copies the 4 or 8 <paramref name="units"/>, as bytes, to the front of <paramref name="destination"/>; returns them in a vector's low bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<byte> CopyBlock<TUnit>(ReadOnlySpan<TUnit> units, Span<byte> destination)
        where TUnit : unmanaged =>
        units.Length == 4 ? CopyFour(units, destination) : CopyEight(units, destination);

    /// <summary>Copies four units, as bytes, to the front of <paramref name="destination"/>; returns them in a vector's low bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<byte> CopyFour<TUnit>(ReadOnlySpan<TUnit> units, Span<byte> destination)
        where TUnit : unmanaged
    {
        Vector128<byte> bytes;
        if (typeof(TUnit) == typeof(char))
        {
            Vector128<ushort> four = Vector128.CreateScalar(MemoryMarshal.Read<ulong>(MemoryMarshal.AsBytes(units[..4]))).AsUInt16();
            bytes = Vector128.NarrowWithSaturation(four, four);
        }
        else
        {
            bytes = Vector128.CreateScalar(MemoryMarshal.Read<uint>(MemoryMarshal.AsBytes(units[..4]))).AsByte();
        }

        MemoryMarshal.Write(destination, bytes.AsUInt32().ToScalar());
        return bytes;
    }

    /// <summary>The UTF-16 copy 32 units per step, for text of 32 units or more (the lookup tables repeated per 128-bit lane).</summary>
    private static int CopyAllowedAscii32(ReadOnlySpan<ushort> units, Span<byte> destination, Vector256<byte> allowed)
    {
        int length = units.Length;
        int i = 0;
        while (true)
        {
            Vector256<byte> bytes = Vector256.NarrowWithSaturation(
                Vector256.Create(units.Slice(i, 16)), Vector256.Create(units.Slice(i + 16, 16)));
            bytes.CopyTo(destination[i..]);
            Vector256<byte> low = bytes & Vector256.Create((byte)0x0F);
            Vector256<byte> high = Vector256.ShiftRightLogical(bytes, 4);
            Vector256<byte> hit = Vector256.ShuffleNative(allowed, low) & Vector256.ShuffleNative(s_bitOfHighNibble256, high);
            uint stops = Vector256.Equals(hit, Vector256<byte>.Zero).ExtractMostSignificantBits();
            if (stops != 0)
            {
                return i + BitOperations.TrailingZeroCount(stops);
            }

            if (i == length - 32)
            {
                return length;
            }

            i = Math.Min(i + 32, length - 32);
        }
    }

    private int CopyAllowedAsciiScalar<TUnit>(ReadOnlySpan<TUnit> value, Span<byte> destination)
        where TUnit : unmanaged
    {
        ulong[] escapes = _asciiEscapes;
        int i = 0;
        for (; i < value.Length; i++)
        {
            uint c = UnitAt(value, i);
            if (c >= 0x80 || escapes[c] != 0)
            {
                break;
            }

            destination[i] = (byte)c;
        }

        return i;
    }

    /// <summary>A bit per byte that is not an ASCII character left alone (0x80 and up never are).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint Stops(Vector128<byte> bytes, Vector128<byte> allowedByLowNibble)
    {
        Vector128<byte> low = bytes & Vector128.Create((byte)0x0F);
        Vector128<byte> high = Vector128.ShiftRightLogical(bytes, 4);
        Vector128<byte> hit = Vector128.ShuffleNative(allowedByLowNibble, low) & Vector128.ShuffleNative(s_bitOfHighNibble, high);
        return Vector128.Equals(hit, Vector128<byte>.Zero).ExtractMostSignificantBits();
    }

    /// <summary>The default encoder: each UTF-16 unit of a valid scalar as \uXXXX; a lone surrogate as \uFFFD. Returns chars consumed.</summary>
    private static int EscapeNonAsciiDefault(ReadOnlySpan<char> value, Span<byte> destination, ref int written)
    {
        char c = value[0];
        if (!char.IsSurrogate(c))
        {
            WriteUnicodeEscape(c, destination, ref written);
            return 1;
        }

        if (char.IsHighSurrogate(c) && value.Length > 1 && char.IsLowSurrogate(value[1]))
        {
            WriteUnicodeEscape(c, destination, ref written);
            WriteUnicodeEscape(value[1], destination, ref written);
            return 2;
        }

        WriteUnicodeEscape('\uFFFD', destination, ref written);
        return 1;
    }

    /// <summary>Any other encoder: a scalar it allows goes out as UTF-8, anything else as the encoder writes it. Returns chars consumed.</summary>
    private int EscapeNonAsciiByEncoder(ReadOnlySpan<char> value, Span<byte> destination, ref int written)
    {
        OperationStatus status = Rune.DecodeFromUtf16(value, out Rune rune, out int consumed);
        if (status != OperationStatus.Done)
        {
            WriteUnicodeEscape('\uFFFD', destination, ref written); // a lone surrogate, escaped replacement as every encoder writes it
            return consumed;
        }

        if (!_encoder.WillEncode(rune.Value))
        {
            written += rune.EncodeToUtf8(destination[written..]);
            return consumed;
        }

        EncodeWithEncoder(value[..consumed], destination, ref written);
        return consumed;
    }

    private void EncodeWithEncoder(ReadOnlySpan<char> scalar, Span<byte> destination, ref int written)
    {
        Span<char> escaped = stackalloc char[32];
        _encoder.Encode(scalar, escaped, out _, out int n);
        Utf8.FromUtf16(escaped[..n], destination[written..], out _, out int bytes);
        written += bytes;
    }

    private static void WriteUnicodeEscape(char c, Span<byte> destination, ref int written)
    {
        ReadOnlySpan<byte> hex = "0123456789ABCDEF"u8;
        Span<byte> d = destination.Slice(written, 6);
        d[0] = (byte)'\\';
        d[1] = (byte)'u';
        d[2] = hex[c >> 12];
        d[3] = hex[(c >> 8) & 0xF];
        d[4] = hex[(c >> 4) & 0xF];
        d[5] = hex[c & 0xF];
        written += 6;
    }
}
