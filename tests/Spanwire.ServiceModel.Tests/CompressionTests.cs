using System.ServiceModel;
using System.ServiceModel.Channels;

namespace Spanwire.ServiceModel.Tests;

/// <summary>
/// CompressionFormat GZip and Deflate against WCF's own element set the same way, in the same test: the same content
/// types, the same bytes buffered and in the session form, the same message streamed and asynchronous, each reading
/// what the other wrote, the
/// same refusals (a content type of another compression, a message that grows past MaxReceivedMessageSize, a
/// transport that cannot compress), and the same choice to leave a reply plain when the peer does not accept the format.
/// </summary>
public class CompressionTests
{
    public static TheoryData<CompressionFormat, string> Cases()
    {
        var data = new TheoryData<CompressionFormat, string>();
        foreach (CompressionFormat format in new[] { CompressionFormat.GZip, CompressionFormat.Deflate })
        {
            foreach ((string name, _) in Messages.All())
            {
                data.Add(format, name);
            }
        }

        return data;
    }

    /// <summary>An element's encoder factory as a channel built on it would make it: with the transport's MaxReceivedMessageSize.</summary>
    private static MessageEncoderFactory Factory(MessageEncodingBindingElement element, long maxReceived = 16 << 20)
    {
        // The element learns MaxReceivedMessageSize from the transport below it when it builds a channel factory.
        var context = new BindingContext(new CustomBinding(new HttpTransportBindingElement { MaxReceivedMessageSize = maxReceived }), []);
        element.BuildChannelFactory<IRequestChannel>(context).Close();
        return element.CreateMessageEncoderFactory();
    }

    private static MessageEncoderFactory InBox(CompressionFormat format, long maxReceived = 16 << 20) =>
        Factory(new BinaryMessageEncodingBindingElement { CompressionFormat = format }, maxReceived);

    private static MessageEncoderFactory Ours(CompressionFormat format, long maxReceived = 16 << 20) =>
        Factory(new SpanwireBinaryMessageEncodingBindingElement { CompressionFormat = format }, maxReceived);

    private static Func<Message> Create(string name) => Messages.All().Single(m => m.Name == name).Create;

    private static byte[] WriteBuffered(MessageEncoder encoder, Message message, BufferManager manager, int offset)
    {
        ArraySegment<byte> data = encoder.WriteMessage(message, int.MaxValue, manager, offset);
        byte[] bytes = data.ToArray();
        manager.ReturnBuffer(data.Array!);
        return bytes;
    }

    private static string ReadBuffered(MessageEncoder encoder, byte[] bytes, BufferManager manager, string? contentType)
    {
        byte[] buffer = manager.TakeBuffer(bytes.Length + 5);
        bytes.CopyTo(buffer, 5);
        using Message message = encoder.ReadMessage(new ArraySegment<byte>(buffer, 5, bytes.Length), manager, contentType);
        return Messages.Describe(message);
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Buffered_the_same_bytes_as_WCF_and_each_reads_the_other(CompressionFormat format, string name)
    {
        var manager = new CountingBufferManager();
        MessageEncoder inBox = InBox(format).Encoder, ours = Ours(format).Encoder;
        string context = $"{name}, {format}";
        Expect.Equal(inBox.ContentType, ours.ContentType, $"{context}: content type");
        Expect.Equal(inBox.MediaType, ours.MediaType, $"{context}: media type");
        foreach (int offset in new[] { 0, 9 })
        {
            var inBoxManager = new CountingBufferManager(); // WCF's compression keeps some of its buffers: count only ours
            byte[] expected = WriteBuffered(inBox, Create(name)(), inBoxManager, offset);
            byte[] actual = WriteBuffered(ours, Create(name)(), manager, offset);
            Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(actual), $"{context}, offset {offset}: the compressed bytes");
            string described = ReadBuffered(inBox, expected, inBoxManager, inBox.ContentType);
            Expect.Equal(described, ReadBuffered(ours, expected, manager, ours.ContentType), $"{context}: ours reading WCF's");
            Expect.Equal(described, ReadBuffered(inBox, actual, inBoxManager, inBox.ContentType), $"{context}: WCF reading ours");
            Expect.Equal(described, ReadBuffered(ours, actual, manager, null), $"{context}: no content type is the encoder's own");
        }

        Expect.Equal(0, manager.Outstanding, "buffers not given back");
    }

