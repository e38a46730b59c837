using System.Runtime.Serialization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel.Tests;

[DataContract(Namespace = "urn:spanwire:orders")]
public sealed class Order
{
    [DataMember(Order = 0)] public int Id { get; set; }
    [DataMember(Order = 1)] public string Customer { get; set; } = "";
    [DataMember(Order = 2)] public decimal Total { get; set; }
    [DataMember(Order = 3)] public DateTime Placed { get; set; }
    [DataMember(Order = 4)] public Guid Key { get; set; }
    [DataMember(Order = 5)] public List<OrderLine> Lines { get; set; } = [];
    [DataMember(Order = 6)] public byte[]? Attachment { get; set; }
    [DataMember(Order = 7)] public double[]? Readings { get; set; }
}

[DataContract(Namespace = "urn:spanwire:orders")]
public sealed class OrderLine
{
    [DataMember(Order = 0)] public string Sku { get; set; } = "";
    [DataMember(Order = 1)] public int Quantity { get; set; }
    [DataMember(Order = 2)] public bool Gift { get; set; }
}

[DataContract(Namespace = "urn:spanwire:orders")]
public sealed class OrderRefused
{
    [DataMember] public string Reason { get; set; } = "";
    [DataMember] public int Code { get; set; }
}

/// <summary>The messages every compatibility test writes and reads: each call makes a fresh one (a message is read once).</summary>
public static class Messages
{
    public static readonly MessageVersion Version = MessageVersion.Soap12WSAddressing10;

    public static Order SampleOrder(int lines = 3, int attachment = 0) => new()
    {
        Id = 42,
        Customer = "Grüße aus Köln — 注文",
        Total = 1234.56m,
        Placed = new DateTime(2026, 11, 24, 10, 30, 0, DateTimeKind.Utc),
        Key = new Guid("0f8fad5b-d9cb-469f-a165-70867728950e"),
        Lines = [.. Enumerable.Range(0, lines).Select(i => new OrderLine { Sku = $"SKU-{i:D5}", Quantity = i + 1, Gift = i % 2 == 0 })],
        Attachment = attachment == 0 ? null : [.. Enumerable.Range(0, attachment).Select(i => (byte)(i * 7))],
        Readings = [1.5, -2.25, double.MaxValue],
    };

    /// <summary>Named messages: (why it is here, how to make it).</summary>
    public static IEnumerable<(string Name, Func<Message> Create)> All()
    {
        yield return ("action only, empty body", () => Message.CreateMessage(Version, "urn:spanwire:ping"));
        yield return ("request with addressing headers and a DataContract body", Request);
        yield return ("reply with RelatesTo and a custom header", Reply);
        yield return ("fault with a DataContract detail", Fault);
        yield return ("fault without detail, a receiver subcode", PlainFault);
        yield return ("body of 200 lines", () => Message.CreateMessage(Version, "urn:spanwire:big", SampleOrder(lines: 200)));
        yield return ("large body: 1 MB attachment", () => Message.CreateMessage(Version, "urn:spanwire:blob", SampleOrder(attachment: 1 << 20)));
        yield return ("body written by a BodyWriter (raw XML calls)", () => Message.CreateMessage(Version, "urn:spanwire:raw", new RawBody()));
        yield return ("headers with bytes, typed attributes and arrays (read by copying each header through WriteNode)", TypedHeaders);
        yield return ("body from a reader (written by copying it through WriteNode)", BodyFromReader);
    }

    /// <summary>A message whose body is a reader over binary XML with typed values: the encoder's writer copies it.</summary>
    public static Message BodyFromReader()
    {
        var bytes = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(bytes))
        {
            writer.WriteStartElement("Reading", "urn:spanwire:raw");
            writer.WriteAttributeString("unit", "°C");
            writer.WriteStartAttribute("at");
            writer.WriteValue(42L);
            writer.WriteEndAttribute();
            writer.WriteElementString("Label", "urn:spanwire:raw", "probe 7");
            writer.WriteStartElement("Value", "urn:spanwire:raw");
            writer.WriteValue(21.5);
            writer.WriteEndElement();
            writer.WriteStartElement("Id", "urn:spanwire:raw");
            writer.WriteValue(new Guid("00112233-4455-6677-8899-aabbccddeeff"));
            writer.WriteEndElement();
            writer.WriteStartElement("Blob", "urn:spanwire:raw");
            writer.WriteBase64([9, 8, 7, 6, 5], 0, 5);
            writer.WriteEndElement();
            writer.WriteArray(null, "Samples", "urn:spanwire:raw", new int[] { 1, 2, 3 }, 0, 3);
            writer.WriteEndElement();
        }

