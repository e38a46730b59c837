using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel;

/// <summary>
/// Makes the encoders of <see cref="SpanwireBinaryMessageEncodingBindingElement"/>: one sessionless encoder shared by
/// every channel, and a session encoder per session channel (each with its own string tables).
/// </summary>
internal sealed class BinaryMessageEncoderFactory : MessageEncoderFactory
{
    private readonly BinaryMessageEncoder _encoder;

    public BinaryMessageEncoderFactory(MessageVersion messageVersion, int maxReadPoolSize, int maxWritePoolSize, int maxSessionSize, XmlDictionaryReaderQuotas readerQuotas,
        CompressionFormat compressionFormat, long maxReceivedMessageSize)
    {
        MessageVersion = messageVersion;
        MaxSessionSize = maxSessionSize;
        CompressionFormat = compressionFormat;
        MaxReceivedMessageSize = maxReceivedMessageSize;
        BufferedReadQuotas = GetBufferedReadQuotas(readerQuotas);
        StreamedReadQuotas = new XmlDictionaryReaderQuotas();
        readerQuotas.CopyTo(StreamedReadQuotas);
        Readers = new ReaderPool(maxReadPoolSize);
        Writers = new WriterPool(maxWritePoolSize);
        _encoder = new BinaryMessageEncoder(this, isSession: false);
    }

    public override MessageEncoder Encoder => _encoder;

    public override MessageVersion MessageVersion { get; }

    public int MaxSessionSize { get; }

    public CompressionFormat CompressionFormat { get; }

    /// <summary>
    /// The transport's MaxReceivedMessageSize, which bounds a message decompressed; 0 until a channel is built with
    /// the element, as WCF's (a compressed message then cannot be read).
    /// </summary>
    public long MaxReceivedMessageSize { get; }

    /// <summary>The quotas of buffered reads, whose size the transport has already bounded.</summary>
    public XmlDictionaryReaderQuotas BufferedReadQuotas { get; }

    /// <summary>The quotas of streamed reads: the binding's, as WCF's streamed reader has them.</summary>
    public XmlDictionaryReaderQuotas StreamedReadQuotas { get; }

    public ReaderPool Readers { get; }

    public WriterPool Writers { get; }

    /// <summary>A size to start the next buffered message's buffer at: the last message's size.</summary>
    public int ExpectedSize { get; set; } = 256;

    public override MessageEncoder CreateSessionEncoder() => new BinaryMessageEncoder(this, isSession: true);

    /// <summary>
    /// As WCF's buffered encoders: a buffered message is already whole in memory, within the transport's
    /// MaxReceivedMessageSize, so the string, array, bytes-per-read and name-table quotas left at their defaults are
    /// lifted and a default depth becomes 128; a quota the binding set stays.
    /// </summary>
    private static XmlDictionaryReaderQuotas GetBufferedReadQuotas(XmlDictionaryReaderQuotas quotas)
    {
        var buffered = new XmlDictionaryReaderQuotas();
        quotas.CopyTo(buffered);
        XmlDictionaryReaderQuotaTypes modified = quotas.ModifiedQuotas;
        if ((modified & XmlDictionaryReaderQuotaTypes.MaxStringContentLength) == 0)
        {
            buffered.MaxStringContentLength = int.MaxValue;
        }

        if ((modified & XmlDictionaryReaderQuotaTypes.MaxArrayLength) == 0)
        {
            buffered.MaxArrayLength = int.MaxValue;
        }

        if ((modified & XmlDictionaryReaderQuotaTypes.MaxBytesPerRead) == 0)
        {
            buffered.MaxBytesPerRead = int.MaxValue;
        }

        if ((modified & XmlDictionaryReaderQuotaTypes.MaxNameTableCharCount) == 0)
        {
            buffered.MaxNameTableCharCount = int.MaxValue;
        }

        if ((modified & XmlDictionaryReaderQuotaTypes.MaxDepth) == 0)
        {
            buffered.MaxDepth = 128;
        }

        return buffered;
    }
}
