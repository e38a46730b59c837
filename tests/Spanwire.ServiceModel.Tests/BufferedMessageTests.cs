using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Text;
using System.Xml;

namespace Spanwire.ServiceModel.Tests;

/// <summary>
/// A buffered read gives a message that behaves as the message WCF's own encoder gives for the same bytes: the same
/// headers (kinds, values, attributes, what is understood), the same answers about the body, the same text when
/// printed or written, the same refusals by state, and the buffer back when it closes. Each row is read by both
/// encoders in the same test, WCF's as the control; rows cover the addressing headers WCF writes (read in place), and
/// headers of other shapes (read through Message.CreateMessage).
/// </summary>
public class BufferedMessageTests
{
    private const string Addressing10 = "http://www.w3.org/2005/08/addressing";

    private static MessageEncoder InBox(MessageVersion version) =>
        new BinaryMessageEncodingBindingElement { MessageVersion = version }.CreateMessageEncoderFactory().Encoder;

    private static MessageEncoder Spanwire(MessageVersion version) =>
        new SpanwireBinaryMessageEncodingBindingElement { MessageVersion = version }.CreateMessageEncoderFactory().Encoder;

    /// <summary>Messages by name: (why it is here, the version, how to make it).</summary>
    public static IEnumerable<(string Name, MessageVersion Version, Func<Message> Create)> Rows()
    {
        MessageVersion v10 = MessageVersion.Soap12WSAddressing10;
        foreach ((string name, Func<Message> create) in Messages.All())
        {
            yield return (name, v10, create);
        }

        yield return ("every addressing header, with reference parameters on ReplyTo", v10, EveryAddressingHeader);
        yield return ("anonymous To and a None ReplyTo", v10, () =>
        {
            Message m = Message.CreateMessage(v10, "urn:spanwire:anon", "body");
            m.Headers.To = new Uri("http://www.w3.org/2005/08/addressing/anonymous");
            m.Headers.ReplyTo = new EndpointAddress("http://www.w3.org/2005/08/addressing/none");
            return m;
        }
        );
        yield return ("Action not to be understood (another header class in WCF)", v10, () => WithHeader(v10, MessageHeader.CreateHeader("Action", Addressing10, "urn:spanwire:loose", mustUnderstand: false)));
        yield return ("MessageID to be understood", v10, () => WithHeader(v10, MessageHeader.CreateHeader("MessageID", Addressing10, new UniqueId(), mustUnderstand: true), action: true));
        yield return ("To for a role", v10, () => WithHeader(v10, MessageHeader.CreateHeader("To", Addressing10, "http://a/b", true, "http://www.w3.org/2003/05/soap-envelope/role/next"), action: true));
        yield return ("To for the ultimate receiver named", v10, () => WithHeader(v10, MessageHeader.CreateHeader("To", Addressing10, "http://a/b", true, "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver"), action: true));
        yield return ("relayed ReplyTo", v10, () => WithHeader(v10, MessageHeader.CreateHeader("ReplyTo", Addressing10, "x", false, "", relay: true), action: true));
        yield return ("two Action headers", v10, () => WithHeader(v10, MessageHeader.CreateHeader("Action", Addressing10, "urn:spanwire:second", mustUnderstand: true), action: true));
        yield return ("Action with spaces around it", v10, () => WithHeader(v10, MessageHeader.CreateHeader("Action", Addressing10, "  urn:spanwire:spaced \t", mustUnderstand: true)));
        yield return ("an unknown header in the addressing namespace", v10, () => WithHeader(v10, MessageHeader.CreateHeader("Extra", Addressing10, "x"), action: true));
        yield return ("a relative To", v10, () => WithHeader(v10, MessageHeader.CreateHeader("To", Addressing10, "orders/7", mustUnderstand: true), action: true));
        yield return ("RelatesTo of another relationship", v10, () => WithHeader(v10, new RelatesToHeader("urn:spanwire:rel", "urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e"), action: true));
        yield return ("WS-Addressing August 2004", MessageVersion.Soap12WSAddressingAugust2004, () =>
        {
            Message m = Message.CreateMessage(MessageVersion.Soap12WSAddressingAugust2004, "urn:spanwire:2004", Messages.SampleOrder(lines: 1));
            m.Headers.MessageId = new UniqueId(new Guid("11111111-2222-3333-4444-555555555555"));
            m.Headers.ReplyTo = new EndpointAddress("http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous");
            m.Headers.To = new Uri("http://127.0.0.1/2004");
            return m;
        }
        );
        yield return ("SOAP 1.2 without addressing", MessageVersion.Soap12, () => Message.CreateMessage(MessageVersion.Soap12, "urn:spanwire:none", Messages.SampleOrder(lines: 1)));
        yield return ("empty body element", v10, () => Message.CreateMessage(v10, "urn:spanwire:empty"));
        yield return ("no header at all", v10, () => Message.CreateMessage(v10, (string)null!, "body"));
        yield return ("a header WCF keeps but does not know, to be understood, for another role", v10, () =>
            WithHeader(v10, MessageHeader.CreateHeader("Session", "urn:spanwire:headers", 42, true, "http://www.w3.org/2003/05/soap-envelope/role/next"), action: true));
        yield return ("body of text only", v10, () => Message.CreateMessage(v10, "urn:spanwire:text", new TextBody()));
        yield return ("attributes on the body element", v10, () => new BodyAttributeMessage(Message.CreateMessage(v10, "urn:spanwire:attr", "x")));
    }

