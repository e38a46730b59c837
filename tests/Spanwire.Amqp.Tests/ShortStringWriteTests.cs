using System.Buffers;
using System.Text;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// Shortstr writing from text: the short-ASCII narrowing (8..32 characters in overlapping vectors) and its fallbacks
/// must give exactly the UTF-8 bytes, for every length and wherever a non-ASCII character sits.
/// </summary>
public class ShortStringWriteTests
{
    public static TheoryData<int> Lengths() => [.. Enumerable.Range(0, 41), 63, 64, 85, 86, 127, 128, 200, 255];

    [Theory]
    [MemberData(nameof(Lengths))]
    public void Ascii_text_of_every_length_is_its_UTF8_bytes(int length)
    {
        string text = new(Enumerable.Range(0, length).Select(i => (char)(' ' + (i * 7 % 95))).ToArray());
        Assert.Equal(Expected(text), Written(text));
    }

    [Theory]
    [MemberData(nameof(Lengths))]
    public void A_non_ASCII_character_anywhere_falls_back_to_UTF8(int length)
    {
        // Each of U+0080 (the first non-ASCII), U+00FF and U+FF80 (whose low byte looks like ASCII) at each position.
        foreach (char odd in new[] { '\u0080', '\u00FF', '\uFF80', 'é' })
        {
            for (int at = 0; at < length; at++)
            {
                char[] chars = Enumerable.Repeat('k', length).ToArray();
                chars[at] = odd;
                string text = new(chars);
                if (Encoding.UTF8.GetByteCount(text) > 255)
                {
                    Assert.Throws<ArgumentException>(() => Written(text));
                    continue;
                }

                Assert.Equal(Expected(text), Written(text));
            }
        }
    }

    [Fact]
    public void A_destination_one_byte_short_is_refused_not_overrun()
    {
        for (int length = 1; length <= 40; length++)
        {
            string text = new('a', length);
            Assert.Throws<ArgumentException>(() => { var writer = new AmqpPayloadWriter(new byte[length]); writer.WriteShortString(text); });
        }
    }

    [Fact]
    public void Properties_fit_a_destination_of_exactly_their_encoded_size()
    {
        // The largest-size reservation is 3 bytes per character; the exact size must be enough, and one less refused.
        var properties = new BasicProperties { ContentType = "text/plain", MessageId = "€uro-id", AppId = new string('a', 200), DeliveryMode = 2 };
        int size = properties.GetEncodedSize();
        Assert.True(size < properties.GetMaxEncodedSize());
        byte[] exact = new byte[size];
        Assert.Equal(size, properties.WriteTo(exact));
        Assert.Throws<ArgumentException>(() => properties.WriteTo(new byte[size - 1]));
    }

    [Fact]
    public void A_publish_with_non_ASCII_names_and_properties_decodes_to_the_same_strings()
    {
        var output = new ArrayBufferWriter<byte>();
        var properties = new BasicProperties { ContentType = "application/json", CorrelationId = "корреляция", AppId = new string('x', 100) };
        byte[] body = new byte[600];
        long written = AmqpFrameWriter.WriteBasicPublish(output, 5, "交换", "routing.ключ", true, false, properties, body, 4096);
        Assert.Equal(output.WrittenCount, written);

        var sequence = new ReadOnlySequence<byte>(output.WrittenMemory);
        var decoder = new AmqpFrameReader { FrameMax = 4096 };
        Assert.True(decoder.TryReadFrame(ref sequence, out AmqpFrame method));
        AmqpMethodReader view = AmqpMethodReader.Parse(decoder.GetPayloadSpan(method), method.PayloadOffset);
        Assert.Equal("交换", Encoding.UTF8.GetString(view.GetShortString(1)));
        Assert.Equal("routing.ключ", Encoding.UTF8.GetString(view.GetShortString(2)));
        Assert.True(decoder.TryReadFrame(ref sequence, out AmqpFrame header));
        AmqpContentHeader parsed = AmqpContentHeader.Parse(decoder.GetPayloadSpan(header));
        Assert.Equal(600UL, parsed.BodySize);
        Assert.Equal("корреляция", Encoding.UTF8.GetString(parsed.CorrelationId));
        Assert.Equal(100, parsed.AppId.Length);
        Assert.True(decoder.TryReadFrame(ref sequence, out AmqpFrame bodyFrame));
        Assert.Equal(600, bodyFrame.Payload.Length);
        Assert.True(sequence.IsEmpty);
    }

