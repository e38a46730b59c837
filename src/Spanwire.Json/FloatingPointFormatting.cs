using System.Numerics;
using System.Runtime.CompilerServices;

namespace Spanwire.Json;

/// <summary>
/// The text Utf8JsonWriter gives a finite double or float: the shortest digits that read back as the same value (the
/// nearest of them when several are as short), laid out as <c>ToString()</c> lays them out: plain digits while the
/// decimal point falls within 17 digits of the first (9 for a float) and no more than three zeros follow it, else one
/// digit, a point, the rest and <c>E+dd</c> or <c>E-dd</c>; <c>-0</c> for negative zero.
/// </summary>
/// <remarks>
/// The digits come from the Ryū method (Ulf Adams, PLDI 2018): the value and the two midpoints to its neighbours are
/// scaled by one 128-bit power of five into 64-bit integers, and digits are dropped while the neighbours' midpoints
/// still differ. The runtime's formatter (Grisu, then Dragon4 when Grisu cannot decide) fills a digit buffer and lays
/// it out through the culture-aware general path; this writes the bytes in one pass.
/// </remarks>
internal static class FloatingPointFormatting
{
    /// <summary>The longest text: <c>-1.2345678901234567E-308</c> (a float's is shorter).</summary>
    public const int MaxLength = 24;

    private const int DoubleMantissaBits = 52;
    private const int DoubleExponentBias = 1023;
    private const int DoubleMaxDigits = 17; // the runtime's layout turns to an exponent past this many digits before the point
    private const int SingleMantissaBits = 23;
    private const int SingleExponentBias = 127;
    private const int SingleMaxDigits = 9;

    // Bits kept of each power of five and of each inverse power of five in the tables.
    private const int Pow5Bits = 125;
    private const int Pow5InverseBits = 125;

    // 5^i for i < 326 (the most a subnormal needs) and 2^k / 5^i for i < 342 (the most 2^1023 needs), each as a
    // 128-bit fixed-point number with its top bit at Pow5Bits - 1: low half at [2i], high half at [2i + 1]. Built once
    // from exact big-integer arithmetic rather than carried as a literal table.
    private static readonly ulong[] s_pow5 = BuildPow5(326);
    private static readonly ulong[] s_pow5Inverse = BuildPow5Inverse(342);

    /// <summary>Writes the text of a finite <paramref name="value"/> at <paramref name="p"/> (the caller has reserved <see cref="MaxLength"/> bytes there) and returns where it ends.</summary>
    public static int Write(byte[] buffer, int p, double value)
    {
        ulong bits = BitConverter.DoubleToUInt64Bits(value);
        ulong mantissa = bits & ((1UL << DoubleMantissaBits) - 1);
        int exponent = (int)(bits >> DoubleMantissaBits) & 0x7FF;
        if (mantissa == 0 && (exponent == 65 || exponent == 998))
        {
            // The runtime writes these two powers of two (2^-958 and 2^-25) with the digits of the double just below,
            // text that reads back as that double; Utf8JsonWriter writes what the runtime gives, so these do too.
            // The tests check every power of two against Utf8JsonWriter, so a runtime that changes this is noticed.
            mantissa = (1UL << DoubleMantissaBits) - 1;
            exponent--;
        }

        return Write(buffer, p, (long)bits < 0, mantissa, exponent, DoubleMantissaBits, DoubleExponentBias, DoubleMaxDigits);
    }

    /// <summary>Writes the text of a finite <paramref name="value"/>, as float.ToString() gives it (9 significant digits at most), at <paramref name="p"/> (the caller has reserved <see cref="MaxLength"/> bytes there) and returns where it ends.</summary>
    public static int Write(byte[] buffer, int p, float value)
    {
        uint bits = BitConverter.SingleToUInt32Bits(value);
        return Write(buffer, p, (int)bits < 0, bits & ((1u << SingleMantissaBits) - 1), (int)(bits >> SingleMantissaBits) & 0xFF,
            SingleMantissaBits, SingleExponentBias, SingleMaxDigits);
    }

