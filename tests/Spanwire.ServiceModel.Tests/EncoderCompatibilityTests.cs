using System.ServiceModel;
using System.ServiceModel.Channels;

namespace Spanwire.ServiceModel.Tests;

/// <summary>
/// The encoder against WCF's own BinaryMessageEncodingBindingElement, in the same test: the same bytes for the same
/// message (buffered, streamed, session form), each reading what the other wrote, and the same refusals.
/// </summary>
public class EncoderCompatibilityTests
{
    private static MessageEncoderFactory InBoxFactory() => new BinaryMessageEncodingBindingElement().CreateMessageEncoderFactory();

    private static MessageEncoderFactory SpanwireFactory() => new SpanwireBinaryMessageEncodingBindingElement().CreateMessageEncoderFactory();

    public static TheoryData<string> MessageNames() => [.. Messages.All().Select(m => m.Name)];

    private static Func<Message> Create(string name) => Messages.All().Single(m => m.Name == name).Create;

    private static byte[] WriteBuffered(MessageEncoder encoder, Message message, BufferManager manager, int offset = 0)
    {
        ArraySegment<byte> data = encoder.WriteMessage(message, int.MaxValue, manager, offset);
        byte[] bytes = data.ToArray();
        manager.ReturnBuffer(data.Array!);
        return bytes;
    }

    private static byte[] WriteStreamed(MessageEncoder encoder, Message message)
    {
        var stream = new MemoryStream();
        encoder.WriteMessage(message, stream);
        return stream.ToArray();
    }

    private static string ReadBuffered(MessageEncoder encoder, byte[] bytes, BufferManager manager)
    {
        byte[] buffer = manager.TakeBuffer(bytes.Length + 10);
        bytes.CopyTo(buffer, 10);
        using Message message = encoder.ReadMessage(new ArraySegment<byte>(buffer, 10, bytes.Length), manager, encoder.ContentType);
        return Messages.Describe(message);
    }

    [Theory]
    [MemberData(nameof(MessageNames))]
    public void Buffered_same_bytes_as_WCF(string name)
    {
        var manager = new CountingBufferManager();
        foreach (int offset in new[] { 0, 7 })
        {
            byte[] expected = WriteBuffered(InBoxFactory().Encoder, Create(name)(), manager, offset);
            byte[] actual = WriteBuffered(SpanwireFactory().Encoder, Create(name)(), manager, offset);
            Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(actual), $"{name}, offset {offset}");
        }

