using System.Buffers;
using System.Buffers.Binary;
using System.Threading.RateLimiting;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

public sealed partial class AmqpChannel
{
    /// <summary>
    /// The header an awaited mandatory publish carries its sequence number in, so that a return can be matched to its
    /// publish (the name RabbitMQ.Client uses for the same purpose).
    /// </summary>
    public const string PublishSequenceNumberHeader = "x-dotnet-pub-seq-no";

    private static readonly byte[] s_sequenceHeaderName = System.Text.Encoding.ASCII.GetBytes(PublishSequenceNumberHeader);

    private ConfirmTracker? _confirms;
    private RateLimiter? _confirmLimiter;
    private byte[] _headerScratch = []; // the properties' headers with the sequence number added; under the output lock

    /// <summary>
    /// Raised for each basic.ack the broker sends in confirm mode, on the connection's read loop (keep it short): for
    /// code that tracks confirms by sequence number itself (<see cref="NextPublishSequenceNumber"/>).
    /// </summary>
    public event EventHandler<AmqpConfirm>? Acked;

    /// <summary>Raised for each basic.nack the broker sends in confirm mode, on the connection's read loop.</summary>
    public event EventHandler<AmqpConfirm>? Nacked;

    /// <summary>
    /// The sequence number the next publish on this channel gets in confirm mode (1 after confirms are turned on, and
    /// again after each recovery, as the broker counts); 0 when confirms are off. Read it under the same lock as the
    /// publish when several threads publish on the channel.
    /// </summary>
    public ulong NextPublishSequenceNumber => _confirms?.NextSequenceNumber ?? 0;

    /// <summary>
    /// Raised for a mandatory publish the broker could not route (basic.return). Runs on the connection's read loop:
    /// keep it short.
    /// </summary>
    public event EventHandler<AmqpReturnedMessage>? Returned;

    /// <summary>Whether publisher confirms are on (<see cref="EnableConfirmsAsync(CancellationToken)"/>).</summary>
    public bool ConfirmsEnabled => _confirms is not null;

    /// <summary>Publishes sent in confirm mode and not yet acked or nacked.</summary>
    public long UnconfirmedCount => _confirms?.Outstanding ?? 0;

    /// <summary>Puts the channel in confirm mode (confirm.select): every publish from now on is acked or nacked by the broker.</summary>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when confirm mode is on.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public Task EnableConfirmsAsync(CancellationToken cancellationToken = default) => EnableConfirmsAsync(null, cancellationToken);

