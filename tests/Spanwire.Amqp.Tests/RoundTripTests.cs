using System.Buffers;
using System.Collections;

namespace Spanwire.Amqp.Tests;

/// <summary>Seeded round trips: every method with random arguments, random nested tables, random properties.</summary>
public class RoundTripTests
{
    private const int Seed = 20261121;

    public static TheoryData<string> MethodNames => [.. AmqpMethods.All.Select(m => m.Name)];

    [Theory]
    [MemberData(nameof(MethodNames))]
    public void Every_method_round_trips_with_random_arguments(string name)
    {
        AmqpMethod method = AmqpMethods.All.Single(m => m.Name == name);
        var random = new RandomAmqp(Seed ^ (int)method.Id);
        for (int round = 0; round < 200; round++)
        {
            object?[] values = method.Arguments.Select(a => RandomArgument(random, a.Type)).ToArray();
            var output = new ArrayBufferWriter<byte>();
            ushort channel = (ushort)random.Random.Next(ushort.MaxValue + 1);
            int maxSize = values.Sum(v => v is byte[] b ? b.Length + 4 : v is FieldTable t ? t.EncodedLength : 256 * 3 + 8);
            AmqpMethodFrame frame = AmqpFrameWriter.BeginMethod(output, channel, method, maxSize);
            for (int i = 0; i < values.Length; i++)
            {
                WriteArgument(ref frame.Arguments, method.Arguments[i].Type, values[i]);
            }

            int frameSize = frame.Complete();
            Assert.Equal(output.WrittenCount, frameSize);
            Assert.Equal(ExpectedPayloadSize(method, values) + 8, frameSize);

            ReadOnlySequence<byte> input = round % 10 == 0 ? OneByteSegments(output.WrittenSpan) : new ReadOnlySequence<byte>(output.WrittenMemory);
            var decoder = new AmqpFrameReader { FrameMax = 0 };
            Assert.True(decoder.TryReadFrame(ref input, out AmqpFrame decoded), $"seed {Seed}, round {round}");
            Assert.Equal(channel, decoded.Channel);
            AmqpMethodReader view = AmqpMethodReader.Parse(decoder.GetPayloadSpan(decoded), decoded.PayloadOffset);
            Assert.Same(method, view.Method);
            for (int i = 0; i < values.Length; i++)
            {
                AssertArgument(view, i, values[i]);
            }
        }
    }

    [Fact]
    public void Arguments_out_of_order_or_missing_are_refused()
    {
        byte[] buffer = new byte[64];
        Assert.Throws<InvalidOperationException>(() => new AmqpMethodWriter(buffer, AmqpMethods.BasicAck).WriteShort(1));
        Assert.Throws<InvalidOperationException>(() =>
        {
            var encoder = new AmqpMethodWriter(buffer, AmqpMethods.BasicAck);
            encoder.WriteLongLong(1);
            encoder.Complete();
        });
        Assert.Throws<InvalidOperationException>(() =>
        {
            var encoder = new AmqpMethodWriter(buffer, AmqpMethods.ChannelCloseOk);
            encoder.WriteBit(true);
        });
    }

    [Fact]
    public void Nested_dictionaries_and_lists_write_as_any_other_collections_do_and_allocate_nothing()
    {
        // Dictionary and List are walked with their own enumerators; every other collection through the interfaces.
        // Keys in sorted order, so the sorted collections below write them in the same order.
        var asUsual = new Dictionary<string, object?>
        {
            ["a"] = 1,
            ["array"] = new List<object?> { 3, new Dictionary<string, object?> { ["z"] = 4L } },
            ["table"] = new Dictionary<string, object?> { ["deeper"] = new List<object?> { 1, "two", null }, ["x"] = "y" },
        };
        var asOthers = new SortedList<string, object?>
        {
            ["a"] = 1,
            ["array"] = new object?[] { 3, new SortedDictionary<string, object?> { ["z"] = 4L } },
            ["table"] = new System.Collections.ObjectModel.ReadOnlyDictionary<string, object?>(new SortedList<string, object?> { ["deeper"] = new object?[] { 1, "two", null }, ["x"] = "y" }),
        };
        var buffer = new byte[256];
        int Write(IEnumerable<KeyValuePair<string, object?>> fields)
        {
            var writer = new FieldTableWriter(buffer);
            foreach (KeyValuePair<string, object?> field in fields)
            {
                writer.WriteName(field.Key);
                FieldTableConversion.WriteValue(ref writer, field.Value);
            }

            return writer.Complete();
        }

        byte[] expected = buffer[..Write(asOthers)];
        Assert.Equal(expected, buffer[..Write(asUsual)]);

        object? nested = asUsual["table"];
        Write([new("t", nested)]); // warm up
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 100; i++)
        {
            var writer = new FieldTableWriter(buffer);
            writer.WriteName("t");
            FieldTableConversion.WriteValue(ref writer, nested);
            writer.WriteName("u");
            FieldTableConversion.WriteValue(ref writer, asUsual["array"]);
        }

