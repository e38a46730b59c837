using System.Buffers;

namespace Spanwire.Amqp.Tests;

/// <summary>Known byte vectors: the reference's examples and the edges the issue names.</summary>
public class ByteVectorTests
{
    [Fact]
    public void Basic_ack_on_channel_1_is_the_reference_vector()
    {
        var output = new ArrayBufferWriter<byte>();
        AmqpFrameWriter.WriteBasicAck(output, 1, deliveryTag: 1, multiple: false);
        Assert.Equal(Hex("01 0001 0000000D 003C 0050 0000000000000001 00 CE"), output.WrittenSpan.ToArray());
    }

    [Fact]
    public void Basic_ack_reads_back_from_the_reference_vector()
    {
        byte[] bytes = Hex("01 0001 0000000D 003C 0050 0000000000000001 00 CE");
        var frames = DecodeAll(new ReadOnlySequence<byte>(bytes));
        Assert.Single(frames);
        Assert.Equal((AmqpFrameType.Method, (ushort)1), (frames[0].Type, frames[0].Channel));
        AmqpMethodReader method = AmqpMethodReader.Parse(frames[0].Payload, 7);
        Assert.Same(AmqpMethods.BasicAck, method.Method);
        Assert.Equal(1UL, method.GetLongLong(0));
        Assert.False(method.GetBit(1));
    }

    [Fact]
    public void Heartbeat_is_the_reference_vector()
    {
        var output = new ArrayBufferWriter<byte>();
        AmqpFrameWriter.WriteHeartbeat(output);
        Assert.Equal(Hex("08 0000 00000000 CE"), output.WrittenSpan.ToArray());
        Assert.Equal(AmqpFrameType.Heartbeat, DecodeAll(new ReadOnlySequence<byte>(output.WrittenMemory))[0].Type);
    }

    [Fact]
    public void Byte_array_field_value_is_the_reference_vector()
    {
        Span<byte> buffer = stackalloc byte[32];
        var writer = new FieldTableWriter(buffer);
        writer.WriteName("b");
        writer.WriteByteArray([0xAA, 0x55]);
        int length = writer.Complete();
        // The table: length 9, then name "b" and the reference's value bytes x 00 00 00 02 AA 55.
        Assert.Equal(Hex("00000009 01 'b' 'x' 00000002 AA 55"), buffer[..length].ToArray());
    }

    [Fact]
    public void All_fourteen_properties_give_flag_word_FF_FC_in_wire_order()
    {
        var properties = new BasicProperties
        {
            ContentType = "a",
            ContentEncoding = "b",
            Headers = FieldTable.Empty,
            DeliveryMode = 2,
            Priority = 0,
            CorrelationId = "c",
            ReplyTo = "d",
            Expiration = "60000",
            MessageId = "m",
            Timestamp = new AmqpTimestamp(1),
            Type = "t",
            UserId = "u",
            AppId = "p",
            ClusterId = "k",
        };
        byte[] expected = Hex("FF FC 01 'a' 01 'b' 00000000 02 00 01 'c' 01 'd' 05 '6' '0' '0' '0' '0' 01 'm' 0000000000000001 01 't' 01 'u' 01 'p' 01 'k'");
        byte[] buffer = new byte[properties.GetEncodedSize()];
        Assert.Equal(expected.Length, properties.WriteTo(buffer));
        Assert.Equal(expected, buffer);

        byte[] payload = [.. Hex("003C 0000 0000000000000005"), .. expected];
        AmqpContentHeader header = AmqpContentHeader.Parse(payload);
        Assert.Equal(BasicPropertyFlags.All, header.Flags);
        Assert.Equal(5UL, header.BodySize);
        Assert.True(header.TryGetPriority(out byte priority));
        Assert.Equal(0, priority);
        Assert.True("60000"u8.SequenceEqual(header.Expiration));
        Assert.True("k"u8.SequenceEqual(header.ClusterId));
        Assert.True(header.TryGetTimestamp(out AmqpTimestamp timestamp));
        Assert.Equal(1, timestamp.UnixSeconds);
    }

    [Theory]
    // A priority of 0 is sent when set: the flag and the octet are there.
    [InlineData("priority0", "08 00 00")]
    // Delivery mode 1 (the default) likewise.
    [InlineData("mode1", "10 00 01")]
    // Nothing set: just an empty flag word.
    [InlineData("none", "00 00")]
    public void A_property_equal_to_its_default_is_sent_on_purpose(string which, string hex)
    {
        BasicProperties properties = which switch
        {
            "priority0" => new BasicProperties { Priority = 0 },
            "mode1" => new BasicProperties { DeliveryMode = 1 },
            _ => default,
        };
        byte[] buffer = new byte[properties.GetEncodedSize()];
        properties.WriteTo(buffer);
        Assert.Equal(Hex(hex), buffer);
    }