    /// <summary>
    /// Puts the channel in confirm mode (confirm.select), with a bound on publishes awaiting their confirm: each
    /// publish takes a lease of <paramref name="outstandingLimit"/> before it is sent (waiting, cancellably, while
    /// none is free) and gives it back when the broker acks or nacks it, or the channel fails.
    /// </summary>
    /// <param name="outstandingLimit">
    /// The limiter, typically a <see cref="ConcurrencyLimiter"/> with the number of publishes that may await confirms
    /// at once; null for no bound. The channel does not dispose it.
    /// </param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when confirm mode is on.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    /// <example>
    /// <code>
    /// // At most 256 publishes in flight; the 257th waits for a confirm.
    /// await channel.EnableConfirmsAsync(new ConcurrencyLimiter(new ConcurrencyLimiterOptions { PermitLimit = 256, QueueLimit = int.MaxValue }));
    /// </code>
    /// </example>
    public async Task EnableConfirmsAsync(RateLimiter? outstandingLimit, CancellationToken cancellationToken = default)
    {
        if (_confirms is not null)
        {
            _confirmLimiter = outstandingLimit;
            return;
        }

        _confirmLimiter = outstandingLimit;
        var tracker = new ConfirmTracker(_connection) { Translate = _errorTranslator };
        await CallAsync(AmqpMethods.ConfirmSelectOk, static (o, ch) => WriteConfirmSelect(o, ch), (in AmqpMethodReader _) =>
        {
            // Set on the read loop, so no ack can arrive before the tracker exists.
            _confirms = tracker;
        }, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// Publishes a message. Completes once the frames are queued for the socket (at once, unless the connection is
    /// congested). In confirm mode the publish is tracked: wait for it with <see cref="WaitForConfirmsAsync"/>, or use
    /// <see cref="PublishConfirmedAsync(string, string, in BasicProperties, ReadOnlyMemory{byte}, bool, CancellationToken)"/> to await each one.
    /// </summary>
    /// <remarks>
    /// Publishes on one channel reach the broker in the order of the calls, congested or not. When more than 1 MiB
    /// waits for the socket, a publish waits in line and its frames are written later: keep <paramref name="body"/>
    /// unchanged until the returned task completes. Cancelling takes a waiting publish out of the line; once its frames
    /// are written it is past cancelling.
    /// </remarks>
    /// <param name="exchange">The exchange; "" for the default exchange.</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="properties">The message properties.</param>
    /// <param name="body">The body; read when the frames are written (see remarks).</param>
    /// <param name="mandatory">Whether the broker returns the message (<see cref="Returned"/>) when no queue takes it.</param>
    /// <param name="cancellationToken">Cancels waiting for room under congestion.</param>
    /// <returns>A task that completes when the frames are queued for the socket.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed.</exception>
    /// <example>
    /// <code>
    /// var properties = new BasicProperties { ContentType = "application/json", DeliveryMode = 2 };
    /// await channel.PublishAsync("orders", "eu.new", properties, payload);
    /// </code>
    /// </example>
    public ValueTask PublishAsync(string exchange, string routingKey, in BasicProperties properties, ReadOnlyMemory<byte> body,
        bool mandatory = false, CancellationToken cancellationToken = default) =>
        Publish(exchange, routingKey, properties, null, body, mandatory, wait: false, cancellationToken);

    /// <summary>Publishes a message with no properties; see <see cref="PublishAsync(string, string, in BasicProperties, ReadOnlyMemory{byte}, bool, CancellationToken)"/>.</summary>
    /// <param name="exchange">The exchange's name; "" is the default exchange.</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="body">The message body.</param>
    /// <param name="cancellationToken">Cancels waiting for room under congestion.</param>
    /// <returns>A task that completes when the frames are queued for the socket.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    public ValueTask PublishAsync(string exchange, string routingKey, ReadOnlyMemory<byte> body, CancellationToken cancellationToken = default) =>
        Publish(exchange, routingKey, default, null, body, false, wait: false, cancellationToken);

    /// <summary>
    /// Publishes a message with the exchange, routing key, properties and mandatory bit of <paramref name="template"/>,
    /// whose frames were encoded once: the cheapest way to send many messages to one place. Completes as
    /// <see cref="PublishAsync(string, string, in BasicProperties, ReadOnlyMemory{byte}, bool, CancellationToken)"/> does.
    /// </summary>
    /// <example>
    /// <code>
    /// var orders = new AmqpPublishTemplate("orders", "eu.new", new BasicProperties { DeliveryMode = 2 });
    /// foreach (ReadOnlyMemory&lt;byte&gt; payload in payloads)
    /// {
    ///     await channel.PublishAsync(orders, payload);
    /// }
    /// </code>
    /// </example>
    /// <param name="template">The pre-encoded exchange, routing key, properties and mandatory bit.</param>
    /// <param name="body">The message body.</param>
    /// <param name="cancellationToken">Cancels waiting for room under congestion.</param>
    /// <returns>A task that completes when the frames are queued for the socket.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    public ValueTask PublishAsync(AmqpPublishTemplate template, ReadOnlyMemory<byte> body, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(template);
        return Publish(template.Exchange, template.RoutingKey, default, template, body, template.Mandatory, wait: false, cancellationToken);
    }

    /// <summary>
    /// Publishes a message from <paramref name="template"/> in confirm mode and completes when the broker acks it; see
    /// <see cref="PublishConfirmedAsync(string, string, in BasicProperties, ReadOnlyMemory{byte}, bool, CancellationToken)"/>.
    /// </summary>
    /// <exception cref="InvalidOperationException">Confirm mode is off.</exception>
    /// <param name="template">The pre-encoded exchange, routing key, properties and mandatory bit.</param>
    /// <param name="body">The message body.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker acks the message.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    public ValueTask PublishConfirmedAsync(AmqpPublishTemplate template, ReadOnlyMemory<byte> body, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(template);
        ThrowIfConfirmsOff();
        return Publish(template.Exchange, template.RoutingKey, default, template, body, template.Mandatory, wait: true, cancellationToken);
    }

