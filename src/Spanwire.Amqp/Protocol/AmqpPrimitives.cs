using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using System.Text.Unicode;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Stateless AMQP 0-9-1 primitives on spans: the string encodings whose lengths need checking. Integers are
/// big-endian and written with <see cref="BinaryPrimitives"/>. Every method is pure and never reads past its input.
/// </summary>
public static class AmqpPrimitives
{
    /// <summary>The most bytes a shortstr holds.</summary>
    public const int MaxShortStringLength = 255;

    /// <summary>
    /// <paramref name="text"/>, or its longest prefix whose UTF-8 fits a shortstr (255 bytes), cut between characters:
    /// for text the client makes up (a close reason), which must never fail to be sent for being too long.
    /// </summary>
    internal static string ToShortStringPrefix(string text)
    {
        if (text.Length <= MaxShortStringLength / 3 || System.Text.Encoding.UTF8.GetByteCount(text) <= MaxShortStringLength)
        {
            return text;
        }

        int bytes = 0;
        int end = 0;
        while (end < text.Length)
        {
            int units = char.IsHighSurrogate(text[end]) && end + 1 < text.Length && char.IsLowSurrogate(text[end + 1]) ? 2 : 1;
            int size = units == 2 ? 4 : text[end] < 0x80 ? 1 : text[end] < 0x800 ? 2 : 3;
            if (bytes + size > MaxShortStringLength)
            {
                break;
            }

            bytes += size;
            end += units;
        }

        return text[..end];
    }

    /// <summary>Writes a shortstr (length octet and bytes). False when the destination is too small.</summary>
    /// <exception cref="ArgumentException">The value is longer than 255 bytes.</exception>
    /// <param name="destination">Where the bytes are written.</param>
    /// <param name="value">The string's bytes.</param>
    /// <param name="bytesWritten">The bytes written, when it succeeds.</param>
    /// <returns>True when it was written; false when the destination is too small.</returns>
    public static bool TryWriteShortString(Span<byte> destination, ReadOnlySpan<byte> value, out int bytesWritten)
    {
        if (value.Length > MaxShortStringLength)
        {
            AmqpThrow.ShortStringTooLong(value.Length);
        }

        if (destination.Length <= value.Length)
        {
            bytesWritten = 0;
            return false;
        }

        destination[0] = (byte)value.Length;
        value.CopyTo(destination[1..]);
        bytesWritten = value.Length + 1;
        return true;
    }

    /// <summary>Writes text as a UTF-8 shortstr. False when the destination is too small.</summary>
    /// <exception cref="ArgumentException">The text is longer than 255 bytes in UTF-8, or not valid UTF-16.</exception>
    /// <param name="destination">Where the bytes are written.</param>
    /// <param name="value">The text.</param>
    /// <param name="bytesWritten">The bytes written, when it succeeds.</param>
    /// <returns>True when it was written; false when the destination is too small.</returns>
    public static bool TryWriteShortString(Span<byte> destination, ReadOnlySpan<char> value, out int bytesWritten)
    {
        // Names and ids are nearly always short ASCII: one vectorized narrowing, no UTF-8 state machine.
        if ((uint)value.Length < (uint)destination.Length && value.Length <= MaxShortStringLength && ShortAscii.TryNarrow(value, destination[1..]))
        {
            destination[0] = (byte)value.Length;
            bytesWritten = value.Length + 1;
            return true;
        }

        bytesWritten = 0;
        if (destination.IsEmpty)
        {
            return false;
        }

        Span<byte> text = destination.Length > MaxShortStringLength + 1 ? destination.Slice(1, MaxShortStringLength) : destination[1..];
        OperationStatus status = Utf8.FromUtf16(value, text, out _, out int written, replaceInvalidSequences: false);
        switch (status)
        {
            case OperationStatus.Done:
                destination[0] = (byte)written;
                bytesWritten = written + 1;
                return true;
            case OperationStatus.InvalidData:
                AmqpThrow.InvalidUtf16();
                return false;
            default:
                int byteCount = GetUtf8ByteCount(value);
                if (byteCount > MaxShortStringLength)
                {
                    AmqpThrow.ShortStringTooLong(byteCount);
                }

                return false;
        }
    }

    /// <summary>Writes text as a UTF-8 shortstr; returns the bytes written.</summary>
    /// <exception cref="ArgumentException">The destination is too small, the text is longer than 255 bytes in UTF-8, or not valid UTF-16.</exception>
    internal static int WriteShortString(Span<byte> destination, ReadOnlySpan<char> value)
    {
        if (!TryWriteShortString(destination, value, out int written))
        {
            AmqpThrow.DestinationTooSmall(GetShortStringSize(value), destination.Length);
        }

        return written;
    }