        Expect.Equal(0L, GC.GetAllocatedBytesForCurrentThread() - before, "bytes allocated writing a nested Dictionary and List 100 times");
    }

    [Fact]
    public void Random_nested_tables_round_trip_through_dictionaries_to_the_same_bytes()
    {
        var random = new RandomAmqp(Seed);
        for (int round = 0; round < 500; round++)
        {
            Dictionary<string, object?> table = random.Table(0);
            byte[] encoded = FieldTableConversion.Encode(table);
            FieldTableReader reader = FieldTableReader.Parse(encoded);
            Dictionary<string, object?> back = reader.ToDictionary();
            AssertDeepEqual(table, back, $"seed {Seed}, round {round}");
            Assert.Equal(encoded, FieldTableConversion.Encode(back));
            if (round % 25 == 0)
            {
                // The same table read from 1-byte segments inside a frame: header arguments of queue.declare.
                var output = new ArrayBufferWriter<byte>();
                AmqpMethodFrame frame = AmqpFrameWriter.BeginMethod(output, 1, AmqpMethods.QueueDeclare, 300 + encoded.Length);
                frame.Arguments.WriteShort(0);
                frame.Arguments.WriteShortString("q");
                for (int b = 0; b < 5; b++)
                {
                    frame.Arguments.WriteBit(false);
                }

                frame.Arguments.WriteTable(FieldTable.FromEncoded(encoded));
                frame.Complete();
                ReadOnlySequence<byte> input = OneByteSegments(output.WrittenSpan);
                var decoder = new AmqpFrameReader { FrameMax = 0 };
                Assert.True(decoder.TryReadFrame(ref input, out AmqpFrame decoded));
                AmqpMethodReader view = AmqpMethodReader.Parse(decoder.GetPayloadSpan(decoded));
                AssertDeepEqual(table, view.GetTable(7).ToDictionary(), $"seed {Seed}, round {round}, in a frame");
            }
        }
    }

    [Fact]
    public void Random_properties_round_trip()
    {
        var random = new RandomAmqp(Seed);
        for (int round = 0; round < 2000; round++)
        {
            BasicProperties properties = RandomProperties(random);
            ulong bodySize = (ulong)random.Random.NextInt64();
            byte[] payload = new byte[AmqpContentHeader.GetEncodedSize(properties)];
            Assert.Equal(payload.Length, AmqpContentHeader.Write(payload, 60, bodySize, properties));
            AmqpContentHeader header = AmqpContentHeader.Parse(payload);
            Assert.Equal(bodySize, header.BodySize);
            Assert.Equal(properties.Flags, header.Flags);
            BasicProperties back = header.ToBasicProperties();
            Assert.Equal(properties.ContentType, back.ContentType);
            Assert.Equal(properties.DeliveryMode, back.DeliveryMode);
            Assert.Equal(properties.Priority, back.Priority);
            Assert.Equal(properties.Timestamp, back.Timestamp);
            Assert.Equal(properties.ClusterId, back.ClusterId);
            Assert.Equal(properties.Headers?.Span.ToArray(), back.Headers?.Span.ToArray());
            byte[] again = new byte[payload.Length];
            AmqpContentHeader.Write(again, 60, bodySize, back);
            Assert.Equal(payload, again);
        }
    }

    internal static BasicProperties RandomProperties(RandomAmqp random)
    {
        Random r = random.Random;
        string? Maybe() => r.Next(2) == 0 ? null : random.ShortText(60);
        return new BasicProperties
        {
            ContentType = Maybe(),
            ContentEncoding = Maybe(),
            Headers = r.Next(2) == 0 ? null : FieldTable.FromDictionary(random.Table(1)),
            DeliveryMode = r.Next(2) == 0 ? null : (byte)r.Next(256),
            Priority = r.Next(2) == 0 ? null : (byte)r.Next(256),
            CorrelationId = Maybe(),
            ReplyTo = Maybe(),
            Expiration = Maybe(),
            MessageId = Maybe(),
            Timestamp = r.Next(2) == 0 ? null : new AmqpTimestamp(r.NextInt64(0, 4_000_000_000)),
            Type = Maybe(),
            UserId = Maybe(),
            AppId = Maybe(),
            ClusterId = Maybe(),
        };
    }

    private static object? RandomArgument(RandomAmqp random, AmqpArgumentType type) => type switch
    {
        AmqpArgumentType.Octet => (byte)random.Random.Next(256),
        AmqpArgumentType.Short => (ushort)random.Random.Next(65536),
        AmqpArgumentType.Long => (uint)random.Random.NextInt64(uint.MaxValue + 1L),
        AmqpArgumentType.LongLong => (ulong)random.Random.NextInt64() * 2 + (ulong)random.Random.Next(2),
        AmqpArgumentType.Timestamp => new AmqpTimestamp(random.Random.NextInt64()),
        AmqpArgumentType.Bit => random.Random.Next(2) == 1,
        // Up to 255 bytes: the longest shortstr.
        AmqpArgumentType.ShortString => random.Random.Next(8) == 0 ? new string('s', 255) : random.ShortText(80),
        AmqpArgumentType.LongString => random.Bytes(600),
        _ => FieldTable.FromDictionary(random.Table(1)),
    };

    private static void WriteArgument(ref AmqpMethodWriter encoder, AmqpArgumentType type, object? value)
    {
        switch (type)
        {
            case AmqpArgumentType.Octet: encoder.WriteOctet((byte)value!); break;
            case AmqpArgumentType.Short: encoder.WriteShort((ushort)value!); break;
            case AmqpArgumentType.Long: encoder.WriteLong((uint)value!); break;
            case AmqpArgumentType.LongLong: encoder.WriteLongLong((ulong)value!); break;
            case AmqpArgumentType.Timestamp: encoder.WriteTimestamp((AmqpTimestamp)value!); break;
            case AmqpArgumentType.Bit: encoder.WriteBit((bool)value!); break;
            case AmqpArgumentType.ShortString: encoder.WriteShortString(((string)value!).AsSpan()); break;
            case AmqpArgumentType.LongString: encoder.WriteLongString((byte[])value!); break;
            default: encoder.WriteTable((FieldTable)value!); break;
        }
    }

    private static void AssertArgument(AmqpMethodReader view, int index, object? expected)
    {
        switch (expected)
        {
            case byte v: Assert.Equal(v, view.GetOctet(index)); break;
            case ushort v: Assert.Equal(v, view.GetShort(index)); break;
            case uint v: Assert.Equal(v, view.GetLong(index)); break;
            case ulong v: Assert.Equal(v, view.GetLongLong(index)); break;
            case AmqpTimestamp v: Assert.Equal(v, view.GetTimestamp(index)); break;
            case bool v: Assert.Equal(v, view.GetBit(index)); break;
            case string v: Assert.Equal(v, view.GetString(index)); break;
            case byte[] v: Assert.Equal(v, view.GetLongString(index).ToArray()); break;
            case FieldTable v:
                FieldTableReader table = view.GetTable(index);
                Assert.Equal(v.Reader.RawContent.ToArray(), table.RawContent.ToArray());
                break;
        }
    }

    // An independent count of the payload: ids, then each argument, bits packed 8 to an octet.
    private static int ExpectedPayloadSize(AmqpMethod method, object?[] values)
    {
        int size = 4;
        int bitsInOctet = 8;
        for (int i = 0; i < values.Length; i++)
        {
            AmqpArgumentType type = method.Arguments[i].Type;
            if (type == AmqpArgumentType.Bit)
            {
                if (bitsInOctet == 8)
                {
                    size++;
                    bitsInOctet = 0;
                }

                bitsInOctet++;
                continue;
            }

            bitsInOctet = 8;
            size += values[i] switch
            {
                byte => 1,
                ushort => 2,
                uint => 4,
                ulong or AmqpTimestamp => 8,
                string s => 1 + System.Text.Encoding.UTF8.GetByteCount(s),
                byte[] b => 4 + b.Length,
                FieldTable t => t.EncodedLength,
                _ => throw new InvalidOperationException(),
            };
        }

        return size;
    }

    internal static void AssertDeepEqual(object? expected, object? actual, string context)
    {
        switch (expected)
        {
            case IDictionary<string, object?> table:
                var other = Assert.IsAssignableFrom<IDictionary<string, object?>>(actual);
                Expect.Equal(table.Count, other.Count, context);
                foreach (KeyValuePair<string, object?> field in table)
                {
                    Assert.True(other.ContainsKey(field.Key), $"{context}: {field.Key} missing");
                    AssertDeepEqual(field.Value, other[field.Key], $"{context}/{field.Key}");
                }

                break;
            case byte[] bytes:
                Assert.Equal(bytes, Assert.IsType<byte[]>(actual));
                break;
            case ReadOnlyMemory<byte> memory:
                Assert.Equal(memory.ToArray(), Assert.IsType<ReadOnlyMemory<byte>>(actual).ToArray());
                break;
            case IList list:
                var otherList = Assert.IsAssignableFrom<IList>(actual);
                Expect.Equal(list.Count, otherList.Count, context);
                for (int i = 0; i < list.Count; i++)
                {
                    AssertDeepEqual(list[i], otherList[i], $"{context}[{i}]");
                }

                break;
            default:
                Assert.True(Equals(expected, actual), $"{context}: expected {expected} ({expected?.GetType()}), got {actual} ({actual?.GetType()})");
                break;
        }
    }
}