    public static TheoryData<string> RowNames() => [.. Rows().Select(r => r.Name)];

    private static (MessageVersion Version, Func<Message> Create) Row(string name)
    {
        (string _, MessageVersion version, Func<Message> create) = Rows().Single(r => r.Name == name);
        return (version, create);
    }

    private static Message WithHeader(MessageVersion version, MessageHeader header, bool action = false)
    {
        Message message = action ? Message.CreateMessage(version, "urn:spanwire:with", "body") : Message.CreateMessage(version, (string)null!, "body");
        message.Headers.Add(header);
        return message;
    }

    private static Message EveryAddressingHeader()
    {
        MessageVersion v10 = MessageVersion.Soap12WSAddressing10;
        Message m = Message.CreateMessage(v10, "urn:spanwire:every", Messages.SampleOrder(lines: 2));
        m.Headers.MessageId = new UniqueId("urn:spanwire:id:7");
        m.Headers.RelatesTo = new UniqueId(new Guid("0f8fad5b-d9cb-469f-a165-70867728950e"));
        var replyTo = new EndpointAddressBuilder(new EndpointAddress("http://client.example/reply"));
        replyTo.Headers.Add(AddressHeader.CreateAddressHeader("Session", "urn:spanwire:headers", "s-42"));
        m.Headers.ReplyTo = replyTo.ToEndpointAddress();
        m.Headers.From = new EndpointAddress("http://client.example/from");
        m.Headers.FaultTo = new EndpointAddress("http://client.example/faults");
        m.Headers.To = new Uri("HTTP://Server.Example:8080/a%20b/orders?x=1#f");
        return m;
    }

