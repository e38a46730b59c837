using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel;

internal sealed partial class BufferedBinaryMessage
{
    private const string AnonymousAddress10 = "http://www.w3.org/2005/08/addressing/anonymous";
    private const string NoneAddress10 = "http://www.w3.org/2005/08/addressing/none";

    // WCF trims these from an Action.
    private static readonly char[] s_xmlWhitespace = [' ', '\t', '\r', '\n'];

    // The addresses EndpointAddress.ReadFrom gives for these two: WCF's own instances.
    private static readonly EndpointAddress s_anonymous10 = ReadAddress(AnonymousAddress10);
    private static readonly EndpointAddress s_none10 = ReadAddress(NoneAddress10);

    private static ToValue? s_lastTo;

    /// <summary>A To header's text, its URI (immutable, so shared), and whether WCF writes the URI back as that text.</summary>
    private sealed record ToValue(string Text, Uri Uri, bool WrittenBackTheSame);

    /// <summary>The addressing headers WCF gives a kind, by their WS-Addressing names.</summary>
    private enum AddressingHeader { Action, To, MessageId, RelatesTo, ReplyTo, From, FaultTo }

    /// <summary>
    /// Reads the Header element. An addressing header as WCF writes it (its usual attributes, once, its value written
    /// back the same) becomes WCF's header object for it, as WCF's encoder makes, so that WCF's typed properties
    /// (Action, To and the rest), which a service asks on every message, answer at once; any other header is kept as
    /// its received bytes (<see cref="CopiedHeader"/>), and an addressing header among them is still read once, so that
    /// a value WCF refuses on reading is refused here too. The message written or printed writes the received bytes of
    /// every header still as received, whichever object holds it.
    /// </summary>
    private static void ReadHeaders(XmlDictionaryReader reader, MessageHeaders headers, string? addressingNamespace, in Source source)
    {
        if (reader.IsEmptyElement)
        {
            reader.Read();
            return;
        }

        reader.ReadStartElement();
        AddressingVersion addressing = headers.MessageVersion.Addressing;
        string? addressing10 = addressing == AddressingVersion.WSAddressing10 ? SoapNamespaces.Addressing10 : null;
        byte[]? scope = null; // made when the first header is kept as received
        long firstHeader = long.MaxValue;
        int seen = 0;
        while (reader.IsStartElement())
        {
            if (addressingNamespace is null && reader.NamespaceURI == SoapNamespaces.AddressingNone)
            {
                string message = $"Addressing Version '{addressing}' does not support adding WS-Addressing headers.";
                throw new InvalidOperationException(message, new ProtocolException(message));
            }

            var attributes = HeaderAttributes.Read(reader, addressing10);
            string name = reader.LocalName, ns = reader.NamespaceURI;
            long start = NodeStartOffset(reader);
            firstHeader = Math.Min(firstHeader, start);
            AddressingHeader? kind = attributes.IsForUltimateReceiver && ns == addressingNamespace
                && TryGetKind(name, out AddressingHeader k) ? k : null;
            bool usual = false;
            if (kind is { } known)
            {
                int bit = 1 << (int)known;
                // WCF's own header objects: Action and To to be understood, the others not, for this node, not relayed,
                // each once (WCF keeps repeats, and reports them when the header is asked for).
                usual = attributes.OnlyMustUnderstand && attributes.Actor.Length == 0
                    && attributes.MustUnderstand == (known is AddressingHeader.Action or AddressingHeader.To) && (seen & bit) == 0;
                seen |= bit;
                if (usual && (addressing10 is not null || known is not (AddressingHeader.ReplyTo or AddressingHeader.From or AddressingHeader.FaultTo)))
                {
                    int depth = reader.Depth;
                    if (TryReadUsual(reader, headers, known))
                    {
                        continue;
                    }
                    // Its value would be written back otherwise than received (or it is not the usual shape): the header
                    // is kept as received, copied from the buffer again.
                    while (reader.Depth > depth)
                    {
                        reader.Read();
                    }

                    if (reader.NodeType == XmlNodeType.EndElement && reader.Depth == depth)
                    {
                        reader.Read();
                    }

                    AddCopy(headers, Received(reader, source, ref scope, firstHeader, start, name, ns, attributes), known, usual);
                    continue;
                }
            }

            reader.Skip();
            AddCopy(headers, Received(reader, source, ref scope, firstHeader, start, name, ns, attributes), kind, usual);
        }

        reader.ReadEndElement();
    }