    [Fact]
    public void Flag_continuation_words_are_followed()
    {
        // content-type present and the continuation bit set; the next word is empty, then the property.
        byte[] payload = Hex("003C 0000 0000000000000000 8001 0000 01 'j'");
        AmqpContentHeader header = AmqpContentHeader.Parse(payload);
        Assert.Equal(BasicPropertyFlags.ContentType, header.Flags);
        Assert.True("j"u8.SequenceEqual(header.ContentType));
    }

    [Fact]
    public void A_continuation_word_with_unknown_properties_is_a_syntax_error()
    {
        byte[] payload = Hex("003C 0000 0000000000000000 0001 8000 01 'j'");
        var error = Assert.Throws<AmqpProtocolException>(() => AmqpContentHeader.Parse(payload, 100));
        Assert.Equal(AmqpReplyCode.SyntaxError, error.ReplyCode);
        Assert.Equal(114, error.Offset);
    }

    private static readonly byte[] s_everyTypeTable = Hex(
        "00000000" +
        " 01 't' 't' 01" +                          // bool true
        " 01 'b' 'b' FF" +                          // sbyte -1
        " 01 'B' 'B' FF" +                          // byte 255
        " 01 's' 's' FF FE" +                       // RabbitMQ's s: int16 -2, not a shortstr
        " 01 'u' 'u' FF FE" +                       // uint16 65534
        " 01 'I' 'I' 80000000" +                    // int32 min
        " 01 'i' 'i' FFFFFFFF" +                    // uint32 max
        " 01 'l' 'l' 8000000000000000" +            // int64 min
        " 01 'f' 'f' 3FC00000" +                    // float 1.5
        " 01 'd' 'd' BFF8000000000000" +            // double -1.5
        " 01 'D' 'D' 02 FFFFFB2E" +                 // decimal -12.34: signed value, not sign-magnitude
        " 01 'S' 'S' 00000002 'h' 'i'" +            // longstr "hi"
        " 01 'A' 'A' 00000002 'B' 07" +             // array [byte 7]
        " 01 'T' 'T' 000000005F5E1000" +            // timestamp 1600000000
        " 01 'F' 'F' 00000003 01 'k' 'V'" +         // nested table {k: void}
        " 01 'V' 'V'" +                             // void
        " 01 'x' 'x' 00000002 AA 55");              // byte array

    [Fact]
    public void A_table_with_one_value_of_every_written_type_has_the_exact_bytes()
    {
        byte[] buffer = new byte[256];
        var writer = new FieldTableWriter(buffer);
        writer.WriteName("t"); writer.WriteBoolean(true);
        writer.WriteName("b"); writer.WriteSByte(-1);
        writer.WriteName("B"); writer.WriteByte(255);
        writer.WriteName("s"); writer.WriteInt16(-2);
        writer.WriteName("u"); writer.WriteUInt16(65534);
        writer.WriteName("I"); writer.WriteInt32(int.MinValue);
        writer.WriteName("i"); writer.WriteUInt32(uint.MaxValue);
        writer.WriteName("l"); writer.WriteInt64(long.MinValue);
        writer.WriteName("f"); writer.WriteSingle(1.5f);
        writer.WriteName("d"); writer.WriteDouble(-1.5);
        writer.WriteName("D"); writer.WriteDecimal(-12.34m);
        writer.WriteName("S"); writer.WriteLongString("hi");
        writer.WriteName("A"); writer.WriteStartArray(); writer.WriteByte(7); writer.WriteEndArray();
        writer.WriteName("T"); writer.WriteTimestamp(new AmqpTimestamp(1600000000));
        writer.WriteName("F"); writer.WriteStartTable(); writer.WriteName("k"); writer.WriteVoid(); writer.WriteEndTable();
        writer.WriteName("V"); writer.WriteVoid();
        writer.WriteName("x"); writer.WriteByteArray([0xAA, 0x55]);
        int length = writer.Complete();

        byte[] expected = (byte[])s_everyTypeTable.Clone();
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32BigEndian(expected, (uint)(expected.Length - 4));
        Assert.Equal(expected, buffer[..length]);
    }

