using System.Globalization;

namespace Spanwire.Json;

/// <summary>Stateless formatting of the values whose JSON form differs from their default text form.</summary>
internal static class JsonFormatting
{
    // "O" writes yyyy-MM-ddTHH:mm:ss.fffffff then the zone; the fraction starts at index 19.
    private const int FractionStart = 19;
    private const int FractionEnd = 27;

    /// <summary>DateTime in the round-trip form with the seven-digit fraction trimmed of trailing zeros (dropped when all zero).</summary>
    public static int WriteDateTime(Span<byte> destination, DateTime value)
    {
        value.TryFormat(destination, out int written, "O", CultureInfo.InvariantCulture);
        return TrimFraction(destination, written);
    }

    /// <summary>DateTimeOffset in the round-trip form with the fraction trimmed, as <see cref="WriteDateTime"/>.</summary>
    public static int WriteDateTimeOffset(Span<byte> destination, DateTimeOffset value)
    {
        value.TryFormat(destination, out int written, "O", CultureInfo.InvariantCulture);
        return TrimFraction(destination, written);
    }

    private static int TrimFraction(Span<byte> text, int length)
    {
        int keep = FractionEnd;
        while (keep > FractionStart + 1 && text[keep - 1] == (byte)'0')
        {
            keep--;
        }

        if (keep == FractionStart + 1)
        {
            keep = FractionStart; // no fraction at all: drop the '.'
        }

        if (keep == FractionEnd)
        {
            return length;
        }

        text[FractionEnd..length].CopyTo(text[keep..]);
        return length - (FractionEnd - keep);
    }

    /// <summary>Whether the text is a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?</summary>
    public static bool IsJsonNumber(ReadOnlySpan<byte> text)
    {
        int i = 0;
        if (i < text.Length && text[i] == (byte)'-')
        {
            i++;
        }

        if (i < text.Length && text[i] == (byte)'0')
        {
            i++;
        }
        else if (!Digits(text, ref i))
        {
            return false;
        }

        if (i < text.Length && text[i] == (byte)'.')
        {
            i++;
            if (!Digits(text, ref i))
            {
                return false;
            }
        }

        if (i < text.Length && (text[i] | 0x20) == (byte)'e')
        {
            i++;
            if (i < text.Length && text[i] is (byte)'+' or (byte)'-')
            {
                i++;
            }

            if (!Digits(text, ref i))
            {
                return false;
            }
        }

        return i == text.Length;
    }

    private static bool Digits(ReadOnlySpan<byte> text, ref int i)
    {
        int start = i;
        while (i < text.Length && char.IsAsciiDigit((char)text[i]))
        {
            i++;
        }

        return i > start;
    }
}
