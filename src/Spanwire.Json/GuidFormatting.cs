using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace Spanwire.Json;

/// <summary>
/// A Guid as a quoted JSON string, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" in lowercase hex, quotes included, in three
/// 16-byte stores. The same text as <c>Guid.TryFormat</c> with the default format, without its format dispatch.
/// </summary>
internal static class GuidFormatting
{
    /// <summary>The quoted text's length.</summary>
    public const int QuotedLength = 38;

    private const byte Z = 0x80; // a shuffle index that yields 0

    private static ReadOnlySpan<byte> HexDigits => "0123456789abcdef"u8;

    // Which byte of the Guid, as stored (the first three fields little-endian), gives the high or the low nibble of
    // each output byte: out[0..16), out[16..32) and out[22..38) (overlapping the second store, with the same bytes).
    private static readonly Vector128<byte> s_highA = Vector128.Create(Z, 3, Z, 2, Z, 1, Z, 0, Z, Z, 5, Z, 4, Z, Z, 7);
    private static readonly Vector128<byte> s_lowA = Vector128.Create(Z, Z, 3, Z, 2, Z, 1, Z, 0, Z, Z, 5, Z, 4, Z, Z);
    private static readonly Vector128<byte> s_highB = Vector128.Create(Z, 6, Z, Z, 8, Z, 9, Z, Z, 10, Z, 11, Z, 12, Z, 13);
    private static readonly Vector128<byte> s_lowB = Vector128.Create(7, Z, 6, Z, Z, 8, Z, 9, Z, Z, 10, Z, 11, Z, 12, Z);
    private static readonly Vector128<byte> s_highC = Vector128.Create(9, Z, Z, 10, Z, 11, Z, 12, Z, 13, Z, 14, Z, 15, Z, Z);
    private static readonly Vector128<byte> s_lowC = Vector128.Create(Z, 9, Z, Z, 10, Z, 11, Z, 12, Z, 13, Z, 14, Z, 15, Z);

    // The quotes and dashes of each store.
    private static readonly Vector128<byte> s_marksA = Vector128.Create((byte)'"', 0, 0, 0, 0, 0, 0, 0, 0, (byte)'-', 0, 0, 0, 0, (byte)'-', 0);
    private static readonly Vector128<byte> s_marksB = Vector128.Create(0, 0, 0, (byte)'-', 0, 0, 0, 0, (byte)'-', 0, 0, 0, 0, 0, 0, 0);
    private static readonly Vector128<byte> s_marksC = Vector128.Create(0, 0, (byte)'-', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte)'"');

    /// <summary>Writes <paramref name="value"/> quoted at <paramref name="p"/>, where <see cref="QuotedLength"/> bytes are free; returns the end.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int WriteQuoted(byte[] buffer, int p, Guid value)
    {
        if (!Vector128.IsHardwareAccelerated || !BitConverter.IsLittleEndian)
        {
            return WriteQuotedScalar(buffer, p, value);
        }

        Vector128<byte> stored = Vector128.Create(MemoryMarshal.AsBytes(new ReadOnlySpan<Guid>(in value)));
        Vector128<byte> digits = Vector128.Create(HexDigits);
        Vector128<byte> high = Vector128.ShuffleNative(digits, Vector128.ShiftRightLogical(stored.AsUInt16(), 4).AsByte() & Vector128.Create((byte)0x0F));
        Vector128<byte> low = Vector128.ShuffleNative(digits, stored & Vector128.Create((byte)0x0F));

        Span<byte> destination = buffer.AsSpan(p, QuotedLength);
        (Vector128.ShuffleNative(high, s_highA) | Vector128.ShuffleNative(low, s_lowA) | s_marksA).CopyTo(destination);
        (Vector128.ShuffleNative(high, s_highB) | Vector128.ShuffleNative(low, s_lowB) | s_marksB).CopyTo(destination[16..]);
        (Vector128.ShuffleNative(high, s_highC) | Vector128.ShuffleNative(low, s_lowC) | s_marksC).CopyTo(destination[22..]);
        return p + QuotedLength;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int WriteQuotedScalar(byte[] buffer, int p, Guid value)
    {
        buffer[p++] = (byte)'"';
        bool formatted = value.TryFormat(buffer.AsSpan(p), out int n);
        Debug.Assert(formatted, "the caller reserved a Guid's length");
        p += n;
        buffer[p++] = (byte)'"';
        return p;
    }
}