    /// <summary>The text of a finite binary floating-point value given by its fields: the sign, then 0 or the shortest digits laid out.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int Write(byte[] buffer, int p, bool negative, ulong mantissa, int exponent, int mantissaBits, int bias, int maxDigits)
    {
        if (negative)
        {
            buffer[p++] = (byte)'-';
        }

        if ((mantissa | (uint)exponent) == 0)
        {
            buffer[p] = (byte)'0';
            return p + 1;
        }

        // The value is m2 × 2^e2.
        ulong m2;
        int e2;
        if (exponent == 0)
        {
            m2 = mantissa;
            e2 = 1 - bias - mantissaBits;
        }
        else
        {
            m2 = (1UL << mantissaBits) | mantissa;
            e2 = exponent - bias - mantissaBits;
        }

        if (!TrySmallInteger(m2, e2, mantissaBits, out ulong digits, out int exponent10))
        {
            // The gap below is half as wide at a power of two (the neighbour below has the smaller exponent).
            bool halfGapBelow = mantissa == 0 && exponent > 1;
            digits = Shortest(m2, e2, halfGapBelow, out exponent10);
        }

        return Layout(buffer, p, digits, exponent10, maxDigits);
    }

    /// <summary>
    /// A whole number below 2^(mantissa bits + 1) is its own shortest text: its digits without the trailing zeros,
    /// which become the exponent. The commonest numbers in documents are such numbers, and this skips the scaling.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TrySmallInteger(ulong m2, int e2, int mantissaBits, out ulong digits, out int exponent10)
    {
        int shift = -e2;
        if ((uint)shift > (uint)mantissaBits || (m2 & ((1UL << shift) - 1)) != 0)
        {
            digits = 0;
            exponent10 = 0;
            return false;
        }

        digits = m2 >> shift;
        exponent10 = 0;
        while (true)
        {
            (ulong quotient, ulong remainder) = Math.DivRem(digits, 10);
            if (remainder != 0)
            {
                return true;
            }

            digits = quotient;
            exponent10++;
        }
    }

