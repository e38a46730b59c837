using System.Runtime.CompilerServices;
using System.Text;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// A method frame's payload, decoded against its definition in <see cref="AmqpMethods"/>: every argument was checked
/// when parsed, strings and tables are slices of the payload (nothing copied, nothing allocated). Read arguments by
/// index, in the order of <see cref="AmqpMethod.Arguments"/>; asking for the wrong domain throws
/// <see cref="InvalidOperationException"/>.
/// </summary>
/// <example>
/// <code>
/// AmqpMethodReader method = AmqpMethodReader.Parse(payload);
/// if (method.Method == AmqpMethods.BasicDeliver)
/// {
///     ulong deliveryTag = method.GetLongLong(1);
///     ReadOnlySpan&lt;byte&gt; routingKey = method.GetShortString(4);
/// }
/// </code>
/// </example>
public readonly ref struct AmqpMethodReader
{
    /// <summary>The most arguments any method has (exchange.declare has nine).</summary>
    public const int MaxArguments = 10;

    private readonly ReadOnlySpan<byte> _payload;
    private readonly ArgumentSlots _slots;

    private AmqpMethodReader(ReadOnlySpan<byte> payload, AmqpMethod method, long offset, ArgumentSlots slots)
    {
        _payload = payload;
        Method = method;
        Offset = offset;
        _slots = slots;
    }

    /// <summary>The method's definition.</summary>
    public AmqpMethod Method { get; }

    /// <summary>The stream offset of the payload.</summary>
    public long Offset { get; }

    /// <summary>The whole payload: class id, method id, arguments.</summary>
    public ReadOnlySpan<byte> Payload => _payload;

    /// <summary>
    /// Decodes a method frame's payload. Unknown class or method ids, truncated or over-long arguments, malformed
    /// tables and trailing bytes throw <see cref="AmqpProtocolException"/> with the offset.
    /// </summary>
    /// <param name="payload">The frame payload, starting with the class id.</param>
    /// <param name="offset">The stream offset of the payload, for error messages.</param>
    /// <returns>A reader over the payload (nothing is copied).</returns>
    public static AmqpMethodReader Parse(ReadOnlySpan<byte> payload, long offset = 0)
    {
        var reader = new AmqpPayloadReader(payload, offset);
        if (payload.Length < 4)
        {
            AmqpThrow.Protocol(AmqpReplyCode.FrameError, offset, $"A method frame payload needs at least 4 bytes (class and method ids); it has {payload.Length}.");
        }

        ushort classId = reader.ReadShort();
        ushort methodId = reader.ReadShort();
        AmqpMethod? method = AmqpMethods.Find(classId, methodId);
        if (method is null)
        {
            AmqpThrow.Protocol(AmqpReplyCode.CommandInvalid, offset, $"Unknown method: class {classId}, method {methodId}.");
        }

        var slots = default(ArgumentSlots);
        AmqpArgumentType[] types = method.ArgumentTypes;
        for (int i = 0; i < types.Length; i++)
        {
            int start = reader.Position;
            slots[i] = types[i] switch
            {
                AmqpArgumentType.Octet => reader.ReadOctet(),
                AmqpArgumentType.Short => reader.ReadShort(),
                AmqpArgumentType.Long => reader.ReadLong(),
                AmqpArgumentType.LongLong => reader.ReadLongLong(),
                AmqpArgumentType.Timestamp => reader.ReadLongLong(),
                AmqpArgumentType.Bit => reader.ReadBit() ? 1UL : 0UL,
                AmqpArgumentType.ShortString => PayloadSlot.Pack(start + 1, reader.ReadShortString().Length),
                AmqpArgumentType.LongString => PayloadSlot.Pack(start + 4, reader.ReadLongString().Length),
                _ => PayloadSlot.Pack(start + 4, reader.ReadTable().RawContent.Length),
            };
        }

        reader.EnsureEnd(method.Name);
        return new AmqpMethodReader(payload, method, offset, slots);
    }

    /// <summary>An octet argument.</summary>
    /// <param name="index">The argument's position in the method's argument list.</param>
    /// <returns>The argument's value.</returns>
    public byte GetOctet(int index) => (byte)Get(index, AmqpArgumentType.Octet);

    /// <summary>A short argument.</summary>
    /// <param name="index">The argument's position in the method's argument list.</param>
    /// <returns>The argument's value.</returns>
    public ushort GetShort(int index) => (ushort)Get(index, AmqpArgumentType.Short);

    /// <summary>A long argument.</summary>
    /// <param name="index">The argument's position in the method's argument list.</param>
    /// <returns>The argument's value.</returns>
    public uint GetLong(int index) => (uint)Get(index, AmqpArgumentType.Long);

    /// <summary>A longlong argument.</summary>
    /// <param name="index">The argument's position in the method's argument list.</param>
    /// <returns>The argument's value.</returns>
    public ulong GetLongLong(int index) => Get(index, AmqpArgumentType.LongLong);

    /// <summary>A timestamp argument.</summary>
    /// <param name="index">The argument's position in the method's argument list.</param>
    /// <returns>The argument's value.</returns>
    public AmqpTimestamp GetTimestamp(int index) => new((long)Get(index, AmqpArgumentType.Timestamp));

    /// <summary>A bit argument.</summary>
    /// <param name="index">The argument's position in the method's argument list.</param>
    /// <returns>The argument's value.</returns>
    public bool GetBit(int index) => Get(index, AmqpArgumentType.Bit) != 0;

    /// <summary>A shortstr argument's bytes.</summary>
    /// <param name="index">The argument's position in the method's argument list.</param>
    /// <returns>The argument's value.</returns>
    public ReadOnlySpan<byte> GetShortString(int index) => Bytes(Get(index, AmqpArgumentType.ShortString));

    /// <summary>A longstr argument's bytes.</summary>
    /// <param name="index">The argument's position in the method's argument list.</param>
    /// <returns>The argument's value.</returns>
    public ReadOnlySpan<byte> GetLongString(int index) => Bytes(Get(index, AmqpArgumentType.LongString));

    /// <summary>A table argument.</summary>
    /// <param name="index">The argument's position in the method's argument list.</param>
    /// <returns>The argument's value.</returns>
    public FieldTableReader GetTable(int index)
    {
        ulong slot = Get(index, AmqpArgumentType.Table);
        return new FieldTableReader(Bytes(slot), Offset + PayloadSlot.Start(slot));
    }

    /// <summary>A shortstr or longstr argument decoded from UTF-8. Allocates the string.</summary>
    /// <param name="index">The argument's position in the method's argument list.</param>
    /// <returns>The argument's value.</returns>
    public string GetString(int index) =>
        Encoding.UTF8.GetString(Method.Arguments[index].Type == AmqpArgumentType.LongString ? GetLongString(index) : GetShortString(index));

    /// <summary>The method and its named arguments on one line, as the CLI prints them.</summary>
    /// <returns>A readable description, for logs and the tool.</returns>
    public override string ToString()
    {
        var text = new StringBuilder(Method.Name);
        for (int i = 0; i < Method.Arguments.Length; i++)
        {
            AmqpArgument argument = Method.Arguments[i];
            text.Append(' ').Append(argument.Name).Append('=');
            switch (argument.Type)
            {
                case AmqpArgumentType.Bit: text.Append(GetBit(i) ? "true" : "false"); break;
                case AmqpArgumentType.ShortString: FieldTableConversion.AppendQuoted(text, GetShortString(i), quoteAlways: true); break;
                case AmqpArgumentType.LongString:
                    ReadOnlySpan<byte> longString = GetLongString(i);
                    if (argument.Name is "response" or "new-secret" or "challenge")
                    {
                        text.Append('<').Append(longString.Length).Append(" bytes>");
                    }
                    else
                    {
                        FieldTableConversion.AppendQuoted(text, longString, quoteAlways: true);
                    }

                    break;
                case AmqpArgumentType.Table: FieldTableConversion.Describe(GetTable(i), text); break;
                case AmqpArgumentType.Timestamp: text.Append(GetTimestamp(i).ToString()); break;
                default: text.Append(_slots[i]); break;
            }
        }

        return text.ToString();
    }

    private ReadOnlySpan<byte> Bytes(ulong slot) => PayloadSlot.Slice(_payload, slot);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ulong Get(int index, AmqpArgumentType type)
    {
        AmqpArgumentType[] types = Method.ArgumentTypes;
        if ((uint)index >= (uint)types.Length || types[index] != type)
        {
            ThrowWrongArgument(index, type);
        }

        return _slots[index];
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowWrongArgument(int index, AmqpArgumentType type) =>
        AmqpThrow.InvalidOperation((uint)index >= (uint)Method.Arguments.Length
            ? $"{Method.Name} has {Method.Arguments.Length} arguments; there is no argument {index}."
            : $"{Method.Name} argument {index} ({Method.Arguments[index].Name}) is a {Method.Arguments[index].Type}, not a {type}.");

    [InlineArray(MaxArguments)]
    private struct ArgumentSlots
    {
        private ulong _element0;
    }
}
