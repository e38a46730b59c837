using System.Buffers;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// Mutated frame streams: only <see cref="AmqpProtocolException"/> may escape, and allocation stays bounded.
/// The normal suite runs 20,000; SPANWIRE_LONG_TESTS=N runs N times as many (the switch every test project shares).
/// </summary>
public class FuzzTests
{
    private const int Seed = 9091;

    private static int Iterations =>
        LongRuns.Scale(20_000);

    [Fact]
    public void Mutated_frames_raise_only_the_protocol_exception()
    {
        byte[][] seeds = SeedStreams();
        var random = new Random(Seed);
        int rejected = 0;
        int iterations = Iterations;
        for (int i = 0; i < iterations; i++)
        {
            byte[] input = Mutate(random, seeds[random.Next(seeds.Length)]);
            ReadOnlySequence<byte> buffer = i % 8 == 0 ? OneByteSegments(input) : new ReadOnlySequence<byte>(input);
            long before = GC.GetAllocatedBytesForCurrentThread();
            try
            {
                DecodeEverything(buffer);
            }
            catch (AmqpProtocolException)
            {
                rejected++;
            }
            catch (Exception e)
            {
                Assert.Fail($"Seed {Seed}, iteration {i}: {e.GetType().Name} escaped: {e.Message}\ninput: {Convert.ToHexString(input)}\n{e.StackTrace}");
            }

            // Bounded (after the first runs warm up): the scratch copy for split payloads, the exception and its message, the descriptions; never sized by a claimed length.
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.True(i < 200 || allocated < 64 * 1024 + 4L * input.Length, $"Seed {Seed}, iteration {i}: {allocated} bytes allocated for {input.Length} bytes of input.");
        }

        // The mutations must reach the error paths, not only the happy path.
        Assert.True(rejected > iterations / 10, $"only {rejected} of {iterations} inputs were rejected");
    }

    /// <summary>Decodes every frame and reads every argument, property and nested value, as a consumer would.</summary>
    private static void DecodeEverything(ReadOnlySequence<byte> buffer)
    {
        var decoder = new AmqpFrameReader { FrameMax = 4096 };
        while (decoder.TryReadFrame(ref buffer, out AmqpFrame frame))
        {
            if (frame.Type == AmqpFrameType.Method)
            {
                AmqpMethodReader method = AmqpMethodReader.Parse(decoder.GetPayloadSpan(frame), frame.PayloadOffset);
                for (int i = 0; i < method.Method.Arguments.Length; i++)
                {
                    if (method.Method.Arguments[i].Type == AmqpArgumentType.Table)
                    {
                        Walk(method.GetTable(i));
                    }
                }

                _ = method.ToString();
            }
            else if (frame.Type == AmqpFrameType.ContentHeader)
            {
                AmqpContentHeader header = AmqpContentHeader.Parse(decoder.GetPayloadSpan(frame), frame.PayloadOffset);
                Walk(header.Headers);
                _ = header.ToString();
            }
        }
    }

    private static void Walk(FieldTableReader table)
    {
        foreach (FieldTableEntry entry in table)
        {
            Walk(entry.Value);
        }
    }

    private static void Walk(FieldValue value)
    {
        switch (value.Type)
        {
            case FieldValueType.Table: Walk(value.GetTable()); break;
            case FieldValueType.Array:
                foreach (FieldValue item in value.GetArray())
                {
                    Walk(item);
                }

                break;
            case FieldValueType.Decimal: _ = value.GetDecimal(); break;
            default: value.TryGetInteger(out _); break;
        }
    }

    /// <summary>Bytes changed, cut out, put in, cut off or set to 0xFF or 0x00 (used for damaged tables too).</summary>
    internal static byte[] Mutate(Random random, byte[] original)
    {
        var bytes = new List<byte>(original);
        int mutations = 1 + random.Next(4);
        for (int m = 0; m < mutations && bytes.Count > 0; m++)
        {
            int at = random.Next(bytes.Count);
            switch (random.Next(6))
            {
                case 0: bytes[at] = (byte)random.Next(256); break;
                case 1: bytes[at] ^= (byte)(1 << random.Next(8)); break;
                case 2: bytes.RemoveRange(at, Math.Min(bytes.Count - at, 1 + random.Next(8))); break;
                case 3: bytes.InsertRange(at, Enumerable.Range(0, 1 + random.Next(8)).Select(_ => (byte)random.Next(256))); break;
                case 4: bytes.RemoveRange(at, bytes.Count - at); break;
                default: bytes[at] = (byte)(random.Next(2) == 0 ? 0xFF : 0x00); break;
            }
        }

        return [.. bytes];
    }

    private static byte[][] SeedStreams()
    {
        var random = new RandomAmqp(Seed);
        var streams = new List<byte[]>();
        for (int s = 0; s < 24; s++)
        {
            var output = new ArrayBufferWriter<byte>();
            if (s % 3 == 0)
            {
                AmqpFrameWriter.WriteProtocolHeader(output);
            }

            AmqpFrameWriter.WriteBasicAck(output, 1, (ulong)s, s % 2 == 0);
            AmqpMethodFrame start = AmqpFrameWriter.BeginMethod(output, 0, AmqpMethods.ConnectionStart, 3000);
            start.Arguments.WriteOctet(0);
            start.Arguments.WriteOctet(9);
            start.Arguments.WriteTable(FieldTable.FromDictionary(random.Table(0)));
            start.Arguments.WriteLongString("PLAIN AMQPLAIN"u8);
            start.Arguments.WriteLongString("en_US"u8);
            start.Complete();
            BasicProperties properties = RoundTripTests.RandomProperties(random);
            AmqpFrameWriter.WriteBasicPublish(output, 2, "ex", "rk", true, false, properties, random.Bytes(300), 4096);
            AmqpMethodFrame deliver = AmqpFrameWriter.BeginMethod(output, 2, AmqpMethods.BasicDeliver, 600);
            deliver.Arguments.WriteShortString("ctag");
            deliver.Arguments.WriteLongLong(42);
            deliver.Arguments.WriteBit(true);
            deliver.Arguments.WriteShortString("ex");
            deliver.Arguments.WriteShortString("rk");
            deliver.Complete();
            AmqpFrameWriter.WriteContentHeader(output, 2, 60, 0, properties);
            AmqpFrameWriter.WriteHeartbeat(output);
            if (output.WrittenCount < 4000)
            {
                streams.Add(output.WrittenSpan.ToArray());
            }
        }

        return [.. streams];
    }
}
