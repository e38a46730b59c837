using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel;

internal sealed partial class BufferedBinaryMessage
{
    private const string Envelope = "Envelope";
    private const string Header = "Header";
    private const string Body = "Body";
    private const string Soap12Namespace = "http://www.w3.org/2003/05/soap-envelope";
    private const string Addressing10Namespace = "http://www.w3.org/2005/08/addressing";
    private const string AddressingNoneNamespace = "http://schemas.microsoft.com/ws/2005/05/addressing/none";

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
        string? addressingNamespace = version.Addressing == AddressingVersion.WSAddressing10 ? Addressing10Namespace
            : version.Addressing == AddressingVersion.WSAddressingAugust2004 ? "http://schemas.xmlsoap.org/ws/2004/08/addressing"
            : null;
        if (version.Envelope != EnvelopeVersion.Soap12 || (addressingNamespace is null && version.Addressing != AddressingVersion.None))
        {
            return null;
        }
        XmlDictionaryReader reader = OpenReader(source);
        bool keepReader = false;
        try
        {
            if (!reader.IsStartElement(Envelope, Soap12Namespace) || reader.IsEmptyElement)
            {
                return null;
            }
            reader.Read();
            var headers = new MessageHeaders(version);
            if (reader.IsStartElement(Header, Soap12Namespace))
            {
                ReadHeaders(reader, headers, addressingNamespace, source);
            }
            if (!reader.IsStartElement(Body, Soap12Namespace))
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
                reader.Read();
                XmlNodeType node = reader.NodeType == XmlNodeType.Element ? XmlNodeType.Element : reader.MoveToContent();
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
                    isFault = node == XmlNodeType.Element && reader.IsStartElement("Fault", Soap12Namespace);
                    keepReader = true;
                }
            }
            return new BufferedBinaryMessage(source, headers, keepReader ? reader : null, isEmpty, isFault);
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
}