    [Fact]
    public void A_table_with_all_eighteen_types_reads_back_typed_without_boxing()
    {
        // The 17 written types plus L, which RabbitMQ reads as int64 and never writes.
        byte[] table = [.. s_everyTypeTable, .. Hex("01 'L' 'L' FFFFFFFFFFFFFFFE")];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32BigEndian(table, (uint)(table.Length - 4));
        FieldTableReader reader = FieldTableReader.Parse(table);
        Assert.Equal(18, reader.Count());
        foreach (FieldTableEntry entry in reader)
        {
            Assert.Equal((byte)entry.Value.Type, entry.Name[0]);
        }

        Assert.True(reader.TryGetValue("t", out FieldValue v)); Assert.True(v.GetBoolean());
        Assert.True(reader.TryGetValue("b", out v)); Assert.Equal(-1, v.GetSByte());
        Assert.True(reader.TryGetValue("B", out v)); Assert.Equal(255, v.GetByte());
        Assert.True(reader.TryGetValue("s", out v)); Assert.Equal(-2, v.GetInt16());
        Assert.True(reader.TryGetValue("u", out v)); Assert.Equal(65534, v.GetUInt16());
        Assert.True(reader.TryGetValue("I", out v)); Assert.Equal(int.MinValue, v.GetInt32());
        Assert.True(reader.TryGetValue("i", out v)); Assert.Equal(uint.MaxValue, v.GetUInt32());
        Assert.True(reader.TryGetValue("l", out v)); Assert.Equal(long.MinValue, v.GetInt64());
        Assert.True(reader.TryGetValue("L", out v)); Assert.Equal(-2, v.GetInt64());
        Assert.True(reader.TryGetValue("f", out v)); Assert.Equal(1.5f, v.GetSingle());
        Assert.True(reader.TryGetValue("d", out v)); Assert.Equal(-1.5, v.GetDouble());
        Assert.True(reader.TryGetValue("D", out v)); Assert.Equal(-12.34m, v.GetDecimal().ToDecimal());
        Assert.True(reader.TryGetValue("S", out v)); Assert.Equal("hi", v.GetString());
        Assert.True(reader.TryGetValue("A", out v)); Assert.Equal(1, v.GetArray().Count());
        Assert.True(reader.TryGetValue("T", out v)); Assert.Equal(1600000000, v.GetTimestamp().UnixSeconds);
        Assert.True(reader.TryGetValue("F", out v)); Assert.True(v.GetTable().TryGetValue("k", out FieldValue inner)); Assert.Equal(FieldValueType.Void, inner.Type);
        Assert.True(reader.TryGetValue("x", out v)); Assert.Equal([0xAA, 0x55], v.GetByteArray().ToArray());
        Assert.Throws<InvalidOperationException>(() =>
        {
            FieldTableReader again = FieldTableReader.Parse(table);
            again.TryGetValue("x", out FieldValue x);
            x.GetInt32();
        });
    }

    [Fact]
    public void Nine_consecutive_bits_take_two_octets_FF_01()
    {
        Span<byte> buffer = stackalloc byte[4];
        var writer = new AmqpPayloadWriter(buffer);
        for (int i = 0; i < 9; i++)
        {
            writer.WriteBit(true);
        }

        Assert.Equal(Hex("FF 01"), writer.Written.ToArray());
        var reader = new AmqpPayloadReader(writer.Written);
        for (int i = 0; i < 9; i++)
        {
            Assert.True(reader.ReadBit());
        }

        reader.EnsureEnd("nine bits");
    }

    [Fact]
    public void Any_other_field_ends_the_bit_octet()
    {
        Span<byte> buffer = stackalloc byte[8];
        var writer = new AmqpPayloadWriter(buffer);
        writer.WriteBit(false);
        writer.WriteBit(true);
        writer.WriteOctet(0x7E);
        writer.WriteBit(true);
        Assert.Equal(Hex("02 7E 01"), writer.Written.ToArray());
    }

    [Fact]
    public void Queue_declare_packs_its_five_bits_in_one_octet()
    {
        var output = new ArrayBufferWriter<byte>();
        AmqpMethodFrame frame = AmqpFrameWriter.BeginMethod(output, 1, AmqpMethods.QueueDeclare, 16);
        frame.Arguments.WriteShort(0);
        frame.Arguments.WriteShortString("q");
        frame.Arguments.WriteBit(true);   // passive
        frame.Arguments.WriteBit(false);  // durable
        frame.Arguments.WriteBit(true);   // exclusive
        frame.Arguments.WriteBit(false);  // auto-delete
        frame.Arguments.WriteBit(true);   // no-wait
        frame.Arguments.WriteTable(FieldTable.Empty);
        frame.Complete();
        Assert.Equal(Hex("01 0001 0000000D 0032 000A 0000 01 'q' 15 00000000 CE"), output.WrittenSpan.ToArray());
    }

    [Fact]
    public void A_shortstr_of_255_bytes_is_accepted_and_256_rejected()
    {
        string s255 = new('X', 255);
        byte[] buffer = new byte[300];
        var writer = new AmqpPayloadWriter(buffer);
        writer.WriteShortString(s255);
        Assert.Equal(256, writer.Position);
        Assert.Equal(0xFF, buffer[0]);
        var reader = new AmqpPayloadReader(buffer.AsSpan(0, 256));
        Assert.Equal(255, reader.ReadShortString().Length);

        Assert.Throws<ArgumentException>(() => { var w = new AmqpPayloadWriter(new byte[300]); w.WriteShortString(new string('X', 256)); });
        Assert.Throws<ArgumentException>(() => { var w = new AmqpPayloadWriter(new byte[300]); w.WriteShortString(new byte[256]); });
        // 128 two-byte characters are 256 UTF-8 bytes: also too long, although only 128 chars.
        Assert.Throws<ArgumentException>(() => AmqpPrimitives.GetShortStringSize(new string('é', 128)));
    }