    /// <summary>
    /// The shortest digits of m2 × 2^e2 (nonzero) and their power of ten (the value is about <c>digits × 10^exponent10</c>).
    /// The tables' precision covers a double's 53-bit m2, and so a float's 24 bits as well.
    /// </summary>
    private static ulong Shortest(ulong m2, int e2, bool halfGapBelow, out int exponent10)
    {
        // Two more bits of e2 make room for the midpoints to the neighbours at 4·m2 ± 2.
        e2 -= 2;

        // Round-to-even readers take a midpoint to the even mantissa, so for an even one the midpoints belong to it.
        bool acceptBounds = (m2 & 1) == 0;
        ulong mv = 4 * m2;

        uint mmShift = halfGapBelow ? 0u : 1u;

        ulong vr, vp, vm;
        bool vmIsTrailingZeros = false, vrIsTrailingZeros = false;
        if (e2 >= 0)
        {
            int q = Log10Pow2(e2) - (e2 > 3 ? 1 : 0);
            exponent10 = q;
            int k = Pow5InverseBits + Pow5BitLength(q) - 1;
            int i = -e2 + q + k;
            vr = MulShiftAll(m2, s_pow5Inverse, q, i, mmShift, out vp, out vm);
            if (q <= 21)
            {
                // Only here can the scaled values be exact, which the rounding below must know.
                if (mv % 5 == 0)
                {
                    vrIsTrailingZeros = IsMultipleOfPowerOf5(mv, q);
                }
                else if (acceptBounds)
                {
                    vmIsTrailingZeros = IsMultipleOfPowerOf5(mv - 1 - mmShift, q);
                }
                else if (IsMultipleOfPowerOf5(mv + 2, q))
                {
                    vp--;
                }
            }
        }
        else
        {
            int q = Log10Pow5(-e2) - (-e2 > 1 ? 1 : 0);
            exponent10 = q + e2;
            int i = -e2 - q;
            int k = Pow5BitLength(i) - Pow5Bits;
            int j = q - k;
            vr = MulShiftAll(m2, s_pow5, i, j, mmShift, out vp, out vm);
            if (q <= 1)
            {
                // mv has at least q trailing zero bits, so vr is exact; vp is too, and vm when mmShift is 1.
                vrIsTrailingZeros = true;
                if (acceptBounds)
                {
                    vmIsTrailingZeros = mmShift == 1;
                }
                else
                {
                    vp--;
                }
            }
            else if (q < 63)
            {
                vrIsTrailingZeros = (mv & ((1UL << q) - 1)) == 0;
            }
        }

        int removed = 0;
        ulong output;
        if (vmIsTrailingZeros || vrIsTrailingZeros)
        {
            // Exact values at the bounds (rare): the dropped digits decide the tie and whether vm itself is allowed.
            int lastRemovedDigit = 0;
            while (vp / 10 > vm / 10)
            {
                vmIsTrailingZeros &= vm % 10 == 0;
                vrIsTrailingZeros &= lastRemovedDigit == 0;
                (vr, ulong digit) = Math.DivRem(vr, 10);
                lastRemovedDigit = (int)digit;
                vp /= 10;
                vm /= 10;
                removed++;
            }

            if (vmIsTrailingZeros)
            {
                while (vm % 10 == 0)
                {
                    vrIsTrailingZeros &= lastRemovedDigit == 0;
                    (vr, ulong digit) = Math.DivRem(vr, 10);
                    lastRemovedDigit = (int)digit;
                    vp /= 10;
                    vm /= 10;
                    removed++;
                }
            }

            if (vrIsTrailingZeros && lastRemovedDigit == 5 && vr % 2 == 0)
            {
                lastRemovedDigit = 4; // exactly halfway: round to even
            }

            bool up = (vr == vm && (!acceptBounds || !vmIsTrailingZeros)) || lastRemovedDigit >= 5;
            output = vr + (up ? 1UL : 0);
        }
        else
        {
            // The common case: no exact bounds, the nearest digits by the last digit dropped.
            bool roundUp = false;
            if (vp / 100 > vm / 100)
            {
                (vr, ulong lastTwo) = Math.DivRem(vr, 100);
                roundUp = lastTwo >= 50;
                vp /= 100;
                vm /= 100;
                removed += 2;
            }

            while (vp / 10 > vm / 10)
            {
                (vr, ulong digit) = Math.DivRem(vr, 10);
                roundUp = digit >= 5;
                vp /= 10;
                vm /= 10;
                removed++;
            }

            output = vr + (vr == vm || roundUp ? 1UL : 0);
        }

        exponent10 += removed;
        return output;
    }

    /// <summary>
    /// Lays out <paramref name="digits"/> × 10^<paramref name="exponent10"/> as <c>double.ToString()</c> and
    /// <c>float.ToString()</c> do (their general format, plain up to <paramref name="maxDigits"/> digits before the
    /// point), returning the end.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int Layout(byte[] buffer, int p, ulong digits, int exponent10, int maxDigits)
    {
        int length = IntegerFormatting.CountDigits(digits);
        int point = length + exponent10; // digits before the decimal point; 0 or less: zeros after it
        if ((uint)(point + 3) <= (uint)(maxDigits + 3))
        {
            if (point >= length)
            {
                // A whole number: the digits, then zeros.
                int end = IntegerFormatting.Write(buffer, p, digits);
                buffer.AsSpan(end, point - length).Fill((byte)'0');
                return p + point;
            }

            if (point > 0)
            {
                // The digits written one place on, then the whole part moved back over the place for the point.
                int end = IntegerFormatting.Write(buffer, p + 1, digits);
                buffer.AsSpan(p + 1, point).CopyTo(buffer.AsSpan(p));
                buffer[p + point] = (byte)'.';
                return end;
            }

            // 0.ddd to 0.000ddd.
            buffer.AsSpan(p, 2 - point).Fill((byte)'0');
            buffer[p + 1] = (byte)'.';
            return IntegerFormatting.Write(buffer, p + 2 - point, digits);
        }

        // d.dddE+dd: the digits written one place on, the first moved back over the place for the point.
        int at = IntegerFormatting.Write(buffer, p + 1, digits);
        buffer[p] = buffer[p + 1];
        if (length > 1)
        {
            buffer[p + 1] = (byte)'.';
        }
        else
        {
            at = p + 1;
        }

        int e = point - 1;
        buffer[at] = (byte)'E';
        buffer[at + 1] = e < 0 ? (byte)'-' : (byte)'+';
        at += 2;
        e = Math.Abs(e);
        if (e >= 100)
        {
            (int hundreds, e) = Math.DivRem(e, 100);
            buffer[at++] = (byte)('0' + hundreds);
        }

        (int tens, int ones) = Math.DivRem(e, 10);
        buffer[at] = (byte)('0' + tens);
        buffer[at + 1] = (byte)('0' + ones);
        return at + 2;
    }

