using System.Numerics;
using System.Runtime.CompilerServices;

namespace Spanwire.Json;

/// <summary>
/// Decimal text of integers, two digits per step from a table, straight into the writer's buffer. The same text as
/// <c>Utf8Formatter.TryFormat</c> with the default format, which goes through a general formatting path per call.
/// </summary>
internal static class IntegerFormatting
{
    // "00" "01" ... "99".
    private static ReadOnlySpan<byte> TwoDigits =>
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"u8;

    /// <summary>Writes <paramref name="value"/> at <paramref name="p"/>; the caller has reserved 20 bytes there. Returns the end.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Write(byte[] buffer, int p, long value)
    {
        // Without a branch on the sign, which is as good as random in real data: the '-' is always stored (the
        // digits overwrite it when the value is not negative), the magnitude taken with the sign mask.
        buffer[p] = (byte)'-';
        long mask = value >> 63;
        ulong magnitude = (ulong)((value ^ mask) - mask); // long.MinValue comes out as 2^63, as it should
        return Write(buffer, p + (int)(mask & 1), magnitude);
    }

    /// <summary>Writes <paramref name="value"/> at <paramref name="p"/>; the caller has reserved 20 bytes there. Returns the end.</summary>
    public static int Write(byte[] buffer, int p, ulong value)
    {
        if (value <= uint.MaxValue)
        {
            return Write(buffer, p, (uint)value); // 32-bit steps are cheaper
        }

        // The low pairs in 64-bit steps until the rest fits 32 bits; that rest has 8 digits or more, so it fills the
        // front exactly.
        int end = p + CountDigits(value);
        Span<byte> digits = buffer.AsSpan(p, end - p);
        int at = digits.Length;
        while (value > uint.MaxValue)
        {
            (value, ulong pair) = Math.DivRem(value, 100);
            at -= 2;
            WritePair(digits, at, (int)pair);
        }

        Write(buffer, p, (uint)value);
        return end;
    }

    /// <summary>Writes <paramref name="value"/> at <paramref name="p"/>; the caller has reserved 10 bytes there. Returns the end.</summary>
    public static int Write(byte[] buffer, int p, uint value)
    {
        int end = p + CountDigits(value);
        // The caller reserved the room: one check here covers the stores below.
        Span<byte> digits = buffer.AsSpan(p, end - p);
        int at = digits.Length;
        while (value >= 100)
        {
            (value, uint pair) = Math.DivRem(value, 100u);
            at -= 2;
            WritePair(digits, at, (int)pair);
        }

        if (value >= 10)
        {
            WritePair(digits, 0, (int)value);
        }
        else
        {
            digits[0] = (byte)('0' + value);
        }

        return end;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WritePair(Span<byte> digits, int at, int pair)
    {
        ReadOnlySpan<byte> pairs = TwoDigits;
        digits[at] = pairs[pair * 2];
        digits[at + 1] = pairs[pair * 2 + 1];
    }

    /// <summary>Decimal digits of <paramref name="value"/> (1 for 0).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int CountDigits(ulong value)
    {
        // log10 from log2, then one comparison to correct it; "| 1" makes 0 count as one digit and changes no other
        // comparison, since every power of ten past 1 is even.
        int estimate = ((BitOperations.Log2(value) + 1) * 1233) >> 12;
        return estimate + 1 - ((value | 1) < PowersOf10[estimate] ? 1 : 0);
    }

    private static ReadOnlySpan<ulong> PowersOf10 =>
    [
        1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000, 10000000000, 100000000000,
        1000000000000, 10000000000000, 100000000000000, 1000000000000000, 10000000000000000, 100000000000000000,
        1000000000000000000, 10000000000000000000,
    ];
}