    /// <summary>Writes a longstr (u32 length and bytes). False when the destination is too small.</summary>
    /// <param name="destination">Where the bytes are written.</param>
    /// <param name="value">The string's bytes.</param>
    /// <param name="bytesWritten">The bytes written, when it succeeds.</param>
    /// <returns>True when it was written; false when the destination is too small.</returns>
    public static bool TryWriteLongString(Span<byte> destination, ReadOnlySpan<byte> value, out int bytesWritten)
    {
        if ((long)destination.Length < 4L + value.Length)
        {
            bytesWritten = 0;
            return false;
        }

        BinaryPrimitives.WriteUInt32BigEndian(destination, (uint)value.Length);
        value.CopyTo(destination[4..]);
        bytesWritten = value.Length + 4;
        return true;
    }

    /// <summary>Writes text as a UTF-8 longstr. False when the destination is too small.</summary>
    /// <exception cref="ArgumentException">The text is not valid UTF-16.</exception>
    /// <param name="destination">Where the bytes are written.</param>
    /// <param name="value">The text.</param>
    /// <param name="bytesWritten">The bytes written, when it succeeds.</param>
    /// <returns>True when it was written; false when the destination is too small.</returns>
    public static bool TryWriteLongString(Span<byte> destination, ReadOnlySpan<char> value, out int bytesWritten)
    {
        bytesWritten = 0;
        if (destination.Length < 4)
        {
            return false;
        }

        OperationStatus status = Utf8.FromUtf16(value, destination[4..], out _, out int written, replaceInvalidSequences: false);
        if (status == OperationStatus.InvalidData)
        {
            AmqpThrow.InvalidUtf16();
        }

        if (status != OperationStatus.Done)
        {
            return false;
        }

        BinaryPrimitives.WriteUInt32BigEndian(destination, (uint)written);
        bytesWritten = written + 4;
        return true;
    }

    /// <summary>Reads a shortstr. False when the source holds less than the whole string.</summary>
    /// <param name="source">The bytes to read from.</param>
    /// <param name="value">The string's bytes (a slice of the source), when it succeeds.</param>
    /// <param name="bytesConsumed">The bytes read, when it succeeds.</param>
    /// <returns>True when the whole string is there; false when more bytes are needed.</returns>
    public static bool TryReadShortString(ReadOnlySpan<byte> source, out ReadOnlySpan<byte> value, out int bytesConsumed)
    {
        if (source.IsEmpty || source.Length - 1 < source[0])
        {
            value = default;
            bytesConsumed = 0;
            return false;
        }

        int length = source[0];
        value = source.Slice(1, length);
        bytesConsumed = length + 1;
        return true;
    }

    /// <summary>Reads a longstr. False when the source holds less than the whole string.</summary>
    /// <param name="source">The bytes to read from.</param>
    /// <param name="value">The string's bytes (a slice of the source), when it succeeds.</param>
    /// <param name="bytesConsumed">The bytes read, when it succeeds.</param>
    /// <returns>True when the whole string is there; false when more bytes are needed.</returns>
    public static bool TryReadLongString(ReadOnlySpan<byte> source, out ReadOnlySpan<byte> value, out int bytesConsumed)
    {
        if (source.Length < 4 || (uint)(source.Length - 4) < BinaryPrimitives.ReadUInt32BigEndian(source))
        {
            value = default;
            bytesConsumed = 0;
            return false;
        }

        int length = (int)BinaryPrimitives.ReadUInt32BigEndian(source);
        value = source.Slice(4, length);
        bytesConsumed = length + 4;
        return true;
    }

    /// <summary>
    /// The most bytes text of <paramref name="charCount"/> UTF-16 characters can take as a shortstr, length octet
    /// included: three UTF-8 bytes per character, at most 255. Enough to reserve before writing in one pass.
    /// </summary>
    internal static int GetMaxShortStringSize(int charCount) => 1 + Math.Min(MaxShortStringLength, 3 * charCount);

    /// <summary>The bytes text takes as a shortstr, length octet included.</summary>
    /// <exception cref="ArgumentException">The text is longer than 255 bytes in UTF-8, or not valid UTF-16.</exception>
    /// <param name="value">The value to measure.</param>
    /// <returns>The value.</returns>
    public static int GetShortStringSize(ReadOnlySpan<char> value)
    {
        int byteCount = value.Length <= MaxShortStringLength / 3 && Ascii.IsValid(value) ? value.Length : GetUtf8ByteCount(value);
        if (byteCount > MaxShortStringLength)
        {
            AmqpThrow.ShortStringTooLong(byteCount);
        }

        return byteCount + 1;
    }

    /// <summary>The bytes text takes in UTF-8.</summary>
    /// <exception cref="ArgumentException">The text is not valid UTF-16.</exception>
    /// <param name="value">The value to measure.</param>
    /// <returns>The value.</returns>
    internal static int GetUtf8ByteCount(ReadOnlySpan<char> value)
    {
        try
        {
            return s_strictUtf8.GetByteCount(value);
        }
        catch (EncoderFallbackException)
        {
            AmqpThrow.InvalidUtf16();
            return 0;
        }
    }

    private static readonly UTF8Encoding s_strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);
}