        Expect.Equal(0, manager.Outstanding, "buffers not given back");
    }

    [Theory]
    [MemberData(nameof(MessageNames))]
    public void Streamed_same_bytes_as_WCF(string name)
    {
        byte[] expected = WriteStreamed(InBoxFactory().Encoder, Create(name)());
        byte[] actual = WriteStreamed(SpanwireFactory().Encoder, Create(name)());
        Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(actual), name);
    }

    [Theory]
    [MemberData(nameof(MessageNames))]
    public async Task Streamed_async_same_bytes_as_WCF(string name)
    {
        var expected = new MemoryStream();
        await InBoxFactory().Encoder.WriteMessageAsync(Create(name)(), expected);
        var actual = new MemoryStream();
        await SpanwireFactory().Encoder.WriteMessageAsync(Create(name)(), actual);
        Expect.Equal(Convert.ToHexString(expected.ToArray()), Convert.ToHexString(actual.ToArray()), name);
    }

    [Theory]
    [MemberData(nameof(MessageNames))]
    public void Buffered_each_reads_what_the_other_wrote(string name)
    {
        var manager = new CountingBufferManager();
        MessageEncoder inBox = InBoxFactory().Encoder, spanwire = SpanwireFactory().Encoder;
        byte[] written = WriteBuffered(inBox, Create(name)(), manager);
        string control = ReadBuffered(inBox, written, manager);
        Expect.Equal(control, ReadBuffered(spanwire, written, manager), $"{name}: Spanwire reading WCF's bytes");
        Expect.Equal(control, ReadBuffered(inBox, WriteBuffered(spanwire, Create(name)(), manager), manager), $"{name}: WCF reading Spanwire's bytes");
        Expect.Equal(0, manager.Outstanding, "buffers not given back after the messages closed");
    }

    [Theory]
    [MemberData(nameof(MessageNames))]
    public async Task Streamed_each_reads_what_the_other_wrote(string name)
    {
        MessageEncoder inBox = InBoxFactory().Encoder, spanwire = SpanwireFactory().Encoder;
        byte[] written = WriteStreamed(inBox, Create(name)());
        string control = ReadStreamed(inBox, written);
        Expect.Equal(control, ReadStreamed(spanwire, written), $"{name}: Spanwire reading WCF's stream");
        Expect.Equal(control, ReadStreamed(inBox, WriteStreamed(spanwire, Create(name)())), $"{name}: WCF reading Spanwire's stream");
        using Message message = await spanwire.ReadMessageAsync(new MemoryStream(written), 65536, spanwire.ContentType);
        Expect.Equal(control, Messages.Describe(message), $"{name}: ReadMessageAsync");

        static string ReadStreamed(MessageEncoder encoder, byte[] bytes)
        {
            using Message message = encoder.ReadMessage(new MemoryStream(bytes), 65536, encoder.ContentType);
            return Messages.Describe(message);
        }
    }

    [Fact]
    public void Body_deserializes_to_the_same_graph()
    {
        var manager = new CountingBufferManager();
        byte[] written = WriteBuffered(InBoxFactory().Encoder, Messages.Request(), manager);
        byte[] buffer = manager.TakeBuffer(written.Length);
        written.CopyTo(buffer, 0);
        using Message message = SpanwireFactory().Encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, written.Length), manager, null);
        Expect.Equal("http://tempuri.org/IOrders/Place", message.Headers.Action, "action");
        Expect.Equal(new Uri("http://127.0.0.1:8080/orders"), message.Headers.To, "To header");
        Order order = message.GetBody<Order>();
        Order expected = Messages.SampleOrder();
        Expect.Equal(expected.Customer, order.Customer, "customer");
        Expect.Equal(expected.Total, order.Total, "total");
        Expect.Equal(expected.Placed, order.Placed, "placed");
        Expect.Equal(expected.Lines.Count, order.Lines.Count, "lines");
        message.Close();
        Expect.Equal(0, manager.Outstanding, "buffers not given back");
    }

    [Fact]
    public void Fault_reads_as_the_same_fault()
    {
        var manager = new CountingBufferManager();
        byte[] written = WriteBuffered(SpanwireFactory().Encoder, Messages.Fault(), manager);
        foreach (MessageEncoder encoder in new[] { InBoxFactory().Encoder, SpanwireFactory().Encoder })
        {
            byte[] buffer = manager.TakeBuffer(written.Length);
            written.CopyTo(buffer, 0);
            using Message message = encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, written.Length), manager, null);
            Assert.True(message.IsFault, "IsFault");
            var fault = MessageFault.CreateFault(message, 65536);
            Expect.Equal("Refused", fault.Code.SubCode.Name, "fault subcode");
            Expect.Equal("The order was refused.", fault.Reason.GetMatchingTranslation().Text, "reason");
            Expect.Equal(409, fault.GetDetail<OrderRefused>().Code, "detail");
        }
    }

    [Fact]
    public void Content_types_as_WCF()
    {
        MessageEncoderFactory inBox = InBoxFactory(), spanwire = SpanwireFactory();
        Expect.Equal(inBox.Encoder.ContentType, spanwire.Encoder.ContentType, "sessionless content type");
        Expect.Equal(inBox.Encoder.MediaType, spanwire.Encoder.MediaType, "sessionless media type");
        Expect.Equal(inBox.CreateSessionEncoder().ContentType, spanwire.CreateSessionEncoder().ContentType, "session content type");
        Expect.Equal(inBox.MessageVersion, spanwire.MessageVersion, "message version");
        foreach (string type in new[] { "application/soap+msbin1", "application/soap+msbin1; charset=utf-8", "text/xml", "application/soap+msbinsession1", "" })
        {
            Expect.Equal(inBox.Encoder.IsContentTypeSupported(type), spanwire.Encoder.IsContentTypeSupported(type), $"IsContentTypeSupported({type})");
        }
    }

    [Fact]
    public void Wrong_content_type_protocol_exception_as_WCF()
    {
        foreach (MessageEncoder encoder in new[] { InBoxFactory().Encoder, SpanwireFactory().Encoder })
        {
            var manager = new CountingBufferManager();
            byte[] buffer = manager.TakeBuffer(16);
            Assert.Throws<ProtocolException>(() => encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, 16), manager, "text/xml"));
            Assert.Throws<ProtocolException>(() => encoder.ReadMessage(new MemoryStream(), 100, "application/json"));
        }
    }

    [Fact]
    public void Mismatched_version_protocol_exception_as_WCF()
    {
        foreach (MessageEncoder encoder in new[] { InBoxFactory().Encoder, SpanwireFactory().Encoder })
        {
            var manager = new CountingBufferManager();
            Assert.Throws<ProtocolException>(() => encoder.WriteMessage(Message.CreateMessage(MessageVersion.Soap11, "a"), int.MaxValue, manager));
            Assert.Throws<ProtocolException>(() => encoder.WriteMessage(Message.CreateMessage(MessageVersion.Soap12, "a"), new MemoryStream()));
            Expect.Equal(0, manager.Outstanding, $"{encoder.GetType().Name}: buffers not given back");
        }
    }

    [Fact]
    public void Max_message_size_quota_exceeded_as_WCF()
    {
        foreach (MessageEncoder encoder in new[] { InBoxFactory().Encoder, SpanwireFactory().Encoder })
        {
            var manager = new CountingBufferManager();
            QuotaExceededException e = Assert.Throws<QuotaExceededException>(() => encoder.WriteMessage(Messages.Request(), 100, manager));
            Assert.Contains("(100)", e.Message, StringComparison.Ordinal);
            Assert.Throws<QuotaExceededException>(() => encoder.WriteMessage(Messages.Request(), 10, manager, 20));
            Assert.Throws<ArgumentOutOfRangeException>(() => encoder.WriteMessage(Messages.Request(), -1, manager));
            Expect.Equal(0, manager.Outstanding, $"{encoder.GetType().Name}: buffers not given back after a refused write");
            // Exactly the message's size fits.
            int size = WriteBuffered(encoder, Messages.Request(), manager).Length;
            ArraySegment<byte> exact = encoder.WriteMessage(Messages.Request(), size, manager);
            manager.ReturnBuffer(exact.Array!);
            Assert.Throws<QuotaExceededException>(() => encoder.WriteMessage(Messages.Request(), size - 1, manager));
        }
    }

    [Fact]
    public void Binding_element_properties_as_WCF()
    {
        var inBox = new BinaryMessageEncodingBindingElement();
        var spanwire = new SpanwireBinaryMessageEncodingBindingElement();
        Expect.Equal(inBox.MaxSessionSize, spanwire.MaxSessionSize, "MaxSessionSize default");
        Expect.Equal(inBox.MaxReadPoolSize, spanwire.MaxReadPoolSize, "MaxReadPoolSize default");
        Expect.Equal(inBox.MaxWritePoolSize, spanwire.MaxWritePoolSize, "MaxWritePoolSize default");
        Expect.Equal(inBox.MessageVersion, spanwire.MessageVersion, "MessageVersion default");
        Expect.Equal(inBox.ReaderQuotas.MaxDepth, spanwire.ReaderQuotas.MaxDepth, "MaxDepth default");
        Exception control = Record.Exception(() => inBox.MessageVersion = MessageVersion.Soap11)!;
        Exception actual = Record.Exception(() => spanwire.MessageVersion = MessageVersion.Soap11)!;
        Expect.Equal(control.GetType(), actual?.GetType(), "setting SOAP 1.1");
        Expect.Equal(control.Message.Replace("System.ServiceModel.Channels.BinaryMessageEncodingBindingElement", "", StringComparison.Ordinal),
            actual!.Message.Replace(typeof(SpanwireBinaryMessageEncodingBindingElement).FullName!, "", StringComparison.Ordinal), "the refusal's message, element names aside");
        Expect.Equal(Record.Exception(() => inBox.MessageVersion = null!)?.GetType(), Record.Exception(() => spanwire.MessageVersion = null!)?.GetType(), "setting null");
        Expect.Equal(Record.Exception(() => inBox.MaxSessionSize = -1)?.GetType(), Record.Exception(() => spanwire.MaxSessionSize = -1)?.GetType(), "MaxSessionSize -1");
        Expect.Equal(Record.Exception(() => inBox.MaxReadPoolSize = 0)?.GetType(), Record.Exception(() => spanwire.MaxReadPoolSize = 0)?.GetType(), "MaxReadPoolSize 0");
        Expect.Equal(Record.Exception(() => inBox.MaxWritePoolSize = 0)?.GetType(), Record.Exception(() => spanwire.MaxWritePoolSize = 0)?.GetType(), "MaxWritePoolSize 0");
        spanwire.MessageVersion = MessageVersion.Soap12;
        spanwire.MaxSessionSize = 10;
        spanwire.ReaderQuotas.MaxDepth = 9;
        var clone = (SpanwireBinaryMessageEncodingBindingElement)spanwire.Clone();
        Expect.Equal(MessageVersion.Soap12, clone.MessageVersion, "clone keeps the version");
        Expect.Equal(10, clone.MaxSessionSize, "clone keeps MaxSessionSize");
        Expect.Equal(9, clone.ReaderQuotas.MaxDepth, "clone keeps the quotas");
        Expect.Equal(MessageVersion.Soap12, clone.CreateMessageEncoderFactory().Encoder.MessageVersion, "encoder version");
    }

    [Fact]
    public void Binding_element_quotas_setter_and_configuration_members_as_WCF()
    {
        var inBox = new BinaryMessageEncodingBindingElement();
        var spanwire = new SpanwireBinaryMessageEncodingBindingElement();
        Expect.Equal(inBox.CompressionFormat, spanwire.CompressionFormat, "CompressionFormat default");
        Expect.Equal(Record.Exception(() => inBox.ReaderQuotas = null!)?.GetType(), Record.Exception(() => spanwire.ReaderQuotas = null!)?.GetType(), "ReaderQuotas = null");

        // Setting copies: the element keeps its own quotas object, and later changes to the given one do not reach it.
        var given = new System.Xml.XmlDictionaryReaderQuotas { MaxDepth = 7, MaxStringContentLength = 100, MaxArrayLength = 200, MaxBytesPerRead = 300, MaxNameTableCharCount = 400 };
        System.Xml.XmlDictionaryReaderQuotas inBoxBefore = inBox.ReaderQuotas, spanwireBefore = spanwire.ReaderQuotas;
        inBox.ReaderQuotas = given;
        spanwire.ReaderQuotas = given;
        given.MaxDepth = 99;
        Expect.Equal(ReferenceEquals(inBoxBefore, inBox.ReaderQuotas), ReferenceEquals(spanwireBefore, spanwire.ReaderQuotas), "the same quotas object after setting");
        Expect.Equal(Quotas(inBox.ReaderQuotas), Quotas(spanwire.ReaderQuotas), "quotas after setting and changing the given object");

        inBox.CompressionFormat = CompressionFormat.GZip;
        spanwire.CompressionFormat = CompressionFormat.GZip;
        var clone = (SpanwireBinaryMessageEncodingBindingElement)spanwire.Clone();
        Expect.Equal(((BinaryMessageEncodingBindingElement)inBox.Clone()).CompressionFormat, clone.CompressionFormat, "clone keeps CompressionFormat");
        Expect.Equal(Quotas(inBox.ReaderQuotas), Quotas(clone.ReaderQuotas), "clone keeps the set quotas");
    }

    [Theory]
    [InlineData(CompressionFormat.GZip)]
    [InlineData(CompressionFormat.Deflate)]
    public void Binding_element_compression_refused_as_WCF_when_the_transport_cannot_compress(CompressionFormat format)
    {
        // Over HTTP both build; over a transport with no ITransportCompressionSupport both refuse, with the same words.
        Assert.NotNull(new CustomBinding(new BinaryMessageEncodingBindingElement { CompressionFormat = format }, new HttpTransportBindingElement()).BuildChannelFactory<IRequestChannel>());
        Assert.NotNull(new CustomBinding(new SpanwireBinaryMessageEncodingBindingElement { CompressionFormat = format }, new HttpTransportBindingElement()).BuildChannelFactory<IRequestChannel>());
        var expected = Assert.Throws<NotSupportedException>(() => new CustomBinding(new BinaryMessageEncodingBindingElement { CompressionFormat = format }, new PlainTransport()).BuildChannelFactory<IRequestChannel>());
        var actual = Assert.Throws<NotSupportedException>(() => new CustomBinding(new SpanwireBinaryMessageEncodingBindingElement { CompressionFormat = format }, new PlainTransport()).BuildChannelFactory<IRequestChannel>());
        Expect.Equal(expected.Message.Replace(nameof(BinaryMessageEncodingBindingElement), "X"), actual.Message.Replace(nameof(SpanwireBinaryMessageEncodingBindingElement), "X"), $"{format}: the refusal");
    }

    /// <summary>A transport that says nothing of compression: the encoders refuse to compress over it before it builds anything.</summary>
    private sealed class PlainTransport : TransportBindingElement
    {
        public override string Scheme => "plain";

        public override BindingElement Clone() => new PlainTransport();

        public override T GetProperty<T>(BindingContext context) => typeof(T) == typeof(ITransportCompressionSupport) ? null! : base.GetProperty<T>(context)!;
    }

    /// <summary>
    /// A MaxBytesPerRead the binding sets bounds a start tag's attributes in a buffered message, as WCF's reader does;
    /// streamed, WCF's reader hands a long text out in pieces instead. Left at its default, buffered reads lift it.
    /// </summary>
    [Theory]
    [InlineData(0)]
    [InlineData(120)]
    [InlineData(2000)]
    public void MaxBytesPerRead_the_binding_sets_applies_as_WCF(int maxBytesPerRead)
    {
        Message Create()
        {
            Message message = Message.CreateMessage(Messages.Version, "urn:a", new AttributesBody());
            message.Headers.To = new Uri("http://127.0.0.1/orders");
            return message;
        }

        var inBox = new BinaryMessageEncodingBindingElement();
        var spanwire = new SpanwireBinaryMessageEncodingBindingElement();
        if (maxBytesPerRead > 0)
        {
            inBox.ReaderQuotas.MaxBytesPerRead = maxBytesPerRead;
            spanwire.ReaderQuotas.MaxBytesPerRead = maxBytesPerRead;
        }

        MessageEncoder inBoxEncoder = inBox.CreateMessageEncoderFactory().Encoder, spanwireEncoder = spanwire.CreateMessageEncoderFactory().Encoder;
        byte[] bytes = WriteBuffered(inBoxEncoder, Create(), BufferManager.CreateBufferManager(0, int.MaxValue));
        string Outcome(Func<Message> read)
        {
            try
            {
                using Message message = read();
                return Messages.Describe(message);
            }
            catch (Exception e) when (e is not Xunit.Sdk.XunitException)
            {
                return (e is System.Xml.XmlException ? nameof(System.Xml.XmlException) : e.GetType().Name) + ": " + e.Message;
            }
        }

        var manager = BufferManager.CreateBufferManager(0, int.MaxValue);
        string expected = Outcome(() => inBoxEncoder.ReadMessage(new ArraySegment<byte>((byte[])bytes.Clone()), manager, inBoxEncoder.ContentType));
        Expect.Equal(expected, Outcome(() => spanwireEncoder.ReadMessage(new ArraySegment<byte>((byte[])bytes.Clone()), manager, spanwireEncoder.ContentType)), $"buffered, MaxBytesPerRead {maxBytesPerRead}");
        Expect.Equal(maxBytesPerRead == 120, expected.StartsWith(nameof(System.Xml.XmlException), StringComparison.Ordinal), $"WCF refuses the start tag only under the smallest quota: {expected}");
        Expect.Equal(Outcome(() => inBoxEncoder.ReadMessage(new MemoryStream(bytes), 65536, inBoxEncoder.ContentType)),
            Outcome(() => spanwireEncoder.ReadMessage(new MemoryStream(bytes), 65536, spanwireEncoder.ContentType)), $"streamed, MaxBytesPerRead {maxBytesPerRead}");
    }

    /// <summary>A body element with 20 attributes (about 440 bytes of them) and a text of 1,000 characters.</summary>
    private sealed class AttributesBody() : BodyWriter(isBuffered: true)
    {
        protected override void OnWriteBodyContents(System.Xml.XmlDictionaryWriter writer)
        {
            writer.WriteStartElement("item", "urn:spanwire:attributes");
            for (int i = 0; i < 20; i++)
            {
                writer.WriteAttributeString("attribute" + i, "value " + i);
            }

            writer.WriteString(new string('t', 1000));
            writer.WriteEndElement();
        }
    }

    private static string Quotas(System.Xml.XmlDictionaryReaderQuotas q) =>
        $"depth {q.MaxDepth}, strings {q.MaxStringContentLength}, arrays {q.MaxArrayLength}, bytes per read {q.MaxBytesPerRead}, names {q.MaxNameTableCharCount}";

    [Fact]
    public void SOAP12_without_addressing_same_bytes_as_WCF()
    {
        var manager = new CountingBufferManager();
        var inBox = new BinaryMessageEncodingBindingElement { MessageVersion = MessageVersion.Soap12 };
        var spanwire = new SpanwireBinaryMessageEncodingBindingElement { MessageVersion = MessageVersion.Soap12 };
        byte[] expected = WriteBuffered(inBox.CreateMessageEncoderFactory().Encoder, Message.CreateMessage(MessageVersion.Soap12, "urn:a", Messages.SampleOrder()), manager);
        byte[] actual = WriteBuffered(spanwire.CreateMessageEncoderFactory().Encoder, Message.CreateMessage(MessageVersion.Soap12, "urn:a", Messages.SampleOrder()), manager);
        Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(actual), "SOAP 1.2 without addressing");
    }

    [Fact]
    public void Malformed_body_XmlException_and_buffer_back()
    {
        var manager = new CountingBufferManager();
        byte[] written = WriteBuffered(InBoxFactory().Encoder, Messages.Request(), manager);
        foreach (int cut in new[] { 1, 5, written.Length / 2, written.Length - 1 })
        {
            byte[] buffer = manager.TakeBuffer(cut);
            Array.Copy(written, buffer, cut);
            Exception e = Record.Exception(() =>
            {
                using Message message = SpanwireFactory().Encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, cut), manager, null);
                Messages.Describe(message);
            });
            Assert.True(e is System.Xml.XmlException or CommunicationException, $"cut at {cut}: {e?.GetType().Name}: {e?.Message}");
        }

        Expect.Equal(0, manager.Outstanding, "buffers not given back after malformed messages");
    }

    [Fact]
    public void WriterPool_reused_writers_write_every_message_as_WCF_after_refusals_and_on_many_threads()
    {
        // One factory, so its pooled writers (MaxWritePoolSize 2) are reused: between messages, after a write refused
        // for its size (that writer is dropped), with offsets, and from eight threads at once.
        var manager = new CountingBufferManager();
        MessageEncoder encoder = new SpanwireBinaryMessageEncodingBindingElement { MaxWritePoolSize = 2 }.CreateMessageEncoderFactory().Encoder;
        var messages = Messages.All().ToArray();
        string[] expected = [.. messages.Select(m => Convert.ToHexString(WriteBuffered(InBoxFactory().Encoder, m.Create(), manager, 5)))];
        for (int round = 0; round < 3; round++)
        {
            for (int i = 0; i < messages.Length; i++)
            {
                if ((i + round) % 4 == 0)
                {
                    Assert.Throws<QuotaExceededException>(() => encoder.WriteMessage(messages[i].Create(), 30, manager, 5));
                }

                Expect.Equal(expected[i], Convert.ToHexString(WriteBuffered(encoder, messages[i].Create(), manager, 5)), $"round {round}, {messages[i].Name}");
            }
        }

        string[] written = new string[8 * messages.Length];
        Parallel.For(0, written.Length, new ParallelOptions { MaxDegreeOfParallelism = 8 }, i =>
            written[i] = Convert.ToHexString(WriteBuffered(encoder, messages[i % messages.Length].Create(), manager, 5)));
        for (int i = 0; i < written.Length; i++)
        {
            Expect.Equal(expected[i % messages.Length], written[i], $"parallel write {i}, {messages[i % messages.Length].Name}");
        }

        Expect.Equal(0, manager.Outstanding, "buffers not given back");
    }

    [Fact]
    public void ReaderPool_reused_readers_read_every_message()
    {
        var manager = new CountingBufferManager();
        MessageEncoder encoder = SpanwireFactory().Encoder;
        var written = Messages.All().Select(m => WriteBuffered(InBoxFactory().Encoder, m.Create(), manager)).ToArray();
        var expected = written.Select(w => ReadBuffered(InBoxFactory().Encoder, w, manager)).ToArray();
        for (int round = 0; round < 3; round++)
        {
            for (int i = 0; i < written.Length; i++)
            {
                Expect.Equal(expected[i], ReadBuffered(encoder, written[i], manager), $"round {round}, message {i}");
            }
        }

        Expect.Equal(0, manager.Outstanding, "buffers not given back");
    }
}