    /// <summary>
    /// Publishes a message in confirm mode and completes when the broker acks it; throws
    /// <see cref="AmqpPublishNackedException"/> when it nacks it. Many may be in flight at once, and reach the broker
    /// in the order of the calls.
    /// </summary>
    /// <remarks>
    /// Keep <paramref name="body"/> unchanged until the returned task completes (under congestion the frames are
    /// written later). If the connection is lost before the ack, the task faults with <see cref="AmqpClosedException"/>:
    /// the broker may or may not have taken the message, so a retry can duplicate it (at-least-once).
    /// </remarks>
    /// <param name="exchange">The exchange; "" for the default exchange.</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="properties">The message properties.</param>
    /// <param name="body">The body.</param>
    /// <param name="mandatory">Whether the broker returns the message (<see cref="Returned"/>) when no queue takes it.</param>
    /// <param name="cancellationToken">Cancels waiting for room under congestion; not waiting for the ack once sent.</param>
    /// <returns>A task that completes when the broker acks the message.</returns>
    /// <exception cref="InvalidOperationException">Confirm mode is off.</exception>
    /// <exception cref="AmqpPublishNackedException">The broker nacked the message.</exception>
    /// <exception cref="AmqpClosedException">The channel or connection closed before the ack.</exception>
    public ValueTask PublishConfirmedAsync(string exchange, string routingKey, in BasicProperties properties, ReadOnlyMemory<byte> body,
        bool mandatory = false, CancellationToken cancellationToken = default)
    {
        ThrowIfConfirmsOff();
        return Publish(exchange, routingKey, properties, null, body, mandatory, wait: true, cancellationToken);
    }

    /// <summary>
    /// Completes when every publish so far on this channel is confirmed; throws <see cref="AmqpPublishNackedException"/>
    /// if the broker nacked any since the last wait.
    /// </summary>
    /// <exception cref="InvalidOperationException">Confirm mode is off.</exception>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when every publish so far is confirmed.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    public Task WaitForConfirmsAsync(CancellationToken cancellationToken = default) =>
        (_confirms ?? throw new InvalidOperationException("Confirm mode is off on this channel: call EnableConfirmsAsync first."))
            .WaitForAllAsync(cancellationToken);

    private static void WriteConfirmSelect(IBufferWriter<byte> output, ushort channel)
    {
        AmqpMethodFrames.WriteConfirmSelect(output, channel, false);
    }

    private void ThrowIfConfirmsOff()
    {
        if (_confirms is null)
        {
            throw new InvalidOperationException("Confirm mode is off on this channel: call EnableConfirmsAsync first.");
        }
    }

    // With a template its encoded head is written, and exchange, routing key, properties and mandatory go unused.
    private ValueTask Publish(string exchange, string routingKey, in BasicProperties properties, AmqpPublishTemplate? template,
        ReadOnlyMemory<byte> body, bool mandatory, bool wait, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(exchange);
        ArgumentNullException.ThrowIfNull(routingKey);
        ThrowIfClosed();
        if (AmqpTelemetry.TracesPublishes)
        {
            return PublishTracedAsync(exchange, routingKey, template?.Properties ?? properties, body, mandatory, wait, cancellationToken);
        }

        if (_confirmLimiter is not null && _confirms is not null)
        {
            return PublishLimitedAsync(exchange, routingKey, properties, template, body, mandatory, wait, cancellationToken);
        }

        return PublishOrPark(exchange, routingKey, properties, template, body, mandatory, wait, null, cancellationToken);
    }

    // With a bound on publishes awaiting confirms: a lease first, handed to the tracker with the publish's number.
    private async ValueTask PublishLimitedAsync(string exchange, string routingKey, BasicProperties properties, AmqpPublishTemplate? template,
        ReadOnlyMemory<byte> body, bool mandatory, bool wait, CancellationToken cancellationToken)
    {
        RateLimitLease lease = await AcquireConfirmLeaseAsync(cancellationToken).ConfigureAwait(false);
        await PublishOrPark(exchange, routingKey, properties, template, body, mandatory, wait, lease, cancellationToken).ConfigureAwait(false);
    }

    private async ValueTask<RateLimitLease> AcquireConfirmLeaseAsync(CancellationToken cancellationToken)
    {
        RateLimiter limiter = _confirmLimiter!;
        RateLimitLease lease = limiter.AttemptAcquire(1);
        if (!lease.IsAcquired)
        {
            lease.Dispose();
            lease = await limiter.AcquireAsync(1, cancellationToken).ConfigureAwait(false);
            if (!lease.IsAcquired)
            {
                lease.Dispose();
                throw new InvalidOperationException("The limiter on publishes awaiting confirms refused a lease (its queue is full).");
            }
        }

        return lease;
    }

    // Straight out, unless publishes already wait on this channel or the connection is congested: then in line.
    // The lease goes with the publish: the parked publish, or PublishNow, disposes it when the publish ends.
    private ValueTask PublishOrPark(string exchange, string routingKey, in BasicProperties properties, AmqpPublishTemplate? template,
        ReadOnlyMemory<byte> body, bool mandatory, bool wait, RateLimitLease? lease, CancellationToken cancellationToken) =>
        Volatile.Read(ref _parkedCount) != 0 || Output.IsCongested
            ? Park(exchange, routingKey, properties, template, body, mandatory, wait, lease, cancellationToken)
            : PublishNow(exchange, routingKey, properties, template, body, mandatory, wait, lease);

