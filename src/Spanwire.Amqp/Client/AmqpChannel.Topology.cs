using System.Buffers;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

public sealed partial class AmqpChannel
{
    /// <summary>Where declarations are recorded for recovery; recovery's own channel records nothing.</summary>
    private TopologyRecorder? Recorder => IsForRecovery ? null : _connection.Topology;

    /// <summary>Declares an exchange (exchange.declare); with <paramref name="passive"/>, only checks that it exists.</summary>
    /// <param name="exchange">The exchange's name; "" is the default exchange.</param>
    /// <param name="type">The exchange type: direct, fanout, topic, headers, or a plugin's.</param>
    /// <param name="durable">Whether it survives a broker restart.</param>
    /// <param name="autoDelete">Whether it is deleted when its last consumer (a queue) or binding (an exchange) goes.</param>
    /// <param name="internal">Whether only other exchanges may route to it.</param>
    /// <param name="arguments">Optional exchange arguments as an encoded table (alternate-exchange, ...); empty for none.</param>
    /// <param name="passive">Only check that it exists: a missing one closes the channel with 404.</param>
    /// <param name="noWait">Send the request without waiting for the broker to answer it (its nowait bit): an error still closes the channel, later.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has confirmed it.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public async Task ExchangeDeclareAsync(string exchange, string type, bool durable = false, bool autoDelete = false, bool @internal = false,
        FieldTable arguments = default, bool passive = false, bool noWait = false, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(exchange);
        ArgumentNullException.ThrowIfNull(type);
        await CallOrSendAsync(noWait, AmqpMethods.ExchangeDeclareOk, (o, ch) =>
        {
            AmqpMethodFrames.WriteExchangeDeclare(o, ch, exchange, type, passive, durable, autoDelete, @internal, noWait, arguments);
        }, cancellationToken).ConfigureAwait(false);
        if (!passive)
        {
            Recorder?.RecordExchange(exchange, new TopologyRecorder.ExchangeRecord(type, durable, autoDelete, @internal, arguments));
        }
    }

    /// <summary>Deletes an exchange (exchange.delete).</summary>
    /// <param name="exchange">The exchange's name; "" is the default exchange.</param>
    /// <param name="ifUnused">Delete it only if nothing uses it (no consumers for a queue, no bindings for an exchange).</param>
    /// <param name="noWait">Send the request without waiting for the broker to answer it (its nowait bit): an error still closes the channel, later.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has confirmed it.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public async Task ExchangeDeleteAsync(string exchange, bool ifUnused = false, bool noWait = false, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(exchange);
        await CallOrSendAsync(noWait, AmqpMethods.ExchangeDeleteOk, (o, ch) =>
        {
            AmqpMethodFrames.WriteExchangeDelete(o, ch, exchange, ifUnused, noWait);
        }, cancellationToken).ConfigureAwait(false);
        Recorder?.ForgetExchange(exchange);
    }

    /// <summary>Binds exchange <paramref name="destination"/> to exchange <paramref name="source"/> (exchange.bind).</summary>
    /// <param name="destination">The exchange that receives the messages.</param>
    /// <param name="source">The exchange the messages come from.</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="arguments">Optional binding arguments as an encoded table (for a headers exchange, the headers to match); empty for none.</param>
    /// <param name="noWait">Send the request without waiting for the broker to answer it (its nowait bit): an error still closes the channel, later.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has confirmed it.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public async Task ExchangeBindAsync(string destination, string source, string routingKey, FieldTable arguments = default,
        bool noWait = false, CancellationToken cancellationToken = default)
    {
        await ExchangeBinding(bind: true, destination, source, routingKey, arguments, noWait, cancellationToken)
            .ConfigureAwait(false);
        Recorder?.RecordBinding(new TopologyRecorder.BindingRecord(ToExchange: true, destination, source, routingKey, arguments));
    }

    /// <summary>Removes an exchange-to-exchange binding (exchange.unbind).</summary>
    /// <param name="destination">The exchange that receives the messages.</param>
    /// <param name="source">The exchange the messages come from.</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="arguments">Optional binding arguments as an encoded table (for a headers exchange, the headers to match); empty for none.</param>
    /// <param name="noWait">Send the request without waiting for the broker to answer it (its nowait bit): an error still closes the channel, later.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has confirmed it.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public async Task ExchangeUnbindAsync(string destination, string source, string routingKey, FieldTable arguments = default,
        bool noWait = false, CancellationToken cancellationToken = default)
    {
        await ExchangeBinding(bind: false, destination, source, routingKey, arguments, noWait, cancellationToken)
            .ConfigureAwait(false);
        Recorder?.ForgetBinding(new TopologyRecorder.BindingRecord(ToExchange: true, destination, source, routingKey, arguments));
    }

    /// <summary>Declares a queue (queue.declare); an empty name asks the broker to name it. With <paramref name="passive"/>, only checks that it exists.</summary>
    /// <param name="queue">The queue's name.</param>
    /// <param name="durable">Whether it survives a broker restart.</param>
    /// <param name="exclusive">Whether only this connection may use the queue, and it goes with the connection.</param>
    /// <param name="autoDelete">Whether it is deleted when its last consumer (a queue) or binding (an exchange) goes.</param>
    /// <param name="arguments">Optional arguments as an encoded table (x-queue-type, x-message-ttl, ...); empty for none.</param>
    /// <param name="passive">Only check that it exists: a missing one closes the channel with 404.</param>
    /// <param name="noWait">Send the request without waiting for the broker to answer it (its nowait bit): an error still closes the channel, later.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>The queue's name (the broker's choice when it was empty) and its message and consumer counts.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public async Task<AmqpQueueInfo> QueueDeclareAsync(string queue = "", bool durable = false, bool exclusive = false, bool autoDelete = false,
        FieldTable arguments = default, bool passive = false, bool noWait = false, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(queue);
        if (noWait && queue.Length == 0)
        {
            throw new ArgumentException("A server-named queue (an empty name) cannot be declared with noWait: the broker's reply is what names it.", nameof(queue));
        }

        AmqpQueueInfo info = await CallOrSendAsync(noWait, AmqpMethods.QueueDeclareOk, (o, ch) =>
        {
            AmqpMethodFrames.WriteQueueDeclare(o, ch, queue, passive, durable, exclusive, autoDelete, noWait, arguments);
        }, static (in AmqpMethodReader reply) =>
        {
            var ok = new QueueDeclareOkArguments(reply);
            return new AmqpQueueInfo(ok.Queue, ok.MessageCount, ok.ConsumerCount);
        }, new AmqpQueueInfo(queue, 0, 0), cancellationToken) // no reply with noWait: the name given, counts unknown
            .ConfigureAwait(false);
        if (!passive)
        {
            Recorder?.RecordQueue(info.Name, new TopologyRecorder.QueueRecord(durable, exclusive, autoDelete, arguments, ServerNamed: queue.Length == 0));
        }

        return info;
    }

    /// <summary>Binds a queue to an exchange (queue.bind).</summary>
    /// <param name="queue">The queue's name.</param>
    /// <param name="exchange">The exchange's name; "" is the default exchange.</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="arguments">Optional binding arguments as an encoded table (for a headers exchange, the headers to match); empty for none.</param>
    /// <param name="noWait">Send the request without waiting for the broker to answer it (its nowait bit): an error still closes the channel, later.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has confirmed it.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public async Task QueueBindAsync(string queue, string exchange, string routingKey, FieldTable arguments = default, bool noWait = false,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(queue);
        ArgumentNullException.ThrowIfNull(exchange);
        ArgumentNullException.ThrowIfNull(routingKey);
        await CallOrSendAsync(noWait, AmqpMethods.QueueBindOk, (o, ch) =>
        {
            AmqpMethodFrames.WriteQueueBind(o, ch, queue, exchange, routingKey, noWait, arguments);
        }, cancellationToken).ConfigureAwait(false);
        Recorder?.RecordBinding(new TopologyRecorder.BindingRecord(ToExchange: false, queue, exchange, routingKey, arguments));
    }

    /// <summary>Removes a queue binding (queue.unbind).</summary>
    /// <param name="queue">The queue's name.</param>
    /// <param name="exchange">The exchange's name; "" is the default exchange.</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="arguments">Optional binding arguments as an encoded table (for a headers exchange, the headers to match); empty for none.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has confirmed it.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public async Task QueueUnbindAsync(string queue, string exchange, string routingKey, FieldTable arguments = default, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(queue);
        ArgumentNullException.ThrowIfNull(exchange);
        ArgumentNullException.ThrowIfNull(routingKey);
        await CallAsync(AmqpMethods.QueueUnbindOk, (o, ch) =>
        {
            AmqpMethodFrames.WriteQueueUnbind(o, ch, queue, exchange, routingKey, arguments);
        }, null, cancellationToken).ConfigureAwait(false);
        Recorder?.ForgetBinding(new TopologyRecorder.BindingRecord(ToExchange: false, queue, exchange, routingKey, arguments));
    }

    /// <summary>Removes every ready message from a queue (queue.purge); returns how many.</summary>
    /// <param name="queue">The queue's name.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>How many messages were purged.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public async Task<uint> QueuePurgeAsync(string queue, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(queue);
        return await CallAsync(AmqpMethods.QueuePurgeOk, (o, ch) =>
        {
            AmqpMethodFrames.WriteQueuePurge(o, ch, queue, false);
        }, static (in AmqpMethodReader reply) => new QueuePurgeOkArguments(reply).MessageCount, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Deletes a queue (queue.delete); returns how many messages it held.</summary>
    /// <param name="queue">The queue's name.</param>
    /// <param name="ifUnused">Delete it only if nothing uses it (no consumers for a queue, no bindings for an exchange).</param>
    /// <param name="ifEmpty">Delete the queue only if it holds no messages.</param>
    /// <param name="noWait">Send the request without waiting for the broker to answer it (its nowait bit): an error still closes the channel, later.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>How many messages were deleted with the queue.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public async Task<uint> QueueDeleteAsync(string queue, bool ifUnused = false, bool ifEmpty = false, bool noWait = false,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(queue);
        uint count = await CallOrSendAsync(noWait, AmqpMethods.QueueDeleteOk, (o, ch) =>
        {
            AmqpMethodFrames.WriteQueueDelete(o, ch, queue, ifUnused, ifEmpty, noWait);
        }, static (in AmqpMethodReader reply) => new QueueDeleteOkArguments(reply).MessageCount, 0u, cancellationToken).ConfigureAwait(false);
        Recorder?.ForgetQueue(queue);
        return count; // 0 with noWait: the count is unknown
    }

    /// <summary>
    /// Limits unacknowledged deliveries (basic.qos), with the arguments in RabbitMQ.Client's order
    /// (<c>BasicQosAsync(prefetchSize, prefetchCount, global)</c>), so a call ported as is means the same.
    /// </summary>
    /// <param name="prefetchSize">The most unacknowledged body bytes; 0 for no limit (RabbitMQ refuses anything else
    /// with 540 not-implemented, closing the connection).</param>
    /// <param name="prefetchCount">The most unacknowledged deliveries; 0 for no limit.</param>
    /// <param name="global">RabbitMQ: false limits each new consumer on the channel, true the channel as a whole.</param>
    /// <param name="cancellationToken">Cancels waiting for basic.qos-ok.</param>
    /// <returns>A task that completes when the broker has applied the limit.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection closed.</exception>
    public async Task QosAsync(uint prefetchSize, ushort prefetchCount, bool global, CancellationToken cancellationToken = default)
    {
        await CallAsync(AmqpMethods.BasicQosOk, (o, ch) => WriteQos(o, ch, prefetchSize, prefetchCount, global), null, cancellationToken)
            .ConfigureAwait(false);
        _qos = (prefetchSize, prefetchCount, global); // what recovery restores
    }

    private static void WriteQos(IBufferWriter<byte> output, ushort channel, uint prefetchSize, ushort prefetchCount, bool global)
    {
        AmqpMethodFrames.WriteBasicQos(output, channel, prefetchSize, prefetchCount, global);
    }

    /// <summary>Limits unacknowledged deliveries to <paramref name="prefetchCount"/> for each new consumer on the channel (basic.qos, no size limit).</summary>
    /// <example>
    /// <code>
    /// await channel.QosAsync(prefetchCount: 500);
    /// </code>
    /// </example>
    /// <param name="prefetchCount">The most unacknowledged deliveries per consumer; 0 for no limit.</param>
    /// <param name="cancellationToken">Cancels waiting for basic.qos-ok.</param>
    /// <returns>A task that completes when the broker has applied the limit.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection closed.</exception>
    public Task QosAsync(ushort prefetchCount, CancellationToken cancellationToken = default) =>
        QosAsync(0, prefetchCount, global: false, cancellationToken);

    /// <summary>Puts the channel in transaction mode (tx.select).</summary>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has confirmed it.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public Task TxSelectAsync(CancellationToken cancellationToken = default) =>
        CallAsync(AmqpMethods.TxSelectOk, static (o, ch) => AmqpMethodFrames.WriteTxSelect(o, ch), null, cancellationToken);

    /// <summary>Commits the current transaction (tx.commit).</summary>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has confirmed it.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public Task TxCommitAsync(CancellationToken cancellationToken = default) =>
        CallAsync(AmqpMethods.TxCommitOk, static (o, ch) => AmqpMethodFrames.WriteTxCommit(o, ch), null, cancellationToken);

    /// <summary>Abandons the current transaction (tx.rollback).</summary>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has confirmed it.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public Task TxRollbackAsync(CancellationToken cancellationToken = default) =>
        CallAsync(AmqpMethods.TxRollbackOk, static (o, ch) => AmqpMethodFrames.WriteTxRollback(o, ch), null, cancellationToken);

    /// <summary>A request awaited for its reply, or with <paramref name="noWait"/> sent in its turn and not answered.</summary>
    private async Task CallOrSendAsync(bool noWait, AmqpMethod reply, MethodWriter write, CancellationToken cancellationToken)
    {
        if (noWait)
        {
            await SendAsync(reply, write, cancellationToken).ConfigureAwait(false);
        }
        else
        {
            await CallAsync(reply, write, null, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>As the other overload, with the reply parsed into the result; <paramref name="noReply"/> with <paramref name="noWait"/>.</summary>
    private async Task<T> CallOrSendAsync<T>(bool noWait, AmqpMethod reply, MethodWriter write, ReplyParser<T>? parse, T noReply, CancellationToken cancellationToken)
    {
        if (!noWait)
        {
            return await CallAsync(reply, write, parse, cancellationToken).ConfigureAwait(false);
        }

        await SendAsync(reply, write, cancellationToken).ConfigureAwait(false);
        return noReply;
    }

    private Task SendAsync(AmqpMethod method, MethodWriter write, CancellationToken cancellationToken)
    {
        ThrowIfClosed();
        return _rpc.SendAsync(Output, Number, write, method, cancellationToken);
    }

    private Task ExchangeBinding(bool bind, string destination, string source, string routingKey, FieldTable arguments,
        bool noWait, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(destination);
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(routingKey);
        return CallOrSendAsync(noWait, bind ? AmqpMethods.ExchangeBindOk : AmqpMethods.ExchangeUnbindOk, (o, ch) =>
        {
            if (bind)
            {
                AmqpMethodFrames.WriteExchangeBind(o, ch, destination, source, routingKey, noWait, arguments);
            }
            else
            {
                AmqpMethodFrames.WriteExchangeUnbind(o, ch, destination, source, routingKey, noWait, arguments);
            }
        }, cancellationToken);
    }
}
