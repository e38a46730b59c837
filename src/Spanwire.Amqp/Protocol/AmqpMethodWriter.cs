using System.Runtime.CompilerServices;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Writes a method frame's payload into a span: class and method ids, then each argument in order, checked against
/// the method's definition (a wrong domain, a missing or an extra argument throws <see cref="InvalidOperationException"/>).
/// Bits are packed as they come.
/// </summary>
/// <example>
/// <code>
/// var encoder = new AmqpMethodWriter(span, AmqpMethods.BasicAck);
/// encoder.WriteLongLong(deliveryTag);
/// encoder.WriteBit(multiple);
/// int payloadLength = encoder.Complete();
/// </code>
/// </example>
public ref struct AmqpMethodWriter
{
    private AmqpPayloadWriter _writer;
    private readonly AmqpMethod _method;
    private int _next;

    /// <summary>Starts <paramref name="method"/>'s payload at the beginning of <paramref name="destination"/>.</summary>
    /// <param name="destination">Where the bytes are written.</param>
    /// <param name="method">The method to write.</param>
    public AmqpMethodWriter(Span<byte> destination, AmqpMethod method)
    {
        ArgumentNullException.ThrowIfNull(method);
        _method = method;
        _writer = new AmqpPayloadWriter(destination);
        _writer.WriteShort(method.ClassId);
        _writer.WriteShort(method.MethodId);
    }

    /// <summary>The method being written.</summary>
    public readonly AmqpMethod Method => _method;

    /// <summary>Bytes written so far.</summary>
    public readonly int BytesWritten => _writer.Position;

    /// <summary>Writes an octet argument.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteOctet(byte value)
    {
        Next(AmqpArgumentType.Octet);
        _writer.WriteOctet(value);
    }

    /// <summary>Writes a short argument.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteShort(ushort value)
    {
        Next(AmqpArgumentType.Short);
        _writer.WriteShort(value);
    }

    /// <summary>Writes a long argument.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteLong(uint value)
    {
        Next(AmqpArgumentType.Long);
        _writer.WriteLong(value);
    }

    /// <summary>Writes a longlong argument.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteLongLong(ulong value)
    {
        Next(AmqpArgumentType.LongLong);
        _writer.WriteLongLong(value);
    }

    /// <summary>Writes a timestamp argument.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteTimestamp(AmqpTimestamp value)
    {
        Next(AmqpArgumentType.Timestamp);
        _writer.WriteTimestamp(value);
    }

    /// <summary>Writes a bit argument.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteBit(bool value)
    {
        Next(AmqpArgumentType.Bit);
        _writer.WriteBit(value);
    }

    /// <summary>Writes a shortstr argument from bytes.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteShortString(ReadOnlySpan<byte> value)
    {
        Next(AmqpArgumentType.ShortString);
        _writer.WriteShortString(value);
    }

    /// <summary>Writes a shortstr argument from text, as UTF-8.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteShortString(ReadOnlySpan<char> value)
    {
        Next(AmqpArgumentType.ShortString);
        _writer.WriteShortString(value);
    }

    /// <summary>Writes a longstr argument from bytes.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteLongString(ReadOnlySpan<byte> value)
    {
        Next(AmqpArgumentType.LongString);
        _writer.WriteLongString(value);
    }

    /// <summary>Writes a longstr argument from text, as UTF-8.</summary>
    /// <param name="value">The value to write.</param>
    public void WriteLongString(ReadOnlySpan<char> value)
    {
        Next(AmqpArgumentType.LongString);
        _writer.WriteLongString(value);
    }

    /// <summary>Writes a table argument from an encoded table.</summary>
    /// <param name="table">The table.</param>
    public void WriteTable(FieldTable table)
    {
        Next(AmqpArgumentType.Table);
        _writer.WriteTable(table);
    }

    /// <summary>Writes a table argument copied from a table being read (to forward one as is).</summary>
    /// <param name="table">The table, already encoded.</param>
    public void WriteTable(FieldTableReader table)
    {
        Next(AmqpArgumentType.Table);
        _writer.WriteLong((uint)table.RawContent.Length);
        _writer.WriteBytes(table.RawContent);
    }

    /// <summary>
    /// Starts a table argument written in place: write the fields with the returned writer, then call
    /// <see cref="EndTable"/> with it.
    /// </summary>
    /// <returns>A writer over the room left in the frame, to pass to <see cref="EndTable"/> when the fields are written.</returns>
    public FieldTableWriter BeginTable()
    {
        Next(AmqpArgumentType.Table);
        return new FieldTableWriter(_writer.FreeSpan);
    }

    /// <summary>Ends a table argument started with <see cref="BeginTable"/>.</summary>
    /// <param name="table">The nested table being written (from BeginTable).</param>
    public void EndTable(ref FieldTableWriter table) => _writer.Advance(table.Complete());

    /// <summary>Checks every argument was written and returns the payload length.</summary>
    /// <returns>The number of bytes written.</returns>
    public readonly int Complete()
    {
        if (_next != _method.Arguments.Length)
        {
            AmqpThrow.InvalidOperation($"{_method.Name} takes {_method.Arguments.Length} arguments; {_next} were written.");
        }

        return _writer.Position;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Next(AmqpArgumentType type)
    {
        int index = _next;
        AmqpArgumentType[] types = _method.ArgumentTypes;
        if ((uint)index >= (uint)types.Length || types[index] != type)
        {
            ThrowUnexpected(index, type);
        }

        _next = index + 1;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void ThrowUnexpected(int index, AmqpArgumentType type) =>
        AmqpThrow.InvalidOperation(index >= _method.Arguments.Length
            ? $"{_method.Name} takes {_method.Arguments.Length} arguments; a {type} was written after the last."
            : $"{_method.Name} argument {index} ({_method.Arguments[index].Name}) is a {_method.Arguments[index].Type}, not a {type}.");
}