    /// <summary>
    /// Streamed, the compressed bytes depend on the sizes of the writes the compressor is fed (the deflater chooses its
    /// blocks as the input arrives), and WCF's writer feeds it in pieces of its own buffer: so the message compressed
    /// is the same, byte for byte, and the compressed bytes may differ (the README says so).
    /// </summary>
    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Streamed_the_same_message_as_WCF_and_each_reads_the_other(CompressionFormat format, string name)
    {
        MessageEncoder inBox = InBox(format).Encoder, ours = Ours(format).Encoder;
        string context = $"{name}, {format}";
        var expected = new MemoryStream();
        inBox.WriteMessage(Create(name)(), expected);
        var actual = new MemoryStream();
        ours.WriteMessage(Create(name)(), actual);
        Expect.Equal(Convert.ToHexString(Decompress(expected, format)), Convert.ToHexString(Decompress(actual, format)), $"{context}: the message streamed");
        var asynchronous = new MemoryStream();
        await ours.WriteMessageAsync(Create(name)(), asynchronous);
        Expect.Equal(Convert.ToHexString(Decompress(expected, format)), Convert.ToHexString(Decompress(asynchronous, format)), $"{context}: the message WriteMessageAsync wrote");

        using Message fromInBox = inBox.ReadMessage(new MemoryStream(actual.ToArray()), 65536, inBox.ContentType);
        using Message fromOurs = ours.ReadMessage(new MemoryStream(expected.ToArray()), 65536, ours.ContentType);
        Expect.Equal(Messages.Describe(fromInBox), Messages.Describe(fromOurs), $"{context}: each reading the other's stream");
    }

    [Theory]
    [InlineData(CompressionFormat.GZip)]
    [InlineData(CompressionFormat.Deflate)]
    public void A_compressing_encoder_reads_plain_messages_and_refuses_the_other_compression_as_WCF(CompressionFormat format)
    {
        var manager = new CountingBufferManager();
        MessageEncoder inBox = InBox(format).Encoder, ours = Ours(format).Encoder;
        byte[] plain = WriteBuffered(new BinaryMessageEncodingBindingElement().CreateMessageEncoderFactory().Encoder, Messages.Request(), manager, 0);
        string other = format == CompressionFormat.GZip ? "application/soap+msbin1+deflate" : "application/soap+msbin1+gzip";
        foreach (string contentType in new[] { "application/soap+msbin1", "application/soap+msbin1; charset=utf-8", other, "text/xml" })
        {
            Expect.Equal(inBox.IsContentTypeSupported(contentType), ours.IsContentTypeSupported(contentType), $"{format}: IsContentTypeSupported({contentType})");
            Expect.Equal(Outcome(() => ReadBuffered(inBox, plain, manager, contentType)), Outcome(() => ReadBuffered(ours, plain, manager, contentType)), $"{format}: plain bytes as {contentType}");
        }
    }

    [Theory]
    [InlineData(CompressionFormat.GZip)]
    [InlineData(CompressionFormat.Deflate)]
    public void A_message_that_grows_past_MaxReceivedMessageSize_is_refused_as_WCF_refuses_it(CompressionFormat format)
    {
        var manager = new CountingBufferManager();
        Message Large() => Message.CreateMessage(Messages.Version, "urn:large", new string('x', 100_000));
        byte[] compressed = WriteBuffered(InBox(format).Encoder, Large(), new CountingBufferManager(), 0);
        foreach (long max in new[] { 1L, 1_000L, 99_000L, 1L << 20 })
        {
            MessageEncoder inBox = InBox(format, max).Encoder, ours = Ours(format, max).Encoder;
            Expect.Equal(Outcome(() => ReadBuffered(inBox, compressed, new CountingBufferManager(), inBox.ContentType)),
                Outcome(() => ReadBuffered(ours, compressed, manager, ours.ContentType)), $"{format}, MaxReceivedMessageSize {max}: buffered");
            Expect.Equal(Outcome(() => Messages.Describe(inBox.ReadMessage(new MemoryStream(compressed), 65536, inBox.ContentType))),
                Outcome(() => Messages.Describe(ours.ReadMessage(new MemoryStream(compressed), 65536, ours.ContentType))), $"{format}, MaxReceivedMessageSize {max}: streamed");
        }

        Expect.Equal(0, manager.Outstanding, "buffers not given back");
    }

