using RabbitMQ.Client;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.DropIn;

/// <summary>Between the drop-in's <see cref="IConnection"/> and the Spanwire connection under it.</summary>
public static class AmqpConnectionExtensions
{
    /// <summary>The Spanwire connection under a connection made by <see cref="SpanwireConnectionFactory"/>.</summary>
    /// <param name="connection">A connection from <see cref="SpanwireConnectionFactory"/>.</param>
    /// <returns>The <see cref="AmqpConnection"/> it runs on: the same link, channels and recovery.</returns>
    /// <exception cref="ArgumentException"><paramref name="connection"/> was not made by <see cref="SpanwireConnectionFactory"/>.</exception>
    public static AmqpConnection ToAmqpConnection(this IConnection connection) => connection is SpanwireConnection spanwire
        ? spanwire.Connection
        : throw new ArgumentException($"The connection is a {connection?.GetType().Name ?? "null"}, not one made by SpanwireConnectionFactory.", nameof(connection));
}
