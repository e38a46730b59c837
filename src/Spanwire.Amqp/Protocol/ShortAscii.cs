using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Narrows short ASCII text (exchange and queue names, routing keys, ids) to bytes. Names are nearly always ASCII
/// and 8 to 32 characters, where <see cref="Ascii.FromUtf16"/> spends most of its time getting started: two or
/// four overlapping 8-character loads and one check do the whole string (see the ShortStringWrite benchmarks).
/// </summary>
internal static class ShortAscii
{
    /// <summary>
    /// Writes <paramref name="text"/> as ASCII bytes into the first <c>text.Length</c> bytes of
    /// <paramref name="destination"/>. False, with the destination's content unspecified, when a character is not
    /// ASCII or the destination is too small.
    /// </summary>
    public static bool TryNarrow(ReadOnlySpan<char> text, Span<byte> destination)
    {
        int length = text.Length;
        if ((uint)length > (uint)destination.Length)
        {
            return false;
        }

        ReadOnlySpan<ushort> chars = MemoryMarshal.Cast<char, ushort>(text);
        if (length < Vector128<ushort>.Count || length > 4 * Vector128<ushort>.Count || !Vector128.IsHardwareAccelerated)
        {
            return length < ScalarBelow ? TryNarrowScalar(text, destination) :
                Ascii.FromUtf16(text, destination, out _) == OperationStatus.Done;
        }

        Vector128<ushort> nonAscii = Vector128.Create((ushort)0xFF80);
        if (length <= 2 * Vector128<ushort>.Count)
        {
            // 8..16 characters: the first eight and the last eight (they overlap when fewer than 16).
            Vector128<ushort> head = Vector128.Create(chars);
            Vector128<ushort> tail = Vector128.Create(chars[(length - 8)..]);
            if (((head | tail) & nonAscii) != Vector128<ushort>.Zero)
            {
                return false;
            }

            Vector128<ulong> narrowed = Vector128.Narrow(head, tail).AsUInt64();
            BinaryPrimitives.WriteUInt64LittleEndian(destination, narrowed.GetElement(0));
            BinaryPrimitives.WriteUInt64LittleEndian(destination[(length - 8)..], narrowed.GetElement(1));
            return true;
        }

        // 17..32 characters: the first sixteen and the last sixteen.
        Vector128<ushort> a = Vector128.Create(chars);
        Vector128<ushort> b = Vector128.Create(chars[8..]);
        Vector128<ushort> c = Vector128.Create(chars[(length - 16)..]);
        Vector128<ushort> d = Vector128.Create(chars[(length - 8)..]);
        if (((a | b | c | d) & nonAscii) != Vector128<ushort>.Zero)
        {
            return false;
        }

        Vector128.Narrow(a, b).CopyTo(destination);
        Vector128.Narrow(c, d).CopyTo(destination[(length - 16)..]);
        return true;
    }

    /// <summary>Below this many characters text is narrowed by a loop: the vector loads take 8 characters at a time.</summary>
    public const int ScalarBelow = 8;

    /// <summary>
    /// Narrows <paramref name="text"/> character by character: for text shorter than <see cref="ScalarBelow"/>, small
    /// enough to be inlined where a call would cost as much as the narrowing. False when a character is not ASCII.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryNarrowScalar(ReadOnlySpan<char> text, Span<byte> destination)
    {
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            if (c >= 0x80)
            {
                return false;
            }

            destination[i] = (byte)c;
        }

        return true;
    }
}
