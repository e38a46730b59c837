using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.ServiceModel;

/// <summary>
/// A received header kept as a copy of its own: its bytes as received, inside the message's Envelope and Header start
/// tags as received (a header's content may name prefixes declared there), closed by two end element records. A copy,
/// because the message's buffer goes back to the transport when the message closes while a header can outlive it
/// (copied into another message, or kept by a MessageBuffer). It writes itself as it was received: its element's
/// prefix and attributes, then its content, a DateTime with its kind (which WriteNode drops).
/// </summary>
internal sealed class CopiedHeader : MessageHeader
{
    private readonly byte[] _copy;
    private readonly XmlBinaryReaderSession? _session; // the received session strings the copy's bytes may name
    private readonly string _name;
    private readonly string _namespace;
    private readonly string _actor;
    private readonly bool _mustUnderstand;
    private readonly bool _relay;
    private readonly bool _isReferenceParameter;

    private CopiedHeader(byte[] copy, XmlBinaryReaderSession? session, string name, string ns, in HeaderAttributes attributes)
    {
        _copy = copy;
        _session = session;
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

    /// <summary>The end element records that close a header's copy: its Header, then its Envelope.</summary>
    private static ReadOnlySpan<byte> EndTags => [NbfxRecord.EndElement, NbfxRecord.EndElement];

    /// <summary>
    /// A received header kept as it came: its bytes, copied as they are from the message (no re-encoding), read inside
    /// the message's <paramref name="scope"/> with the session the message was read with.
    /// </summary>
    /// <param name="scope">The message's Envelope and Header start tags, as received, the header's bytes are read inside.</param>
    /// <param name="received">The header element's bytes in the message.</param>
    /// <param name="session">The session the message was read with, whose strings the bytes may name; null for none.</param>
    /// <param name="name">The header's local name.</param>
    /// <param name="ns">The header's namespace.</param>
    /// <param name="attributes">The header's SOAP attributes, as read.</param>
    public static CopiedHeader FromReceived(byte[] scope, ReadOnlySpan<byte> received, XmlBinaryReaderSession? session, string name, string ns, in HeaderAttributes attributes)
    {
        byte[] copy = new byte[scope.Length + received.Length + EndTags.Length];
        scope.CopyTo(copy, 0);
        received.CopyTo(copy.AsSpan(scope.Length));
        EndTags.CopyTo(copy.AsSpan(scope.Length + received.Length));
        return new CopiedHeader(copy, session, name, ns, attributes);
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
        XmlDictionaryReader reader = Nbfx.CreateReader(_copy, 0, _copy.Length, ServiceModelDictionary.Instance, XmlDictionaryReaderQuotas.Max, _session, null);
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