    /// <summary>Everything a reader of the message asks before the body: kinds, values, attributes, the body's shape.</summary>
    private static string Snapshot(Message message)
    {
        var text = new StringBuilder();
        text.AppendLine($"IsEmpty={message.IsEmpty} IsFault={message.IsFault} State={message.State} Version={message.Version}");
        MessageHeaders headers = message.Headers;
        text.AppendLine($"Count={headers.Count}");
        for (int i = 0; i < headers.Count; i++)
        {
            MessageHeaderInfo h = headers[i];
            text.AppendLine($"[{i}] {h.Name} {h.Namespace} mu={h.MustUnderstand} actor='{h.Actor}' relay={h.Relay} refParam={h.IsReferenceParameter} understood={headers.UnderstoodHeaders.Contains(h)}");
            using XmlDictionaryReader header = headers.GetReaderAtHeader(i);
            text.AppendLine("    " + Canonical(header.ReadOuterXml()));
        }

        text.AppendLine("Action=" + Ask(() => headers.Action));
        text.AppendLine("To=" + Ask(() => headers.To));
        text.AppendLine("MessageId=" + Ask(() => headers.MessageId));
        text.AppendLine("RelatesTo=" + Ask(() => headers.RelatesTo));
        text.AppendLine("ReplyTo=" + Ask(() => headers.ReplyTo));
        text.AppendLine("From=" + Ask(() => headers.From));
        text.AppendLine("FaultTo=" + Ask(() => headers.FaultTo));
        text.AppendLine("HaveMandatoryHeadersBeenUnderstood=" + headers.HaveMandatoryHeadersBeenUnderstood());
        text.AppendLine("FindHeader(Action)=" + Ask(() => headers.FindHeader("Action", Addressing10)));
        text.AppendLine("bodyAttribute=" + Ask(() => message.GetBodyAttribute("when", "urn:spanwire:attr")));
        text.AppendLine("ToString=" + Canonical(message.ToString()));
        return text.ToString();

        static string Ask(Func<object?> question)
        {
            try
            {
                return question()?.ToString() ?? "null";
            }
            catch (Exception e)
            {
                return $"{e.GetType().Name}: {e.Message}";
            }
        }
    }

    /// <summary>
    /// A header's XML by expanded names, without the namespace declarations: WCF gives the same header with its
    /// declarations in different places depending on the class that holds it (see the README).
    /// </summary>
    private static string Canonical(string xml)
    {
        var text = new StringBuilder();
        Write(System.Xml.Linq.XDocument.Parse(xml).Root!);
        return text.ToString();

        void Write(System.Xml.Linq.XElement element)
        {
            text.Append('<').Append(element.Name);
            foreach (System.Xml.Linq.XAttribute a in element.Attributes().Where(a => !a.IsNamespaceDeclaration).OrderBy(a => a.Name.ToString(), StringComparer.Ordinal))
            {
                text.Append(' ').Append(a.Name).Append("=\"").Append(a.Value).Append('"');
            }

            text.Append('>');
            foreach (System.Xml.Linq.XNode node in element.Nodes())
            {
                if (node is System.Xml.Linq.XElement child)
                {
                    Write(child);
                }
                else
                {
                    text.Append(node);
                }
            }

            text.Append("</").Append(element.Name).Append('>');
        }
    }

    private static Message Read(MessageEncoder encoder, byte[] bytes, BufferManager manager)
    {
        byte[] buffer = manager.TakeBuffer(bytes.Length + 3);
        bytes.CopyTo(buffer, 3);
        return encoder.ReadMessage(new ArraySegment<byte>(buffer, 3, bytes.Length), manager, encoder.ContentType);
    }

    private static byte[] Write(MessageEncoder encoder, Message message)
    {
        var manager = BufferManager.CreateBufferManager(0, int.MaxValue);
        ArraySegment<byte> data = encoder.WriteMessage(message, int.MaxValue, manager);
        return data.ToArray();
    }

    /// <summary>
    /// Writes the row's message with WCF's encoder, then expects what <paramref name="outcome"/> tells of reading those
    /// bytes with Spanwire's encoder to be what it tells with WCF's, and every buffer Spanwire's took back. (WCF's
    /// encoder keeps the buffer of a message it refuses, so its buffers are not counted.)
    /// </summary>
    private static void ExpectSameAsWcf(string name, Func<MessageEncoder, byte[], BufferManager, string> outcome)
    {
        (MessageVersion version, Func<Message> create) = Row(name);
        var manager = new CountingBufferManager();
        byte[] bytes = Write(InBox(version), create());
        Expect.Equal(outcome(InBox(version), bytes, new CountingBufferManager()), outcome(Spanwire(version), bytes, manager), name);
        Expect.Equal(0, manager.Outstanding, "buffers not given back");
    }

