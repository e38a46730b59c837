using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>How a handler consumer registers and runs its handler (<see cref="AmqpChannel.ConsumeAsync(string, Func{AmqpDelivery, CancellationToken, ValueTask}, AmqpConsumerOptions, CancellationToken)"/>).</summary>
public sealed class AmqpConsumerOptions
{
    private int _dispatchConcurrency = 1;

    /// <summary>Whether the broker counts each delivery acknowledged as soon as it sends it. Default false.</summary>
    public bool AutoAck { get; set; }

    /// <summary>The consumer's tag; empty (the default) lets the broker choose one.</summary>
    public string ConsumerTag { get; set; } = "";

    /// <summary>Whether this must be the queue's only consumer.</summary>
    public bool Exclusive { get; set; }

    /// <summary>Consumer arguments as an encoded table (x-priority, x-stream-offset, ...); empty for none.</summary>
    public FieldTable Arguments { get; set; }

    /// <summary>
    /// How many deliveries the handler may process at once (RabbitMQ.Client's <c>ConsumerDispatchConcurrency</c>).
    /// Default 1: one at a time, in delivery order. Above 1, deliveries start in order but may finish in any order;
    /// acks by tag stay correct. Keep the channel's prefetch at least this high, or the extra handlers wait.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Set below 1.</exception>
    public int DispatchConcurrency
    {
        get => _dispatchConcurrency;
        set => _dispatchConcurrency = value >= 1 ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "At least one handler must run.");
    }

    /// <summary>
    /// Whether a handler that throws ends the consumer (it is cancelled, and <see cref="AmqpConsumer.Completion"/>
    /// faults with the exception). Default false: the exception is reported through
    /// <see cref="AmqpChannel.CallbackException"/> and the consumer goes on, as RabbitMQ.Client's does.
    /// </summary>
    public bool StopOnHandlerException { get; set; }
}

/// <summary>A consumer's handler threw: what <see cref="AmqpChannel.CallbackException"/> reports.</summary>
/// <param name="exception">What the handler threw.</param>
/// <param name="consumer">The consumer whose handler it was.</param>
/// <param name="deliveryTag">The tag of the delivery it was handling.</param>
public sealed class AmqpCallbackExceptionEventArgs(Exception exception, AmqpConsumer consumer, ulong deliveryTag) : EventArgs
{
    /// <summary>What the handler threw.</summary>
    public Exception Exception { get; } = exception;

    /// <summary>The consumer whose handler it was.</summary>
    public AmqpConsumer Consumer { get; } = consumer;

    /// <summary>The tag of the delivery it was handling: settle it (nack or reject) if the handler did not.</summary>
    public ulong DeliveryTag { get; } = deliveryTag;
}
