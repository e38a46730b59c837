using System.Globalization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.ServiceModel;

internal sealed partial class BinaryMessageEncoder
{
    public override Message ReadMessage(ArraySegment<byte> buffer, BufferManager bufferManager, string? contentType)
    {
        ArgumentNullException.ThrowIfNull(bufferManager);
        if (buffer.Array is null)
        {
            throw new ArgumentNullException(nameof(buffer));
        }

        CheckContentType(contentType);
        XmlBinaryReaderSession? session = null;
        if (_isSession)
        {
            session = ReaderSession;
            buffer = ExtractSessionStrings(buffer);
        }

        var source = new BufferedBinaryMessage.Source(_factory.Readers, buffer, bufferManager, _factory.BufferedReadQuotas, session);
        if (BufferedBinaryMessage.TryRead(source, MessageVersion) is { } read)
        {
            read.Properties.Encoder = this;
            return read;
        }

        XmlDictionaryReader reader = _factory.Readers.Open(buffer, bufferManager, Dictionary, _factory.BufferedReadQuotas, session);
        return CreateMessage(reader, int.MaxValue);
    }

    public override Message ReadMessage(Stream stream, int maxSizeOfHeaders, string? contentType)
    {
        ArgumentNullException.ThrowIfNull(stream);
        CheckContentType(contentType);
        // As WCF's encoder, a streamed message never uses the session's string table, and its body is read from the
        // stream as the message is read (ReadMessageAsync is this, as WCF's). The quotas: see BufferedReadQuotas.
        XmlDictionaryReader reader = Nbfx.CreateReader(stream, Dictionary, _factory.BufferedReadQuotas, null);
        return CreateMessage(reader, maxSizeOfHeaders);
    }

    private Message CreateMessage(XmlDictionaryReader reader, int maxSizeOfHeaders)
    {
        Message message;
        try
        {
            message = Message.CreateMessage(reader, maxSizeOfHeaders, MessageVersion);
        }
        catch
        {
            reader.Close();
            throw;
        }

        message.Properties.Encoder = this;
        return message;
    }

    /// <summary>As WCF's encoder: null means the session's own type; otherwise it must be (or start with) ours.</summary>
    private void CheckContentType(string? contentType)
    {
        if (contentType is not null && contentType != _contentType && !contentType.StartsWith(_contentType, StringComparison.OrdinalIgnoreCase))
        {
            throw new ProtocolException(string.Format(CultureInfo.InvariantCulture,
                "Content Type {0} was sent to a service expecting {1}.  The client and service bindings may be mismatched.", contentType, _contentType));
        }
    }
}
