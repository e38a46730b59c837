using System.Buffers;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// The frame writers and argument views generated from the method table: whole frames as the specification lays
/// them out, every writer the client uses against the table-driven encoder with random arguments, and the views
/// reading back what was written.
/// </summary>
public class MethodFrameTests
{
    private const int Seed = 4242;

    public static TheoryData<string, string, string> Vectors => new()
    {
        // frame type, channel, payload size, class and method ids, arguments, frame end
        { "channel.open: its reserved shortstr is empty", "01 0001 00000005 0014000A 00 CE", nameof(ChannelOpen) },
        { "basic.ack: a longlong tag, then the multiple bit", "01 0002 0000000D 003C0050 0000000000000005 01 CE", nameof(BasicAck) },
        { "queue.declare: reserved short, name, five bits in one octet (durable is bit 1), empty table", "01 0001 0000000D 0032000A 0000 0171 02 00000000 CE", nameof(QueueDeclare) },
        { "connection.tune-ok: short, long, short on channel 0", "01 0000 0000000C 000A001F 07FF 00020000 003C CE", nameof(TuneOk) },
        { "connection.open: the vhost, a reserved empty shortstr and a reserved bit", "01 0000 00000008 000A0028 012F 00 00 CE", nameof(ConnectionOpen) },
        { "basic.consume: no-local, no-ack, exclusive, no-wait are bits 0 to 3", "01 0003 0000000F 003C0014 0000 0171 0174 06 00000000 CE", nameof(Consume) },
    };

    [Theory]
    [MemberData(nameof(Vectors))]
    public void A_generated_writer_lays_the_frame_out_as_the_specification_does(string reason, string expectedHex, string writer)
    {
        byte[] actual = Write(writer switch
        {
            nameof(ChannelOpen) => ChannelOpen,
            nameof(BasicAck) => BasicAck,
            nameof(QueueDeclare) => QueueDeclare,
            nameof(TuneOk) => TuneOk,
            nameof(ConnectionOpen) => ConnectionOpen,
            _ => Consume,
        });

        Expect.Equal(expectedHex.Replace(" ", "", StringComparison.Ordinal), Convert.ToHexString(actual), reason);
    }

    [Fact]
    public void The_generated_basic_ack_writes_the_same_frame_as_the_hand_tuned_one()
    {
        var random = new Random(Seed);
        for (int round = 0; round < 200; round++)
        {
            ushort channel = (ushort)random.Next(1, 65536);
            ulong tag = (ulong)random.NextInt64();
            bool multiple = random.Next(2) == 1;
            byte[] generated = Write(o => AmqpMethodFrames.WriteBasicAck(o, channel, tag, multiple));
            byte[] tuned = Write(o => AmqpFrameWriter.WriteBasicAck(o, channel, tag, multiple));
            Expect.Equal(Convert.ToHexString(tuned), Convert.ToHexString(generated), $"seed {Seed}, round {round}, tag {tag}, multiple {multiple}");
        }
    }