/// <summary>Every argument check of the encoders (sessionless and session) against WCF's, call for call: the same exception type and parameter.</summary>
public class EncoderArgumentTests
{
    public static TheoryData<string, bool> Calls()
    {
        var data = new TheoryData<string, bool>();
        foreach (string call in s_calls.Keys)
        {
            data.Add(call, false);
            data.Add(call, true);
        }

        return data;
    }

    private static readonly Dictionary<string, Action<MessageEncoder>> s_calls = new()
    {
        ["ReadMessage(default segment)"] = e => e.ReadMessage(default, BufferManager.CreateBufferManager(0, 1024), null),
        ["ReadMessage(empty segment)"] = e => e.ReadMessage(new ArraySegment<byte>([]), BufferManager.CreateBufferManager(0, 1024), null),
        ["ReadMessage(null manager)"] = e => e.ReadMessage(new ArraySegment<byte>([0x01]), null!, null),
        ["ReadMessage(default segment, null manager)"] = e => e.ReadMessage(default, null!, null),
        ["ReadMessage(null stream)"] = e => e.ReadMessage((Stream)null!, 65536, null),
        ["ReadMessage(stream, negative header size)"] = e => e.ReadMessage(new MemoryStream([0x01]), -1, null),
        ["WriteMessage(null message)"] = e => e.WriteMessage(null!, 1024, BufferManager.CreateBufferManager(0, 1024)),
        ["WriteMessage(negative size)"] = e => e.WriteMessage(Messages.Request(), -1, BufferManager.CreateBufferManager(0, 1024)),
        ["WriteMessage(null manager)"] = e => e.WriteMessage(Messages.Request(), 1024, null!),
        ["WriteMessage(negative offset)"] = e => e.WriteMessage(Messages.Request(), 1024, BufferManager.CreateBufferManager(0, 1024), -1),
        ["WriteMessage(offset past size)"] = e => e.WriteMessage(Messages.Request(), 10, BufferManager.CreateBufferManager(0, 1024), 20),
        ["WriteMessage(null message, stream)"] = e => e.WriteMessage(null!, new MemoryStream()),
        ["WriteMessage(message, null stream)"] = e => e.WriteMessage(Messages.Request(), (Stream)null!),
        ["WriteMessageAsync(null message, stream)"] = e => e.WriteMessageAsync(null!, new MemoryStream()).AsTask().GetAwaiter().GetResult(),
        ["WriteMessageAsync(message, null stream)"] = e => e.WriteMessageAsync(Messages.Request(), null!).AsTask().GetAwaiter().GetResult(),
    };

    [Theory]
    [MemberData(nameof(Calls))]
    public void Refused_as_WCF_refuses_it(string call, bool session)
    {
        MessageEncoderFactory inBox = new BinaryMessageEncodingBindingElement().CreateMessageEncoderFactory();
        MessageEncoderFactory ours = new SpanwireBinaryMessageEncodingBindingElement().CreateMessageEncoderFactory();
        string expected = Outcome(() => s_calls[call](session ? inBox.CreateSessionEncoder() : inBox.Encoder));
        string actual = Outcome(() => s_calls[call](session ? ours.CreateSessionEncoder() : ours.Encoder));
        Expect.Equal(expected, actual, $"{call}, {(session ? "session" : "sessionless")} encoder");
    }

    private static string Outcome(Action call)
    {
        try
        {
            call();
            return "allowed";
        }
        catch (Exception e) when (e is not Xunit.Sdk.XunitException)
        {
            // The reader's own exception is an XmlException (NbfxFormatException, with the byte offset).
            return (e is System.Xml.XmlException ? nameof(System.Xml.XmlException) : e.GetType().Name) + (e is ArgumentException a ? " " + a.ParamName : "");
        }
    }
}
