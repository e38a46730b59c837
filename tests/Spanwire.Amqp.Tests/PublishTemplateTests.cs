using System.Buffers;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// basic.publish from an <see cref="AmqpPublishTemplate"/>, and bodies borrowed by an <see cref="IGatherBufferWriter"/>:
/// both must write exactly the bytes of the string form, which the byte-vector and decoder tests pin down.
/// </summary>
public sealed class PublishTemplateTests
{
    private static readonly int[] s_bodyLengths = [0, 1, 512, 1023, 1024, 4087, 4088, 4089, 5000, 70_000];
    private static readonly uint[] s_frameMaxes = [0, 4096, 131072];

    [Fact]
    public void Every_form_writes_the_bytes_of_the_string_form()
    {
        var random = new RandomAmqp(20261121);
        for (int i = 0; i < 400; i++)
        {
            string exchange = random.ShortText(60), routingKey = random.ShortText(60);
            bool mandatory = random.Random.Next(2) == 1, immediate = random.Random.Next(2) == 1;
            BasicProperties properties = RoundTripTests.RandomProperties(random);
            byte[] body = new byte[s_bodyLengths[random.Random.Next(s_bodyLengths.Length)]];
            random.Random.NextBytes(body);
            ushort channel = (ushort)random.Random.Next(65536);
            uint frameMax = s_frameMaxes[random.Random.Next(s_frameMaxes.Length)];
            string because = $"case {i}: body {body.Length}, frame_max {frameMax}";

            var expected = new ArrayBufferWriter<byte>();
            Exception? refused = Record.Exception(() =>
                AmqpFrameWriter.WriteBasicPublish(expected, channel, exchange, routingKey, mandatory, immediate, properties, body, frameMax));
            var template = new AmqpPublishTemplate(exchange, routingKey, properties, mandatory, immediate);
            if (refused is not null)
            {
                // Only a content header too large for frame_max; the template refuses it at the write too.
                Assert.IsType<ArgumentException>(refused);
                Assert.Throws<ArgumentException>(() => AmqpFrameWriter.WriteBasicPublish(new ArrayBufferWriter<byte>(), channel, template, body, frameMax));
                continue;
            }

            ReadOnlySequence<byte> split = Split(body, 1 + random.Random.Next(3000));
            foreach ((string form, byte[] written, long returned) in Forms(channel, template, body, split, frameMax, exchange, routingKey, mandatory, immediate, properties))
            {
                Assert.True(expected.WrittenSpan.SequenceEqual(written), $"{because}, {form}: bytes differ");
                Assert.Equal(written.Length, returned);
            }
        }
    }

