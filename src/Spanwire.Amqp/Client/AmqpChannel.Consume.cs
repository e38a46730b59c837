using System.Buffers;
using System.Text;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

public sealed partial class AmqpChannel
{
    private readonly List<AmqpConsumer> _consumers = [];
    private readonly Lock _consumersLock = new();

    // Content being received (read loop only): what it belongs to, its properties, its body so far.
    private ContentKind _contentKind;
    private AmqpDelivery? _incoming;
    private AmqpConsumer? _incomingConsumer;
    private RpcSlot.Pending<AmqpDelivery?>? _incomingGet;
    private (ushort Code, string Text, string Exchange, string RoutingKey) _incomingReturn;
    private BasicProperties _incomingProperties;
    private AmqpMessageBody? _incomingBody;
    private ulong _bodyRemaining;
    private RecentString _recentExchange;
    private RecentString _recentRoutingKey;
    private ulong _ackedThrough; // for the acked counter: the highest tag up to which every delivery is counted
    private long _unacked; // deliveries taken with manual acks and not yet settled, for the in-flight gauge
    private bool _getAutoAck; // the autoAck of the basic.get under way (the request slot allows one at a time)

    private enum ContentKind
    {
        None,
        Delivery,
        Get,
        Return,
    }

    /// <summary>
    /// Starts a consumer on <paramref name="queue"/>. Read its deliveries with <see cref="AmqpConsumer.ReadAllAsync"/>.
    /// With <paramref name="autoAck"/> false (the default), acknowledge each with <see cref="AckAsync"/>, and bound the
    /// deliveries in flight with <see cref="QosAsync(ushort, CancellationToken)"/>.
    /// </summary>
    /// <param name="queue">The queue's name.</param>
    /// <param name="autoAck">Whether the broker counts each delivery acknowledged as soon as it sends it.</param>
    /// <param name="consumerTag">The consumer's tag; empty lets the broker choose one.</param>
    /// <param name="exclusive">Whether this must be the queue's only consumer.</param>
    /// <param name="arguments">Optional consumer arguments as an encoded table (x-priority, x-stream-offset, ...); empty for none.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>The consumer, registered before the task completes: no delivery for it is missed.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public Task<AmqpConsumer> ConsumeAsync(string queue, bool autoAck = false, string consumerTag = "", bool exclusive = false,
        FieldTable arguments = default, CancellationToken cancellationToken = default) =>
        ConsumeCoreAsync(queue, autoAck, consumerTag, exclusive, arguments, cancellationToken);

    private async Task<AmqpConsumer> ConsumeCoreAsync(string queue, bool autoAck, string consumerTag, bool exclusive, FieldTable arguments,
        CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(queue);
        ArgumentNullException.ThrowIfNull(consumerTag);
        var consumer = new AmqpConsumer(this, queue, _connection.Dispatcher)
        {
            Registration = (autoAck, exclusive, arguments.Copy()), // recovery registers it again after the caller's buffer is reused
        };
        await CallAsync(AmqpMethods.BasicConsumeOk, (o, ch) => WriteConsume(o, ch, queue, consumerTag, autoAck, exclusive, arguments), (in AmqpMethodReader reply) =>
        {
            // Registered on the read loop, before any delivery for it can be read.
            consumer.SetTag(new BasicConsumeOkArguments(reply).ConsumerTag);
            lock (_consumersLock)
            {
                _consumers.Add(consumer);
            }
        }, cancellationToken).ConfigureAwait(false);
        return consumer;
    }

    private static void WriteConsume(IBufferWriter<byte> output, ushort channel, string queue, string consumerTag, bool autoAck, bool exclusive,
        FieldTable arguments)
    {
        AmqpMethodFrames.WriteBasicConsume(output, channel, queue, consumerTag, false, autoAck, exclusive, false, arguments);
    }

    /// <summary>
    /// Starts a consumer that calls <paramref name="handler"/> for each delivery, as many at once as
    /// <see cref="AmqpConnectionOptions.ConsumerDispatchConcurrency"/> says (one by default); each delivery is released
    /// when the handler returns. A handler that throws is reported through <see cref="CallbackException"/>, and the
    /// consumer goes on; to end it instead, use the overload with <see cref="AmqpConsumerOptions.StopOnHandlerException"/>.
    /// </summary>
    /// <param name="queue">The queue's name.</param>
    /// <param name="handler">Called for each delivery; the delivery is released when it returns.</param>
    /// <param name="autoAck">Whether the broker counts each delivery acknowledged as soon as it sends it.</param>
    /// <param name="consumerTag">The consumer's tag; empty lets the broker choose one.</param>
    /// <param name="exclusive">Whether this must be the queue's only consumer.</param>
    /// <param name="arguments">Optional consumer arguments as an encoded table (x-priority, x-stream-offset, ...); empty for none.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>The consumer, registered before the task completes: no delivery for it is missed.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public Task<AmqpConsumer> ConsumeAsync(string queue, Func<AmqpDelivery, CancellationToken, ValueTask> handler, bool autoAck = false,
        string consumerTag = "", bool exclusive = false, FieldTable arguments = default, CancellationToken cancellationToken = default) =>
        ConsumeAsync(queue, handler, new AmqpConsumerOptions
        {
            AutoAck = autoAck,
            ConsumerTag = consumerTag,
            Exclusive = exclusive,
            Arguments = arguments,
            DispatchConcurrency = _connection.ConsumerDispatchConcurrency,
        }, cancellationToken);

    /// <summary>
    /// Starts a consumer that calls <paramref name="handler"/> for each delivery, as <paramref name="options"/> says:
    /// several at once with <see cref="AmqpConsumerOptions.DispatchConcurrency"/>, and ending on a handler's exception
    /// with <see cref="AmqpConsumerOptions.StopOnHandlerException"/>.
    /// </summary>
    /// <param name="queue">The queue's name.</param>
    /// <param name="handler">Called for each delivery; the delivery is released when it returns.</param>
    /// <param name="options">How the consumer registers and runs its handler; read once, here.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>The consumer, registered before the task completes: no delivery for it is missed.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="ContinuationTimeout"/>.</exception>
    /// <example>
    /// <code>
    /// await channel.QosAsync(prefetchCount: 32);
    /// await channel.ConsumeAsync("images", async (delivery, ct) =>
    /// {
    ///     await ResizeAsync(delivery.Body, ct);
    ///     await channel.AckAsync(delivery.DeliveryTag);
    /// }, new AmqpConsumerOptions { DispatchConcurrency = 8 });
    /// </code>
    /// </example>
    public async Task<AmqpConsumer> ConsumeAsync(string queue, Func<AmqpDelivery, CancellationToken, ValueTask> handler, AmqpConsumerOptions options,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(handler);
        ArgumentNullException.ThrowIfNull(options);
        AmqpConsumer consumer = await ConsumeCoreAsync(queue, options.AutoAck, options.ConsumerTag, options.Exclusive, options.Arguments,
            cancellationToken).ConfigureAwait(false);
        consumer.StartHandler(handler, options.DispatchConcurrency, options.StopOnHandlerException);
        return consumer;
    }

    /// <summary>
    /// Raised when a consumer's handler throws (and the consumer goes on, unless
    /// <see cref="AmqpConsumerOptions.StopOnHandlerException"/>), on the handler's thread.
    /// </summary>
    public event EventHandler<AmqpCallbackExceptionEventArgs>? CallbackException;

    internal void RaiseCallbackException(Exception exception, AmqpConsumer consumer, ulong deliveryTag)
    {
        AmqpTelemetry.OnCallbackException(this, consumer, exception);
        var args = new AmqpCallbackExceptionEventArgs(exception, consumer, deliveryTag);
        try
        {
            CallbackException?.Invoke(this, args);
        }
        catch (Exception)
        {
            // A throwing handler of the event must not stop the consumer.
        }

        _connection.RaiseCallbackException(args);
    }

    /// <summary>Fetches one message (basic.get), or null when the queue is empty.</summary>
    /// <param name="queue">The queue's name.</param>
    /// <param name="autoAck">Whether the broker counts each delivery acknowledged as soon as it sends it.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>The message, or null when the queue is empty.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public async Task<AmqpDelivery?> GetAsync(string queue, bool autoAck = false, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(queue);
        AmqpDelivery? delivery = await CallAsync<AmqpDelivery?>(AmqpMethods.BasicGetOk, (o, ch) =>
        {
            _getAutoAck = autoAck; // in the request's turn: its get-ok is the next one
            AmqpMethodFrames.WriteBasicGet(o, ch, queue, autoAck);
        }, null, cancellationToken, AmqpMethods.BasicGetEmpty).ConfigureAwait(false);
        if (delivery is not null && AmqpTelemetry.TracesDeliveries)
        {
            AmqpTelemetry.StartDeliver(_connection.Endpoint, delivery, fetched: true)?.Dispose();
        }

        return delivery;
    }

    /// <summary>Acknowledges a delivery, or with <paramref name="multiple"/> every delivery up to it.</summary>
    /// <param name="deliveryTag">The delivery's tag (<see cref="AmqpDelivery.DeliveryTag"/>).</param>
    /// <param name="multiple">Whether every unacknowledged delivery up to the tag is covered.</param>
    /// <param name="cancellationToken">Not used: the frame is queued for the socket at once.</param>
    /// <returns>A completed task: the frame is queued for the socket.</returns>
    public ValueTask AckAsync(ulong deliveryTag, bool multiple = false, CancellationToken cancellationToken = default)
    {
        if (!TryBeginSettle(deliveryTag, out FrameOutput.Scope scope))
        {
            return default;
        }

        using (scope)
        {
            AmqpFrameWriter.WriteBasicAck(scope.Writer, Number, ToWireTag(deliveryTag), multiple);
        }

        CountSettled(deliveryTag, multiple, acked: true);
        return default;
    }

    /// <summary>Rejects a delivery, or with <paramref name="multiple"/> every delivery up to it (basic.nack); requeued unless <paramref name="requeue"/> is false.</summary>
    /// <param name="deliveryTag">The delivery's tag (<see cref="AmqpDelivery.DeliveryTag"/>).</param>
    /// <param name="multiple">Whether every unacknowledged delivery up to the tag is covered.</param>
    /// <param name="requeue">Whether the broker puts the messages back in the queue (otherwise they are dropped or dead-lettered).</param>
    /// <param name="cancellationToken">Not used: the frame is queued for the socket at once.</param>
    /// <returns>A completed task: the frame is queued for the socket.</returns>
    public ValueTask NackAsync(ulong deliveryTag, bool multiple = false, bool requeue = true, CancellationToken cancellationToken = default)
    {
        if (!TryBeginSettle(deliveryTag, out FrameOutput.Scope scope))
        {
            return default;
        }

        using (scope)
        {
            AmqpMethodFrames.WriteBasicNack(scope.Writer, Number, ToWireTag(deliveryTag), multiple, requeue);
        }

        CountSettled(deliveryTag, multiple, acked: false);
        return default;
    }

    /// <summary>Rejects one delivery (basic.reject); requeued unless <paramref name="requeue"/> is false.</summary>
    /// <param name="deliveryTag">The delivery's tag (<see cref="AmqpDelivery.DeliveryTag"/>).</param>
    /// <param name="requeue">Whether the broker puts the messages back in the queue (otherwise they are dropped or dead-lettered).</param>
    /// <param name="cancellationToken">Not used: the frame is queued for the socket at once.</param>
    /// <returns>A completed task: the frame is queued for the socket.</returns>
    public ValueTask RejectAsync(ulong deliveryTag, bool requeue = true, CancellationToken cancellationToken = default)
    {
        if (!TryBeginSettle(deliveryTag, out FrameOutput.Scope scope))
        {
            return default;
        }

        using (scope)
        {
            AmqpMethodFrames.WriteBasicReject(scope.Writer, Number, ToWireTag(deliveryTag), requeue);
        }

        CountSettled(deliveryTag, multiple: false, acked: false);
        return default;
    }

    /// <summary>
    /// Takes the output of the link the channel is open on, for an ack, nack or reject of <paramref name="deliveryTag"/>;
    /// false when there is nothing to settle because the delivery came on a link that is gone (the broker has put it
    /// back in its queue). Throws only when the channel is closed for good.
    /// </summary>
    private bool TryBeginSettle(ulong deliveryTag, out FrameOutput.Scope scope)
    {
        scope = default;
        if (Volatile.Read(ref _closeReason) is { } closed)
        {
            StoredFailure.Throw(closed);
        }

        if (IsFromLostLink(deliveryTag) || Volatile.Read(ref _settleOutput) is not { } output)
        {
            return false; // before the channel is open on the new link every delivery it has is from a lost one
        }

        if (output.TryBegin(out scope))
        {
            if (Volatile.Read(ref _closing) is { } closing)
            {
                scope.Dispose(); // this side has sent channel.close: nothing may follow it
                StoredFailure.Throw(closing);
            }

            return true;
        }

        // That link has just failed: with recovery its deliveries are settled by the broker requeueing them.
        if (Volatile.Read(ref _closeReason) is { } closedMeanwhile)
        {
            StoredFailure.Throw(closedMeanwhile);
        }

        if (!_connection.RecoversAutomatically)
        {
            StoredFailure.Throw(Volatile.Read(ref _suspended) ?? new AmqpConnectionClosedException(0, "the connection was lost"));
        }

        return false;
    }

    private void CountSettled(ulong deliveryTag, bool multiple, bool acked)
    {
        if (!AmqpTelemetry.Acked.Enabled && !AmqpTelemetry.Unacked.Enabled)
        {
            return;
        }

        // Exact for settles in delivery order, single or multiple; a multiple settle after out-of-order single ones may
        // count some deliveries twice.
        ulong through = Volatile.Read(ref _ackedThrough);
        long count = multiple ? (long)(deliveryTag > through ? deliveryTag - through : 0) : 1;
        if (acked)
        {
            AmqpTelemetry.Acked.Add(count);
        }

        long settled = Math.Min(count, Math.Max(0, Interlocked.Read(ref _unacked)));
        if (settled > 0)
        {
            Interlocked.Add(ref _unacked, -settled);
            AmqpTelemetry.Unacked.Add(-settled);
        }

        if (deliveryTag > through && (multiple || deliveryTag == through + 1))
        {
            Volatile.Write(ref _ackedThrough, deliveryTag);
        }
    }

    /// <summary>A delivery taken with manual acks: one more in flight.</summary>
    private void CountUnacked()
    {
        if (AmqpTelemetry.Unacked.Enabled)
        {
            Interlocked.Increment(ref _unacked);
            AmqpTelemetry.Unacked.Add(1);
        }
    }

    /// <summary>The link's deliveries went back to their queues with it: none of them is in flight any more.</summary>
    private void ForgetUnacked()
    {
        long left = Interlocked.Exchange(ref _unacked, 0);
        if (left > 0)
        {
            AmqpTelemetry.Unacked.Add(-left);
        }
    }

    internal async Task CancelConsumerAsync(AmqpConsumer consumer, CancellationToken cancellationToken)
    {
        string tag = consumer.Tag;
        await CallAsync(AmqpMethods.BasicCancelOk, (o, ch) =>
        {
            AmqpMethodFrames.WriteBasicCancel(o, ch, tag, false);
        }, (in AmqpMethodReader reply) =>
        {
            RemoveConsumer(consumer);
            consumer.Complete(null);
        }, cancellationToken).ConfigureAwait(false);
        if (!IsForRecovery)
        {
            _connection.Topology.ForgetIfAutoDeleted(consumer.Queue, _connection); // the broker deleted it with its last consumer
        }
    }

    /// <summary>
    /// basic.cancel for a tag with no consumer on this channel (one the broker already cancelled, or never had): the
    /// broker answers cancel-ok all the same, and RabbitMQ.Client's BasicCancelAsync waits for it.
    /// </summary>
    internal Task CancelUnknownConsumerAsync(string tag, CancellationToken cancellationToken) =>
        CallAsync(AmqpMethods.BasicCancelOk, (o, ch) => AmqpMethodFrames.WriteBasicCancel(o, ch, tag, false), null, cancellationToken);

    private void BeginDelivery(in AmqpMethodReader method)
    {
        var deliver = new BasicDeliverArguments(method);
        AmqpConsumer? consumer = FindConsumer(deliver.ConsumerTagBytes);
        _incomingConsumer = consumer;
        _incoming = new AmqpDelivery(consumer?.Tag ?? deliver.ConsumerTag, FromWireTag(deliver.DeliveryTag), deliver.Redelivered,
            _recentExchange.Get(deliver.ExchangeBytes), _recentRoutingKey.Get(deliver.RoutingKeyBytes), 0);
        _contentKind = ContentKind.Delivery;
    }

    private void BeginGetOk(in AmqpMethodReader method)
    {
        _incomingGet = _rpc.Match(method.Method) as RpcSlot.Pending<AmqpDelivery?>
            ?? throw new AmqpProtocolException(AmqpReplyCode.CommandInvalid, method.Offset, $"basic.get-ok on channel {Number} with no basic.get pending");
        var getOk = new BasicGetOkArguments(method);
        _incoming = new AmqpDelivery("", FromWireTag(getOk.DeliveryTag), getOk.Redelivered, _recentExchange.Get(getOk.ExchangeBytes),
            _recentRoutingKey.Get(getOk.RoutingKeyBytes), getOk.MessageCount);
        _contentKind = ContentKind.Get;
    }

    private void BeginReturn(in AmqpMethodReader method)
    {
        var returned = new BasicReturnArguments(method);
        _incomingReturn = (returned.ReplyCode, returned.ReplyText, returned.Exchange, returned.RoutingKey);
        _contentKind = ContentKind.Return;
    }

    private void HandleContentHeader(in AmqpContentHeader header)
    {
        if (_contentKind == ContentKind.None)
        {
            throw new AmqpProtocolException(AmqpReplyCode.UnexpectedFrame, header.Offset, $"a content header on channel {Number} with no content method before it");
        }

        if (header.BodySize > (ulong)_connection.MaxMessageSize)
        {
            throw new AmqpProtocolException(AmqpReplyCode.FrameError, header.Offset,
                $"a body of {header.BodySize} bytes on channel {Number}, over MaxMessageSize ({_connection.MaxMessageSize})");
        }

        _incomingProperties = header.Flags == 0 ? default : header.ToBasicProperties();
        _incomingBody = new AmqpMessageBody();
        _bodyRemaining = header.BodySize;
        if (_bodyRemaining == 0)
        {
            CompleteContent();
        }
    }

    private void HandleContentBody(in AmqpFrame frame)
    {
        // The decoder has checked that bodies follow a header and never exceed its body size.
        _incomingBody!.Append(frame.Payload);
        _bodyRemaining -= (ulong)frame.Payload.Length;
        if (_bodyRemaining == 0)
        {
            CompleteContent();
        }
    }

    private void CompleteContent()
    {
        AmqpMessageBody body = _incomingBody!;
        ContentKind kind = _contentKind;
        _incomingBody = null;
        _contentKind = ContentKind.None;
        switch (kind)
        {
            case ContentKind.Delivery:
            case ContentKind.Get:
                AmqpDelivery delivery = _incoming!;
                _incoming = null;
                delivery.Properties = _incomingProperties;
                delivery.SetBody(body);
                AmqpTelemetry.Delivered.Add(1);
                if (kind == ContentKind.Get)
                {
                    if (!_getAutoAck)
                    {
                        CountUnacked();
                    }

                    RpcSlot.Pending<AmqpDelivery?> pending = _incomingGet!;
                    _incomingGet = null;
                    _rpc.Complete(pending, delivery);
                }
                else if (_incomingConsumer is { } consumer)
                {
                    _incomingConsumer = null;
                    if (!consumer.Registration.AutoAck)
                    {
                        CountUnacked();
                    }

                    consumer.Enqueue(delivery);
                }
                else
                {
                    delivery.Dispose(); // its consumer was cancelled meanwhile
                }

                break;
            case ContentKind.Return:
                var returned = new AmqpReturnedMessage(_incomingReturn.Code, _incomingReturn.Text, _incomingReturn.Exchange,
                    _incomingReturn.RoutingKey, _incomingProperties, body.ToArray());
                body.Dispose();
                // The event first, as RabbitMQ.Client raises BasicReturn before the returned publish's task faults:
                // code awaiting the publish resumes on another thread, and must find its handlers already run.
                RaiseReturned(returned);
                MatchReturnToPublish(returned);
                break;
        }

        _incomingProperties = default;
    }

    private void AbandonIncomingContent()
    {
        _incomingBody?.Dispose();
        _incoming?.Dispose();
        _incomingBody = null;
        _incoming = null;
        _contentKind = ContentKind.None;
    }

    private void HandleBrokerCancel(in AmqpMethodReader method)
    {
        var cancel = new BasicCancelArguments(method);
        AmqpConsumer? consumer = FindConsumer(cancel.ConsumerTagBytes);
        if (consumer is not null)
        {
            RemoveConsumer(consumer);
            AmqpEventSource.Log.ConsumerCancelledByBroker(_connection.Endpoint.ToString(), Number, consumer.Tag);
            consumer.Complete(null, byBroker: true);
        }

        if (!cancel.NoWait)
        {
            string tag = cancel.ConsumerTag;
            WriteReply((o, ch) =>
            {
                AmqpMethodFrames.WriteBasicCancelOk(o, ch, tag);
            });
        }
    }

    private AmqpConsumer? FindConsumer(ReadOnlySpan<byte> tag)
    {
        lock (_consumersLock)
        {
            foreach (AmqpConsumer consumer in _consumers)
            {
                if (tag.SequenceEqual(consumer.TagUtf8))
                {
                    return consumer;
                }
            }
        }

        return null;
    }

    private void RemoveConsumer(AmqpConsumer consumer)
    {
        lock (_consumersLock)
        {
            _consumers.Remove(consumer);
        }
    }

    private AmqpConsumer[] TakeAllConsumers()
    {
        lock (_consumersLock)
        {
            AmqpConsumer[] all = [.. _consumers];
            _consumers.Clear();
            return all;
        }
    }

    /// <summary>The last string decoded for a name field, reused while the bytes repeat (they usually do).</summary>
    private struct RecentString
    {
        private byte[]? _bytes;
        private string? _text;

        public string Get(ReadOnlySpan<byte> bytes)
        {
            if (_text is not null && bytes.SequenceEqual(_bytes))
            {
                return _text;
            }

            _bytes = bytes.ToArray();
            _text = Encoding.UTF8.GetString(bytes);
            return _text;
        }
    }
}