    /// <summary>Adds a copied header, reading an addressing header's value first as WCF does on receiving it.</summary>
    private static void AddCopy(MessageHeaders headers, CopiedHeader header, AddressingHeader? kind, bool usual)
    {
        if (kind is { } known)
        {
            AddressingVersion addressing = headers.MessageVersion.Addressing;
            using XmlDictionaryReader value = header.GetHeaderReader();
            object read = ReadValue(value, known, addressing);
            if (usual && known == AddressingHeader.ReplyTo && addressing != AddressingVersion.WSAddressing10 && IsAnonymous((EndpointAddress)read))
            {
                // WCF reads an anonymous ReplyTo only in WS-Addressing 1.0.
                throw new PlatformNotSupportedException();
            }
        }

        headers.Add(header);
    }

    /// <summary>
    /// The header the reader has just read past, which started at <paramref name="start"/>, kept as its received bytes
    /// (the reader reads the buffer in place: they end where the node it is on starts), read inside the message's start
    /// tags up to its first header.
    /// </summary>
    private static CopiedHeader Received(XmlDictionaryReader reader, in Source source, ref byte[]? scope, long firstHeader, long start,
        string name, string ns, in HeaderAttributes attributes)
    {
        scope ??= ScopeOf(source.Buffer.AsSpan(0, (int)firstHeader));
        ReadOnlySpan<byte> received = source.Buffer.AsSpan((int)start, (int)(NodeStartOffset(reader) - start));
        return CopiedHeader.FromReceived(scope, received, source.Session, name, ns, attributes);
    }

    /// <summary>Where the bytes of the node the reader is on start in the message.</summary>
    private static long NodeStartOffset(XmlDictionaryReader reader) => ((Spanwire.BinaryXml.Xml.NbfxXmlReader)reader).NodeStartOffset;

    /// <summary>
    /// The received Envelope's and Header's start tags, which a header's bytes are read inside: the message's bytes up
    /// to its first header, as they came. A service receives the same ones again and again: the last are kept.
    /// </summary>
    private static byte[] ScopeOf(ReadOnlySpan<byte> startTags)
    {
        byte[]? last = s_lastScope;
        if (last is not null && startTags.SequenceEqual(last))
        {
            return last;
        }

        return s_lastScope = startTags.ToArray();
    }

    private static byte[]? s_lastScope;