    private static IEnumerable<(string Form, byte[] Written, long Returned)> Forms(ushort channel, AmqpPublishTemplate template, byte[] body,
        ReadOnlySequence<byte> split, uint frameMax, string exchange, string routingKey, bool mandatory, bool immediate, BasicProperties properties)
    {
        var plain = new ArrayBufferWriter<byte>();
        long n = AmqpFrameWriter.WriteBasicPublish(plain, channel, template, body.AsSpan(), frameMax);
        yield return ("template, span", plain.WrittenSpan.ToArray(), n);

        plain = new ArrayBufferWriter<byte>();
        n = AmqpFrameWriter.WriteBasicPublish(plain, channel, template, body.AsMemory(), frameMax);
        yield return ("template, memory", plain.WrittenSpan.ToArray(), n);

        plain = new ArrayBufferWriter<byte>();
        n = AmqpFrameWriter.WriteBasicPublish(plain, channel, template, split, frameMax);
        yield return ("template, split sequence", plain.WrittenSpan.ToArray(), n);

        // Into gather writers with small segments: borrowed bodies and owned bytes across segment boundaries.
        using (var gather = new GatherBufferWriter(SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 64 })))
        {
            n = AmqpFrameWriter.WriteBasicPublish(gather, channel, template, body.AsMemory(), frameMax);
            yield return ("template, memory, gathered", gather.ToArray(), n);
            gather.Reset();
            n = AmqpFrameWriter.WriteBasicPublish(gather, channel, template, split, frameMax);
            yield return ("template, split sequence, gathered", gather.ToArray(), n);
            gather.Reset();
            n = AmqpFrameWriter.WriteBasicPublish(gather, channel, exchange, routingKey, mandatory, immediate, properties, body.AsMemory(), frameMax);
            yield return ("strings, memory, gathered", gather.ToArray(), n);
            gather.Reset();
            n = AmqpFrameWriter.WriteBasicPublish(gather, channel, exchange, routingKey, mandatory, immediate, properties, split, frameMax);
            yield return ("strings, split sequence, gathered", gather.ToArray(), n);
        }
    }

    [Theory]
    // Pieces of 4088, 4088 and 1824 bytes: every one at or past the threshold, so the whole body is borrowed.
    [InlineData(10_000, 4096, 0, 10_000)]
    // Below the threshold a copy is cheaper than another piece: nothing borrowed.
    [InlineData(1023, 4096, 0, 0)]
    [InlineData(1024, 4096, 0, 1024)]
    // A last piece of 1023 bytes (4088 + 1023) is copied; the first is borrowed.
    [InlineData(5111, 4096, 0, 4088)]
    // A sequence in 500-byte segments: each piece is below the threshold, so copied.
    [InlineData(10_000, 4096, 500, 0)]
    // In 3000-byte segments the frames take pieces 3000 + 1088, 1912 + 2176, then 824 + 1000: the last two are
    // below the threshold and copied.
    [InlineData(10_000, 4096, 3000, 3000 + 1088 + 1912 + 2176)]
    public void A_gather_output_borrows_body_pieces_at_or_past_the_threshold(int bodyLength, uint frameMax, int segmentSize, long borrowed)
    {
        byte[] body = new byte[bodyLength];
        new Random(bodyLength).NextBytes(body);
        var template = new AmqpPublishTemplate("ex", "rk");
        using var gather = new GatherBufferWriter();
        if (segmentSize == 0)
        {
            AmqpFrameWriter.WriteBasicPublish(gather, 7, template, body.AsMemory(), frameMax);
        }
        else
        {
            AmqpFrameWriter.WriteBasicPublish(gather, 7, template, Split(body, segmentSize), frameMax);
        }

        Assert.Equal(borrowed, gather.BorrowedCount);
        var frames = DecodeAll(gather.WrittenSequence, frameMax);
        Assert.Equal(body, frames.Skip(2).SelectMany(f => f.Payload).ToArray());
    }

    [Fact]
    public void A_borrowed_body_is_referenced_until_the_output_is_consumed()
    {
        byte[] body = new byte[2000];
        using var gather = new GatherBufferWriter();
        AmqpFrameWriter.WriteBasicPublish(gather, 1, new AmqpPublishTemplate("", "q"), body.AsMemory(), 4096);
        body[1999] = 0x5A; // changed after the call, before the output is read: the frame shows it
        var frames = DecodeAll(gather.WrittenSequence, 4096);
        Assert.Equal(0x5A, frames[2].Payload[1999]);
    }

    [Fact]
    public void The_channel_and_body_size_are_filled_in_per_write()
    {
        var template = new AmqpPublishTemplate("amq.direct", "jobs", new BasicProperties { DeliveryMode = 2, AppId = "billing" }, mandatory: true);
        var output = new ArrayBufferWriter<byte>();
        AmqpFrameWriter.WriteBasicPublish(output, 3, template, new byte[10], 4096);
        AmqpFrameWriter.WriteBasicPublish(output, 9, template, ReadOnlySpan<byte>.Empty, 4096);
        var frames = DecodeAll(new ReadOnlySequence<byte>(output.WrittenMemory), 4096);

        Assert.Equal([3, 3, 3, 9, 9], frames.Select(f => (int)f.Channel));
        AmqpMethodReader method = AmqpMethodReader.Parse(frames[3].Payload);
        Assert.Equal(AmqpMethods.BasicPublish, method.Method);
        Assert.True(method.GetBit(3)); // mandatory
        Assert.False(method.GetBit(4)); // immediate
        Assert.Equal(10ul, AmqpContentHeader.Parse(frames[1].Payload).BodySize);
        AmqpContentHeader empty = AmqpContentHeader.Parse(frames[4].Payload);
        Assert.Equal(0ul, empty.BodySize);
        Assert.Equal("billing", empty.ToBasicProperties().AppId);
        Assert.Equal(template.HeadLength, frames.Take(2).Sum(f => f.Payload.Length + AmqpFraming.FrameOverhead));
    }

    [Fact]
    public void A_content_header_too_large_for_frame_max_is_refused_at_each_write()
    {
        var headers = FieldTable.FromDictionary(new Dictionary<string, object?> { ["big"] = new byte[5000] });
        var template = new AmqpPublishTemplate("", "q", new BasicProperties { Headers = headers });
        var output = new ArrayBufferWriter<byte>();
        Assert.Throws<ArgumentException>(() => AmqpFrameWriter.WriteBasicPublish(output, 1, template, ReadOnlySpan<byte>.Empty, 4096));
        Assert.Equal(0, output.WrittenCount);
        AmqpFrameWriter.WriteBasicPublish(output, 1, template, ReadOnlySpan<byte>.Empty, 131072);
        Assert.Throws<ArgumentOutOfRangeException>(() => AmqpFrameWriter.WriteBasicPublish(output, 1, template, ReadOnlySpan<byte>.Empty, 100));
    }

    [Fact]
    public void Names_and_properties_over_255_bytes_are_refused_when_the_template_is_made()
    {
        Assert.Throws<ArgumentException>(() => new AmqpPublishTemplate(new string('x', 256), "rk"));
        Assert.Throws<ArgumentException>(() => new AmqpPublishTemplate("ex", new string('é', 128)));
        Assert.Throws<ArgumentException>(() => new AmqpPublishTemplate("ex", "rk", new BasicProperties { AppId = new string('a', 256) }));
        _ = new AmqpPublishTemplate(new string('x', 255), new string('é', 127));
    }
}
