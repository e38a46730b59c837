using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Spanwire.BinaryXml;

/// <summary>
/// Stateless span primitives for MC-NBFX: the MB31 integer, names and fixed-size values. No state, no allocation.
/// </summary>
public static class NbfxPrimitives
{
    /// <summary>The most bytes an MB31 integer takes.</summary>
    public const int MaxMultiByteInt31Length = 5;

    /// <summary>How many bytes <paramref name="value"/> takes as an MB31 integer.</summary>
    /// <param name="value">The value.</param>
    /// <returns>The encoded length, 1 to 5 bytes.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetMultiByteInt31Length(int value) =>
        value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;

    /// <summary>Writes <paramref name="value"/> (0..2^31−1) as an MB31 integer: 7 bits per byte, low group first.</summary>
    /// <param name="destination">Where the bytes go.</param>
    /// <param name="value">The value.</param>
    /// <param name="written">The bytes written.</param>
    /// <returns>False when the destination is too small.</returns>
    public static bool TryWriteMultiByteInt31(Span<byte> destination, int value, out int written)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(value);
        int length = GetMultiByteInt31Length(value);
        if (destination.Length < length)
        {
            written = 0;
            return false;
        }

        written = WriteMultiByteInt31(destination, value);
        return true;
    }

    /// <summary>Writes an MB31 integer into a destination known to have at least 5 bytes; returns the bytes written.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int WriteMultiByteInt31(Span<byte> destination, int value)
    {
        if ((uint)value < 0x80)
        {
            destination[0] = (byte)value;
            return 1;
        }

        int i = 0;
        uint v = (uint)value;
        while (v >= 0x80)
        {
            destination[i++] = (byte)(v | 0x80);
            v >>= 7;
        }

        destination[i++] = (byte)v;
        return i;
    }

    /// <summary>
    /// Reads an MB31 integer. Returns <see cref="System.Buffers.OperationStatus.Done"/>, <see cref="System.Buffers.OperationStatus.NeedMoreData"/> when the
    /// source ends inside it, or <see cref="System.Buffers.OperationStatus.InvalidData"/> for a fifth byte with any of its top five bits set.
    /// </summary>
    /// <param name="source">The bytes to read.</param>
    /// <param name="value">The value.</param>
    /// <param name="consumed">The bytes read.</param>
    /// <returns>Done, NeedMoreData when the bytes end inside the number, or InvalidData past 31 bits.</returns>
    public static System.Buffers.OperationStatus TryReadMultiByteInt31(ReadOnlySpan<byte> source, out int value, out int consumed)
    {
        uint result = 0;
        for (int i = 0; i < MaxMultiByteInt31Length; i++)
        {
            if (i >= source.Length)
            {
                value = 0;
                consumed = 0;
                return System.Buffers.OperationStatus.NeedMoreData;
            }

            byte b = source[i];
            if (i == 4 && (b & 0xF8) != 0)
            {
                value = 0;
                consumed = 0;
                return System.Buffers.OperationStatus.InvalidData;
            }

            result |= (uint)(b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0)
            {
                value = (int)result;
                consumed = i + 1;
                return System.Buffers.OperationStatus.Done;
            }
        }

        value = 0;
        consumed = 0;
        return System.Buffers.OperationStatus.InvalidData; // unreachable: the fifth byte never has its high bit set here
    }

    /// <summary>The 16 bytes of a decimal in the record's order: flags (scale in byte 2, sign in bit 31), hi32, lo32, mid32.</summary>
    /// <param name="destination">Where the bytes go.</param>
    /// <param name="value">The value, written as its own binary text record.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void WriteDecimal(Span<byte> destination, decimal value)
    {
        if (BitConverter.IsLittleEndian)
        {
            // A decimal is laid out as Win32's DECIMAL (flags, hi32, lo64; the runtime keeps that order for interop),
            // which is the record's order. Taken as fields of a value rather than bytes at an address, so a constant
            // inlined here is written as constants, and no wide read waits on the narrow stores that built it.
            DecimalFields fields = Unsafe.BitCast<decimal, DecimalFields>(value);
            BinaryPrimitives.WriteInt32LittleEndian(destination, fields.Flags);
            BinaryPrimitives.WriteInt32LittleEndian(destination[4..], fields.High);
            BinaryPrimitives.WriteUInt64LittleEndian(destination[8..], fields.Low);
            return;
        }

        Span<int> bits = stackalloc int[4];
        decimal.GetBits(value, bits); // lo, mid, hi, flags
        BinaryPrimitives.WriteInt32LittleEndian(destination, bits[3]);
        BinaryPrimitives.WriteInt32LittleEndian(destination[4..], bits[2]);
        BinaryPrimitives.WriteInt32LittleEndian(destination[8..], bits[0]);
        BinaryPrimitives.WriteInt32LittleEndian(destination[12..], bits[1]);
    }

    /// <summary>
    /// Reads a decimal from its 16 record bytes. Returns false for flags that no decimal has (scale above 28 or stray bits).
    /// </summary>
    /// <param name="source">The bytes to read.</param>
    /// <param name="value">The value.</param>
    /// <returns>False for flags the format does not allow.</returns>
    public static bool TryReadDecimal(ReadOnlySpan<byte> source, out decimal value)
    {
        int flags = BinaryPrimitives.ReadInt32LittleEndian(source);
        int hi = BinaryPrimitives.ReadInt32LittleEndian(source[4..]);
        int lo = BinaryPrimitives.ReadInt32LittleEndian(source[8..]);
        int mid = BinaryPrimitives.ReadInt32LittleEndian(source[12..]);
        if (!IsValidDecimalFlags(flags))
        {
            value = default;
            return false;
        }

        value = new decimal(lo, mid, hi, flags < 0, (byte)((flags >> 16) & 0xFF));
        return true;
    }

    /// <summary>True when the 16 bytes at <paramref name="source"/> are a decimal <see cref="TryReadDecimal"/> accepts.</summary>
    /// <param name="source">The bytes to read.</param>
    /// <returns>True for flags the format allows.</returns>
    public static bool IsValidDecimal(ReadOnlySpan<byte> source) => IsValidDecimalFlags(BinaryPrimitives.ReadInt32LittleEndian(source));

    // Only the sign bit and a scale of 0..28 may be set.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsValidDecimalFlags(int flags) => (flags & 0x7F00FFFF) == 0 && ((flags >> 16) & 0xFF) <= 28;

    /// <summary>The DateTime record's 64 bits, exactly as the in-box writer makes them (<see cref="DateTime.ToBinary"/> with local times as UTC ticks).</summary>
    /// <param name="value">The value.</param>
    /// <returns>The binary form: ticks and kind.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long DateTimeToBinary(DateTime value) => value.Kind switch
    {
        DateTimeKind.Utc => 0x4000000000000000L | value.Ticks,
        DateTimeKind.Local => unchecked((long)0x8000000000000000UL) | value.ToUniversalTime().Ticks,
        _ => value.Ticks,
    };

    /// <summary>True when the DateTime record's 64 bits hold ticks in range (what <see cref="TryDateTimeFromBinary"/> accepts).</summary>
    /// <param name="data">The 64-bit binary form (ticks and kind).</param>
    /// <returns>True when the ticks are in range.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsValidDateTimeBinary(long data) => (ulong)(data & 0x3FFFFFFFFFFFFFFFL) <= (ulong)DateTime.MaxValue.Ticks;

    /// <summary>Reads the DateTime record's 64 bits; false when the ticks are out of range.</summary>
    /// <param name="data">The 64-bit binary form (ticks and kind).</param>
    /// <param name="value">The value.</param>
    /// <returns>False when the ticks are out of range.</returns>
    public static bool TryDateTimeFromBinary(long data, out DateTime value)
    {
        long ticks = data & 0x3FFFFFFFFFFFFFFFL;
        if (!IsValidDateTimeBinary(data))
        {
            value = default;
            return false;
        }

        switch ((ulong)data >> 62)
        {
            case 0:
                value = new DateTime(ticks, DateTimeKind.Unspecified);
                return true;
            case 1:
                value = new DateTime(ticks, DateTimeKind.Utc);
                return true;
            default:
                // Local times travel as UTC ticks and come back in the reader's zone, as the in-box reader does.
                value = new DateTime(ticks, DateTimeKind.Utc).ToLocalTime();
                return true;
        }
    }

    /// <summary>The fields of <see cref="decimal"/> in its layout (see <see cref="WriteDecimal"/>); only ever bit-cast to.</summary>
    private readonly struct DecimalFields(int flags, int high, ulong low)
    {
        public readonly int Flags = flags;
        public readonly int High = high;
        public readonly ulong Low = low;
    }
}