    [Fact]
    public void Every_writer_the_client_uses_writes_what_the_table_driven_encoder_writes()
    {
        var random = new RandomAmqp(Seed);
        for (int round = 0; round < 300; round++)
        {
            ushort ch = (ushort)random.Random.Next(65536);
            string a = random.ShortText(), b = random.ShortText(), c = random.ShortText();
            bool[] bits = [.. Enumerable.Range(0, 5).Select(_ => random.Random.Next(2) == 1)];
            FieldTable table = FieldTable.FromDictionary(random.Table(0));
            byte[] bytes = random.Bytes(300);
            ushort s = (ushort)random.Random.Next(65536);
            uint l = (uint)random.Random.NextInt64(uint.MaxValue + 1L);
            ulong ll = (ulong)random.Random.NextInt64();
            string context = $"seed {Seed}, round {round}";
            Same(o => AmqpMethodFrames.WriteConnectionStartOk(o, 0, table, a, bytes, b), AmqpMethods.ConnectionStartOk, 0, context, table, a, bytes, b);
            Same(o => AmqpMethodFrames.WriteConnectionSecureOk(o, 0, bytes), AmqpMethods.ConnectionSecureOk, 0, context, bytes);
            Same(o => AmqpMethodFrames.WriteConnectionTuneOk(o, 0, s, l, s), AmqpMethods.ConnectionTuneOk, 0, context, s, l, s);
            Same(o => AmqpMethodFrames.WriteConnectionOpen(o, 0, a), AmqpMethods.ConnectionOpen, 0, context, a, "", false);
            Same(o => AmqpMethodFrames.WriteConnectionClose(o, 0, s, a, s, s), AmqpMethods.ConnectionClose, 0, context, s, a, s, s);
            Same(o => AmqpMethodFrames.WriteConnectionCloseOk(o, 0), AmqpMethods.ConnectionCloseOk, 0, context);
            Same(o => AmqpMethodFrames.WriteConnectionUpdateSecret(o, 0, bytes, a), AmqpMethods.ConnectionUpdateSecret, 0, context, bytes, a);
            Same(o => AmqpMethodFrames.WriteChannelOpen(o, ch), AmqpMethods.ChannelOpen, ch, context, "");
            Same(o => AmqpMethodFrames.WriteChannelClose(o, ch, s, a, s, s), AmqpMethods.ChannelClose, ch, context, s, a, s, s);
            Same(o => AmqpMethodFrames.WriteChannelCloseOk(o, ch), AmqpMethods.ChannelCloseOk, ch, context);
            Same(o => AmqpMethodFrames.WriteChannelFlowOk(o, ch, bits[0]), AmqpMethods.ChannelFlowOk, ch, context, bits[0]);
            Same(o => AmqpMethodFrames.WriteExchangeDeclare(o, ch, a, b, bits[0], bits[1], bits[2], bits[3], bits[4], table), AmqpMethods.ExchangeDeclare, ch, context,
                (ushort)0, a, b, bits[0], bits[1], bits[2], bits[3], bits[4], table);
            Same(o => AmqpMethodFrames.WriteExchangeDelete(o, ch, a, bits[0], bits[1]), AmqpMethods.ExchangeDelete, ch, context, (ushort)0, a, bits[0], bits[1]);
            Same(o => AmqpMethodFrames.WriteExchangeBind(o, ch, a, b, c, bits[0], table), AmqpMethods.ExchangeBind, ch, context, (ushort)0, a, b, c, bits[0], table);
            Same(o => AmqpMethodFrames.WriteExchangeUnbind(o, ch, a, b, c, bits[0], table), AmqpMethods.ExchangeUnbind, ch, context, (ushort)0, a, b, c, bits[0], table);
            Same(o => AmqpMethodFrames.WriteQueueDeclare(o, ch, a, bits[0], bits[1], bits[2], bits[3], bits[4], table), AmqpMethods.QueueDeclare, ch, context,
                (ushort)0, a, bits[0], bits[1], bits[2], bits[3], bits[4], table);
            Same(o => AmqpMethodFrames.WriteQueueBind(o, ch, a, b, c, bits[0], table), AmqpMethods.QueueBind, ch, context, (ushort)0, a, b, c, bits[0], table);
            Same(o => AmqpMethodFrames.WriteQueueUnbind(o, ch, a, b, c, table), AmqpMethods.QueueUnbind, ch, context, (ushort)0, a, b, c, table);
            Same(o => AmqpMethodFrames.WriteQueuePurge(o, ch, a, bits[0]), AmqpMethods.QueuePurge, ch, context, (ushort)0, a, bits[0]);
            Same(o => AmqpMethodFrames.WriteQueueDelete(o, ch, a, bits[0], bits[1], bits[2]), AmqpMethods.QueueDelete, ch, context, (ushort)0, a, bits[0], bits[1], bits[2]);
            Same(o => AmqpMethodFrames.WriteBasicQos(o, ch, l, s, bits[0]), AmqpMethods.BasicQos, ch, context, l, s, bits[0]);
            Same(o => AmqpMethodFrames.WriteBasicConsume(o, ch, a, b, bits[0], bits[1], bits[2], bits[3], table), AmqpMethods.BasicConsume, ch, context,
                (ushort)0, a, b, bits[0], bits[1], bits[2], bits[3], table);
            Same(o => AmqpMethodFrames.WriteBasicCancel(o, ch, a, bits[0]), AmqpMethods.BasicCancel, ch, context, a, bits[0]);
            Same(o => AmqpMethodFrames.WriteBasicCancelOk(o, ch, a), AmqpMethods.BasicCancelOk, ch, context, a);
            Same(o => AmqpMethodFrames.WriteBasicGet(o, ch, a, bits[0]), AmqpMethods.BasicGet, ch, context, (ushort)0, a, bits[0]);
            Same(o => AmqpMethodFrames.WriteBasicNack(o, ch, ll, bits[0], bits[1]), AmqpMethods.BasicNack, ch, context, ll, bits[0], bits[1]);
            Same(o => AmqpMethodFrames.WriteBasicReject(o, ch, ll, bits[0]), AmqpMethods.BasicReject, ch, context, ll, bits[0]);
            Same(o => AmqpMethodFrames.WriteConfirmSelect(o, ch, bits[0]), AmqpMethods.ConfirmSelect, ch, context, bits[0]);
            Same(o => AmqpMethodFrames.WriteTxSelect(o, ch), AmqpMethods.TxSelect, ch, context);
            Same(o => AmqpMethodFrames.WriteTxCommit(o, ch), AmqpMethods.TxCommit, ch, context);
            Same(o => AmqpMethodFrames.WriteTxRollback(o, ch), AmqpMethods.TxRollback, ch, context);
        }
    }

