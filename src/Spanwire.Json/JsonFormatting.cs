using System.Diagnostics;
using System.Globalization;

namespace Spanwire.Json;

/// <summary>Stateless formatting of the values whose JSON form differs from their default text form.</summary>
/// <remarks>Dates are written here rather than by the BCL's "O" formatter and then trimmed, as Utf8JsonWriter does: it is the same text, in one pass.</remarks>
internal static class JsonFormatting
{
    // "O" writes yyyy-MM-ddTHH:mm:ss.fffffff then the zone; the fraction starts at index 19.
    private const int FractionStart = 19;
    private const int FractionEnd = 27;

    /// <summary>
    /// DateTime in the round-trip form with the seven-digit fraction trimmed of trailing zeros (dropped when all
    /// zero), then 'Z' for UTC. Written here from the ticks, in one pass; a local time's offset is the BCL's to work
    /// out, so that kind goes through its formatter.
    /// </summary>
    public static int WriteDateTime(Span<byte> destination, DateTime value)
    {
        DateTimeKind kind = value.Kind;
        if (kind == DateTimeKind.Local)
        {
            return WriteLocalDateTime(destination, value);
        }

        int n = WriteDateAndTime(destination, value);
        if (kind == DateTimeKind.Utc)
        {
            destination[n++] = (byte)'Z';
        }

        return n;
    }

    /// <summary>DateTimeOffset in the round-trip form with the fraction trimmed, as <see cref="WriteDateTime"/>, then the offset (+00:00 for UTC).</summary>
    public static int WriteDateTimeOffset(Span<byte> destination, DateTimeOffset value)
    {
        int n = WriteDateAndTime(destination, value.DateTime);
        int minutes = value.TotalOffsetMinutes;
        Span<byte> offset = destination.Slice(n, 6);
        offset[0] = minutes < 0 ? (byte)'-' : (byte)'+';
        minutes = Math.Abs(minutes);
        int hours = minutes / 60;
        IntegerFormatting.WritePair(offset, 1, hours);
        offset[3] = (byte)':';
        IntegerFormatting.WritePair(offset, 4, minutes - (hours * 60));
        return n + 6;
    }

    /// <summary>yyyy-MM-ddTHH:mm:ss, then .f to .fffffff when the fraction is not zero (trailing zeros trimmed).</summary>
    private static int WriteDateAndTime(Span<byte> destination, DateTime value)
    {
        value.Deconstruct(out int year, out int month, out int day);
        ulong timeOfDay = (ulong)(value.Ticks % TimeSpan.TicksPerDay);
        ulong seconds = timeOfDay / TimeSpan.TicksPerSecond;
        uint fraction = (uint)(timeOfDay - (seconds * TimeSpan.TicksPerSecond));
        uint hour = (uint)seconds / 3600;
        uint minuteAndSecond = (uint)seconds - (hour * 3600);
        uint minute = minuteAndSecond / 60;
        uint second = minuteAndSecond - (minute * 60);

        Span<byte> text = destination[..FractionEnd];
        int century = year / 100;
        IntegerFormatting.WritePair(text, 0, century);
        IntegerFormatting.WritePair(text, 2, year - (century * 100));
        text[4] = (byte)'-';
        IntegerFormatting.WritePair(text, 5, month);
        text[7] = (byte)'-';
        IntegerFormatting.WritePair(text, 8, day);
        text[10] = (byte)'T';
        IntegerFormatting.WritePair(text, 11, (int)hour);
        text[13] = (byte)':';
        IntegerFormatting.WritePair(text, 14, (int)minute);
        text[16] = (byte)':';
        IntegerFormatting.WritePair(text, 17, (int)second);
        if (fraction == 0)
        {
            return FractionStart;
        }

        // Seven digits less the trailing zeros, written from the last one back; the first pads with zeros.
        int end = FractionEnd;
        while (fraction % 10 == 0)
        {
            fraction /= 10;
            end--;
        }

        text[FractionStart] = (byte)'.';
        for (int at = end - 1; at > FractionStart; at--)
        {
            (fraction, uint digit) = Math.DivRem(fraction, 10u);
            text[at] = (byte)('0' + digit);
        }

        return end;
    }

    private static int WriteLocalDateTime(Span<byte> destination, DateTime value)
    {
        bool formatted = value.TryFormat(destination, out int written, "O", CultureInfo.InvariantCulture);
        Debug.Assert(formatted, "the caller reserved the longest round-trip date");
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
