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
        // The checks in WCF's order: a default segment is refused by the session table's size check in the session form.
        ArgumentNullException.ThrowIfNull(bufferManager);
        CompressionFormat compression = CheckContentType(contentType);
        if (compression != CompressionFormat.None && buffer.Array is not null)
        {
            buffer = Decompress(buffer, bufferManager, compression);
        }

        XmlBinaryReaderSession? session = null;
        if (_isSession)
        {
            session = ReaderSession;
            buffer = ExtractSessionStrings(buffer);
        }

        if (buffer.Array is null)
        {
            throw new ArgumentNullException(nameof(buffer));
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
        CompressionFormat compression = CheckContentType(contentType);
        if (compression != CompressionFormat.None)
        {
            stream = DecompressStream(stream, compression);
        }

        // As WCF's encoder, a streamed message never uses the session's string table, and its body is read from the
        // stream as the message is read, with the binding's quotas (ReadMessageAsync is this, as WCF's).
        XmlDictionaryReader reader = Nbfx.CreateReader(stream, Dictionary, _factory.StreamedReadQuotas, null);
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
}