    [Theory]
    [MemberData(nameof(RowNames))]
    public void Headers_and_body_shape_as_WCF(string name)
    {
        ExpectSameAsWcf(name, (encoder, bytes, manager) => ReadAndDescribe(encoder, bytes, manager, Snapshot));
    }

    /// <summary>The message read from the bytes, described and closed; or the refusal described, when the encoder refuses them.</summary>
    private static string ReadAndDescribe(MessageEncoder encoder, byte[] bytes, BufferManager manager, Func<Message, string> describe)
    {
        Message message;
        try
        {
            message = Read(encoder, bytes, manager);
        }
        catch (Exception e)
        {
            return $"refused: {e.GetType().Name}: {e.Message} ({e.InnerException?.GetType().Name})";
        }

        using (message)
        {
            return describe(message);
        }
    }

    /// <summary>
    /// The headers as WCF reads them, character for character: ToString before and after the typed properties are asked,
    /// and after each header is read through GetReaderAtHeader; the reader GetReaderAtHeader gives for a header that is
    /// not one of the addressing headers WCF makes its own objects for, whose prefixes are the received ones. Two
    /// differences are documented: that reader declares the namespaces the header uses in the order WCF's writer
    /// declares them for a header it keeps (compared as a set here), and the addressing headers WCF makes objects for
    /// are read as those objects write them (compared as XML, by Headers_and_body_shape_as_WCF).
    /// </summary>
    [Theory]
    [MemberData(nameof(RowNames))]
    public void Headers_print_and_read_with_their_received_prefixes_as_WCF(string name)
    {
        ExpectSameAsWcf(name, (encoder, bytes, manager) => ReadAndDescribe(encoder, bytes, manager, Describe));

        static string Describe(Message message)
        {
            var text = new StringBuilder();
            text.AppendLine("ToString: " + message.ToString());
            MessageHeaders headers = message.Headers;
            foreach (Func<object?> property in new Func<object?>[] { () => headers.Action, () => headers.To, () => headers.MessageId, () => headers.ReplyTo, () => headers.RelatesTo })
            {
                try
                {
                    text.AppendLine("property: " + property());
                }
                catch (Exception e)
                {
                    text.AppendLine("property: " + e.GetType().Name);
                }
            }

            text.AppendLine("ToString after the properties: " + message.ToString());
            for (int i = 0; i < headers.Count; i++)
            {
                bool typed = headers[i].Namespace == Addressing10 && headers[i].Actor.Length == 0;
                using XmlDictionaryReader header = headers.GetReaderAtHeader(i);
                string xml = header.ReadOuterXml();
                text.AppendLine($"[{i}] " + (typed ? "(an addressing header)" : DeclarationsAsASet(xml)));
            }

            text.AppendLine("ToString after GetReaderAtHeader: " + message.ToString());
            return text.ToString();
        }
    }

    /// <summary>The XML with the namespace declarations of each start tag sorted, everything else as it is.</summary>
    private static string DeclarationsAsASet(string xml) =>
        System.Text.RegularExpressions.Regex.Replace(xml, "<[^!?/][^>]*>", tag =>
        {
            var declarations = System.Text.RegularExpressions.Regex.Matches(tag.Value, @" xmlns(:\w+)?=""[^""]*""").Select(m => m.Value).Order(StringComparer.Ordinal);
            string rest = System.Text.RegularExpressions.Regex.Replace(tag.Value, @" xmlns(:\w+)?=""[^""]*""", "");
            int end = rest.EndsWith("/>", StringComparison.Ordinal) ? rest.Length - 2 : rest.Length - 1;
            return rest[..end] + string.Concat(declarations) + rest[end..];
        });

