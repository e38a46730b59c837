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
}
