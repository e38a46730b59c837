using System.Buffers;

namespace Spanwire.Amqp.Tests;

/// <summary>The frame decoder on whole input, on 1-byte segments with empty ones between, and byte by byte.</summary>
public class FrameReaderTests
{
    public static TheoryData<string> Splits => ["whole", "one-byte segments", "fed byte by byte"];

    private static List<(AmqpFrameType Type, ushort Channel, byte[] Payload, long Offset)> Decode(byte[] bytes, string split, uint frameMax = AmqpFraming.DefaultFrameMax)
    {
        if (split != "fed byte by byte")
        {
            return DecodeAll(split == "whole" ? new ReadOnlySequence<byte>(bytes) : OneByteSegments(bytes), frameMax);
        }

        // Feed one more byte at a time: every prefix must answer "need more data" or a whole frame, never fail.
        var decoder = new AmqpFrameReader { FrameMax = frameMax };
        var frames = new List<(AmqpFrameType, ushort, byte[], long)>();
        int start = 0;
        for (int end = 0; end <= bytes.Length; end++)
        {
            var buffer = new ReadOnlySequence<byte>(bytes, start, end - start);
            while (decoder.TryReadFrame(ref buffer, out AmqpFrame frame))
            {
                frames.Add((frame.Type, frame.Channel, frame.Payload.ToArray(), frame.Offset));
            }

            start = end - (int)buffer.Length;
        }

        Assert.Equal(bytes.Length, start);
        return frames;
    }

    private static byte[] Stream()
    {
        var output = new ArrayBufferWriter<byte>();
        AmqpFrameWriter.WriteProtocolHeader(output);
        AmqpFrameWriter.WriteBasicAck(output, 1, 7, true);
        var properties = new BasicProperties { AppId = "Application id", MessageId = "Random message id", DeliveryMode = 2 };
        AmqpFrameWriter.WriteBasicPublish(output, 2, "amq.direct", "Exchange_OR_RoutingKey", true, false, properties, new byte[5000], 4096);
        AmqpFrameWriter.WriteHeartbeat(output);
        AmqpFrameWriter.WriteBasicPublish(output, 2, "", "q", false, false, default, ReadOnlySpan<byte>.Empty, 4096);
        return output.WrittenSpan.ToArray();
    }

    [Theory]
    [MemberData(nameof(Splits))]
    public void A_stream_decodes_to_the_same_frames_however_it_is_split(string split)
    {
        var frames = Decode(Stream(), split);
        Assert.Equal(
            [AmqpFrameType.ProtocolHeader, AmqpFrameType.Method, AmqpFrameType.Method, AmqpFrameType.ContentHeader,
             AmqpFrameType.ContentBody, AmqpFrameType.ContentBody, AmqpFrameType.Heartbeat, AmqpFrameType.Method, AmqpFrameType.ContentHeader],
            frames.Select(f => f.Type).ToArray());
        Assert.Equal(Hex("00 00 09 01"), frames[0].Payload);
        Assert.Equal([4088, 912], frames.Where(f => f.Type == AmqpFrameType.ContentBody).Select(f => f.Payload.Length).ToArray());
        Assert.Equal(0, frames[0].Offset);
        Assert.Equal(8, frames[1].Offset);

        AmqpMethodReader publish = AmqpMethodReader.Parse(frames[2].Payload);
        Assert.Same(AmqpMethods.BasicPublish, publish.Method);
        Assert.Equal("amq.direct", publish.GetString(1));
        Assert.Equal("Exchange_OR_RoutingKey", publish.GetString(2));
        Assert.True(publish.GetBit(3));
        Assert.False(publish.GetBit(4));
        AmqpContentHeader header = AmqpContentHeader.Parse(frames[3].Payload);
        Assert.Equal(5000UL, header.BodySize);
        Assert.True("Random message id"u8.SequenceEqual(header.MessageId));
    }

    [Theory]
    [MemberData(nameof(Splits))]
    public void Payload_spans_are_contiguous_even_when_the_input_is_not(string split)
    {
        byte[] bytes = Stream();
        ReadOnlySequence<byte> input = split == "whole" ? new ReadOnlySequence<byte>(bytes) : OneByteSegments(bytes);
        var decoder = new AmqpFrameReader();
        int methods = 0;
        while (decoder.TryReadFrame(ref input, out AmqpFrame frame))
        {
            if (frame.Type == AmqpFrameType.Method)
            {
                AmqpMethodReader.Parse(decoder.GetPayloadSpan(frame), frame.PayloadOffset);
                methods++;
            }
        }

        Assert.Equal(3, methods);
    }

    public static TheoryData<string, string, ushort, long> Malformed => new()
    {
        // An unknown frame type (4 is not 1, 2, 3 or 8).
        { "unknown type", "04 0000 00000000 CE", AmqpReplyCode.FrameError, 0 },
        // The octet after the payload must be CE.
        { "bad frame end", "08 0000 00000000 CD", AmqpReplyCode.FrameError, 7 },
        // A heartbeat on channel 1.
        { "heartbeat on a channel", "08 0001 00000000 CE", AmqpReplyCode.FrameError, 0 },
        // A heartbeat with a payload.
        { "heartbeat with payload", "08 0000 00000001 00 CE", AmqpReplyCode.FrameError, 0 },
        // A content header that no content method announced.
        { "header without method", "02 0001 0000000E 003C 0000 0000000000000000 0000 CE", AmqpReplyCode.UnexpectedFrame, 0 },
        // A body frame that no content header announced.
        { "body without header", "03 0001 00000001 00 CE", AmqpReplyCode.UnexpectedFrame, 0 },
        // A method frame while basic.publish's header is due.
        { "method while header due", "01 0001 00000009 003C 0028 0000 00 00 00 CE  01 0001 0000000D 003C 0050 0000000000000001 00 CE", AmqpReplyCode.UnexpectedFrame, 17 },
        // A body frame longer than the declared body size (3 declared, 4 sent).
        { "body beyond body size", "01 0001 00000009 003C 0028 0000 00 00 00 CE  02 0001 0000000E 003C 0000 0000000000000003 0000 CE  03 0001 00000004 00000000 CE", AmqpReplyCode.FrameError, 46 },
        // An unknown method id: class 60, method 41.
        { "unknown method", "01 0001 00000004 003C 0029 CE", AmqpReplyCode.CommandInvalid, 7 },
        // A method payload too short to name a method.
        { "method payload of 2 bytes", "01 0001 00000002 003C CE", AmqpReplyCode.FrameError, 7 },
        // "AMQX" is not a protocol header.
        { "bad protocol header", "'A' 'M' 'Q' 'X' 00 00 09 01", AmqpReplyCode.FrameError, 0 },
    };