    [Theory]
    [MemberData(nameof(RowNames))]
    public void Written_copied_and_read_as_WCF(string name)
    {
        ExpectSameAsWcf(name, Outcomes);

        static string Outcomes(MessageEncoder encoder, byte[] bytes, BufferManager manager)
        {
            var text = new StringBuilder();
            try
            {
                Read(encoder, bytes, manager).Close();
            }
            catch (Exception e)
            {
                return $"refused: {e.GetType().Name}: {e.Message}";
            }

            using (Message message = Read(encoder, bytes, manager))
            {
                text.AppendLine("written: " + Messages.Describe(message));
                text.AppendLine("state: " + message.State + ", ToString after writing: " + message.ToString());
                text.AppendLine("read again: " + Refusal(() => message.GetReaderAtBodyContents()));
            }

            using (Message message = Read(encoder, bytes, manager))
            {
                MessageBuffer copy = message.CreateBufferedCopy(int.MaxValue);
                text.AppendLine("copied, then written: " + Refusal(() => Messages.Describe(message)));
                for (int i = 0; i < 2; i++)
                {
                    using Message fromCopy = copy.CreateMessage();
                    text.AppendLine($"copy {i}: " + Messages.Describe(fromCopy));
                }

                text.AppendLine($"copy: {copy.BufferSize} bytes, {copy.MessageContentType}");
                var raw = new MemoryStream();
                copy.WriteMessage(raw);
                text.AppendLine("copy written to a stream: " + Convert.ToHexString(raw.ToArray()));
                using (Message fromCopy = copy.CreateMessage())
                {
                    text.AppendLine("copy's properties: " + string.Join(", ", fromCopy.Properties.Select(p => p.Key).Order(StringComparer.Ordinal)));
                }

                copy.Close();
                text.AppendLine("closed copy: " + Refusal(() => copy.CreateMessage()) + " / " + Refusal(() => copy.BufferSize)
                    + " / " + Refusal(() => copy.MessageContentType) + " / " + Refusal(() => { copy.WriteMessage(new MemoryStream()); return null; }));
            }

            using (Message message = Read(encoder, bytes, manager))
            {
                if (message.IsEmpty)
                {
                    text.AppendLine("body: " + Refusal(() => message.GetReaderAtBodyContents()));
                }
                else
                {
                    using XmlDictionaryReader body = message.GetReaderAtBodyContents();
                    text.AppendLine("body: " + body.NodeType + " " + body.ReadOuterXml());
                }

                text.AppendLine("state: " + message.State + ", headers after reading: " + message.Headers.Count);
                text.AppendLine("body attribute after reading: " + Refusal(() => message.GetBodyAttribute("when", "urn:spanwire:attr")));
                text.AppendLine("ToString after reading: " + message.ToString());
            }

            Message closed = Read(encoder, bytes, manager);
            closed.Close();
            text.AppendLine("closed: " + closed.State + " " + Refusal(() => closed.Headers) + " / " + Refusal(() => closed.Properties)
                + " / " + Refusal(() => closed.GetReaderAtBodyContents()) + " / " + Refusal(() => closed.IsFault));
            closed.Close();
            return text.ToString();
        }

        static string Refusal(Func<object?> call)
        {
            try
            {
                return "allowed: " + call();
            }
            catch (Exception e)
            {
                return $"{e.GetType().Name}: {e.Message}";
            }
        }
    }

    [Fact]
    public void Headers_marked_understood_and_properties_as_WCF()
    {
        var manager = new CountingBufferManager();
        MessageVersion v10 = MessageVersion.Soap12WSAddressing10;
        byte[] bytes = Write(InBox(v10), EveryAddressingHeader());
        Expect.Equal(Mark(InBox(v10)), Mark(Spanwire(v10)), "after marking headers not understood and setting properties");
        Expect.Equal(0, manager.Outstanding, "buffers not given back");

        string Mark(MessageEncoder encoder)
        {
            using Message message = Read(encoder, bytes, manager);
            var text = new StringBuilder();
            text.AppendLine("encoder property set: " + (message.Properties.Encoder == encoder) + ", count " + message.Properties.Count);
            message.Headers.UnderstoodHeaders.Remove(message.Headers[0]);
            text.AppendLine("mandatory understood: " + message.Headers.HaveMandatoryHeadersBeenUnderstood());
            message.Headers.RemoveAt(1);
            message.Headers.Action = "urn:spanwire:changed";
            message.Headers.Add(MessageHeader.CreateHeader("Added", "urn:spanwire:headers", 7));
            var copy = new MessageHeaders(message.Headers);
            text.AppendLine("copy count " + copy.Count + ", action " + copy.Action);
            // After an edit, WCF's message writes each header it read with its own namespace declarations.
            text.AppendLine(Canonical(Messages.Describe(message)));
            return text.ToString();
        }
    }

