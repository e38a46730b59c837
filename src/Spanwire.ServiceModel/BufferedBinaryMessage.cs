using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel;

/// <summary>
/// A message read from a transport's buffer the way WCF's own encoder reads one: its addressing headers become WCF's
/// header objects once, other headers are kept as received, its body is read in place, and the buffer goes back to the transport's
/// <see cref="BufferManager"/> when the message closes. The envelope, header and body start tags are read again from
/// the buffer when the message is written or printed, so they come out as they came in. Messages this class does not
/// take (see <see cref="TryRead"/>) go through Message.CreateMessage instead.
/// </summary>
internal sealed partial class BufferedBinaryMessage : Message
{
    private readonly MessageHeaders _headers;
    private readonly MessageProperties _properties = new();
    private readonly Source _source;
    private readonly bool _isEmpty;
    private readonly bool _isFault;
    private readonly bool _hasHeaderElement;
    private BufferManager? _bufferManager;
    private XmlDictionaryReader? _bodyReader;
    private Spanwire.BinaryXml.NbfxFormatException? _bodyError; // a refusal of the body kept for when it is read (TryEnterBody)
    private MessageHeaderInfo[] _received = []; // the headers as read, in the order of the Header element

    private BufferedBinaryMessage(in Source source, MessageHeaders headers, XmlDictionaryReader? bodyReader, bool isEmpty, bool isFault, bool hasHeaderElement)
    {
        _source = source;
        _bufferManager = source.BufferManager;
        _headers = headers;
        _bodyReader = bodyReader;
        _isEmpty = isEmpty;
        _isFault = isFault;
        _hasHeaderElement = hasHeaderElement;
    }

    /// <summary>
    /// A message made from a <see cref="BufferedBinaryMessageBuffer"/>: its headers, the body read from the copy (of a
    /// message with a Header element: only those are copied this way).
    /// </summary>
    public static BufferedBinaryMessage FromCopy(in Source copy, MessageHeaders headers, MessageHeaderInfo[] received, bool isEmpty, bool isFault)
    {
        XmlDictionaryReader? bodyReader = null;
        if (!isEmpty)
        {
            bodyReader = OpenReaderAtBody(copy);
            EnterBody(bodyReader);
        }

        return new BufferedBinaryMessage(copy, headers, bodyReader, isEmpty, isFault, hasHeaderElement: true) { _received = received };
    }

    /// <summary>The headers as read, in the order of the Header element (a copy of the message keeps them).</summary>
    internal MessageHeaderInfo[] ReceivedHeaders => _received;

    /// <summary>
    /// As WCF's received messages: the envelope, each header still as received written from the received bytes (so its
    /// prefixes and namespace declarations come out as they came in, and a relayed message keeps its bytes), any other
    /// header as it writes itself, then the body.
    /// </summary>
    protected override void OnWriteMessage(XmlDictionaryWriter writer)
    {
        OnWriteStartEnvelope(writer);
        MessageHeaders headers = Headers;
        int count = headers.Count;
        if (count > 0)
        {
            WriteHeaders(headers, writer);
        }

        OnWriteStartBody(writer);
        OnWriteBodyContents(writer);
        writer.WriteEndElement();
        writer.WriteEndElement();
    }

    /// <summary>The Header element: each header still as received written from the received bytes, any other by WCF.</summary>
    private void WriteHeaders(MessageHeaders headers, XmlDictionaryWriter writer)
    {
        OnWriteStartHeaders(writer);
        for (int i = 0; i < headers.Count; i++)
        {
            int received = ReceivedIndex(headers, i);
            if (received >= 0)
            {
                WriteReceivedHeader(received, writer);
            }
            else
            {
                headers.WriteHeader(i, writer);
            }
        }

        writer.WriteEndElement();
    }

