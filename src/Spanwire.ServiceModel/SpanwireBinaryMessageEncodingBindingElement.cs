using System.ComponentModel;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel;

/// <summary>
/// WCF's binary message encoding (<c>application/soap+msbin1</c>, and <c>application/soap+msbinsession1</c> on session
/// transports) written and read by Spanwire's .NET Binary XML writer and reader: a replacement for
/// <see cref="BinaryMessageEncodingBindingElement"/> that writes the same bytes for the same message and reads what
/// it writes.
/// </summary>
/// <example><code>
/// var binding = new CustomBinding(new SpanwireBinaryMessageEncodingBindingElement(), new HttpTransportBindingElement());
/// var factory = new ChannelFactory&lt;IOrders&gt;(binding, new EndpointAddress("http://orders.example/svc"));
/// IOrders orders = factory.CreateChannel();
/// </code></example>
public sealed class SpanwireBinaryMessageEncodingBindingElement : MessageEncodingBindingElement
{
    private MessageVersion _messageVersion = MessageVersion.Soap12WSAddressing10;
    private int _maxReadPoolSize = 64;
    private int _maxWritePoolSize = 16;
    private int _maxSessionSize = 2048;
    private readonly XmlDictionaryReaderQuotas _readerQuotas = new();
    private long _maxReceivedMessageSize; // the transport's, once a channel is built

    /// <summary>An element with WCF's defaults: SOAP 1.2 with WS-Addressing 1.0, 2048 bytes of session strings.</summary>
    public SpanwireBinaryMessageEncodingBindingElement()
    {
    }

    private SpanwireBinaryMessageEncodingBindingElement(SpanwireBinaryMessageEncodingBindingElement other)
        : base(other)
    {
        _messageVersion = other._messageVersion;
        _maxReadPoolSize = other._maxReadPoolSize;
        _maxWritePoolSize = other._maxWritePoolSize;
        _maxSessionSize = other._maxSessionSize;
        other._readerQuotas.CopyTo(_readerQuotas);
        CompressionFormat = other.CompressionFormat;
        _maxReceivedMessageSize = other._maxReceivedMessageSize;
    }

    /// <summary>The SOAP and addressing versions of the messages; SOAP 1.2 only, as WCF's binary encoding.</summary>
    /// <exception cref="ArgumentNullException">The value is null.</exception>
    /// <exception cref="InvalidOperationException">The envelope version is not SOAP 1.2 (as WCF's element).</exception>
    public override MessageVersion MessageVersion
    {
        get => _messageVersion;
        set
        {
            ArgumentNullException.ThrowIfNull(value);
            if (value.Envelope != EnvelopeVersion.Soap12)
            {
                throw new InvalidOperationException($"The {GetType().FullName} binding element requires envelope version '{EnvelopeVersion.Soap12}' It doesn't support '{value.Envelope}'.");
            }

            _messageVersion = value;
        }
    }

    /// <summary>
    /// The quotas of the readers (depth, string and array lengths, name table). Buffered messages lift the quotas left
    /// at their defaults, except depth (128), as WCF does. Setting copies the given quotas into this element's, as
    /// WCF's element does.
    /// </summary>
    /// <exception cref="ArgumentNullException">The value set is null.</exception>
    public XmlDictionaryReaderQuotas ReaderQuotas
    {
        get => _readerQuotas;
        set
        {
            ArgumentNullException.ThrowIfNull(value);
            value.CopyTo(_readerQuotas);
        }
    }

    /// <summary>
    /// How messages are compressed, as WCF's element: <see cref="CompressionFormat.None"/> (the default),
    /// <see cref="CompressionFormat.GZip"/> or <see cref="CompressionFormat.Deflate"/>, with the content type saying so
    /// (<c>application/soap+msbin1+gzip</c> and the like). A compressed message grows back within the transport's
    /// MaxReceivedMessageSize. The transport must support the format (HTTP and TCP do).
    /// </summary>
    [DefaultValue(CompressionFormat.None)]
    public CompressionFormat CompressionFormat { get; set; }