    [Fact]
    public void Buffered_copy_made_into_messages_on_many_threads_at_once()
    {
        // A MessageBuffer is shared: WCF's makes messages from it on any thread (a router's fan-out, for one).
        var manager = new CountingBufferManager();
        MessageVersion v10 = MessageVersion.Soap12WSAddressing10;
        byte[] bytes = Write(InBox(v10), Messages.TypedHeaders());
        string expected;
        using (Message control = Read(InBox(v10), bytes, new CountingBufferManager()))
        {
            expected = Messages.Describe(control);
        }

        MessageBuffer copy;
        using (Message message = Read(Spanwire(v10), bytes, manager))
        {
            copy = message.CreateBufferedCopy(int.MaxValue);
        }

        Expect.Equal(0, manager.Outstanding, "buffer not given back once the message closed");
        string[] seen = new string[8 * 50];
        Parallel.For(0, seen.Length, new ParallelOptions { MaxDegreeOfParallelism = 8 }, i =>
        {
            using Message fromCopy = copy.CreateMessage();
            seen[i] = Messages.Describe(fromCopy);
        });
        copy.Close();
        for (int i = 0; i < seen.Length; i++)
        {
            Expect.Equal(expected, seen[i], $"message {i} made from the copy");
        }
    }

    [Fact]
    public void Deep_header_copied_without_recursion_as_WCF_reads_it()
    {
        // 20,000 levels, within a depth quota set that high: a copy that recursed per level would overflow the stack.
        var manager = new CountingBufferManager();
        MessageVersion v10 = MessageVersion.Soap12WSAddressing10;
        var quotas = new XmlDictionaryReaderQuotas { MaxDepth = 30_000 };
        MessageEncoder inBox = new BinaryMessageEncodingBindingElement { ReaderQuotas = quotas }.CreateMessageEncoderFactory().Encoder;
        MessageEncoder spanwire = new SpanwireBinaryMessageEncodingBindingElement { ReaderQuotas = quotas }.CreateMessageEncoderFactory().Encoder;
        byte[] bytes = Write(inBox, WithHeader(v10, new DeepHeader(20_000), action: true));
        Expect.Equal(Outcome(inBox, new CountingBufferManager()), Outcome(spanwire, manager), "deep header");
        Expect.Equal(0, manager.Outstanding, "buffers not given back");

        string Outcome(MessageEncoder encoder, BufferManager buffers)
        {
            using Message message = Read(encoder, bytes, buffers);
            using XmlDictionaryReader header = message.Headers.GetReaderAtHeader(1);
            // Depth relative to the header: WCF's reader of a header it received starts inside Envelope and Header.
            int top = header.Depth, deepest = 0;
            while (header.Read())
            {
                deepest = Math.Max(deepest, header.Depth - top);
            }

            return $"{message.Headers.Count} headers, header 1 {message.Headers[1].Name} {deepest} levels deep, written {Messages.Describe(message).Length} chars";
        }
    }

    private sealed class DeepHeader(int levels) : MessageHeader
    {
        public override string Name => "Deep";

        public override string Namespace => "urn:spanwire:headers";

        protected override void OnWriteHeaderContents(XmlDictionaryWriter writer, MessageVersion messageVersion)
        {
            for (int i = 0; i < levels; i++)
            {
                writer.WriteStartElement("d", "urn:spanwire:headers");
            }

            writer.WriteString("bottom");
            for (int i = 0; i < levels; i++)
            {
                writer.WriteEndElement();
            }
        }
    }

    private sealed class TextBody() : BodyWriter(isBuffered: true)
    {
        protected override void OnWriteBodyContents(XmlDictionaryWriter writer) => writer.WriteString("just text");
    }

