using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>An exchange as recovery declares it again.</summary>
/// <param name="Name">The exchange's name.</param>
/// <param name="Type">Its type (direct, fanout, topic, headers, ...).</param>
/// <param name="Durable">Whether it survives a broker restart.</param>
/// <param name="AutoDelete">Whether it goes with its last binding.</param>
/// <param name="Internal">Whether only other exchanges may route to it.</param>
/// <param name="Arguments">Its arguments as declared.</param>
public sealed record AmqpRecordedExchange(string Name, string Type, bool Durable, bool AutoDelete, bool Internal, FieldTable Arguments);

/// <summary>A queue as recovery declares it again.</summary>
/// <param name="Name">Its name (the broker's last one, for a server-named queue).</param>
/// <param name="Durable">Whether it survives a broker restart.</param>
/// <param name="Exclusive">Whether only its connection may use it (it goes with the connection).</param>
/// <param name="AutoDelete">Whether it goes with its last consumer.</param>
/// <param name="Arguments">Its arguments as declared.</param>
/// <param name="IsServerNamed">Whether the broker named it: recovery declares it under a new name.</param>
public sealed record AmqpRecordedQueue(string Name, bool Durable, bool Exclusive, bool AutoDelete, FieldTable Arguments, bool IsServerNamed);

/// <summary>A binding as recovery declares it again.</summary>
/// <param name="ToExchange">Whether the destination is an exchange (exchange.bind) rather than a queue (queue.bind).</param>
/// <param name="Destination">The queue or exchange bound.</param>
/// <param name="Source">The exchange it is bound to.</param>
/// <param name="RoutingKey">The routing key.</param>
/// <param name="Arguments">Its arguments as declared.</param>
public sealed record AmqpRecordedBinding(bool ToExchange, string Destination, string Source, string RoutingKey, FieldTable Arguments);

/// <summary>A consumer as recovery registers it again.</summary>
/// <param name="Consumer">The consumer object the application holds.</param>
/// <param name="Queue">The queue it consumes from.</param>
/// <param name="Tag">Its tag.</param>
/// <param name="AutoAck">Whether the broker counts deliveries acknowledged when sent.</param>
/// <param name="Exclusive">Whether it is the queue's only consumer.</param>
/// <param name="Arguments">Its arguments.</param>
public sealed record AmqpRecordedConsumer(AmqpConsumer Consumer, string Queue, string Tag, bool AutoAck, bool Exclusive, FieldTable Arguments);

/// <summary>
/// Which recorded entities recovery restores (RabbitMQ.Client's <c>TopologyRecoveryFilter</c>): a predicate per kind,
/// true to restore; a missing predicate restores every entity of its kind. A consumer left out ends, its
/// <see cref="AmqpConsumer.Completion"/> faulting with the reason.
/// </summary>
/// <example>
/// <code>
/// options.TopologyRecoveryFilter = new AmqpTopologyRecoveryFilter
/// {
///     Queues = q => !q.Name.StartsWith("temp.", StringComparison.Ordinal),
///     Bindings = b => !b.Destination.StartsWith("temp.", StringComparison.Ordinal),
/// };
/// </code>
/// </example>
public sealed class AmqpTopologyRecoveryFilter
{
    /// <summary>Which exchanges to declare again.</summary>
    public Func<AmqpRecordedExchange, bool>? Exchanges { get; init; }

    /// <summary>Which queues to declare again.</summary>
    public Func<AmqpRecordedQueue, bool>? Queues { get; init; }

    /// <summary>Which bindings to declare again.</summary>
    public Func<AmqpRecordedBinding, bool>? Bindings { get; init; }

    /// <summary>Which consumers to register again.</summary>
    public Func<AmqpRecordedConsumer, bool>? Consumers { get; init; }
}

/// <summary>
/// An entity recovery could not restore, for <see cref="AmqpConnectionOptions.TopologyRecoveryFailed"/>: what it was,
/// why, and a channel the handler may use to put things right (declare a queue deleted meanwhile, say) before
/// recovery tries the entity once more.
/// </summary>
public sealed class AmqpTopologyRecoveryFailure
{
    internal AmqpTopologyRecoveryFailure(object entity, Exception exception, AmqpChannel channel)
    {
        Entity = entity;
        Exception = exception;
        Channel = channel;
    }

    /// <summary>An <see cref="AmqpRecordedExchange"/>, <see cref="AmqpRecordedQueue"/>, <see cref="AmqpRecordedBinding"/> or <see cref="AmqpRecordedConsumer"/>.</summary>
    public object Entity { get; }

    /// <summary>Why the broker refused it (an <see cref="AmqpChannelClosedException"/>, 404 for a queue gone, 406 for other arguments, ...).</summary>
    public Exception Exception { get; }

    /// <summary>A channel open on the new link, recovery's own, for the handler's declarations; closed after recovery.</summary>
    public AmqpChannel Channel { get; }
}

/// <summary>A server-named queue declared again under a new name.</summary>
/// <param name="before">The name it had.</param>
/// <param name="after">The name the broker gave it now.</param>
public sealed class AmqpQueueNameChangedEventArgs(string before, string after) : EventArgs
{
    /// <summary>The name it had.</summary>
    public string NameBefore { get; } = before;

    /// <summary>The name the broker gave it now.</summary>
    public string NameAfter { get; } = after;
}

/// <summary>A consumer registered again under another tag than it had.</summary>
/// <param name="before">The tag it had.</param>
/// <param name="after">The tag the broker gave it now.</param>
public sealed class AmqpConsumerTagChangedEventArgs(string before, string after) : EventArgs
{
    /// <summary>The tag it had.</summary>
    public string TagBefore { get; } = before;

    /// <summary>The tag the broker gave it now.</summary>
    public string TagAfter { get; } = after;
}

/// <summary>
/// A consumer about to be registered again: set <see cref="Arguments"/> to register it with other arguments, such as
/// a stream consumer's <c>x-stream-offset</c> moved past what it has already processed.
/// </summary>
/// <param name="consumer">The consumer.</param>
/// <param name="arguments">Its arguments so far.</param>
public sealed class AmqpRecoveringConsumerEventArgs(AmqpConsumer consumer, FieldTable arguments) : EventArgs
{
    /// <summary>The consumer.</summary>
    public AmqpConsumer Consumer { get; } = consumer;

    /// <summary>The arguments it is registered with; a new table replaces them from now on.</summary>
    public FieldTable Arguments { get; set; } = arguments;
}
