using System.Buffers;
using System.Buffers.Binary;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// A basic.publish's method frame and content header frame, encoded once: exchange, routing key, the two bits and the
/// properties. Writing a publish from it copies those bytes and fills in only the channel and the body size, so a
/// publisher that sends many messages with the same target and properties pays for the encoding once (like
/// RabbitMQ.Client's <c>CachedString</c>, but for the whole head).
/// </summary>
/// <remarks>Immutable and thread-safe; the properties (headers table included) are copied when it is made.</remarks>
/// <example>
/// <code>
/// var orders = new AmqpPublishTemplate("orders", "eu.new", new BasicProperties { DeliveryMode = 2, AppId = "billing" });
/// foreach (ReadOnlyMemory&lt;byte&gt; body in bodies)
/// {
///     AmqpFrameWriter.WriteBasicPublish(output, channel: 1, orders, body, frameMax);
/// }
/// </code>
/// </example>
public sealed class AmqpPublishTemplate
{
    // Method frame then content header frame, both whole with their frame ends, channel 0 and body size 0.
    private readonly byte[] _head;
    private readonly int _headerFrameAt;

    /// <summary>Encodes the head of a publish to <paramref name="exchange"/> with <paramref name="routingKey"/>.</summary>
    /// <exception cref="ArgumentException">A name or a property is over 255 UTF-8 bytes.</exception>
    /// <param name="exchange">The exchange to publish to (empty for the default exchange).</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="properties">The message properties.</param>
    /// <param name="mandatory">Whether the broker returns the message (basic.return) when no queue takes it.</param>
    /// <param name="immediate">The immediate flag (RabbitMQ refuses it; kept because the wire format has it).</param>
    public AmqpPublishTemplate(string exchange, string routingKey, in BasicProperties properties = default, bool mandatory = false, bool immediate = false)
    {
        ArgumentNullException.ThrowIfNull(exchange);
        ArgumentNullException.ThrowIfNull(routingKey);
        var head = new ArrayBufferWriter<byte>(256);
        AmqpFrameWriter.WritePublishHead(head, 0, exchange, routingKey, mandatory, immediate, properties, 0, 0, default, out _headerFrameAt);
        _head = head.WrittenSpan.ToArray();
        Exchange = exchange;
        RoutingKey = routingKey;
        Properties = properties;
        Mandatory = mandatory;
        Immediate = immediate;
        HeaderPayloadSize = _head.Length - _headerFrameAt - AmqpFraming.FrameOverhead;
    }

    /// <summary>The exchange published to.</summary>
    public string Exchange { get; }

    /// <summary>The routing key.</summary>
    public string RoutingKey { get; }

    /// <summary>The properties every publish from this template carries.</summary>
    public BasicProperties Properties { get; }

    /// <summary>The mandatory bit.</summary>
    public bool Mandatory { get; }

    /// <summary>The immediate bit.</summary>
    public bool Immediate { get; }

    /// <summary>Bytes of the two head frames (the method frame and the content header frame).</summary>
    public int HeadLength => _head.Length;

    /// <summary>The content header's payload size, checked against frame_max at each write.</summary>
    internal int HeaderPayloadSize { get; }

    /// <summary>Copies the two head frames into <paramref name="destination"/> (at least <see cref="HeadLength"/> bytes) for this channel and body size.</summary>
    internal void CopyHead(Span<byte> destination, ushort channel, ulong bodySize)
    {
        _head.CopyTo(destination);
        BinaryPrimitives.WriteUInt16BigEndian(destination[1..], channel);
        int header = _headerFrameAt;
        BinaryPrimitives.WriteUInt16BigEndian(destination[(header + 1)..], channel);
        // Frame header (7), class id (2), weight (2), then the body size.
        BinaryPrimitives.WriteUInt64BigEndian(destination[(header + AmqpFraming.FrameHeaderSize + 4)..], bodySize);
    }
}