    /// <summary>
    /// Where the header at <paramref name="index"/> of <paramref name="headers"/> is among the received ones; −1 for a
    /// header added or changed since. A received header WCF has read through the collection (a typed property such as
    /// Action, or GetReaderAtHeader) is WCF's own copy of it from then on, at the same place with the same SOAP
    /// attributes: it is still the received header, and is written from the received bytes.
    /// </summary>
    private int ReceivedIndex(MessageHeaders headers, int index)
    {
        MessageHeaderInfo header = headers[index];
        int received = Array.IndexOf(_received, header);
        if (received >= 0 || headers.Count != _received.Length)
        {
            return received;
        }

        MessageHeaderInfo original = _received[index];
        return header.GetType().FullName == CapturedHeaderType && header.Name == original.Name && header.Namespace == original.Namespace
            && header.Actor == original.Actor && header.MustUnderstand == original.MustUnderstand && header.Relay == original.Relay
            && header.IsReferenceParameter == original.IsReferenceParameter ? index : -1;
    }

    /// <summary>The type of the copy WCF makes of a header it reads through the collection (ProbeCanaryTests checks it).</summary>
    internal const string CapturedHeaderType = "System.ServiceModel.Channels.BufferedHeader";

    /// <summary>
    /// As WCF's Message.ToString, but each header still as received is written from the received bytes, as WCF writes
    /// its received headers: WCF's own copy of a header read through the collection carries namespace declarations of
    /// its own, which WCF's received messages never show.
    /// </summary>
    public override string ToString()
    {
        if (State == MessageState.Closed || _received.Length == 0)
        {
            return base.ToString();
        }

        var settings = new XmlWriterSettings { Indent = true };
        using var text = new StringWriter(System.Globalization.CultureInfo.InvariantCulture);
        using (XmlWriter textWriter = XmlWriter.Create(text, settings))
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateDictionaryWriter(textWriter))
        {
            try
            {
                WriteStartEnvelope(writer);
                WriteHeaders(Headers, writer);
                WriteStartBody(writer);
                OnBodyToString(writer);
                writer.WriteEndElement();
                writer.WriteEndElement();
                writer.Flush();
                return text.ToString();
            }
            catch (XmlException e)
            {
                return $"... Error reading body: {e.GetType()}: {e.Message} ...";
            }
        }
    }

    /// <summary>
    /// Writes the header at <paramref name="index"/> in the received Header element as WCF writes a received header:
    /// its start tag by name (prefix, local name and namespace as strings, its attributes as they were), then its
    /// content copied node by node from the received bytes (dictionary strings stay dictionary strings).
    /// </summary>
    private void WriteReceivedHeader(int index, XmlDictionaryWriter writer)
    {
        using XmlDictionaryReader reader = OpenReaderAtHeader(_source, index);
        writer.WriteStartElement(reader.Prefix, reader.LocalName, reader.NamespaceURI);
        writer.WriteAttributes(reader, false);
        if (!reader.IsEmptyElement)
        {
            reader.ReadStartElement();
            while (reader.NodeType != XmlNodeType.EndElement)
            {
                writer.WriteNode(reader, false);
            }
        }

        writer.WriteEndElement();
    }

    public override MessageHeaders Headers
    {
        get
        {
            ThrowIfClosed();
            return _headers;
        }
    }

    public override MessageProperties Properties
    {
        get
        {
            ThrowIfClosed();
            return _properties;
        }
    }

    public override MessageVersion Version => _headers.MessageVersion;

    public override bool IsEmpty => _isEmpty;

    public override bool IsFault => _isFault;

    protected override XmlDictionaryReader OnGetReaderAtBodyContents()
    {
        if (_bodyError is { } error)
        {
            throw error;
        }

        XmlDictionaryReader reader = _bodyReader!;
        _bodyReader = null;
        return reader;
    }

    /// <summary>As WCF's received messages: node by node from the body reader, then past the body and envelope ends.</summary>
    protected override void OnWriteBodyContents(XmlDictionaryWriter writer)
    {
        if (_isEmpty)
        {
            return;
        }

        using XmlDictionaryReader reader = OnGetReaderAtBodyContents();
        if (reader.ReadState is ReadState.Error or ReadState.Closed)
        {
            throw new InvalidOperationException($"The body reader is in ReadState '{reader.ReadState}'. The body reader must be in ReadState 'Interactive'.");
        }

        while (reader.NodeType != XmlNodeType.EndElement && !reader.EOF)
        {
            writer.WriteNode(reader, false);
        }

        reader.ReadEndElement();
        reader.ReadEndElement();
        reader.MoveToContent();
    }

    protected override void OnWriteStartEnvelope(XmlDictionaryWriter writer)
    {
        using XmlDictionaryReader reader = OpenReader(_source);
        reader.MoveToContent();
        writer.WriteStartElement(reader.Prefix, Envelope, SoapNamespaces.Soap12);
        writer.WriteAttributes(reader, false);
    }

    protected override void OnWriteStartHeaders(XmlDictionaryWriter writer)
    {
        if (!_hasHeaderElement)
        {
            writer.WriteStartElement("s", Header, SoapNamespaces.Soap12);
            return;
        }

        using XmlDictionaryReader reader = OpenReaderInsideEnvelope(_source);
        writer.WriteStartElement(reader.Prefix, Header, SoapNamespaces.Soap12);
        writer.WriteAttributes(reader, false);
    }

    protected override void OnWriteStartBody(XmlDictionaryWriter writer)
    {
        using XmlDictionaryReader reader = OpenReaderAtBody(_source);
        writer.WriteStartElement(reader.Prefix, Body, SoapNamespaces.Soap12);
        writer.WriteAttributes(reader, false);
    }

    protected override string? OnGetBodyAttribute(string localName, string ns)
    {
        using XmlDictionaryReader reader = OpenReaderAtBody(_source);
        return reader.GetAttribute(localName, ns);
    }

    /// <summary>As WCF's buffered messages: the body as it is in the buffer, whether or not it has been read.</summary>
    protected override void OnBodyToString(XmlDictionaryWriter writer)
    {
        using XmlDictionaryReader reader = OpenReaderAtBody(_source);
        if (!reader.IsEmptyElement)
        {
            reader.ReadStartElement();
            while (reader.NodeType != XmlNodeType.EndElement)
            {
                writer.WriteNode(reader, false);
            }
        }
    }

    protected override void OnClose()
    {
        try
        {
            _properties.Dispose();
        }
        finally
        {
            try
            {
                _bodyReader?.Dispose();
                _bodyReader = null;
            }
            finally
            {
                BufferManager? manager = _bufferManager;
                _bufferManager = null;
                manager?.ReturnBuffer(_source.Buffer.Array!);
            }
        }
    }

    /// <summary>
    /// As WCF's buffered messages: a copy that reads from the same bytes (see <see cref="BufferedBinaryMessageBuffer"/>);
    /// a message without a Header element is copied through an XML buffer, as WCF copies one.
    /// </summary>
    protected override MessageBuffer OnCreateBufferedCopy(int maxBufferSize) => _hasHeaderElement
        ? new BufferedBinaryMessageBuffer(this, _source, _properties.Encoder?.ContentType ?? BinaryMessageEncoder.SessionlessContentType)
        : base.OnCreateBufferedCopy(maxBufferSize);

    private static XmlDictionaryReader OpenReaderAtBody(in Source source)
    {
        XmlDictionaryReader reader = OpenReaderInsideEnvelope(source);
        if (IsStartOf(reader, Header))
        {
            reader.Skip();
            reader.MoveToContent();
        }

        return reader;
    }

    private void ThrowIfClosed()
    {
        if (IsDisposed)
        {
            ThrowClosed();
        }
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static void ThrowClosed() => throw new ObjectDisposedException("", "Message is closed.");
}
