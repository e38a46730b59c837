using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Spanwire.BinaryXml;

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
    /// headers WCF writes become WCF's header objects, other headers are kept as received (see <see cref="CopiedHeader"/>),
    /// and every addressing header's value is read now, so one WCF would refuse is refused here. Returns null, without
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
            NbfxFormatException? deferred = null;
            if (reader.IsEmptyElement)
            {
                reader.Read();
                reader.ReadEndElement();
                (isEmpty, isFault) = (true, false);
            }
            else if (!TryEnterBody(reader, source, out XmlNodeType node, out deferred))
            {
                (isEmpty, isFault) = (false, false);
            }
            else
            {
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

            var received = new MessageHeaderInfo[hasHeaderElement ? headers.Count : 0];
            for (int i = 0; i < received.Length; i++)
            {
                received[i] = headers[i];
            }

            return new BufferedBinaryMessage(source, headers, keepReader ? reader : null, isEmpty, isFault, hasHeaderElement) { _bodyError = deferred, _received = received };
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

    /// <summary>
    /// As <see cref="EnterBody"/>, but a refusal WCF's reader makes only when the body is read (a first element whose
    /// name is not UTF-8, say: WCF's reader checks a name when it makes its string) is kept for then, so the message
    /// is read, its headers stay readable, and the body fails when it is read, as WCF's does.
    /// </summary>
    /// <returns>False, with the refusal in <paramref name="deferred"/>, when the body's first content is refused so.</returns>
    private static bool TryEnterBody(XmlDictionaryReader reader, in Source source, out XmlNodeType node, out NbfxFormatException? deferred)
    {
        deferred = null;
        try
        {
            node = EnterBody(reader);
            return true;
        }
        catch (NbfxFormatException e) when (e.CheckedLaterInBox)
        {
            // The same record may hold what WCF's reader refuses at once (an undeclared prefix after a name that is not
            // UTF-8, say): on this malformed input alone, WCF's own reader says whether it gets to the body's content.
            EnterBodyAsWcf(source);
            deferred = e;
            node = XmlNodeType.None;
            return false;
        }
    }

    /// <summary>Reads the message to its body's first content with the in-box reader, as WCF's encoder does: its exception, if any.</summary>
    private static void EnterBodyAsWcf(in Source source)
    {
        ArraySegment<byte> buffer = source.Buffer;
        using XmlDictionaryReader reader = XmlDictionaryReader.CreateBinaryReader(buffer.Array!, buffer.Offset, buffer.Count, ServiceModelDictionary.Instance, source.Quotas, source.Session);
        // Names are compared as dictionary strings, as WCF compares them: the in-box reader then compares a name's
        // bytes, where a string would make it decode them (and refuse a name that is not UTF-8, which WCF does not).
        reader.MoveToContent();
        reader.Read();
        reader.MoveToContent();
        if (reader.IsStartElement(s_header, s_soap12))
        {
            reader.Skip();
            reader.MoveToContent();
        }

        if (EnterBody(reader) == XmlNodeType.Element)
        {
            _ = reader.IsStartElement(s_fault, s_soap12);
        }
    }

    private static readonly XmlDictionaryString s_soap12 = DictionaryString(SoapNamespaces.Soap12);
    private static readonly XmlDictionaryString s_header = DictionaryString(Header);
    private static readonly XmlDictionaryString s_fault = DictionaryString("Fault");

    /// <summary>The dictionary's string (the MC-NBFS strings are all there); a string of no dictionary only if not.</summary>
    private static XmlDictionaryString DictionaryString(string value) =>
        ServiceModelDictionary.Instance.TryLookup(value, out XmlDictionaryString? found) ? found : new XmlDictionary().Add(value);

    /// <summary>From the Body's start tag to its first content, as WCF's ReadStartBody: an element, text, or the end tag.</summary>
    private static XmlNodeType EnterBody(XmlDictionaryReader reader)
    {
        reader.Read();
        return reader.NodeType == XmlNodeType.Element ? XmlNodeType.Element : reader.MoveToContent();
    }

    private static bool IsStartOf(XmlDictionaryReader reader, string localName) => reader.IsStartElement(localName, SoapNamespaces.Soap12);
}
