using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Unicode;

namespace Spanwire.Json;

/// <summary>
/// Which characters an encoder escapes, and into what: the stateless escaping layer of <see cref="JsonWriter"/>.
/// Everything is read off the encoder itself once: the ASCII characters it leaves alone (as SearchValues, so
/// "nothing to escape" is one vectorized scan) and the escape of every other ASCII character (packed into a ulong,
/// so escaping writes one 8-byte store per character). Non-ASCII: the default encoder escapes every UTF-16 unit as
/// \uXXXX and invalid ones as \uFFFD; any other encoder is asked per scalar. This is byte for byte what
/// Utf8JsonWriter writes (the differential tests hold it to that).
/// </summary>
internal sealed class JsonEscaping
{
    /// <summary>Most bytes one input char, or one input byte, can become (\uXXXX), plus two bytes of slack for the 8-byte stores.</summary>
    public const int MaxExpansion = 6;

    /// <summary>Extra room escaping needs past its output for its 8-byte stores.</summary>
    public const int Slack = 2;

    private static readonly ConditionalWeakTable<JavaScriptEncoder, JsonEscaping> s_byEncoder = [];

    public static readonly JsonEscaping Default = new(JavaScriptEncoder.Default);

    private readonly JavaScriptEncoder _encoder;
    private readonly bool _isDefault;
    private readonly SearchValues<byte> _allowedBytes;
    private readonly SearchValues<char> _allowedChars;

    // Per ASCII character: 0 when it is written as it is, else its escape in the low bytes and its length in the top byte.
    private readonly ulong[] _asciiEscapes = new ulong[128];

    private JsonEscaping(JavaScriptEncoder encoder)
    {
        _encoder = encoder;
        _isDefault = ReferenceEquals(encoder, JavaScriptEncoder.Default);
        var allowed = new List<byte>(128);
        for (int c = 0; c < 128; c++)
        {
            if (!encoder.WillEncode(c))
            {
                allowed.Add((byte)c);
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

        _allowedBytes = SearchValues.Create(allowed.ToArray());
        _allowedChars = SearchValues.Create(Encoding.ASCII.GetString(allowed.ToArray()));
    }

    /// <summary>The escaping for an options' encoder (null is the default encoder, as in Utf8JsonWriter).</summary>
    public static JsonEscaping For(JavaScriptEncoder? encoder) =>
        encoder is null || ReferenceEquals(encoder, JavaScriptEncoder.Default)
            ? Default
            : s_byEncoder.GetValue(encoder, static e => new JsonEscaping(e));

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
    public int Escape(ReadOnlySpan<char> value, Span<byte> destination)
    {
        ulong[] escapes = _asciiEscapes;
        int written = 0;
        int i = 0;
        while (i < value.Length)
        {
            char c = value[i];
            if (c < 0x80)
            {
                ulong packed = escapes[c];
                if (packed == 0)
                {
                    destination[written++] = (byte)c;
                }
                else
                {
                    BinaryPrimitives.WriteUInt64LittleEndian(destination[written..], packed);
                    written += (int)(packed >> 56);
                }

                i++;
                continue;
            }

            i += _isDefault
                ? EscapeNonAsciiDefault(value[i..], destination, ref written)
                : EscapeNonAsciiByEncoder(value[i..], destination, ref written);
        }

        return written;
    }

    /// <summary>As <see cref="Escape(ReadOnlySpan{char}, Span{byte})"/>, for UTF-8 input; invalid UTF-8 becomes \uFFFD (or the encoder's replacement).</summary>
    public int Escape(ReadOnlySpan<byte> value, Span<byte> destination)
    {
        ulong[] escapes = _asciiEscapes;
        int written = 0;
        int i = 0;
        Span<char> chars = stackalloc char[2];
        while (i < value.Length)
        {
            byte b = value[i];
            if (b < 0x80)
            {
                ulong packed = escapes[b];
                if (packed == 0)
                {
                    destination[written++] = b;
                }
                else
                {
                    BinaryPrimitives.WriteUInt64LittleEndian(destination[written..], packed);
                    written += (int)(packed >> 56);
                }

                i++;
                continue;
            }

            OperationStatus status = Rune.DecodeFromUtf8(value[i..], out Rune rune, out int consumed);
            if (status != OperationStatus.Done)
            {
                // Invalid UTF-8: every encoder writes the replacement character, escaped.
                WriteUnicodeEscape('\uFFFD', destination, ref written);
                i += consumed;
                continue;
            }

            int n = rune.EncodeToUtf16(chars);
            if (_isDefault)
            {
                EscapeNonAsciiDefault(chars[..n], destination, ref written);
            }
            else if (!_encoder.WillEncode(rune.Value))
            {
                value.Slice(i, consumed).CopyTo(destination[written..]);
                written += consumed;
            }
            else
            {
                EncodeWithEncoder(chars[..n], destination, ref written);
            }

            i += consumed;
        }

        return written;
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
