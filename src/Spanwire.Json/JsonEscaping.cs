using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Encodings.Web;

namespace Spanwire.Json;

/// <summary>
/// Which characters an encoder escapes, and how: the stateless escaping layer of <see cref="JsonWriter"/>.
/// The ASCII characters left alone are read off the encoder itself once, into SearchValues, so the common
/// "nothing to escape" check is one vectorized scan. Escaping follows Utf8JsonWriter exactly: with no encoder,
/// ASCII characters are escaped by table until the first non-ASCII one and the rest goes through
/// JavaScriptEncoder.Default; with an encoder, everything from the first character to escape goes through it.
/// </summary>
internal sealed class JsonEscaping
{
    /// <summary>Most bytes or chars one input char or byte can become (\uXXXX).</summary>
    public const int MaxExpansion = 6;

    private static readonly ConditionalWeakTable<JavaScriptEncoder, JsonEscaping> s_byEncoder = [];

    public static readonly JsonEscaping Default = new(null);

    private readonly JavaScriptEncoder _encoder;
    private readonly bool _tablePath;
    private readonly bool _escapesAllNonAscii;
    private readonly SearchValues<byte> _allowedBytes;
    private readonly SearchValues<char> _allowedChars;

    private JsonEscaping(JavaScriptEncoder? encoder)
    {
        _tablePath = encoder is null;
        _encoder = encoder ?? JavaScriptEncoder.Default;
        var allowed = new List<byte>(128);
        for (int c = 0; c < 128; c++)
        {
            if (!_encoder.WillEncode(c))
            {
                allowed.Add((byte)c);
            }
        }

        _allowedBytes = SearchValues.Create(allowed.ToArray());
        _allowedChars = SearchValues.Create(Encoding.ASCII.GetString(allowed.ToArray()));
        // Only the default encoder is known to escape every non-ASCII scalar; any other is asked per scalar.
        _escapesAllNonAscii = ReferenceEquals(_encoder, JavaScriptEncoder.Default);
    }

    /// <summary>The escaping for an options' encoder (null is Utf8JsonWriter's default).</summary>
    public static JsonEscaping For(JavaScriptEncoder? encoder) =>
        encoder is null ? Default : s_byEncoder.GetValue(encoder, static e => new JsonEscaping(e));

    /// <summary>Index of the first char that must be escaped, or -1.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int FirstToEscape(ReadOnlySpan<char> value)
    {
        int i = value.IndexOfAnyExcept(_allowedChars);
        if (i < 0 || value[i] < 0x80 || _escapesAllNonAscii)
        {
            return i;
        }

        return FirstToEscapeNonAscii(value, i);
    }

    /// <summary>Index of the first byte that must be escaped (or is invalid UTF-8), or -1.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int FirstToEscape(ReadOnlySpan<byte> utf8Value)
    {
        int i = utf8Value.IndexOfAnyExcept(_allowedBytes);
        if (i < 0 || utf8Value[i] < 0x80 || _escapesAllNonAscii)
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
                if (!_allowedChars.Contains(c))
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

    /// <summary>Escapes <paramref name="value"/> from <paramref name="first"/> on into <paramref name="destination"/> (6 chars per input char).</summary>
    public int Escape(ReadOnlySpan<char> value, int first, Span<char> destination)
    {
        value[..first].CopyTo(destination);
        int written = first;
        int i = first;
        if (_tablePath)
        {
            for (; i < value.Length; i++)
            {
                char c = value[i];
                if (c >= 0x80)
                {
                    break;
                }

                written += _allowedChars.Contains(c) ? Copy(c, destination[written..]) : EscapeAscii(c, destination[written..]);
            }
        }

        if (i < value.Length)
        {
            _encoder.Encode(value[i..], destination[written..], out _, out int n);
            written += n;
        }

        return written;
    }

    /// <summary>Escapes UTF-8 <paramref name="value"/> from <paramref name="first"/> on into <paramref name="destination"/> (6 bytes per input byte).</summary>
    public int Escape(ReadOnlySpan<byte> value, int first, Span<byte> destination)
    {
        value[..first].CopyTo(destination);
        int written = first;
        int i = first;
        Span<char> escaped = stackalloc char[MaxExpansion];
        if (_tablePath)
        {
            for (; i < value.Length; i++)
            {
                byte b = value[i];
                if (b >= 0x80)
                {
                    break;
                }

                if (_allowedBytes.Contains(b))
                {
                    destination[written++] = b;
                }
                else
                {
                    int n = EscapeAscii((char)b, escaped);
                    for (int k = 0; k < n; k++)
                    {
                        destination[written++] = (byte)escaped[k];
                    }
                }
            }
        }

        if (i < value.Length)
        {
            _encoder.EncodeUtf8(value[i..], destination[written..], out _, out int n);
            written += n;
        }

        return written;
    }

    private static int Copy(char c, Span<char> destination)
    {
        destination[0] = c;
        return 1;
    }

    /// <summary>Utf8JsonWriter's own escapes for ASCII: short forms for the usual controls and backslash, \u0022 for the quote, \uXXXX (upper-case hex) otherwise.</summary>
    private static int EscapeAscii(char c, Span<char> destination)
    {
        destination[0] = '\\';
        char shortForm = c switch
        {
            '\n' => 'n',
            '\r' => 'r',
            '\t' => 't',
            '\\' => '\\',
            '\b' => 'b',
            '\f' => 'f',
            _ => '\0',
        };
        if (shortForm != '\0')
        {
            destination[1] = shortForm;
            return 2;
        }

        destination[1] = 'u';
        ((int)c).TryFormat(destination[2..], out _, "X4", System.Globalization.CultureInfo.InvariantCulture);
        return 6;
    }
}
