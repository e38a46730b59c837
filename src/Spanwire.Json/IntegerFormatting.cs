using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace Spanwire.Json;

/// <summary>
/// Decimal text of integers, eight digits at a time in the lanes of one ulong and one store, straight into the
/// writer's buffer. The same text as <c>Utf8Formatter.TryFormat</c> with the default format, which goes through a
/// general formatting path per call.
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

        // Ten digits or more: the front (up to twelve digits, in one or two parts), then the last eight.
        (ulong front, ulong last8) = Math.DivRem(value, EightDigitLimit);
        int at;
        if (front < EightDigitLimit)
        {
            at = Write(buffer, p, (uint)front);
        }
        else
        {
            (ulong top, ulong middle8) = Math.DivRem(front, EightDigitLimit);
            at = Write(buffer, p, (uint)top);
            at = WriteEightDigits(buffer, at, (uint)middle8);
        }

        return WriteEightDigits(buffer, at, (uint)last8);
    }

    /// <summary>Writes <paramref name="value"/> at <paramref name="p"/>; the caller has reserved 10 bytes there. Returns the end.</summary>
    public static int Write(byte[] buffer, int p, uint value)
    {
        if (value < 10_000)
        {
            // Up to four digits, the commonest integers: two pairs from the table, one store. One division where the
            // eight-digit lanes below take five dependent multiplies.
            uint high = value / 100;
            uint four = DigitPair(high) | (DigitPair(value - (high * 100)) << 16);
            // Three compares, not CountDigits: its table load sits on the store's critical path (0.99 instead of 0.87 of
            // Utf8JsonWriter on ten-integer arrays).
            int count = 1 + (value >= 10 ? 1 : 0) + (value >= 100 ? 1 : 0) + (value >= 1000 ? 1 : 0);
            BinaryPrimitives.WriteUInt32LittleEndian(buffer.AsSpan(p), four >> (8 * (4 - count)));
            return p + count;
        }

        if (value < EightDigitLimit)
        {
            // All eight digits at once with leading zeros, shifted out: the text is the low bytes of one store.
            int digits = CountDigits(value);
            BinaryPrimitives.WriteUInt64LittleEndian(buffer.AsSpan(p), EightDigitsAscii(value) >> (8 * (8 - digits)));
            return p + digits;
        }

        uint front = value / EightDigitLimit; // 1..42
        if (front >= 10)
        {
            WritePair(buffer.AsSpan(p, 2), 0, (int)front);
            p += 2;
        }
        else
        {
            buffer[p++] = (byte)('0' + front);
        }

        return WriteEightDigits(buffer, p, value - (front * EightDigitLimit));
    }

    private const uint EightDigitLimit = 100_000_000;

    private static int WriteEightDigits(byte[] buffer, int p, uint value)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(buffer.AsSpan(p), EightDigitsAscii(value));
        return p + 8;
    }

    /// <summary>
    /// The eight decimal digits of <paramref name="value"/> (below 10^8, leading zeros kept) as ASCII, first digit in
    /// the low byte. Worked in lanes of one ulong: two halves of four digits, then four pairs, then eight digits; each
    /// division by 100 or 10 a multiply and shift, exact for the ranges the lanes hold.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong EightDigitsAscii(uint value)
    {
        uint high4 = value / 10_000;
        ulong halves = high4 | ((ulong)(value - (high4 * 10_000)) << 32);    // 32-bit lanes, each < 10^4
        ulong hundreds = ((halves * 10_486) >> 20) & 0x0000_007F_0000_007F;  // lane / 100
        ulong pairs = ((halves - (hundreds * 100)) << 16) + hundreds;         // 16-bit lanes, each < 100
        ulong tens = ((pairs * 103) >> 10) & 0x000F_000F_000F_000F;          // lane / 10
        ulong digits = tens + ((pairs - (tens * 10)) << 8);                   // 8-bit lanes, each < 10
        return digits + 0x3030_3030_3030_3030;
    }

    /// <summary>The two ASCII digits of <paramref name="pair"/> (0..99), the first in the low byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint DigitPair(uint pair) => BinaryPrimitives.ReadUInt16LittleEndian(TwoDigits.Slice((int)pair * 2, 2));

    /// <summary>Writes <paramref name="pair"/> (0..99) as two digits at <paramref name="at"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void WritePair(Span<byte> digits, int at, int pair)
    {
        ReadOnlySpan<byte> pairs = TwoDigits;
        digits[at] = pairs[pair * 2];
        digits[at + 1] = pairs[pair * 2 + 1];
    }

    /// <summary>Decimal digits of <paramref name="value"/> (1 for 0).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int CountDigits(ulong value)
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
