using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Reads AMQP 0-9-1 domains from one frame payload, checking every length against the bytes present.
/// Consecutive bits share an octet (least significant first); any other read ends the octet.
/// Faults throw <see cref="AmqpProtocolException"/> (frame-error) with the byte offset.
/// </summary>
public ref struct AmqpPayloadReader
{
    private readonly ReadOnlySpan<byte> _buffer;
    private readonly long _baseOffset;
    private int _position;
    private byte _bitOctet;
    private int _bitIndex;

    /// <summary>Starts reading <paramref name="payload"/>, whose first byte sits at <paramref name="baseOffset"/> in the stream.</summary>
    /// <param name="payload">The frame payload.</param>
    /// <param name="baseOffset">Where the payload starts in the stream, for the offsets in error messages.</param>
    public AmqpPayloadReader(ReadOnlySpan<byte> payload, long baseOffset = 0)
    {
        _buffer = payload;
        _baseOffset = baseOffset;
        _bitIndex = 8;
    }

    /// <summary>Bytes read so far.</summary>
    public readonly int Position => _position;

    /// <summary>Bytes not yet read.</summary>
    public readonly int Remaining => _buffer.Length - _position;

    /// <summary>The stream offset of the next byte.</summary>
    public readonly long Offset => _baseOffset + _position;

    /// <summary>Reads an octet.</summary>
    /// <returns>The value read.</returns>
    public byte ReadOctet()
    {
        _bitIndex = 8;
        if ((uint)_position >= (uint)_buffer.Length)
        {
            AmqpThrow.Truncated(Offset, "An octet", 1, Remaining);
        }

        return _buffer[_position++];
    }

    /// <summary>Reads a 16-bit unsigned integer.</summary>
    /// <returns>The value read.</returns>
    public ushort ReadShort() => BinaryPrimitives.ReadUInt16BigEndian(Take(2, "A short"));

    /// <summary>Reads a 32-bit unsigned integer.</summary>
    /// <returns>The value read.</returns>
    public uint ReadLong() => BinaryPrimitives.ReadUInt32BigEndian(Take(4, "A long"));

    /// <summary>Reads a 64-bit unsigned integer.</summary>
    /// <returns>The value read.</returns>
    public ulong ReadLongLong() => BinaryPrimitives.ReadUInt64BigEndian(Take(8, "A longlong"));

    /// <summary>Reads a timestamp (64-bit seconds since the Unix epoch).</summary>
    /// <returns>The value read.</returns>
    public AmqpTimestamp ReadTimestamp() => new((long)BinaryPrimitives.ReadUInt64BigEndian(Take(8, "A timestamp")));

    /// <summary>Reads a bit, sharing the octet with the bits read just before it.</summary>
    /// <returns>The value read.</returns>
    public bool ReadBit()
    {
        if (_bitIndex >= 8)
        {
            byte octet = ReadOctet();
            _bitOctet = octet;
            _bitIndex = 0;
        }

        return ((_bitOctet >> _bitIndex++) & 1) != 0;
    }

    /// <summary>Reads a shortstr and returns its bytes (a slice of the payload).</summary>
    /// <returns>The value read.</returns>
    public ReadOnlySpan<byte> ReadShortString()
    {
        long start = Offset;
        int length = ReadOctet();
        if (length > Remaining)
        {
            AmqpThrow.Truncated(start, "A shortstr", length + 1, Remaining + 1);
        }

        ReadOnlySpan<byte> value = _buffer.Slice(_position, length);
        _position += length;
        return value;
    }

    /// <summary>Reads a longstr and returns its bytes (a slice of the payload).</summary>
    /// <returns>The value read.</returns>
    public ReadOnlySpan<byte> ReadLongString()
    {
        _bitIndex = 8;
        return ReadLengthPrefixed("A longstr");
    }

    /// <summary>
    /// Reads a field table's length and returns a view over its bytes. The fields inside are checked as they are
    /// enumerated (one pass, as a consumer reads them); call <see cref="FieldTableReader.Validate"/> to check the
    /// whole table up front.
    /// </summary>
    /// <returns>The value read.</returns>
    public FieldTableReader ReadTable()
    {
        long start = Offset;
        _bitIndex = 8;
        ReadOnlySpan<byte> content = ReadLengthPrefixed("A field table");
        return new FieldTableReader(content, start + 4);
    }

    /// <summary>Reads <paramref name="count"/> raw bytes.</summary>
    /// <param name="count">The number of bytes.</param>
    /// <returns>The value read.</returns>
    public ReadOnlySpan<byte> ReadBytes(int count) => Take(count, "The data");

    /// <summary>Throws unless every byte has been read: trailing bytes are a frame-error.</summary>
    /// <param name="what">What was being read, for the error message.</param>
    public readonly void EnsureEnd(string what)
    {
        if (_position != _buffer.Length)
        {
            AmqpThrow.Protocol(AmqpReplyCode.FrameError, Offset, $"{what} has {Remaining} bytes left over after its last field.");
        }
    }

    private ReadOnlySpan<byte> ReadLengthPrefixed(string what)
    {
        long start = Offset;
        uint length = BinaryPrimitives.ReadUInt32BigEndian(Take(4, what));
        if (length > (uint)Remaining)
        {
            AmqpThrow.Truncated(start, what, 4L + length, Remaining + 4L);
        }

        ReadOnlySpan<byte> value = _buffer.Slice(_position, (int)length);
        _position += (int)length;
        return value;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ReadOnlySpan<byte> Take(int count, string what)
    {
        _bitIndex = 8;
        if ((uint)count > (uint)(_buffer.Length - _position))
        {
            AmqpThrow.Truncated(Offset, what, count, Remaining);
        }

        ReadOnlySpan<byte> value = _buffer.Slice(_position, count);
        _position += count;
        return value;
    }
}
