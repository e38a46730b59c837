using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Writes AMQP 0-9-1 domains into a span whose size the caller computed. Consecutive bits share an octet
/// (least significant first); any other write ends the octet. A destination that turns out too small throws
/// <see cref="ArgumentException"/>; nothing is written past it.
/// </summary>
public ref struct AmqpPayloadWriter
{
    private readonly Span<byte> _buffer;
    private int _position;
    private int _bitPosition;
    private int _bitIndex;

    /// <summary>Starts writing at the beginning of <paramref name="destination"/>.</summary>
    /// <param name="destination">Where the bytes are written.</param>
    public AmqpPayloadWriter(Span<byte> destination)
    {
        _buffer = destination;
        _bitIndex = 8;
    }

    /// <summary>Bytes written so far.</summary>
    public readonly int Position => _position;

    /// <summary>The bytes written so far.</summary>
    public readonly ReadOnlySpan<byte> Written => _buffer[.._position];

    /// <summary>Writes an octet.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteOctet(byte value) => Reserve(1)[0] = value;

    /// <summary>Writes a 16-bit unsigned integer.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteShort(ushort value) => BinaryPrimitives.WriteUInt16BigEndian(Reserve(2), value);

    /// <summary>Writes a 32-bit unsigned integer.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteLong(uint value) => BinaryPrimitives.WriteUInt32BigEndian(Reserve(4), value);

    /// <summary>Writes a 64-bit unsigned integer.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteLongLong(ulong value) => BinaryPrimitives.WriteUInt64BigEndian(Reserve(8), value);

    /// <summary>Writes a timestamp.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteTimestamp(AmqpTimestamp value) => BinaryPrimitives.WriteUInt64BigEndian(Reserve(8), (ulong)value.UnixSeconds);

    /// <summary>Writes a bit, packed into the octet of the bits written just before it.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteBit(bool value)
    {
        if (_bitIndex >= 8)
        {
            int at = _position;
            Reserve(1)[0] = 0;
            _bitPosition = at;
            _bitIndex = 0;
        }

        if (value)
        {
            _buffer[_bitPosition] |= (byte)(1 << _bitIndex);
        }

        _bitIndex++;
    }

    /// <summary>Writes a shortstr from bytes.</summary>
    /// <exception cref="ArgumentException">The value is longer than 255 bytes, or the destination is too small.</exception>
    /// <param name="value">The value to write.</param>
    public void WriteShortString(ReadOnlySpan<byte> value)
    {
        _bitIndex = 8;
        if (!AmqpPrimitives.TryWriteShortString(_buffer[_position..], value, out int written))
        {
            AmqpThrow.DestinationTooSmall(value.Length + 1, _buffer.Length - _position);
        }

        _position += written;
    }

    /// <summary>Writes text as a UTF-8 shortstr.</summary>
    /// <exception cref="ArgumentException">The text is longer than 255 UTF-8 bytes or not valid UTF-16, or the destination is too small.</exception>
    /// <param name="value">The value to write.</param>
    public void WriteShortString(ReadOnlySpan<char> value)
    {
        _bitIndex = 8;
        _position += AmqpPrimitives.WriteShortString(_buffer[_position..], value);
    }

    /// <summary>Writes a longstr from bytes.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteLongString(ReadOnlySpan<byte> value)
    {
        _bitIndex = 8;
        if (!AmqpPrimitives.TryWriteLongString(_buffer[_position..], value, out int written))
        {
            AmqpThrow.DestinationTooSmall(value.Length + 4, _buffer.Length - _position);
        }

        _position += written;
    }

    /// <summary>Writes text as a UTF-8 longstr.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteLongString(ReadOnlySpan<char> value)
    {
        _bitIndex = 8;
        if (!AmqpPrimitives.TryWriteLongString(_buffer[_position..], value, out int written))
        {
            AmqpThrow.DestinationTooSmall(AmqpPrimitives.GetUtf8ByteCount(value) + 4, _buffer.Length - _position);
        }

        _position += written;
    }

    /// <summary>Writes an encoded field table (its length prefix included).</summary>
    /// <param name="table">The table.</param>
    public void WriteTable(FieldTable table) => table.Span.CopyTo(Reserve(table.EncodedLength));

    /// <summary>Writes raw bytes.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteBytes(ReadOnlySpan<byte> value) => value.CopyTo(Reserve(value.Length));

    /// <summary>
    /// Hands out the next <paramref name="count"/> bytes for the caller to fill (for a field table written in place
    /// with <see cref="FieldTableWriter"/>), ending any bit octet.
    /// </summary>
    /// <param name="count">The number of bytes.</param>
    /// <returns>The <paramref name="count"/> bytes, to fill before the next write.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Span<byte> Reserve(int count)
    {
        _bitIndex = 8;
        if ((uint)count > (uint)(_buffer.Length - _position))
        {
            AmqpThrow.DestinationTooSmall(count, _buffer.Length - _position);
        }

        Span<byte> span = _buffer.Slice(_position, count);
        _position += count;
        return span;
    }

    /// <summary>The free space after what has been written, for writing in place; follow with <see cref="Advance"/>.</summary>
    public readonly Span<byte> FreeSpan => _buffer[_position..];

    /// <summary>Counts <paramref name="count"/> bytes written into <see cref="FreeSpan"/>.</summary>
    /// <param name="count">The number of bytes.</param>
    public void Advance(int count) => Reserve(count);
}
