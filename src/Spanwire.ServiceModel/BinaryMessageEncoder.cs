using System.Globalization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;
using Spanwire.BinaryXml;
using Spanwire.Buffers;

namespace Spanwire.ServiceModel;

/// <summary>
/// WCF's binary message encoder on Spanwire's writer and reader: the same content types, the same bytes for the same
/// message, the same session string tables, the same exceptions for what it refuses.
/// </summary>
internal sealed partial class BinaryMessageEncoder : MessageEncoder
{
    public const string SessionlessContentType = "application/soap+msbin1";
    public const string SessionContentType = "application/soap+msbinsession1";

    private readonly BinaryMessageEncoderFactory _factory;
    private readonly bool _isSession;
    private readonly string _contentType;
    private readonly string _plainContentType;

    public BinaryMessageEncoder(BinaryMessageEncoderFactory factory, bool isSession)
    {
        _factory = factory;
        _isSession = isSession;
        _plainContentType = ContentTypeOf(isSession, CompressionFormat.None);
        _contentType = ContentTypeOf(isSession, factory.CompressionFormat);
        _remainingReaderSessionSize = factory.MaxSessionSize;
    }

    public override string ContentType => _contentType;

    public override string MediaType => _contentType;

    public override MessageVersion MessageVersion => _factory.MessageVersion;

    private static IXmlDictionary Dictionary => ServiceModelDictionary.Instance;

    public override ArraySegment<byte> WriteMessage(Message message, int maxMessageSize, BufferManager bufferManager, int messageOffset)
    {
        ArgumentNullException.ThrowIfNull(message);
        ArgumentNullException.ThrowIfNull(bufferManager);
        ArgumentOutOfRangeException.ThrowIfNegative(maxMessageSize);
        message.Properties.Encoder = this;
        if (_isSession)
        {
            messageOffset += NbfxPrimitives.MaxMultiByteInt31Length;
        }

        ArgumentOutOfRangeException.ThrowIfNegative(messageOffset);
        if (messageOffset > maxMessageSize)
        {
            BufferManagerWriter.ThrowQuotaExceeded(maxMessageSize);
        }

        ThrowIfMismatchedVersion(message);

        PooledWriter pooled = _factory.Writers.Take(bufferManager, messageOffset, maxMessageSize, _factory.ExpectedSize, Dictionary, _isSession ? WriterSession : null);
        BufferManagerWriter output = pooled.Output;
        XmlDictionaryWriter writer = pooled.Writer;
        try
        {
            message.WriteMessage(writer);
            writer.Flush();
        }
        catch
        {
            output.Abandon();
            DisposeAfterFailure(writer);
            throw;
        }

        _factory.ExpectedSize = output.WrittenCount;
        ArraySegment<byte> data = output.Detach();
        _factory.Writers.Return(pooled);
        if (_isSession)
        {
            data = AddSessionStrings(data, bufferManager, maxMessageSize);
        }

        CompressionFormat compression = CompressionOf(message);
        return compression == CompressionFormat.None ? data : Compress(data, bufferManager, compression);
    }

    /// <summary>Disposes a writer whose message failed; what its disposal throws is not the failure to report.</summary>
    private static void DisposeAfterFailure(XmlDictionaryWriter writer)
    {
        try
        {
            writer.Dispose();
        }
        catch (Exception e) when (e is ObjectDisposedException or QuotaExceededException or IOException or InvalidOperationException)
        {
            // The first failure is the one the caller sees.
        }
    }

    public override void WriteMessage(Message message, Stream stream)
    {
        ArgumentNullException.ThrowIfNull(message);
        ArgumentNullException.ThrowIfNull(stream);
        CompressionFormat compression = CompressionOf(message);
        ThrowIfMismatchedVersion(message);
        message.Properties.Encoder = this;
        Stream output = compression == CompressionFormat.None ? stream : CompressingStream(stream, compression);
        try
        {
            // As WCF's encoder, a streamed message never uses the session's string table.
            using XmlDictionaryWriter writer = Nbfx.CreateWriter(output, Dictionary, null, ownsStream: false);
            message.WriteMessage(writer);
            writer.Flush();
            output.Flush(); // as WCF's writer flushes its stream: a compressor ends its block there
        }
        finally
        {
            if (compression != CompressionFormat.None)
            {
                output.Dispose(); // the compressed stream's end; the transport's stream stays open
            }
        }
    }

    /// <summary>
    /// Writes the message into pooled memory, then to <paramref name="stream"/> asynchronously: WCF's Message writes
    /// synchronously only, and the stream (a socket, a request body) should not be written synchronously.
    /// </summary>
    public override async ValueTask WriteMessageAsync(Message message, Stream stream)
    {
        ArgumentNullException.ThrowIfNull(message);
        ArgumentNullException.ThrowIfNull(stream);
        CompressionFormat compression = CompressionOf(message);
        ThrowIfMismatchedVersion(message);
        message.Properties.Encoder = this;
        using var buffer = new PooledBufferWriter();
        using (XmlDictionaryWriter writer = Nbfx.CreateWriter(buffer, Dictionary, null))
        {
            message.WriteMessage(writer);
        }

        if (compression == CompressionFormat.None)
        {
            await WriteAsync(buffer.WrittenSequence, stream).ConfigureAwait(false);
        }
        else
        {
            await using Stream compressor = CompressingStream(stream, compression);
            await WriteAsync(buffer.WrittenSequence, compressor).ConfigureAwait(false);
            await compressor.FlushAsync().ConfigureAwait(false); // as the synchronous path: the same bytes
        }

        await stream.FlushAsync().ConfigureAwait(false);
    }

    private static async ValueTask WriteAsync(System.Buffers.ReadOnlySequence<byte> data, Stream stream)
    {
        foreach (ReadOnlyMemory<byte> segment in data)
        {
            await stream.WriteAsync(segment).ConfigureAwait(false);
        }
    }

    private void ThrowIfMismatchedVersion(Message message)
    {
        if (message.Version != MessageVersion)
        {
            throw new ProtocolException(string.Format(CultureInfo.InvariantCulture,
                "The message version of the outgoing message ({0}) does not match that of the encoder ({1}). Make sure the binding is configured with the same version as the message.",
                message.Version, MessageVersion));
        }
    }
}