    [Fact]
    public void The_views_read_every_argument_by_name_from_what_was_written()
    {
        var random = new RandomAmqp(Seed + 1);
        for (int round = 0; round < 300; round++)
        {
            string queue = random.ShortText(), text = random.ShortText();
            uint messages = (uint)random.Random.NextInt64(uint.MaxValue + 1L), consumers = (uint)random.Random.Next();
            ushort code = (ushort)random.Random.Next(65536), classId = (ushort)random.Random.Next(65536), methodId = (ushort)random.Random.Next(65536);
            ulong tag = (ulong)random.Random.NextInt64();
            bool redelivered = random.Random.Next(2) == 1;
            string context = $"seed {Seed + 1}, round {round}";

            var declareOk = new QueueDeclareOkArguments(Parse(o => AmqpMethodFrames.WriteQueueDeclareOk(o, 1, queue, messages, consumers)));
            Expect.Equal(queue, declareOk.Queue, context);
            Expect.Equal(messages, declareOk.MessageCount, context);
            Expect.Equal(consumers, declareOk.ConsumerCount, context);

            var close = new ChannelCloseArguments(Parse(o => AmqpMethodFrames.WriteChannelClose(o, 1, code, text, classId, methodId)));
            Expect.Equal((code, text, classId, methodId), (close.ReplyCode, close.ReplyText, close.ClassId, close.MethodId), context);

            var deliver = new BasicDeliverArguments(Parse(o => AmqpMethodFrames.WriteBasicDeliver(o, 1, text, tag, redelivered, queue, text)));
            Expect.Equal((text, tag, redelivered, queue, text), (deliver.ConsumerTag, deliver.DeliveryTag, deliver.Redelivered, deliver.Exchange, deliver.RoutingKey), context);
            Expect.Equal(Convert.ToHexString(System.Text.Encoding.UTF8.GetBytes(text)), Convert.ToHexString(deliver.ConsumerTagBytes), context);
        }
    }

