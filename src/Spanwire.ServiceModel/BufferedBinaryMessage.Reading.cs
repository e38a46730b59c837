using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel;

internal sealed partial class BufferedBinaryMessage
{
    private const string Envelope = "Envelope";
    private const string Header = "Header";
    private const string Body = "Body";

    /// <summary>Where a buffered message's bytes are and how to read them again.</summary>
    /// <remarks>A buffer without a <see cref="BufferManager"/> is the message's own, given back to nobody.</remarks>
    public readonly record struct Source(ReaderPool Readers, ArraySegment<byte> Buffer, BufferManager? BufferManager, XmlDictionaryReaderQuotas Quotas, XmlBinaryReaderSession? Session);

    /// <summary>
    /// Reads a SOAP 1.2 message (WS-Addressing 1.0, August 2004 or none) as WCF's encoder reads one: the addressing
    /// headers WCF writes become WCF's header objects, other headers are copied (see <see cref="CopiedHeader"/>), and
    /// every addressing header's value is read now, so one WCF would refuse is refused here. Returns null, without
    /// taking the buffer, for another version and for an envelope that is not one: the caller then reads it with
    /// Message.CreateMessage, whose result or exception is WCF's.
    /// </summary>
    /// <exception cref="XmlException">Malformed binary XML, or a malformed addressing header; the buffer is given back.</exception>
    public static BufferedBinaryMessage? TryRead(in Source source, MessageVersion version)
    {
        string? addressingNamespace = version.Addressing == AddressingVersion.WSAddressing10 ? SoapNamespaces.Addressing10
            : version.Addressing == AddressingVersion.WSAddressingAugust2004 ? SoapNamespaces.AddressingAugust2004
            : null;
        if (version.Envelope != EnvelopeVersion.Soap12 || (addressingNamespace is null && version.Addressing != AddressingVersion.None))
        {
            return null;
        }

        XmlDictionaryReader reader = OpenReader(source);
        bool keepReader = false;
        try
        {
            if (!IsStartOf(reader, Envelope) || reader.IsEmptyElement)
            {
                return null;
            }

            reader.Read();
            var headers = new MessageHeaders(version);
            bool hasHeaderElement = IsStartOf(reader, Header);
            if (hasHeaderElement)
            {
                ReadHeaders(reader, headers, addressingNamespace, source);
            }

            if (!IsStartOf(reader, Body))
            {
                return null;
            }

            bool isEmpty, isFault;
            if (reader.IsEmptyElement)
            {
                reader.Read();
                reader.ReadEndElement();
                (isEmpty, isFault) = (true, false);
            }
            else
            {
                XmlNodeType node = EnterBody(reader);
                if (node == XmlNodeType.EndElement)
                {
                    reader.ReadEndElement();
                    reader.ReadEndElement();
                    reader.MoveToContent();
                    (isEmpty, isFault) = (true, false);
                }
                else
                {
                    isEmpty = false;
                    isFault = node == XmlNodeType.Element && IsStartOf(reader, "Fault");
                    keepReader = true;
                }
            }

            return new BufferedBinaryMessage(source, headers, keepReader ? reader : null, isEmpty, isFault, hasHeaderElement);
        }
        catch
        {
            keepReader = false;
            source.BufferManager?.ReturnBuffer(source.Buffer.Array!);
            throw;
        }
        finally
        {
            if (!keepReader)
            {
                reader.Dispose();
            }
        }
    }

    private static XmlDictionaryReader OpenReader(in Source source) =>
        source.Readers.Open(source.Buffer, null, ServiceModelDictionary.Instance, source.Quotas, source.Session);

    /// <summary>A reader on the Envelope's first child: the Header, or the Body when there is none.</summary>
    private static XmlDictionaryReader OpenReaderInsideEnvelope(in Source source)
    {
        XmlDictionaryReader reader = OpenReader(source);
        reader.MoveToContent();
        reader.Read();
        reader.MoveToContent();
        return reader;
    }

    /// <summary>From the Body's start tag to its first content, as WCF's ReadStartBody: an element, text, or the end tag.</summary>
    private static XmlNodeType EnterBody(XmlDictionaryReader reader)
    {
        reader.Read();
        return reader.NodeType == XmlNodeType.Element ? XmlNodeType.Element : reader.MoveToContent();
    }

    private static bool IsStartOf(XmlDictionaryReader reader, string localName) => reader.IsStartElement(localName, SoapNamespaces.Soap12);
}
