using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>A mandatory publish the broker could not route, returned with basic.return.</summary>
public sealed class AmqpReturnedMessage
{
    internal AmqpReturnedMessage(ushort replyCode, string replyText, string exchange, string routingKey, BasicProperties properties, byte[] body)
    {
        ReplyCode = replyCode;
        ReplyText = replyText;
        Exchange = exchange;
        RoutingKey = routingKey;
        Properties = properties;
        Body = body;
    }

    /// <summary>Why it came back (312 no-route).</summary>
    public ushort ReplyCode { get; }

    /// <summary>The broker's text.</summary>
    public string ReplyText { get; }

    /// <summary>The exchange it was published to.</summary>
    public string Exchange { get; }

    /// <summary>The routing key it was published with.</summary>
    public string RoutingKey { get; }

    /// <summary>Its properties.</summary>
    public BasicProperties Properties { get; }

    /// <summary>Its body (a copy: returns are rare).</summary>
    public ReadOnlyMemory<byte> Body { get; }
}
