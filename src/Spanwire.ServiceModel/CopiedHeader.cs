using System.Buffers;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.ServiceModel;

/// <summary>
/// A received header kept as a copy of its own, in binary XML, inside stand-ins for the Envelope and Header elements
/// that carry the received ones' attributes: a header's content may name prefixes declared there, and the message's
/// buffer goes back to the transport when the message closes while a header can outlive it (copied into another
/// message, or kept by a MessageBuffer). WCF keeps a header it does not know the same way. It writes itself as it was
/// received: its element's prefix and attributes, then its content, a DateTime with its kind (which WriteNode drops).
/// </summary>
internal sealed class CopiedHeader : MessageHeader
{
    private readonly byte[] _copy;
    private readonly string _name;
    private readonly string _namespace;
    private readonly string _actor;
    private readonly bool _mustUnderstand;
    private readonly bool _relay;
    private readonly bool _isReferenceParameter;

    private CopiedHeader(byte[] copy, string name, string ns, in HeaderAttributes attributes)
    {
        _copy = copy;
        _name = name;
        _namespace = ns;
        _actor = attributes.Actor;
        _mustUnderstand = attributes.MustUnderstand;
        _relay = attributes.Relay;
        _isReferenceParameter = attributes.IsReferenceParameter;
    }

    public override string Name => _name;

    public override string Namespace => _namespace;

    public override string Actor => _actor;

    public override bool MustUnderstand => _mustUnderstand;

    public override bool Relay => _relay;

    public override bool IsReferenceParameter => _isReferenceParameter;

    /// <summary>Copies the header the reader is on, and moves the reader past it.</summary>
    /// <param name="reader">A reader on the header's start tag.</param>
    /// <param name="scope">The received Envelope's and Header's attributes, in order.</param>
    /// <param name="attributes">The header's SOAP attributes, as read.</param>
    public static CopiedHeader Copy(XmlDictionaryReader reader, EnvelopeScope scope, in HeaderAttributes attributes)
    {
        string name = reader.LocalName, ns = reader.NamespaceURI;
        var output = new ArrayBufferWriter<byte>(256);
        using (XmlDictionaryWriter writer = Nbfx.CreateWriter(output, ServiceModelDictionary.Instance))
        {
            writer.WriteStartElement("Envelope");
            scope.WriteEnvelopeAttributes(writer);
            writer.WriteStartElement("Header");
            scope.WriteHeaderAttributes(writer);
            CopyElement(reader, writer);
            writer.WriteEndElement();
            writer.WriteEndElement();
        }

        return new CopiedHeader(output.WrittenSpan.ToArray(), name, ns, attributes);
    }

    /// <summary>
    /// Copies the element the reader is on, and moves past it, node by node as WriteNode does, but a DateTime keeps its
    /// kind: WriteNode writes it through its DateTimeOffset (in WCF's writer as in Spanwire's), and the copy must read
    /// back as the received bytes do. A loop, not a recursion: the depth is the sender's.
    /// </summary>
    private static void CopyElement(XmlDictionaryReader reader, XmlDictionaryWriter writer)
    {
        int open = 0;
        do
        {
            CopyNode(reader, writer, ref open);
        }
        while (open > 0);
    }

    /// <summary>Copies nodes up to the end tag of the element whose content the reader is in, leaving the reader on it.</summary>
    private static void CopyContent(XmlDictionaryReader reader, XmlDictionaryWriter writer)
    {
        int open = 0;
        while (open > 0 || reader.NodeType != XmlNodeType.EndElement)
        {
            CopyNode(reader, writer, ref open);
        }
    }

    private static void CopyNode(XmlDictionaryReader reader, XmlDictionaryWriter writer, ref int open)
    {
        switch (reader.NodeType)
        {
            case XmlNodeType.Element:
                writer.WriteStartElement(reader.Prefix, reader.LocalName, reader.NamespaceURI);
                CopyAttributes(reader, writer);
                if (reader.IsEmptyElement)
                {
                    writer.WriteEndElement();
                }
                else
                {
                    open++;
                }

                reader.Read();
                break;
            case XmlNodeType.EndElement:
                writer.WriteFullEndElement();
                open--;
                reader.Read();
                break;
            case XmlNodeType.Text when reader.ValueType == typeof(DateTime):
                writer.WriteValue(reader.ReadContentAsObject());
                break;
            case XmlNodeType.None:
                throw new XmlException("Unexpected end of file.");
            default:
                writer.WriteNode(reader, false);
                break;
        }
    }

    private static void CopyAttributes(XmlDictionaryReader reader, XmlDictionaryWriter writer)
    {
        bool typedDateTime = false;
        for (int i = 0; i < reader.AttributeCount && !typedDateTime; i++)
        {
            reader.MoveToAttribute(i);
            typedDateTime = reader.ReadAttributeValue() && reader.ValueType == typeof(DateTime);
        }

        reader.MoveToElement();
        if (!typedDateTime)
        {
            writer.WriteAttributes(reader, false);
            return;
        }

        for (int i = 0; i < reader.AttributeCount; i++)
        {
            reader.MoveToAttribute(i);
            writer.WriteStartAttribute(reader.Prefix, reader.LocalName, reader.NamespaceURI);
            if (reader.ReadAttributeValue() && reader.ValueType == typeof(DateTime))
            {
                writer.WriteValue(reader.ReadContentAsObject());
            }
            else
            {
                writer.WriteString(reader.Value);
            }

            writer.WriteEndAttribute();
        }

        reader.MoveToElement();
    }

    /// <summary>A reader on the copy's header element.</summary>
    public XmlDictionaryReader GetHeaderReader()
    {
        XmlDictionaryReader reader = Nbfx.CreateReader(_copy, 0, _copy.Length, ServiceModelDictionary.Instance, XmlDictionaryReaderQuotas.Max, null, null);
        reader.ReadStartElement();
        reader.ReadStartElement();
        reader.MoveToContent();
        return reader;
    }

    protected override void OnWriteStartHeader(XmlDictionaryWriter writer, MessageVersion messageVersion)
    {
        using XmlDictionaryReader reader = GetHeaderReader();
        writer.WriteStartElement(reader.Prefix, reader.LocalName, reader.NamespaceURI);
        CopyAttributes(reader, writer);
    }

    protected override void OnWriteHeaderContents(XmlDictionaryWriter writer, MessageVersion messageVersion)
    {
        using XmlDictionaryReader reader = GetHeaderReader();
        if (!reader.IsEmptyElement)
        {
            reader.Read();
            CopyContent(reader, writer);
        }
    }
}