    /// <summary>vr, vp and vm: 4·m2, 4·m2 + 2 and 4·m2 − 1 − mmShift, each times the table's entry, shifted right by j.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong MulShiftAll(ulong m2, ulong[] table, int index, int j, uint mmShift, out ulong vp, out ulong vm)
    {
        ulong low = table[2 * index];
        ulong high = table[(2 * index) + 1];
        vp = MulShift(4 * m2 + 2, low, high, j);
        vm = MulShift(4 * m2 - 1 - mmShift, low, high, j);
        return MulShift(4 * m2, low, high, j);
    }

    /// <summary>(m × (high:low)) >> j, for 64 &lt; j &lt; 128 (the method keeps j there).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong MulShift(ulong m, ulong low, ulong high, int j)
    {
        ulong upper = Math.BigMul(m, high, out ulong middle);
        ulong carryIn = Math.BigMul(m, low, out _);
        middle += carryIn;
        if (middle < carryIn)
        {
            upper++;
        }

        int shift = j - 64;
        return (upper << (64 - shift)) | (middle >> shift);
    }

    private static bool IsMultipleOfPowerOf5(ulong value, int p)
    {
        int count = 0;
        while (value != 0)
        {
            (ulong quotient, ulong remainder) = Math.DivRem(value, 5);
            if (remainder != 0)
            {
                break;
            }

            value = quotient;
            count++;
        }

        return count >= p;
    }

    // floor(e·log10(2)), floor(e·log10(5)) and the bit length of 5^e, exact over the ranges used.
    private static int Log10Pow2(int e) => (int)(((uint)e * 78913) >> 18);

    private static int Log10Pow5(int e) => (int)(((uint)e * 732923) >> 20);

    private static int Pow5BitLength(int e) => (int)(((uint)e * 1217359) >> 19) + 1;

    private static ulong[] BuildPow5(int count)
    {
        var table = new ulong[2 * count];
        BigInteger pow = BigInteger.One;
        for (int i = 0; i < count; i++, pow *= 5)
        {
            int shift = (int)pow.GetBitLength() - Pow5Bits;
            Store(table, i, shift >= 0 ? pow >> shift : pow << -shift);
        }

        return table;
    }

    private static ulong[] BuildPow5Inverse(int count)
    {
        var table = new ulong[2 * count];
        BigInteger pow = BigInteger.One;
        for (int i = 0; i < count; i++, pow *= 5)
        {
            int bits = (int)pow.GetBitLength() - 1 + Pow5InverseBits;
            Store(table, i, (BigInteger.One << bits) / pow + 1);
        }

        return table;
    }

    private static void Store(ulong[] table, int i, BigInteger value)
    {
        table[2 * i] = (ulong)(value & ulong.MaxValue);
        table[(2 * i) + 1] = (ulong)(value >> 64);
    }
}