    [Fact]
    public void A_view_of_another_method_is_refused_with_both_names()
    {
        byte[] ack = Write(BasicAck);
        ArgumentException error = Assert.Throws<ArgumentException>(() => new QueueDeclareOkArguments(AmqpMethodReader.Parse(ack.AsSpan(7, ack.Length - 8))));
        Assert.Contains("basic.ack", error.Message, StringComparison.Ordinal);
        Assert.Contains("queue.declare-ok", error.Message, StringComparison.Ordinal);
    }

    private static void ChannelOpen(IBufferWriter<byte> o) => AmqpMethodFrames.WriteChannelOpen(o, 1);

    private static void BasicAck(IBufferWriter<byte> o) => AmqpMethodFrames.WriteBasicAck(o, 2, 5, true);

    private static void QueueDeclare(IBufferWriter<byte> o) => AmqpMethodFrames.WriteQueueDeclare(o, 1, "q", passive: false, durable: true, exclusive: false, autoDelete: false, noWait: false, default);

    private static void TuneOk(IBufferWriter<byte> o) => AmqpMethodFrames.WriteConnectionTuneOk(o, 0, 2047, 131072, 60);

    private static void ConnectionOpen(IBufferWriter<byte> o) => AmqpMethodFrames.WriteConnectionOpen(o, 0, "/");

    private static void Consume(IBufferWriter<byte> o) => AmqpMethodFrames.WriteBasicConsume(o, 3, "q", "t", noLocal: false, noAck: true, exclusive: true, noWait: false, default);

    private static byte[] Write(Action<IBufferWriter<byte>> write)
    {
        var output = new ArrayBufferWriter<byte>();
        write(output);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>The method in one frame written by <paramref name="write"/> (the frame header and end stripped).</summary>
    private static AmqpMethodReader Parse(Action<IBufferWriter<byte>> write)
    {
        byte[] frame = Write(write);
        return AmqpMethodReader.Parse(frame.AsSpan(7, frame.Length - 8));
    }

    private static void Same(Action<IBufferWriter<byte>> generated, AmqpMethod method, ushort channel, string context, params object[] values)
    {
        string expected = Convert.ToHexString(Control(method, channel, values));
        string actual = Convert.ToHexString(Write(generated));
        Expect.Equal(expected, actual, $"{method.Name}, {context}");
    }

    /// <summary>The control: the method's arguments written one by one in the order and domains of its row in the table.</summary>
    private static byte[] Control(AmqpMethod method, ushort channel, object[] values)
    {
        Assert.Equal(method.Arguments.Length, values.Length);
        int variable = values.Sum(v => v switch { byte[] longString => 4 + longString.Length, FieldTable table => table.EncodedLength, _ => 0 });
        var output = new ArrayBufferWriter<byte>();
        AmqpMethodFrame frame = variable == 0 ? AmqpFrameWriter.BeginMethod(output, channel, method) : AmqpFrameWriter.BeginMethod(output, channel, method, method.GetMaxArgumentsSize(variable));
        for (int i = 0; i < values.Length; i++)
        {
            switch (method.Arguments[i].Type, values[i])
            {
                case (AmqpArgumentType.Short, ushort value):
                    frame.Arguments.WriteShort(value);
                    break;
                case (AmqpArgumentType.Long, uint value):
                    frame.Arguments.WriteLong(value);
                    break;
                case (AmqpArgumentType.LongLong, ulong value):
                    frame.Arguments.WriteLongLong(value);
                    break;
                case (AmqpArgumentType.Bit, bool value):
                    frame.Arguments.WriteBit(value);
                    break;
                case (AmqpArgumentType.ShortString, string value):
                    frame.Arguments.WriteShortString(value);
                    break;
                case (AmqpArgumentType.LongString, byte[] value):
                    frame.Arguments.WriteLongString(value);
                    break;
                case (AmqpArgumentType.Table, FieldTable value):
                    frame.Arguments.WriteTable(value);
                    break;
                default:
                    throw new ArgumentException($"{method.Name} argument {i} is a {method.Arguments[i].Type}, given {values[i]?.GetType().Name}");
            }
        }

        frame.Complete();
        return output.WrittenSpan.ToArray();
    }
}
