using System.Collections;
using RabbitMQ.Client;
using AmqpTimestamp = Spanwire.Amqp.Protocol.AmqpTimestamp;
using BasicProperties = Spanwire.Amqp.Protocol.BasicProperties;
using Rmq = RabbitMQ.Client;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// Differential tests against RabbitMQ.Client 7, through the parts of it that are public: basic properties
/// (written with IAmqpWriteable.WriteTo, read with ReadOnlyBasicProperties), which carry the headers table.
/// </summary>
public class RabbitMqClientDifferentialTests
{
    private const int Seed = 777;

    [Fact]
    public void Properties_and_headers_encode_to_the_same_bytes_as_RabbitMQ_Client()
    {
        var random = new RandomAmqp(Seed);
        for (int round = 0; round < 1000; round++)
        {
            (BasicProperties ours, Rmq.BasicProperties theirs) = RandomPair(random);
            byte[] expected = new byte[((IAmqpWriteable)theirs).GetRequiredBufferSize()];
            int theirLength = ((IAmqpWriteable)theirs).WriteTo(expected);
            byte[] actual = new byte[ours.GetEncodedSize()];
            int ourLength = ours.WriteTo(actual);
            Assert.True(expected.AsSpan(0, theirLength).SequenceEqual(actual.AsSpan(0, ourLength)),
                $"seed {Seed}, round {round}\ntheirs {Convert.ToHexString(expected, 0, theirLength)}\nours   {Convert.ToHexString(actual, 0, ourLength)}");
        }
    }

    [Fact]
    public void RabbitMQ_Client_reads_what_we_write_and_we_read_what_it_writes()
    {
        var random = new RandomAmqp(Seed + 1);
        for (int round = 0; round < 1000; round++)
        {
            (BasicProperties ours, Rmq.BasicProperties theirs) = RandomPair(random);
            byte[] ourBytes = new byte[ours.GetEncodedSize()];
            ours.WriteTo(ourBytes);
            var readByThem = new ReadOnlyBasicProperties(ourBytes);
            Assert.Equal(theirs.ContentType, readByThem.ContentType);
            Assert.Equal(theirs.IsPriorityPresent(), readByThem.IsPriorityPresent());
            Assert.Equal(theirs.Priority, readByThem.Priority);
            Assert.Equal(theirs.IsDeliveryModePresent(), readByThem.IsDeliveryModePresent());
            Assert.Equal(theirs.Timestamp, readByThem.Timestamp);
            Assert.Equal(theirs.AppId, readByThem.AppId);
            Assert.Equal(theirs.ClusterId, readByThem.ClusterId);
            AssertSame(theirs.Headers, readByThem.Headers, $"seed {Seed + 1}, round {round}");

            byte[] theirBytes = new byte[((IAmqpWriteable)theirs).GetRequiredBufferSize()];
            int length = ((IAmqpWriteable)theirs).WriteTo(theirBytes);
            byte[] payload = [0, 60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, .. theirBytes.AsSpan(0, length)];
            AmqpContentHeader header = AmqpContentHeader.Parse(payload);
            Assert.Equal(ours.Flags, header.Flags);
            Assert.Equal(ourBytes, payload[12..]);
        }
    }

    [Fact]
    public void A_headers_table_decodes_in_one_pass_to_what_RabbitMQ_Client_reads()
    {
        var random = new RandomAmqp(Seed + 2);
        for (int round = 0; round < 1000; round++)
        {
            // Only the headers, so the table starts after the two flag bytes.
            Dictionary<string, object?> headers = Table(random, 0);
            var theirs = new Rmq.BasicProperties { Headers = (IDictionary<string, object?>)ToTheirs(headers)! };
            byte[] bytes = new byte[((IAmqpWriteable)theirs).GetRequiredBufferSize()];
            int length = ((IAmqpWriteable)theirs).WriteTo(bytes);
            IDictionary<string, object?>? readByThem = new ReadOnlyBasicProperties(bytes.AsSpan(0, length)).Headers;
            Dictionary<string, object?> readByUs = FieldTableConversion.ToDictionary(bytes.AsSpan(2, length - 2));
            AssertSame(ToTheirs(readByUs), readByThem, $"seed {Seed + 2}, round {round}");
        }
    }

    [Fact]
    public void Negative_decimals_differ_from_RabbitMQ_Client_on_purpose()
    {
        // RabbitMQ.Client writes -12.34 in sign-magnitude (80 00 04 D2); RabbitMQ reads a signed value (FF FF FB 2E).
        var theirs = new Rmq.BasicProperties { Headers = new Dictionary<string, object?> { ["d"] = -12.34m } };
        byte[] theirBytes = new byte[((IAmqpWriteable)theirs).GetRequiredBufferSize()];
        int length = ((IAmqpWriteable)theirs).WriteTo(theirBytes);
        Assert.EndsWith("0280000" + "4D2", Convert.ToHexString(theirBytes, 0, length), StringComparison.Ordinal);

        var ours = new BasicProperties { Headers = FieldTable.FromDictionary(new Dictionary<string, object?> { ["d"] = -12.34m }) };
        byte[] ourBytes = new byte[ours.GetEncodedSize()];
        ours.WriteTo(ourBytes);
        Assert.EndsWith("02FFFFFB2E", Convert.ToHexString(ourBytes), StringComparison.Ordinal);
    }