    [Theory]
    [MemberData(nameof(Lengths))]
    public void Properties_of_every_length_are_the_bytes_RabbitMQ_Client_writes(int length)
    {
        // Properties under 8 characters take a path of their own; ASCII, and a non-ASCII character at each position.
        var texts = new List<string> { new(Enumerable.Range(0, length).Select(i => (char)(' ' + (i * 11 % 95))).ToArray()) };
        for (int at = 0; at < Math.Min(length, 12); at++)
        {
            foreach (char odd in new[] { '\u0080', '\uFF80', 'é' })
            {
                char[] chars = Enumerable.Repeat('p', length).ToArray();
                chars[at] = odd;
                texts.Add(new string(chars));
            }
        }

        foreach (string text in texts.Where(t => Encoding.UTF8.GetByteCount(t) <= 255))
        {
            var ours = new BasicProperties { ContentType = text, DeliveryMode = 2, AppId = text };
            var theirs = new RabbitMQ.Client.BasicProperties { ContentType = text, Persistent = true, AppId = text };
            byte[] expected = new byte[1024];
            expected = expected[..((RabbitMQ.Client.IAmqpWriteable)theirs).WriteTo(expected)];
            byte[] actual = new byte[1024];
            actual = actual[..ours.WriteTo(actual)];
            Assert.True(expected.AsSpan().SequenceEqual(actual),
                $"\"{text}\" ({length} chars): RabbitMQ.Client wrote {Convert.ToHexString(expected)}, Spanwire {Convert.ToHexString(actual)}");

            // Every destination shorter than the encoding is refused, and nothing past it is written.
            for (int size = 0; size < expected.Length; size++)
            {
                byte[] tooSmall = new byte[size + 1];
                tooSmall[size] = 0xA5;
                Assert.Throws<ArgumentException>(() => ours.WriteTo(tooSmall.AsSpan(0, size)));
                Assert.True(tooSmall[size] == 0xA5, $"\"{text}\": a {size}-byte destination was overrun");
            }
        }
    }

    private static byte[] Expected(string text) => [(byte)Encoding.UTF8.GetByteCount(text), .. Encoding.UTF8.GetBytes(text)];

    private static byte[] Written(string text)
    {
        byte[] buffer = new byte[300];
        var writer = new AmqpPayloadWriter(buffer);
        writer.WriteShortString(text);
        return buffer[..writer.Position];
    }

    public static TheoryData<string, string> CloseReasons => new()
    {
        { "ASCII under the limit is kept whole", new string('a', 255) },
        { "ASCII past the limit is cut at 255 bytes", new string('a', 300) },
        { "two-byte characters past the limit are cut between characters", new string('é', 200) },
        { "three-byte characters past the limit", new string('中', 100) },
        { "a surrogate pair is never split", "a" + string.Concat(Enumerable.Repeat("😀", 80)) },
        { "mixed text that was 200 chars but over 255 bytes", string.Concat(Enumerable.Repeat("é中a", 67)) },
    };

    [Theory]
    [MemberData(nameof(CloseReasons))]
    public void A_reason_the_client_sends_always_fits_a_shortstr(string why, string reason)
    {
        string sent = AmqpPrimitives.ToShortStringPrefix(reason);
        int bytes = System.Text.Encoding.UTF8.GetByteCount(sent);
        Assert.True(bytes <= 255, $"{why}: {bytes} bytes");
        Assert.StartsWith(sent, reason, StringComparison.Ordinal);
        Assert.False(sent.Length > 0 && char.IsHighSurrogate(sent[^1]), $"{why}: ends in half a pair");

        // The longest such prefix: one more character would not fit.
        if (sent.Length < reason.Length)
        {
            int next = char.IsHighSurrogate(reason[sent.Length]) ? 2 : 1;
            Assert.True(System.Text.Encoding.UTF8.GetByteCount(reason[..(sent.Length + next)]) > 255, why);
        }

        // And it can be written: the method argument encoder accepts it.
        var output = new System.Buffers.ArrayBufferWriter<byte>();
        AmqpMethodFrame frame = AmqpFrameWriter.BeginMethod(output, 0, AmqpMethods.ConnectionClose, 2 + 256 + 4);
        frame.Arguments.WriteShort(200);
        frame.Arguments.WriteShortString(sent);
        frame.Arguments.WriteShort(0);
        frame.Arguments.WriteShort(0);
        frame.Complete();
        Assert.True(output.WrittenCount > bytes);
    }
}