    // Only with a listener: the span's trace context goes into the headers, so the properties are encoded per message.
    private async ValueTask PublishTracedAsync(string exchange, string routingKey, BasicProperties properties, ReadOnlyMemory<byte> body,
        bool mandatory, bool wait, CancellationToken cancellationToken)
    {
        using System.Diagnostics.Activity? activity = AmqpTelemetry.StartPublish(_connection.Endpoint, exchange, routingKey, body.Length, ref properties);
        try
        {
            RateLimitLease? lease = _confirmLimiter is not null && _confirms is not null
                ? await AcquireConfirmLeaseAsync(cancellationToken).ConfigureAwait(false)
                : null;
            await PublishOrPark(exchange, routingKey, properties, null, body, mandatory, wait, lease, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            activity?.SetStatus(System.Diagnostics.ActivityStatusCode.Error, ex.Message);
            throw;
        }
    }

    private ValueTask PublishNow(string exchange, string routingKey, in BasicProperties properties, AmqpPublishTemplate? template,
        ReadOnlyMemory<byte> body, bool mandatory, bool wait, RateLimitLease? lease)
    {
        FrameOutput.Scope scope;
        try
        {
            scope = BeginFrames();
        }
        catch
        {
            lease?.Dispose(); // not sent: nothing else will give it back
            throw;
        }

        using (scope)
        {
            ValueTask confirmed = default;
            ConfirmTracker? confirms = _confirms;
            ulong seq = 0;
            if (confirms is null)
            {
                lease?.Dispose();
            }
            else
            {
                try
                {
                    seq = confirms.Add(wait, lease, out confirmed); // from here the tracker owns the lease (Undo gives it back)
                }
                catch
                {
                    lease?.Dispose();
                    throw;
                }
            }

            try
            {
                if (wait && seq != 0 && (template?.Mandatory ?? mandatory))
                {
                    // Awaited and mandatory: the number goes in a header, so a return finds its publish.
                    BasicProperties stamped = WithSequenceNumber(template?.Properties ?? properties, seq);
                    AmqpFrameWriter.WriteBasicPublish(scope.Writer, Number, exchange, routingKey, mandatory: true, false, stamped, body.Span, _connection.FrameMax);
                }
                else if (template is not null)
                {
                    AmqpFrameWriter.WriteBasicPublish(scope.Writer, Number, template, body.Span, _connection.FrameMax);
                }
                else
                {
                    AmqpFrameWriter.WriteBasicPublish(scope.Writer, Number, exchange, routingKey, mandatory, false, properties, body.Span, _connection.FrameMax);
                }
            }
            catch
            {
                if (seq != 0)
                {
                    confirms!.Undo(seq);
                }

                throw;
            }

            AmqpTelemetry.Published.Add(1);
            return confirmed;
        }
    }

    /// <summary>The properties with <see cref="PublishSequenceNumberHeader"/> added to their headers, in a buffer of the channel's.</summary>
    private BasicProperties WithSequenceNumber(BasicProperties properties, ulong seq)
    {
        ReadOnlySpan<byte> name = s_sequenceHeaderName;
        ReadOnlySpan<byte> existing = properties.Headers is { } headers ? headers.Span[4..] : default;
        int length = 4 + existing.Length + 1 + name.Length + 1 + 8;
        if (_headerScratch.Length < length)
        {
            _headerScratch = new byte[Math.Max(length, 256)];
        }

        Span<byte> table = _headerScratch.AsSpan(0, length);
        BinaryPrimitives.WriteInt32BigEndian(table, length - 4);
        existing.CopyTo(table[4..]);
        Span<byte> field = table[(4 + existing.Length)..];
        field[0] = (byte)name.Length;
        name.CopyTo(field[1..]);
        field[1 + name.Length] = (byte)'l';
        BinaryPrimitives.WriteInt64BigEndian(field[(2 + name.Length)..], (long)seq);
        properties.Headers = FieldTable.FromTrusted(_headerScratch.AsMemory(0, length));
        return properties;
    }

    /// <summary>A returned message that carries the sequence number of an awaited publish faults that publish.</summary>
    private void MatchReturnToPublish(AmqpReturnedMessage returned)
    {
        if (_confirms is { } confirms && returned.Properties.Headers is { } headers
            && headers.Reader.TryGetValue(PublishSequenceNumberHeader, out FieldValue value) && value.TryGetInteger(out long seq) && seq > 0)
        {
            confirms.Return((ulong)seq, returned);
        }
    }

    private void RaiseReturned(AmqpReturnedMessage message)
    {
        try
        {
            Returned?.Invoke(this, message);
        }
        catch (Exception)
        {
            // A throwing handler must not take the connection's read loop down with it.
        }
    }
}