    /// <summary>A RelatesTo with a RelationshipType attribute, which WCF's RelatesTo property does not answer for.</summary>
    private sealed class RelatesToHeader(string relationship, string id) : MessageHeader
    {
        public override string Name => "RelatesTo";

        public override string Namespace => Addressing10;

        protected override void OnWriteStartHeader(XmlDictionaryWriter writer, MessageVersion messageVersion)
        {
            base.OnWriteStartHeader(writer, messageVersion);
            writer.WriteAttributeString("RelationshipType", relationship);
        }

        protected override void OnWriteHeaderContents(XmlDictionaryWriter writer, MessageVersion messageVersion) => writer.WriteString(id);
    }

    /// <summary>A message whose Body element carries attributes of its own.</summary>
    private sealed class BodyAttributeMessage(Message inner) : Message
    {
        public override MessageHeaders Headers => inner.Headers;

        public override MessageProperties Properties => inner.Properties;

        public override MessageVersion Version => inner.Version;

        protected override void OnWriteStartBody(XmlDictionaryWriter writer)
        {
            base.OnWriteStartBody(writer);
            writer.WriteAttributeString("b", "when", "urn:spanwire:attr", "2026-11-24");
        }

        protected override void OnWriteBodyContents(XmlDictionaryWriter writer) => inner.WriteBodyContents(writer);
    }
}

/// <summary>
/// A received message written again (relayed, or forwarded by an intermediary) against WCF's: each header still as
/// received is copied from the received bytes, so the relayed bytes are WCF's, sessionless and from a session, with the
/// headers as received and after headers are removed, added or replaced.
/// </summary>
public class RelayedMessageTests
{
    public static TheoryData<string, string> Cases()
    {
        var data = new TheoryData<string, string>();
        foreach ((string name, _) in Messages.All())
        {
            foreach (string edit in new[] { "as received", "first header removed", "header added", "Action replaced" })
            {
                data.Add(name, edit);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Relayed_bytes_as_WCF(string name, string edit)
    {
        Func<Message> create = Messages.All().Single(m => m.Name == name).Create;
        foreach (bool session in new[] { false, true })
        {
            MessageEncoderFactory inBox = new BinaryMessageEncodingBindingElement().CreateMessageEncoderFactory();
            MessageEncoderFactory ours = new SpanwireBinaryMessageEncodingBindingElement().CreateMessageEncoderFactory();
            var manager = BufferManager.CreateBufferManager(0, int.MaxValue);
            byte[] received = (session ? inBox.CreateSessionEncoder() : inBox.Encoder).WriteMessage(create(), int.MaxValue, manager).ToArray();
            string expected = Relay(session ? inBox.CreateSessionEncoder() : inBox.Encoder, inBox.Encoder, received, edit);
            string actual = Relay(session ? ours.CreateSessionEncoder() : ours.Encoder, ours.Encoder, received, edit);
            Expect.Equal(expected, actual, $"{name}, {edit}, {(session ? "from a session" : "sessionless")}");
        }
    }

    private static string Relay(MessageEncoder reader, MessageEncoder writer, byte[] received, string edit)
    {
        var manager = BufferManager.CreateBufferManager(0, int.MaxValue);
        try
        {
            using Message message = reader.ReadMessage(new ArraySegment<byte>((byte[])received.Clone()), manager, null);
            switch (edit)
            {
                case "first header removed" when message.Headers.Count > 0:
                    message.Headers.RemoveAt(0);
                    break;
                case "header added":
                    message.Headers.Add(MessageHeader.CreateHeader("Hop", "urn:spanwire:relay", 2));
                    break;
                case "Action replaced":
                    message.Headers.Action = "urn:spanwire:relayed";
                    break;
            }

            return Convert.ToHexString(writer.WriteMessage(message, int.MaxValue, manager).AsSpan());
        }
        catch (Exception e) when (e is not Xunit.Sdk.XunitException)
        {
            return e.GetType().Name + ": " + e.Message;
        }
    }
}
