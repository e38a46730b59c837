using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Writes a field table straight into a destination span: a name, then a value, for each field; nested tables and
/// arrays with Start/End. Lengths are filled in when each container ends. Checks the structure as it goes
/// (a value in a table needs a name; an array takes values only).
/// </summary>
/// <example>
/// <code>
/// var writer = new FieldTableWriter(buffer);
/// writer.WriteName("x-max-length"); writer.WriteInt32(1000);
/// writer.WriteName("tags"); writer.WriteStartArray(); writer.WriteLongString("a"u8); writer.WriteEndArray();
/// int length = writer.Complete();   // buffer[..length] is the encoded table, length prefix included
/// </code>
/// </example>
public ref struct FieldTableWriter
{
    /// <summary>How deep this writer nests tables and arrays.</summary>
    public const int MaxDepth = 32;

    private readonly Span<byte> _buffer;
    private ContainerStarts _starts;
    private int _position;
    private int _depth;
    private uint _arrayLevels;
    private bool _hasName;

    /// <summary>Starts a table at the beginning of <paramref name="destination"/>.</summary>
    /// <param name="destination">Where the bytes are written.</param>
    public FieldTableWriter(Span<byte> destination)
    {
        _buffer = destination;
        Reserve(4);
        _depth = 1;
    }

    /// <summary>Bytes written so far.</summary>
    public readonly int BytesWritten => _position;

    private readonly bool InArray => (_arrayLevels & (1u << (_depth - 1))) != 0;

    /// <summary>Writes the next field's name as UTF-8.</summary>
    /// <param name="name">The field name.</param>
    public void WriteName(ReadOnlySpan<char> name)
    {
        CheckName();
        if (!AmqpPrimitives.TryWriteShortString(_buffer[_position..], name, out int written))
        {
            AmqpThrow.DestinationTooSmall(AmqpPrimitives.GetShortStringSize(name), _buffer.Length - _position);
        }

        _position += written;
        _hasName = true;
    }

    /// <summary>Writes the next field's name from UTF-8 bytes.</summary>
    /// <param name="utf8Name">The field name as UTF-8.</param>
    public void WriteName(ReadOnlySpan<byte> utf8Name)
    {
        CheckName();
        if (!AmqpPrimitives.TryWriteShortString(_buffer[_position..], utf8Name, out int written))
        {
            AmqpThrow.DestinationTooSmall(utf8Name.Length + 1, _buffer.Length - _position);
        }

        _position += written;
        _hasName = true;
    }

    /// <summary>Writes a <c>t</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteBoolean(bool value) => Value(FieldValueType.Boolean, 1)[0] = value ? (byte)1 : (byte)0;

    /// <summary>Writes a <c>b</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteSByte(sbyte value) => Value(FieldValueType.SByte, 1)[0] = (byte)value;

    /// <summary>Writes a <c>B</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteByte(byte value) => Value(FieldValueType.Byte, 1)[0] = value;

    /// <summary>Writes an <c>s</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteInt16(short value) => BinaryPrimitives.WriteInt16BigEndian(Value(FieldValueType.Int16, 2), value);

    /// <summary>Writes a <c>u</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteUInt16(ushort value) => BinaryPrimitives.WriteUInt16BigEndian(Value(FieldValueType.UInt16, 2), value);

    /// <summary>Writes an <c>I</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteInt32(int value) => BinaryPrimitives.WriteInt32BigEndian(Value(FieldValueType.Int32, 4), value);

    /// <summary>Writes an <c>i</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteUInt32(uint value) => BinaryPrimitives.WriteUInt32BigEndian(Value(FieldValueType.UInt32, 4), value);

    /// <summary>Writes an <c>l</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteInt64(long value) => BinaryPrimitives.WriteInt64BigEndian(Value(FieldValueType.Int64, 8), value);

    /// <summary>Writes an <c>f</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteSingle(float value) => BinaryPrimitives.WriteSingleBigEndian(Value(FieldValueType.Single, 4), value);

    /// <summary>Writes a <c>d</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteDouble(double value) => BinaryPrimitives.WriteDoubleBigEndian(Value(FieldValueType.Double, 8), value);

    /// <summary>Writes a <c>D</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteDecimal(AmqpDecimal value)
    {
        Span<byte> span = Value(FieldValueType.Decimal, 5);
        span[0] = value.Scale;
        BinaryPrimitives.WriteInt32BigEndian(span[1..], value.Value);
    }

    /// <summary>Writes a <see cref="decimal"/> as a <c>D</c> value.</summary>
    /// <exception cref="OverflowException">The value does not fit an AMQP decimal.</exception>
    /// <param name="value">The value to write.</param>
    public void WriteDecimal(decimal value) => WriteDecimal(AmqpDecimal.FromDecimal(value));

    /// <summary>Writes a <c>T</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteTimestamp(AmqpTimestamp value) => BinaryPrimitives.WriteInt64BigEndian(Value(FieldValueType.Timestamp, 8), value.UnixSeconds);

    /// <summary>Writes a <c>V</c> (void) value.</summary>
    public void WriteVoid() => Value(FieldValueType.Void, 0);

    /// <summary>Writes an <c>S</c> value from bytes.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteLongString(ReadOnlySpan<byte> value) => Sized(FieldValueType.LongString, value);

    /// <summary>Writes text as a UTF-8 <c>S</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteLongString(ReadOnlySpan<char> value)
    {
        _ = Value(FieldValueType.LongString, 0);
        Span<byte> rest = _buffer[_position..];
        if (value.Length <= AmqpPrimitives.MaxShortStringLength && 4 + value.Length <= rest.Length && ShortAscii.TryNarrow(value, rest[4..]))
        {
            // A short ASCII text, as most header values are: narrowed in one step.
            BinaryPrimitives.WriteUInt32BigEndian(rest, (uint)value.Length);
            _position += value.Length + 4;
            return;
        }

        if (!AmqpPrimitives.TryWriteLongString(rest, value, out int written))
        {
            AmqpThrow.DestinationTooSmall(AmqpPrimitives.GetUtf8ByteCount(value) + 4, _buffer.Length - _position);
        }

        _position += written;
    }

    /// <summary>Writes an <c>x</c> value.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteByteArray(ReadOnlySpan<byte> value) => Sized(FieldValueType.ByteArray, value);

    /// <summary>Writes an already encoded table as an <c>F</c> value.</summary>
    /// <param name="table">The table.</param>
    public void WriteTable(FieldTable table) => table.Span.CopyTo(Value(FieldValueType.Table, table.EncodedLength));

    /// <summary>Starts a nested <c>F</c> table; end it with <see cref="WriteEndTable"/>.</summary>
    public void WriteStartTable() => Open(FieldValueType.Table);

    /// <summary>Ends the table started last.</summary>
    public void WriteEndTable() => Close(array: false);

    /// <summary>Starts an <c>A</c> array; end it with <see cref="WriteEndArray"/>.</summary>
    public void WriteStartArray() => Open(FieldValueType.Array);

    /// <summary>Ends the array started last.</summary>
    public void WriteEndArray() => Close(array: true);

    /// <summary>Ends the table and fills in its length. Returns the bytes written, length prefix included.</summary>
    /// <exception cref="InvalidOperationException">A nested table or array is still open, or a name has no value.</exception>
    /// <returns>The number of bytes written.</returns>
    public int Complete()
    {
        if (_depth != 1 || _hasName)
        {
            AmqpThrow.InvalidOperation(_hasName ? "A field name was written without its value." : "A nested table or array is still open.");
        }

        BinaryPrimitives.WriteUInt32BigEndian(_buffer, (uint)(_position - 4));
        _depth = 0;
        return _position;
    }

    private void Sized(FieldValueType type, ReadOnlySpan<byte> value)
    {
        Span<byte> span = Value(type, 4 + value.Length);
        BinaryPrimitives.WriteUInt32BigEndian(span, (uint)value.Length);
        value.CopyTo(span[4..]);
    }

    private void Open(FieldValueType type)
    {
        if (_depth >= MaxDepth)
        {
            AmqpThrow.InvalidOperation($"Tables and arrays nest at most {MaxDepth} levels in this writer.");
        }

        Value(type, 4);
        _starts[_depth] = _position - 4;
        if (type == FieldValueType.Array)
        {
            _arrayLevels |= 1u << _depth;
        }
        else
        {
            _arrayLevels &= ~(1u << _depth);
        }

        _depth++;
    }

    private void Close(bool array)
    {
        if (_depth <= 1 || InArray != array || _hasName)
        {
            AmqpThrow.InvalidOperation(array ? "No array is open to end here." : "No nested table is open to end here.");
        }

        _depth--;
        int start = _starts[_depth];
        BinaryPrimitives.WriteUInt32BigEndian(_buffer[start..], (uint)(_position - start - 4));
    }

    private void CheckName()
    {
        if (_depth == 0 || InArray || _hasName)
        {
            AmqpThrow.InvalidOperation(_depth == 0 ? "The table is complete." : InArray ? "Array values have no names." : "The previous name has no value yet.");
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> Value(FieldValueType type, int size)
    {
        if (_depth == 0 || InArray == _hasName)
        {
            AmqpThrow.InvalidOperation(_depth == 0 ? "The table is complete." : InArray ? "Array values have no names." : "A table value needs a name first.");
        }

        _hasName = false;
        Span<byte> span = Reserve(1 + size);
        span[0] = (byte)type;
        return span[1..];
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> Reserve(int count)
    {
        if ((uint)count > (uint)(_buffer.Length - _position))
        {
            AmqpThrow.DestinationTooSmall(count, _buffer.Length - _position);
        }

        Span<byte> span = _buffer.Slice(_position, count);
        _position += count;
        return span;
    }

    [InlineArray(MaxDepth)]
    private struct ContainerStarts
    {
        private int _element0;
    }
}
