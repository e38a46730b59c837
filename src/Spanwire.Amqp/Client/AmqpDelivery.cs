using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>
/// A message delivered to a consumer or fetched with basic.get. The body is pooled: it is released when the
/// delivery is (the consumer loop does that after the handler returns, or when the next delivery is read), unless
/// <see cref="TakeBody"/> took it first.
/// </summary>
public sealed class AmqpDelivery : IDisposable
{
    private AmqpMessageBody? _body;
    private bool _released;

    internal AmqpDelivery(string consumerTag, ulong deliveryTag, bool redelivered, string exchange, string routingKey, uint messageCount)
    {
        ConsumerTag = consumerTag;
        DeliveryTag = deliveryTag;
        Redelivered = redelivered;
        Exchange = exchange;
        RoutingKey = routingKey;
        MessageCount = messageCount;
    }

    /// <summary>The consumer tag ("" for basic.get).</summary>
    public string ConsumerTag { get; }

    /// <summary>The delivery tag to acknowledge with.</summary>
    public ulong DeliveryTag { get; }

    /// <summary>Whether the broker delivered this message before.</summary>
    public bool Redelivered { get; }

    /// <summary>The exchange the message was published to.</summary>
    public string Exchange { get; }

    /// <summary>The routing key it was published with.</summary>
    public string RoutingKey { get; }

    /// <summary>For basic.get: messages left in the queue; 0 for consumer deliveries.</summary>
    public uint MessageCount { get; }

    /// <summary>
    /// The deliver span of this message while it is processed (from <see cref="AmqpConsumer.ReadAllAsync"/> handing it
    /// out until the next is asked for), when something listens to <see cref="AmqpTelemetry.SubscriberSourceName"/>;
    /// otherwise null. Parent spans of your own on it; a handler consumer runs with it as <see cref="System.Diagnostics.Activity.Current"/>.
    /// </summary>
    public System.Diagnostics.Activity? Activity { get; internal set; }

    /// <summary>The content properties.</summary>
    public BasicProperties Properties { get; internal set; }

    /// <summary>The body, valid until the delivery is released.</summary>
    /// <exception cref="ObjectDisposedException">The delivery was released or its body taken.</exception>
    public AmqpMessageBody Body => _body is { } body && !_released ? body : throw new ObjectDisposedException(nameof(AmqpDelivery),
        _released ? "The delivery was released; take the body (TakeBody) or copy it before then." : "The body was taken with TakeBody.");

    /// <summary>Takes ownership of the body: it outlives the delivery, and the caller disposes it.</summary>
    /// <returns>The body, now the caller's to dispose.</returns>
    public AmqpMessageBody TakeBody()
    {
        AmqpMessageBody body = Body;
        _body = null;
        return body;
    }

    /// <summary>Releases the body unless it was taken.</summary>
    public void Dispose()
    {
        _released = true;
        _body?.Dispose();
        _body = null;
    }

    internal void SetBody(AmqpMessageBody body) => _body = body;
}

