using RabbitMQ.Client;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.DropIn;

/// <summary>
/// RabbitMQ.Client's <see cref="TopologyRecoveryFilter"/> and <see cref="TopologyRecoveryExceptionHandler"/> on
/// Spanwire's topology recovery: each recorded entity shown through RabbitMQ.Client's interfaces, each refusal as
/// RabbitMQ.Client's exception, each handler given the connection it recovers.
/// </summary>
internal static class RecoveryHooks
{
    // Set while an application's recovery handler runs: channels it makes are opened on the new link before the
    // connection counts as open again, as RabbitMQ.Client lets its handlers do.
    private static readonly AsyncLocal<bool> s_inHandler = new();

    /// <summary>Whether the caller runs inside an application's recovery exception handler.</summary>
    public static bool InHandler => s_inHandler.Value;

    public static AmqpTopologyRecoveryFilter Filter(TopologyRecoveryFilter filter) => new()
    {
        Exchanges = e => filter.ExchangeFilter?.Invoke(new RecordedExchange(e)) ?? true,
        Queues = q => filter.QueueFilter?.Invoke(new RecordedQueue(q)) ?? true,
        Bindings = b => filter.BindingFilter?.Invoke(new RecordedBinding(b)) ?? true,
        Consumers = c => filter.ConsumerFilter?.Invoke(new RecordedConsumer(c)) ?? true,
    };

    /// <summary>
    /// A refused entity goes to the application's handler for its kind when the kind's condition holds; the entity is
    /// not tried again (the handler puts it right itself, as with RabbitMQ.Client), and a handler that throws fails
    /// the recovery attempt, which is then made again.
    /// </summary>
    public static Func<AmqpTopologyRecoveryFailure, CancellationToken, ValueTask<bool>> Failed(TopologyRecoveryExceptionHandler handler, Func<IConnection?> connection) =>
        async (failure, _) =>
        {
            Exception error = Mapping.Translate(failure.Exception, closedBefore: false, e => Mapping.ToShutdown(e, ShutdownInitiator.Peer));
            if (connection() is not { } on)
            {
                return false;
            }

            Func<Task>? handle = failure.Entity switch
            {
                AmqpRecordedExchange e when handler.ExchangeRecoveryExceptionHandlerAsync is { } h && handler.ExchangeRecoveryExceptionCondition(new RecordedExchange(e), error) =>
                    () => h(new RecordedExchange(e), error, on),
                AmqpRecordedQueue q when handler.QueueRecoveryExceptionHandlerAsync is { } h && handler.QueueRecoveryExceptionCondition(new RecordedQueue(q), error) =>
                    () => h(new RecordedQueue(q), error, on),
                AmqpRecordedBinding b when handler.BindingRecoveryExceptionHandlerAsync is { } h && handler.BindingRecoveryExceptionCondition(new RecordedBinding(b), error) =>
                    () => h(new RecordedBinding(b), error, on),
                AmqpRecordedConsumer c when handler.ConsumerRecoveryExceptionHandlerAsync is { } h && handler.ConsumerRecoveryExceptionCondition(new RecordedConsumer(c), error) =>
                    () => h(new RecordedConsumer(c), error, on),
                _ => null,
            };
            if (handle is null)
            {
                return false;
            }

            s_inHandler.Value = true;
            try
            {
                await handle().ConfigureAwait(false);
            }
            finally
            {
                s_inHandler.Value = false;
            }

            return false;
        };

    private sealed class RecordedExchange(AmqpRecordedExchange exchange) : IRecordedExchange
    {
        public string Name => exchange.Name;

        public string Type => exchange.Type;

        public bool Durable => exchange.Durable;

        public bool AutoDelete => exchange.AutoDelete;

        public IDictionary<string, object?>? Arguments => Mapping.ToDictionary(exchange.Arguments);
    }

    private sealed class RecordedQueue(AmqpRecordedQueue queue) : IRecordedQueue
    {
        public string Name => queue.Name;

        public bool Durable => queue.Durable;

        public bool Exclusive => queue.Exclusive;

        public bool AutoDelete => queue.AutoDelete;

        public IDictionary<string, object?>? Arguments => Mapping.ToDictionary(queue.Arguments);

        public bool IsServerNamed => queue.IsServerNamed;
    }

    private sealed class RecordedBinding(AmqpRecordedBinding binding) : IRecordedBinding
    {
        public string Source => binding.Source;

        public string Destination => binding.Destination;

        public string RoutingKey => binding.RoutingKey;

        public IDictionary<string, object?>? Arguments => Mapping.ToDictionary(binding.Arguments);
    }

    private sealed class RecordedConsumer(AmqpRecordedConsumer consumer) : IRecordedConsumer
    {
        public string ConsumerTag => consumer.Tag;

        public string Queue => consumer.Queue;

        public bool AutoAck => consumer.AutoAck;

        public bool Exclusive => consumer.Exclusive;

        public IDictionary<string, object?>? Arguments => Mapping.ToDictionary(consumer.Arguments);
    }
}
