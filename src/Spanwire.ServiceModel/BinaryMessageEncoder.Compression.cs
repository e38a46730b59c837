using System.Globalization;
using System.IO.Compression;
using System.ServiceModel;
using System.ServiceModel.Channels;

namespace Spanwire.ServiceModel;

/// <summary>
/// GZip and Deflate, as WCF's binary encoder compresses: the whole message (after the session strings, in the session
/// form) is compressed, and the content type says so (<c>application/soap+msbin1+gzip</c> and the like). A message
/// read with the plain content type is read as it is; a buffered message grows back within MaxReceivedMessageSize, a
/// streamed one is read through a stream that counts against it.
/// </summary>
internal sealed partial class BinaryMessageEncoder
{
    /// <summary>The property WCF's HTTP service side sets to the request's Accept-Encoding: a reply is compressed only if it names the format.</summary>
    private const string SupportedCompressionTypesProperty = "BinaryMessageEncoder.SupportedCompressionTypes";

    private static string ContentTypeOf(bool isSession, CompressionFormat format)
    {
        string plain = isSession ? SessionContentType : SessionlessContentType;
        return format switch
        {
            CompressionFormat.GZip => plain + "+gzip",
            CompressionFormat.Deflate => plain + "+deflate",
            _ => plain,
        };
    }

    private bool CompressionEnabled => _factory.CompressionFormat != CompressionFormat.None;

    /// <summary>As WCF's encoder: a content type this encoder reads, compressed or not.</summary>
    public override bool IsContentTypeSupported(string contentType)
    {
        if (base.IsContentTypeSupported(contentType))
        {
            return true;
        }

        return CompressionEnabled && contentType is not null && (IsMediaType(contentType, _contentType) || IsMediaType(contentType, _plainContentType));
    }