    /// <summary>How many readers of buffered messages are kept for reuse; 64 by default.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is zero or negative.</exception>
    public int MaxReadPoolSize
    {
        get => _maxReadPoolSize;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
            _maxReadPoolSize = value;
        }
    }

    /// <summary>How many writers of buffered messages are kept for reuse (16 by default, as WCF).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is zero or negative.</exception>
    public int MaxWritePoolSize
    {
        get => _maxWritePoolSize;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
            _maxWritePoolSize = value;
        }
    }

    /// <summary>How many bytes of strings a session may add to its string table (2048 by default, as WCF).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public int MaxSessionSize
    {
        get => _maxSessionSize;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            _maxSessionSize = value;
        }
    }

    /// <summary>Makes the factory of this element's encoders.</summary>
    /// <returns>A factory whose <see cref="MessageEncoderFactory.Encoder"/> is sessionless and whose
    /// <see cref="MessageEncoderFactory.CreateSessionEncoder"/> makes one encoder per session.</returns>
    public override MessageEncoderFactory CreateMessageEncoderFactory() =>
        new BinaryMessageEncoderFactory(_messageVersion, _maxReadPoolSize, _maxWritePoolSize, _maxSessionSize, _readerQuotas, CompressionFormat, _maxReceivedMessageSize);

    /// <summary>A copy of this element.</summary>
    /// <returns>The copy.</returns>
    public override BindingElement Clone() => new SpanwireBinaryMessageEncodingBindingElement(this);

    /// <summary>Adds this element to the binding parameters, where the transport finds its encoder, and builds the rest.</summary>
    /// <typeparam name="TChannel">The channel shape.</typeparam>
    /// <param name="context">The binding context.</param>
    /// <returns>The channel factory of the elements below.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="context"/> is null.</exception>
    /// <exception cref="NotSupportedException"><see cref="CompressionFormat"/> is one the transport does not support.</exception>
    public override IChannelFactory<TChannel> BuildChannelFactory<TChannel>(BindingContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (CompressionFormat != CompressionFormat.None
            && context.GetInnerProperty<ITransportCompressionSupport>()?.IsCompressionFormatSupported(CompressionFormat) != true)
        {
            ThrowCompressionNotSupported();
        }

        if (context.Binding.Elements.Find<TransportBindingElement>() is { } transport)
        {
            _maxReceivedMessageSize = transport.MaxReceivedMessageSize;
        }

        context.BindingParameters.Add(this);
        return context.BuildInnerChannelFactory<TChannel>();
    }

    /// <summary>Whether the elements below can build a channel factory of this shape.</summary>
    /// <typeparam name="TChannel">The channel shape.</typeparam>
    /// <param name="context">The binding context.</param>
    /// <returns>True when they can.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="context"/> is null.</exception>
    public override bool CanBuildChannelFactory<TChannel>(BindingContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return context.CanBuildInnerChannelFactory<TChannel>();
    }

    /// <summary>This element's reader quotas, or what the base element and the elements below give.</summary>
    /// <typeparam name="T">The property's type.</typeparam>
    /// <param name="context">The binding context.</param>
    /// <returns>The property, or null.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="context"/> is null.</exception>
#pragma warning disable RS0041 // WCF declares GetProperty<T> without nullable annotations; the override inherits that.
    public override T? GetProperty<T>(BindingContext context)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(context);
        return typeof(T) == typeof(XmlDictionaryReaderQuotas) ? (T)(object)_readerQuotas : base.GetProperty<T>(context);
    }
#pragma warning restore RS0041

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void ThrowCompressionNotSupported() =>
        throw new NotSupportedException($"The transport configured on this binding does not appear to support the CompressionFormat specified ({CompressionFormat}) on the message encoder.  To resolve this issue, set the CompressionFormat on the {GetType().Name} to '{CompressionFormat.None}' or use a different transport.");
}