    /// <summary>A reader on the start tag of the header at <paramref name="index"/> in the received Header element.</summary>
    private static XmlDictionaryReader OpenReaderAtHeader(in Source source, int index)
    {
        XmlDictionaryReader reader = OpenReaderInsideEnvelope(source);
        try
        {
            reader.ReadStartElement();
            for (int i = 0; reader.MoveToContent() == XmlNodeType.Element && i < index; i++)
            {
                reader.Skip();
            }

            return reader;
        }
        catch
        {
            reader.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Reads an addressing header with its usual attributes into WCF's header object for it, when that object writes
    /// back what was received; false otherwise, with the reader inside the header or past it. A value WCF refuses
    /// throws as WCF's reading of it does.
    /// </summary>
    private static bool TryReadUsual(XmlDictionaryReader reader, MessageHeaders headers, AddressingHeader kind)
    {
        switch (kind)
        {
            case AddressingHeader.Action:
                string action = reader.ReadElementContentAsString();
                if (HasEdgeWhitespace(action))
                {
                    return false;
                }

                headers.Action = action;
                return true;
            case AddressingHeader.To:
                string text = reader.ReadElementContentAsString();
                // A service receives the same To again and again: the last one is kept, as WCF's encoder keeps a few.
                if (s_lastTo is not { } last || last.Text != text)
                {
                    var uri = new Uri(text);
                    s_lastTo = last = new ToValue(text, uri, uri.AbsoluteUri == text);
                }

                if (!last.WrittenBackTheSame)
                {
                    return false;
                }

                headers.To = last.Uri;
                return true;
            case AddressingHeader.MessageId or AddressingHeader.RelatesTo:
                if (!TryReadUniqueId(reader, out UniqueId? id))
                {
                    return false;
                }

                if (kind == AddressingHeader.MessageId)
                {
                    headers.MessageId = id;
                }
                else
                {
                    headers.RelatesTo = id;
                }

                return true;
            default:
                if (!TryReadAddress(reader, out EndpointAddress? address))
                {
                    return false;
                }

                Set(headers, kind, address);
                return true;
        }
    }

    /// <summary>A UniqueId as one typed value or one text without surrounding white space: what WCF writes back the same.</summary>
    private static bool TryReadUniqueId(XmlDictionaryReader reader, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out UniqueId? id)
    {
        id = null;
        if (reader.IsEmptyElement)
        {
            reader.Read();
            return false;
        }

        reader.Read();
        if (reader.NodeType != XmlNodeType.Text)
        {
            return false;
        }

        if (reader.ValueType == typeof(UniqueId))
        {
            id = reader.ReadContentAsUniqueId();
        }
        else
        {
            string text = reader.ReadContentAsString();
            if (text.Length == 0 || HasEdgeWhitespace(text))
            {
                return false;
            }

            id = new UniqueId(text);
        }

        if (reader.NodeType != XmlNodeType.EndElement)
        {
            return false;
        }

        reader.ReadEndElement();
        return true;
    }

    /// <summary>
    /// An endpoint address that is only an Address (WS-Addressing 1.0), whose text WCF's address object writes back
    /// the same: anonymous, none, or an absolute URI in its normal form.
    /// </summary>
    private static bool TryReadAddress(XmlDictionaryReader reader, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out EndpointAddress? address)
    {
        address = null;
        if (reader.IsEmptyElement)
        {
            reader.Read();
            return false;
        }

        reader.Read();
        if (reader.NodeType != XmlNodeType.Element || reader.LocalName != "Address" || reader.NamespaceURI != SoapNamespaces.Addressing10
            || reader.AttributeCount != 0 || reader.IsEmptyElement)
        {
            return false;
        }

        reader.Read();
        if (reader.NodeType != XmlNodeType.Text)
        {
            return false;
        }

        string text = reader.ReadContentAsString();
        if (reader.NodeType != XmlNodeType.EndElement)
        {
            return false;
        }

        reader.Read();
        if (reader.NodeType != XmlNodeType.EndElement)
        {
            return false;
        }

        reader.Read();
        address = text switch
        {
            AnonymousAddress10 => s_anonymous10,
            NoneAddress10 => s_none10,
            _ => Uri.TryCreate(text, UriKind.Absolute, out Uri? uri) && uri.AbsoluteUri == text ? new EndpointAddress(uri) : null,
        };
        return address is not null;
    }

    /// <summary>Reads the value of an addressing header as WCF's header object for it does, and moves past the header.</summary>
    private static object ReadValue(XmlDictionaryReader reader, AddressingHeader kind, AddressingVersion addressing)
    {
        switch (kind)
        {
            case AddressingHeader.Action:
                string action = reader.ReadElementContentAsString();
                return HasEdgeWhitespace(action) ? action.Trim(s_xmlWhitespace) : action;
            case AddressingHeader.To:
                return new Uri(reader.ReadElementContentAsString());
            case AddressingHeader.MessageId or AddressingHeader.RelatesTo:
                // WCF takes every RelatesTo as a reply's, whatever its RelationshipType.
                return reader.ReadElementContentAsUniqueId();
            default:
                return EndpointAddress.ReadFrom(addressing, reader);
        }
    }

    /// <summary>Whether WCF would trim the value: its first or last char is a control char or a space.</summary>
    private static bool HasEdgeWhitespace(string value) => value.Length > 0 && (value[0] <= ' ' || value[^1] <= ' ');

    private static void Set(MessageHeaders headers, AddressingHeader kind, EndpointAddress address)
    {
        switch (kind)
        {
            case AddressingHeader.ReplyTo:
                headers.ReplyTo = address;
                break;
            case AddressingHeader.From:
                headers.From = address;
                break;
            default:
                headers.FaultTo = address;
                break;
        }
    }

    /// <summary>The address EndpointAddress.ReadFrom gives for an anonymous address without headers or identity.</summary>
    private static bool IsAnonymous(EndpointAddress address) => address.IsAnonymous && address.Headers.Count == 0 && address.Identity is null;

    private static EndpointAddress ReadAddress(string uri)
    {
        using var text = new StringReader($"<ReplyTo xmlns=\"{SoapNamespaces.Addressing10}\"><Address>{uri}</Address></ReplyTo>");
        using XmlDictionaryReader reader = XmlDictionaryReader.CreateDictionaryReader(XmlReader.Create(text));
        reader.MoveToContent();
        return EndpointAddress.ReadFrom(AddressingVersion.WSAddressing10, reader);
    }

    private static bool TryGetKind(string localName, out AddressingHeader kind)
    {
        (bool known, kind) = localName switch
        {
            "Action" => (true, AddressingHeader.Action),
            "To" => (true, AddressingHeader.To),
            "MessageID" => (true, AddressingHeader.MessageId),
            "RelatesTo" => (true, AddressingHeader.RelatesTo),
            "ReplyTo" => (true, AddressingHeader.ReplyTo),
            "From" => (true, AddressingHeader.From),
            "FaultTo" => (true, AddressingHeader.FaultTo),
            _ => (false, default),
        };
        return known;
    }
}