    /// <summary>The content type is <paramref name="mediaType"/>, with or without parameters.</summary>
    private static bool IsMediaType(string contentType, string mediaType)
    {
        ReadOnlySpan<char> type = contentType.AsSpan();
        int semicolon = type.IndexOf(';');
        return (semicolon < 0 ? type : type[..semicolon]).Trim().Equals(mediaType, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>As WCF's encoder: the compression the content type names; null is this encoder's own.</summary>
    /// <exception cref="ProtocolException">The content type is not one this encoder reads.</exception>
    private CompressionFormat CheckContentType(string? contentType)
    {
        if (contentType is null)
        {
            return _factory.CompressionFormat;
        }

        if (!CompressionEnabled)
        {
            if (!EqualsOrStartsWith(contentType, _contentType))
            {
                ThrowUnrecognizedContentType(contentType);
            }

            return CompressionFormat.None;
        }

        if (EqualsOrStartsWith(contentType, _contentType))
        {
            return _factory.CompressionFormat;
        }

        if (EqualsOrStartsWith(contentType, _plainContentType))
        {
            return CompressionFormat.None;
        }

        ThrowUnrecognizedContentType(contentType);
        return CompressionFormat.None;
    }

    private static bool EqualsOrStartsWith(string contentType, string supported) =>
        contentType == supported || contentType.StartsWith(supported, StringComparison.OrdinalIgnoreCase);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void ThrowUnrecognizedContentType(string contentType) =>
        throw new ProtocolException(string.Format(CultureInfo.InvariantCulture,
            "Content Type {0} was sent to a service expecting {1}.  The client and service bindings may be mismatched.", contentType, _contentType));

    /// <summary>As WCF's encoder: the compression of a message written now (none when the peer's accepted encodings, if given, leave it out).</summary>
    private CompressionFormat CompressionOf(Message message)
    {
        CompressionFormat format = _factory.CompressionFormat;
        if (format != CompressionFormat.None && !_isSession
            && message.Properties.TryGetValue(SupportedCompressionTypesProperty, out object? accepted) && accepted is string acceptEncoding)
        {
            string name = format == CompressionFormat.GZip ? "gzip" : "deflate";
            if (!acceptEncoding.Contains(name, StringComparison.OrdinalIgnoreCase))
            {
                return CompressionFormat.None;
            }
        }

        return format;
    }

    private static Stream CompressingStream(Stream output, CompressionFormat format) => format == CompressionFormat.GZip
        ? new GZipStream(output, CompressionMode.Compress, leaveOpen: true)
        : new DeflateStream(output, CompressionMode.Compress, leaveOpen: true);

    private static Stream DecompressingStream(Stream input, CompressionFormat format) => format == CompressionFormat.GZip
        ? new GZipStream(input, CompressionMode.Decompress, leaveOpen: false)
        : new DeflateStream(input, CompressionMode.Decompress, leaveOpen: false);

    /// <summary>
    /// Compresses the message in <paramref name="data"/> into a buffer from <paramref name="bufferManager"/>, at the
    /// same offset (the transport's room before it), and gives the old buffer back.
    /// </summary>
    private static ArraySegment<byte> Compress(ArraySegment<byte> data, BufferManager bufferManager, CompressionFormat format)
    {
        using var compressed = new Spanwire.Buffers.PooledStream();
        using (Stream compressor = CompressingStream(compressed, format))
        {
            compressor.Write(data.AsSpan());
        }

        int length = checked((int)compressed.Length);
        byte[] buffer = bufferManager.TakeBuffer(data.Offset + length);
        compressed.Position = 0;
        compressed.ReadExactly(buffer.AsSpan(data.Offset, length));
        bufferManager.ReturnBuffer(data.Array!);
        return new ArraySegment<byte>(buffer, data.Offset, length);
    }

    /// <summary>
    /// Decompresses the message in <paramref name="data"/> into a buffer from <paramref name="bufferManager"/> of at
    /// most MaxReceivedMessageSize bytes (a QuotaExceededException past it, as WCF's), at the same offset, and gives
    /// the old buffer back.
    /// </summary>
    private ArraySegment<byte> Decompress(ArraySegment<byte> data, BufferManager bufferManager, CompressionFormat format)
    {
        int maxSize = (int)Math.Min(_factory.MaxReceivedMessageSize, int.MaxValue);
        var output = new BufferManagerWriter(bufferManager, data.Offset, maxSize, Math.Min(maxSize, Math.Max(1024, data.Count * 4)), incoming: true);
        try
        {
            using (Stream decompressor = DecompressingStream(new MemoryStream(data.Array!, data.Offset, data.Count, writable: false), format))
            {
                while (true)
                {
                    int read = decompressor.Read(output.GetSpan(1024));
                    if (read == 0)
                    {
                        break;
                    }

                    output.Advance(read);
                }
            }

            ArraySegment<byte> decompressed = output.Detach();
            bufferManager.ReturnBuffer(data.Array!);
            return decompressed;
        }
        catch
        {
            // A message refused gives its buffer back, as every refusal of this encoder does.
            output.Abandon();
            bufferManager.ReturnBuffer(data.Array!);
            throw;
        }
    }

    /// <summary>A decompressing stream that counts what it hands out against MaxReceivedMessageSize, as WCF's.</summary>
    private MaxReceivedStream DecompressStream(Stream stream, CompressionFormat format) =>
        new MaxReceivedStream(DecompressingStream(stream, format), _factory.MaxReceivedMessageSize);

    /// <summary>Refuses to read past <paramref name="maxSize"/> bytes: a CommunicationException over a QuotaExceededException, as WCF's.</summary>
    private sealed class MaxReceivedStream(Stream inner, long maxSize) : Stream
    {
        private long _read;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            if (_read >= maxSize)
            {
                string message = string.Format(CultureInfo.InvariantCulture,
                    "The maximum message size quota for incoming messages ({0}) has been exceeded. To increase the quota, use the MaxReceivedMessageSize property on the appropriate binding element.", maxSize);
                throw new CommunicationException(message, new QuotaExceededException(message));
            }

            long left = maxSize - _read;
            int read = inner.Read(left < buffer.Length ? buffer[..(int)left] : buffer);
            _read += read;
            return read;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                inner.Dispose();
            }

            base.Dispose(disposing);
        }
    }
}