    [Fact]
    public void A_shortstr_longer_than_its_payload_is_a_frame_error_at_its_offset()
    {
        byte[] bytes = Hex("05 'a' 'b'");
        var error = Assert.Throws<AmqpProtocolException>(() => new AmqpPayloadReader(bytes, 40).ReadShortString());
        Assert.Equal(AmqpReplyCode.FrameError, error.ReplyCode);
        Assert.Equal(40, error.Offset);
    }

    [Theory]
    // A body of exactly frame_max - 8 bytes fits one body frame.
    [InlineData(4096, 4088, new[] { 4088 })]
    // One byte more needs a second frame of 1 byte.
    [InlineData(4096, 4089, new[] { 4088, 1 })]
    // An empty body sends no body frame at all.
    [InlineData(4096, 0, new int[0])]
    // frame_max 0 means no limit: one frame.
    [InlineData(0, 200000, new[] { 200000 })]
    public void Bodies_are_split_into_frame_max_minus_8_pieces(int frameMax, int bodyLength, int[] pieces)
    {
        var output = new ArrayBufferWriter<byte>();
        byte[] body = new byte[bodyLength];
        new Random(bodyLength).NextBytes(body);
        long written = AmqpFrameWriter.WriteBasicPublish(output, 3, "", "rk", false, false, default, body, (uint)frameMax);
        Assert.Equal(output.WrittenCount, written);

        var frames = DecodeAll(new ReadOnlySequence<byte>(output.WrittenMemory), frameMax == 0 ? 0 : (uint)frameMax);
        Assert.Equal(AmqpFrameType.Method, frames[0].Type);
        Assert.Equal(AmqpFrameType.ContentHeader, frames[1].Type);
        Assert.Equal(pieces, frames.Skip(2).Select(f => f.Payload.Length).ToArray());
        Assert.All(frames, f => Assert.Equal(3, f.Channel));
        Assert.Equal(body, frames.Skip(2).SelectMany(f => f.Payload).ToArray());
    }

    [Fact]
    public void A_frame_of_exactly_frame_max_is_accepted_and_one_byte_more_rejected_from_its_header_alone()
    {
        byte[] exact = [.. Hex("03 0001 00000FF8"), .. new byte[4088], 0xCE];
        var decoder = new AmqpFrameReader { FrameMax = 4096, CheckContentSequence = false };
        var sequence = new ReadOnlySequence<byte>(exact);
        Assert.True(decoder.TryReadFrame(ref sequence, out AmqpFrame frame));
        Assert.Equal(4088, frame.Payload.Length);

        // Only the 7-byte header of a 4097-byte frame is present: refused before any payload is buffered.
        var tooLarge = new ReadOnlySequence<byte>(Hex("03 0001 00000FF9"));
        var error = Assert.Throws<AmqpProtocolException>(() => new AmqpFrameReader { FrameMax = 4096 }.TryReadFrame(ref tooLarge, out _));
        Assert.Equal(AmqpReplyCode.FrameError, error.ReplyCode);
        Assert.Equal(3, error.Offset);
    }

    [Fact]
    public void Decimals_that_do_not_fit_are_rejected_not_truncated()
    {
        Assert.Equal(new AmqpDecimal(2, 1234), AmqpDecimal.FromDecimal(12.34m));
        Assert.Equal(new AmqpDecimal(2, -1234), AmqpDecimal.FromDecimal(-12.34m));
        Assert.Equal(new AmqpDecimal(0, int.MinValue), AmqpDecimal.FromDecimal(int.MinValue));
        Assert.Equal(new AmqpDecimal(0, int.MaxValue), AmqpDecimal.FromDecimal(int.MaxValue));
        // Trailing zeros are dropped only as far as needed to fit, losing nothing: 5 at scale 21 becomes 500000000 at scale 8.
        Assert.Equal(new AmqpDecimal(8, 500000000), AmqpDecimal.FromDecimal(5.000000000000000000000m));
        Assert.Throws<OverflowException>(() => AmqpDecimal.FromDecimal(int.MaxValue + 1m));
        Assert.Throws<OverflowException>(() => AmqpDecimal.FromDecimal(int.MinValue - 1m));
        Assert.Throws<OverflowException>(() => AmqpDecimal.FromDecimal(1.23456789012m));
        Assert.Throws<OverflowException>(() => new AmqpDecimal(29, 1).ToDecimal());
    }
}
