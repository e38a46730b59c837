using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>
/// The exchanges, queues and bindings a connection declared (and has not deleted), in declaration order, so that
/// recovery can declare them again on a new link. A server-named queue gets a new name then; its bindings and
/// consumers follow it.
/// </summary>
internal sealed class TopologyRecorder
{
    private readonly Lock _lock = new();
    private readonly List<(string Name, ExchangeRecord Record)> _exchanges = [];
    private readonly List<(string Name, QueueRecord Record)> _queues = [];
    private readonly List<BindingRecord> _bindings = [];

    public void RecordExchange(string name, ExchangeRecord record)
    {
        lock (_lock)
        {
            _exchanges.RemoveAll(e => e.Name == name);
            _exchanges.Add((name, record with { Arguments = record.Arguments.Copy() })); // the caller may reuse its buffer
        }
    }

    public void ForgetExchange(string name)
    {
        lock (_lock)
        {
            _exchanges.RemoveAll(e => e.Name == name);
            _bindings.RemoveAll(b => b.Source == name || (b.ToExchange && b.Destination == name));
        }
    }

    public void RecordQueue(string name, QueueRecord record)
    {
        lock (_lock)
        {
            _queues.RemoveAll(q => q.Name == name);
            _queues.Add((name, record with { Arguments = record.Arguments.Copy() }));
        }
    }

    public void ForgetQueue(string name)
    {
        lock (_lock)
        {
            _queues.RemoveAll(q => q.Name == name);
            _bindings.RemoveAll(b => !b.ToExchange && b.Destination == name);
        }
    }

    public void RecordBinding(BindingRecord binding)
    {
        lock (_lock)
        {
            if (!_bindings.Exists(b => b.SameAs(binding)))
            {
                _bindings.Add(binding with { Arguments = binding.Arguments.Copy() });
            }
        }
    }

    public void ForgetBinding(BindingRecord binding)
    {
        lock (_lock)
        {
            _bindings.RemoveAll(b => b.SameAs(binding));
        }
    }