    private static (BasicProperties Ours, Rmq.BasicProperties Theirs) RandomPair(RandomAmqp random)
    {
        Random r = random.Random;
        string? Maybe() => r.Next(2) == 0 ? null : random.ShortText(60);
        var ours = new BasicProperties
        {
            ContentType = Maybe(),
            ContentEncoding = Maybe(),
            DeliveryMode = r.Next(2) == 0 ? null : (byte)r.Next(1, 3),
            Priority = r.Next(2) == 0 ? null : (byte)r.Next(1, 10),
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
        Dictionary<string, object?>? headers = r.Next(3) == 0 ? null : Table(random, 0);
        ours.Headers = headers is null ? null : FieldTable.FromDictionary(headers);

        var theirs = new Rmq.BasicProperties();
        if (ours.ContentType is not null) theirs.ContentType = ours.ContentType;
        if (ours.ContentEncoding is not null) theirs.ContentEncoding = ours.ContentEncoding;
        if (headers is not null) theirs.Headers = (IDictionary<string, object?>)ToTheirs(headers)!;
        if (ours.DeliveryMode is { } mode) theirs.DeliveryMode = (DeliveryModes)mode;
        if (ours.Priority is { } priority) theirs.Priority = priority;
        if (ours.CorrelationId is not null) theirs.CorrelationId = ours.CorrelationId;
        if (ours.ReplyTo is not null) theirs.ReplyTo = ours.ReplyTo;
        if (ours.Expiration is not null) theirs.Expiration = ours.Expiration;
        if (ours.MessageId is not null) theirs.MessageId = ours.MessageId;
        if (ours.Timestamp is { } timestamp) theirs.Timestamp = new Rmq.AmqpTimestamp(timestamp.UnixSeconds);
        if (ours.Type is not null) theirs.Type = ours.Type;
        if (ours.UserId is not null) theirs.UserId = ours.UserId;
        if (ours.AppId is not null) theirs.AppId = ours.AppId;
        if (ours.ClusterId is not null) theirs.ClusterId = ours.ClusterId;
        return (ours, theirs);
    }

    // The value types both libraries write the same way (RabbitMQ.Client's negative decimals excepted).
    private static Dictionary<string, object?> Table(RandomAmqp random, int depth)
    {
        var table = new Dictionary<string, object?>();
        int count = random.Random.Next(8);
        for (int i = 0; i < count; i++)
        {
            table[$"h{i}{random.ShortText(6)}"] = Value(random, depth);
        }

        return table;
    }

    private static object? Value(RandomAmqp random, int depth)
    {
        Random r = random.Random;
        return r.Next(depth < 2 ? 18 : 16) switch
        {
            0 => r.Next(2) == 1,
            1 => (sbyte)r.Next(-128, 128),
            2 => (byte)r.Next(256),
            3 => (short)r.Next(short.MinValue, short.MaxValue + 1),
            4 => (ushort)r.Next(65536),
            5 => r.Next(int.MinValue, int.MaxValue),
            6 => (uint)r.NextInt64(uint.MaxValue + 1L),
            7 => r.NextInt64(long.MinValue, long.MaxValue),
            8 => (float)r.NextDouble(),
            9 => r.NextDouble() * 1e9,
            10 => new decimal(r.Next(0, int.MaxValue), 0, 0, false, (byte)r.Next(10)),
            11 => random.ShortText(50),
            12 => random.Bytes(20),
            13 => new AmqpTimestamp(r.NextInt64(0, 4_000_000_000)),
            14 => new ReadOnlyMemory<byte>(random.Bytes(10)),
            15 => null,
            16 => Table(random, depth + 1),
            _ => Enumerable.Range(0, r.Next(4)).Select(_ => Value(random, depth + 1)).ToList(),
        };
    }

    private static object? ToTheirs(object? value) => value switch
    {
        AmqpTimestamp t => new Rmq.AmqpTimestamp(t.UnixSeconds),
        ReadOnlyMemory<byte> m => new BinaryTableValue(m.ToArray()),
        Dictionary<string, object?> d => d.ToDictionary(p => p.Key, p => ToTheirs(p.Value)),
        List<object?> l => l.Select(ToTheirs).ToList(),
        _ => value,
    };

    private static void AssertSame(object? expected, object? actual, string context)
    {
        switch (expected)
        {
            // RabbitMQ.Client reads an empty table or array back as null.
            case IDictionary<string, object?> { Count: 0 } when actual is null:
            case IList { Count: 0 } when actual is null:
                break;
            case IDictionary<string, object?> table:
                var other = Assert.IsAssignableFrom<IDictionary<string, object?>>(actual);
                Expect.Equal(table.Count, other.Count, context);
                foreach (KeyValuePair<string, object?> field in table)
                {
                    AssertSame(field.Value, other[field.Key], $"{context}/{field.Key}");
                }

                break;
            // RabbitMQ.Client reads every longstr back as bytes.
            case string text: Assert.Equal(System.Text.Encoding.UTF8.GetBytes(text), Assert.IsType<byte[]>(actual)); break;
            case byte[] bytes: Assert.Equal(bytes, Assert.IsType<byte[]>(actual)); break;
            case BinaryTableValue binary: Assert.Equal(binary.Bytes, Assert.IsType<BinaryTableValue>(actual).Bytes); break;
            case IList list:
                var otherList = Assert.IsAssignableFrom<IList>(actual);
                Expect.Equal(list.Count, otherList.Count, context);
                for (int i = 0; i < list.Count; i++)
                {
                    AssertSame(list[i], otherList[i], $"{context}[{i}]");
                }

                break;
            default: Assert.True(Equals(expected, actual), $"{context}: {expected} ({expected?.GetType()}) vs {actual} ({actual?.GetType()})"); break;
        }
    }
}