        XmlDictionaryReader body = XmlDictionaryReader.CreateBinaryReader(bytes.ToArray(), XmlDictionaryReaderQuotas.Max);
        return Message.CreateMessage(Version, "urn:spanwire:reading", body);
    }

    /// <summary>
    /// Headers whose content is not text: base64 bytes (a token), typed values in attributes and content, an array.
    /// Reading a message copies each header with XmlDictionaryWriter.WriteNode, which asks the reader for bytes with
    /// ReadValueAsBase64 and for typed values as objects.
    /// </summary>
    public static Message TypedHeaders()
    {
        Message message = Message.CreateMessage(Version, "urn:spanwire:typed", SampleOrder(lines: 1));
        message.Headers.Add(MessageHeader.CreateHeader("Token", "urn:spanwire:headers", Enumerable.Range(0, 700).Select(i => (byte)i).ToArray()));
        message.Headers.Add(new TypedHeader());
        return message;
    }

    private sealed class TypedHeader : MessageHeader
    {
        public override string Name => "Typed";

        public override string Namespace => "urn:spanwire:headers";

        protected override void OnWriteHeaderContents(XmlDictionaryWriter writer, MessageVersion messageVersion)
        {
            writer.WriteStartElement("Stamp", "urn:spanwire:headers");
            writer.WriteStartAttribute("count");
            writer.WriteValue((object)ulong.MaxValue);
            writer.WriteEndAttribute();
            writer.WriteStartAttribute("at");
            writer.WriteValue(new DateTime(2026, 11, 24, 10, 30, 0, DateTimeKind.Utc));
            writer.WriteEndAttribute();
            writer.WriteValue(12.5m);
            writer.WriteEndElement();
            writer.WriteArray(null, "Ids", "urn:spanwire:headers", new long[] { 1, long.MaxValue, -3 }, 0, 3);
            writer.WriteStartElement("Raw", "urn:spanwire:headers");
            writer.WriteBase64([1, 2, 3, 4, 5], 0, 5);
            writer.WriteEndElement();
        }
    }

    public static Message Request()
    {
        Message message = Message.CreateMessage(Version, "http://tempuri.org/IOrders/Place", SampleOrder());
        message.Headers.MessageId = new UniqueId(new Guid("11111111-2222-3333-4444-555555555555"));
        message.Headers.ReplyTo = new EndpointAddress("http://www.w3.org/2005/08/addressing/anonymous");
        message.Headers.To = new Uri("http://127.0.0.1:8080/orders");
        return message;
    }

    public static Message Reply()
    {
        Message message = Message.CreateMessage(Version, "http://tempuri.org/IOrders/PlaceResponse", SampleOrder(lines: 1));
        message.Headers.RelatesTo = new UniqueId("urn:uuid:11111111-2222-3333-4444-555555555555");
        message.Headers.Add(MessageHeader.CreateHeader("Tenant", "urn:spanwire:headers", "contoso", mustUnderstand: false));
        message.Headers.Add(MessageHeader.CreateHeader("Trace", "urn:spanwire:headers", new OrderLine { Sku = "trace", Quantity = 7 }, mustUnderstand: true));
        return message;
    }

    public static Message Fault()
    {
        var detail = new OrderRefused { Reason = "out of stock", Code = 409 };
        FaultCode code = FaultCode.CreateSenderFaultCode(new FaultCode("Refused", "urn:spanwire:orders"));
        return Message.CreateMessage(Version, code, "The order was refused.", detail, "urn:spanwire:fault");
    }

    public static Message PlainFault() =>
        Message.CreateMessage(Version, new FaultCode("Receiver", "http://www.w3.org/2003/05/soap-envelope", new FaultCode("Busy", "urn:spanwire:orders")), "Nicht jetzt.", "urn:spanwire:fault");

    /// <summary>The message as XML text: what a reader of it sees, headers and body.</summary>
    public static string Describe(Message message)
    {
        var text = new StringWriter();
        using (var writer = XmlWriter.Create(text, new XmlWriterSettings { OmitXmlDeclaration = true }))
        {
            message.WriteMessage(writer);
        }

        return text.ToString();
    }

    private sealed class RawBody() : BodyWriter(isBuffered: true)
    {
        protected override void OnWriteBodyContents(XmlDictionaryWriter writer)
        {
            writer.WriteStartElement("p", "Raw", "urn:spanwire:raw");
            writer.WriteAttributeString("when", "2026-11-24");
            writer.WriteXmlnsAttribute("q", "urn:spanwire:other");
            writer.WriteStartElement("q", "Item", "urn:spanwire:other");
            writer.WriteValue(123456789012L);
            writer.WriteEndElement();
            writer.WriteArray("p", "Numbers", "urn:spanwire:raw", new int[] { 1, 2, 3, 4, 5 }, 0, 5);
            writer.WriteElementString("Text", "urn:spanwire:raw", new string('x', 300));
            writer.WriteComment("a comment");
            writer.WriteEndElement();
        }
    }
}