    /// <summary>
    /// Declares everything again on a channel of recovery's own: exchanges, then queues, then bindings. What the broker
    /// refuses (it closes the channel) is skipped on a fresh channel; the rest goes on.
    /// </summary>
    public async Task RecoverAsync(AmqpConnection connection, CancellationToken cancellationToken)
    {
        (string Name, ExchangeRecord Record)[] exchanges;
        (string Name, QueueRecord Record)[] queues;
        lock (_lock)
        {
            if (_exchanges.Count == 0 && _queues.Count == 0 && _bindings.Count == 0)
            {
                return;
            }

            exchanges = [.. _exchanges];
            queues = [.. _queues];
        }

        AmqpTopologyRecoveryFilter? filter = connection.RecoveryFilter;
        AmqpChannel channel = await connection.OpenRecoveryChannelAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            foreach ((string name, ExchangeRecord e) in exchanges)
            {
                var recorded = new AmqpRecordedExchange(name, e.Type, e.Durable, e.AutoDelete, e.Internal, e.Arguments);
                if (filter?.Exchanges?.Invoke(recorded) != false)
                {
                    channel = await TryAsync(connection, channel, recorded, c => c.ExchangeDeclareAsync(name, e.Type, e.Durable, e.AutoDelete, e.Internal,
                        e.Arguments, cancellationToken: cancellationToken), cancellationToken).ConfigureAwait(false);
                }
            }

            foreach ((string name, QueueRecord q) in queues)
            {
                var recorded = new AmqpRecordedQueue(name, q.Durable, q.Exclusive, q.AutoDelete, q.Arguments, q.ServerNamed);
                if (filter?.Queues?.Invoke(recorded) == false)
                {
                    continue;
                }

                channel = await TryAsync(connection, channel, recorded, async c =>
                {
                    AmqpQueueInfo info = await c.QueueDeclareAsync(q.ServerNamed ? "" : name, q.Durable, q.Exclusive, q.AutoDelete, q.Arguments,
                        cancellationToken: cancellationToken).ConfigureAwait(false);
                    if (info.Name != name)
                    {
                        Rename(name, info.Name, q);
                        connection.RenameQueueInConsumers(name, info.Name);
                    }
                }, cancellationToken).ConfigureAwait(false);
            }

            BindingRecord[] bindings;
            lock (_lock)
            {
                bindings = [.. _bindings];
            }

            foreach (BindingRecord b in bindings)
            {
                var recorded = new AmqpRecordedBinding(b.ToExchange, b.Destination, b.Source, b.RoutingKey, b.Arguments);
                if (filter?.Bindings?.Invoke(recorded) != false)
                {
                    channel = await TryAsync(connection, channel, recorded, c => b.ToExchange
                        ? c.ExchangeBindAsync(b.Destination, b.Source, b.RoutingKey, b.Arguments, cancellationToken: cancellationToken)
                        : c.QueueBindAsync(b.Destination, b.Source, b.RoutingKey, b.Arguments, cancellationToken: cancellationToken), cancellationToken)
                        .ConfigureAwait(false);
                }
            }
        }
        finally
        {
            await channel.CloseAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>
    /// Forgets an auto-delete queue (and its bindings) that no consumer of the connection consumes any more: the
    /// broker deleted it with its last consumer, so recovery must not declare it, or its bindings, again.
    /// </summary>
    public void ForgetIfAutoDeleted(string queue, AmqpConnection connection)
    {
        bool autoDelete;
        lock (_lock)
        {
            autoDelete = _queues.Exists(q => q.Name == queue && q.Record.AutoDelete);
        }

        if (autoDelete && !connection.IsConsumed(queue))
        {
            ForgetQueue(queue);
        }
    }

    private void Rename(string before, string after, QueueRecord record)
    {
        lock (_lock)
        {
            int index = _queues.FindIndex(q => q.Name == before);
            if (index >= 0)
            {
                _queues[index] = (after, record);
            }

            for (int i = 0; i < _bindings.Count; i++)
            {
                if (!_bindings[i].ToExchange && _bindings[i].Destination == before)
                {
                    _bindings[i] = _bindings[i] with { Destination = after };
                }
            }
        }
    }

    private static async Task<AmqpChannel> TryAsync(AmqpConnection connection, AmqpChannel channel, object entity, Func<AmqpChannel, Task> declare,
        CancellationToken cancellationToken)
    {
        try
        {
            await declare(channel).ConfigureAwait(false);
            return channel;
        }
        catch (AmqpChannelClosedException ex)
        {
            // The broker refused this one (say, a queue now declared with other arguments): on a fresh channel the
            // application's handler may put it right and have it tried once more; otherwise it is skipped.
            AmqpChannel fresh = await connection.OpenRecoveryChannelAsync(cancellationToken).ConfigureAwait(false);
            if (!await connection.ShouldRetryAsync(entity, ex, fresh, cancellationToken).ConfigureAwait(false))
            {
                return fresh;
            }

            try
            {
                await declare(fresh).ConfigureAwait(false);
                return fresh;
            }
            catch (AmqpChannelClosedException)
            {
                return await connection.OpenRecoveryChannelAsync(cancellationToken).ConfigureAwait(false);
            }
        }
    }

    internal readonly record struct ExchangeRecord(string Type, bool Durable, bool AutoDelete, bool Internal, FieldTable Arguments);

    internal readonly record struct QueueRecord(bool Durable, bool Exclusive, bool AutoDelete, FieldTable Arguments, bool ServerNamed);

    internal readonly record struct BindingRecord(bool ToExchange, string Destination, string Source, string RoutingKey, FieldTable Arguments)
    {
        public bool SameAs(BindingRecord other) =>
            ToExchange == other.ToExchange && Destination == other.Destination && Source == other.Source && RoutingKey == other.RoutingKey
            && Arguments.Span.SequenceEqual(other.Arguments.Span);
    }
}