    [Theory]
    [InlineData(CompressionFormat.GZip, "gzip, deflate")]
    [InlineData(CompressionFormat.GZip, "deflate")]
    [InlineData(CompressionFormat.Deflate, "GZIP")]
    [InlineData(CompressionFormat.Deflate, "Deflate")]
    public void A_reply_stays_plain_when_the_peer_does_not_accept_the_format_as_WCF(CompressionFormat format, string acceptEncoding)
    {
        var manager = new CountingBufferManager();
        Message WithAccepted()
        {
            Message message = Messages.Reply();
            message.Properties["BinaryMessageEncoder.SupportedCompressionTypes"] = acceptEncoding;
            return message;
        }

        byte[] expected = WriteBuffered(InBox(format).Encoder, WithAccepted(), new CountingBufferManager(), 0);
        byte[] actual = WriteBuffered(Ours(format).Encoder, WithAccepted(), manager, 0);
        Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(actual), $"{format}, Accept-Encoding {acceptEncoding}");
    }

    [Theory]
    [InlineData(CompressionFormat.GZip)]
    [InlineData(CompressionFormat.Deflate)]
    public void A_session_conversation_is_compressed_as_WCF_compresses_it(CompressionFormat format)
    {
        var manager = new CountingBufferManager();
        MessageEncoder inBox = InBox(format).CreateSessionEncoder(), ours = Ours(format).CreateSessionEncoder();
        MessageEncoder inBoxReader = InBox(format).CreateSessionEncoder(), oursReader = Ours(format).CreateSessionEncoder();
        Expect.Equal(inBox.ContentType, ours.ContentType, $"{format}: session content type");
        for (int i = 0; i < 4; i++)
        {
            Message Next() => i % 2 == 0 ? Messages.Request() : Messages.TypedHeaders();
            byte[] expected = WriteBuffered(inBox, Next(), new CountingBufferManager(), 0);
            byte[] actual = WriteBuffered(ours, Next(), manager, 0);
            Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(actual), $"{format}, message {i} of the session");
            Expect.Equal(ReadBuffered(inBoxReader, expected, manager, null), ReadBuffered(oursReader, actual, manager, null), $"{format}, message {i} read back");
        }
    }

    [Fact]
    public void Compressed_messages_go_end_to_end_over_HTTP()
    {
        // The end-to-end tests run a WCF client on this element over HTTP against a service using WCF's encoder; here
        // the service's encoder compresses too, so both directions are compressed on the wire.
        foreach (CompressionFormat format in new[] { CompressionFormat.GZip, CompressionFormat.Deflate })
        {
            using var server = new HttpEndToEndTests.Server(InBox(format, 16 << 20).Encoder);
            var binding = new CustomBinding(new SpanwireBinaryMessageEncodingBindingElement { CompressionFormat = format }, new HttpTransportBindingElement { MaxReceivedMessageSize = 16 << 20 });
            using var factory = new ChannelFactory<IOrders>(binding, new EndpointAddress(server.Address));
            IOrders orders = factory.CreateChannel();
            Order sent = Messages.SampleOrder(lines: 200, attachment: 100_000);
            Order reply = orders.Place(sent);
            Expect.Equal(sent.Id + 1, reply.Id, $"{format}: the service's answer");
            Assert.Equal(sent.Attachment, reply.Attachment);
            ((IClientChannel)orders).Close();
            string expectedType = format == CompressionFormat.GZip ? "application/soap+msbin1+gzip" : "application/soap+msbin1+deflate";
            Assert.All(server.RequestContentTypes, type => Assert.StartsWith(expectedType, type, StringComparison.Ordinal));
            Assert.NotEmpty(server.RequestContentTypes);
        }
    }

    private static byte[] Decompress(MemoryStream compressed, CompressionFormat format)
    {
        using Stream decompressor = format == CompressionFormat.GZip
            ? new System.IO.Compression.GZipStream(new MemoryStream(compressed.ToArray()), System.IO.Compression.CompressionMode.Decompress)
            : new System.IO.Compression.DeflateStream(new MemoryStream(compressed.ToArray()), System.IO.Compression.CompressionMode.Decompress);
        var plain = new MemoryStream();
        decompressor.CopyTo(plain);
        return plain.ToArray();
    }

    private static string Outcome(Func<string> read)
    {
        try
        {
            return "read " + read();
        }
        catch (Exception e) when (e is not Xunit.Sdk.XunitException)
        {
            return e.GetType().Name + (e.InnerException is { } inner ? " over " + inner.GetType().Name : "");
        }
    }
}