    [Theory]
    [MemberData(nameof(Malformed))]
    public void Malformed_streams_raise_the_reply_code_and_offset(string why, string hex, ushort replyCode, long offset)
    {
        foreach (string split in new[] { "whole", "one-byte segments", "fed byte by byte" })
        {
            var error = Assert.Throws<AmqpProtocolException>(() => Decode(Hex(hex), split));
            Expect.Equal(replyCode, error.ReplyCode, $"{why} ({split}): {error.Message}");
            Expect.Equal(offset, error.Offset, $"{why} ({split}): {error.Message}");
        }
    }

    [Fact]
    public void Truncated_arguments_are_a_frame_error_with_the_offset_not_an_out_of_range()
    {
        // basic.ack whose delivery tag is cut to 7 bytes: the frame is whole, its arguments are not.
        byte[] bytes = Hex("01 0001 0000000B 003C 0050 00000000000001 CE");
        var frames = DecodeAll(new ReadOnlySequence<byte>(bytes));
        var error = Assert.Throws<AmqpProtocolException>(() => AmqpMethodReader.Parse(frames[0].Payload, frames[0].Offset + 7));
        Assert.Equal(AmqpReplyCode.FrameError, error.ReplyCode);
        Assert.Equal(11, error.Offset);
        Assert.Contains("at byte 11", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Trailing_bytes_after_the_last_argument_are_a_frame_error()
    {
        byte[] payload = Hex("003C 0050 0000000000000001 00 FF");
        var error = Assert.Throws<AmqpProtocolException>(() => AmqpMethodReader.Parse(payload));
        Assert.Equal(AmqpReplyCode.FrameError, error.ReplyCode);
        Assert.Equal(13, error.Offset);
    }

    [Fact]
    public void A_nested_length_past_its_container_is_a_frame_error()
    {
        // A table of 8 bytes whose longstr claims 100 bytes.
        byte[] table = Hex("00000008 01 'a' 'S' 00000064 00");
        var error = Assert.Throws<AmqpProtocolException>(() => FieldTableReader.Parse(table[..^0]));
        Assert.Equal(AmqpReplyCode.FrameError, error.ReplyCode);
        Assert.Equal(7, error.Offset);
    }

    [Fact]
    public void Unknown_field_types_are_a_syntax_error()
    {
        // 'U' is in the specification but RabbitMQ drops the connection on it.
        byte[] table = Hex("00000004 01 'a' 'U' 00");
        var error = Assert.Throws<AmqpProtocolException>(() => FieldTableReader.Parse(table));
        Assert.Equal(AmqpReplyCode.SyntaxError, error.ReplyCode);
        Assert.Equal(6, error.Offset);
    }

    [Fact]
    public void Nesting_beyond_the_depth_quota_is_refused_without_recursing_further()
    {
        // 100 arrays each holding the next: 'A' + length, nested.
        byte[] content = [];
        for (int i = 0; i < 100; i++)
        {
            byte[] next = new byte[content.Length + 5];
            next[0] = (byte)'A';
            System.Buffers.Binary.BinaryPrimitives.WriteUInt32BigEndian(next.AsSpan(1), (uint)content.Length);
            content.CopyTo(next, 5);
            content = next;
        }

        byte[] table = [0, 0, 0, 0, 1, (byte)'a', .. content];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32BigEndian(table, (uint)(table.Length - 4));
        var error = Assert.Throws<AmqpProtocolException>(() => FieldTableReader.Parse(table));
        Assert.Equal(AmqpReplyCode.SyntaxError, error.ReplyCode);
    }

    [Fact]
    public void Need_more_data_leaves_the_buffer_untouched()
    {
        byte[] bytes = Hex("01 0001 0000000D 003C 0050 0000000000000001 00 CE");
        var decoder = new AmqpFrameReader();
        for (int length = 0; length < bytes.Length; length++)
        {
            var buffer = new ReadOnlySequence<byte>(bytes, 0, length);
            Assert.False(decoder.TryReadFrame(ref buffer, out _));
            Assert.Equal(length, buffer.Length);
        }
    }

    [Fact]
    public void A_method_decodes_without_allocating()
    {
        byte[] bytes = Hex("01 0001 0000000D 003C 0050 0000000000000001 00 CE");
        var decoder = new AmqpFrameReader();
        ulong sum = 0;
        for (int i = 0; i < 2; i++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int j = 0; j < 1000; j++)
            {
                decoder.Reset();
                var buffer = new ReadOnlySequence<byte>(bytes);
                decoder.TryReadFrame(ref buffer, out AmqpFrame frame);
                sum += AmqpMethodReader.Parse(decoder.GetPayloadSpan(frame)).GetLongLong(0);
            }

            if (i == 1)
            {
                Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
            }
        }

        Assert.Equal(2000UL, sum);
    }
}
