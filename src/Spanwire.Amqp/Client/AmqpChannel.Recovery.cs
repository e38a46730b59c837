using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

public sealed partial class AmqpChannel
{
    // Delivery tags restart at 1 on every link, but a channel's tags keep growing across recoveries: tags up to the
    // offset belonged to a lost link (acknowledging them now means nothing), later ones map back by subtracting it.
    private ulong _tagOffset;
    private ulong _lastTag;
    private (uint Size, ushort Count, bool Global)? _qos;

    private bool IsFromLostLink(ulong deliveryTag) => deliveryTag != 0 && deliveryTag <= Volatile.Read(ref _tagOffset);

    private ulong ToWireTag(ulong deliveryTag) => deliveryTag == 0 ? 0 : deliveryTag - Volatile.Read(ref _tagOffset);

    // Read loop only.
    private ulong FromWireTag(ulong wireTag)
    {
        ulong tag = wireTag + _tagOffset;
        Volatile.Write(ref _lastTag, tag);
        return tag;
    }

    /// <summary>
    /// The connection lost its link (or a recovery attempt lost its new one): calls waiting for a reply, publishes
    /// waiting for room and publishes waiting for confirms fault with <paramref name="reason"/>; consumers stay, to be
    /// registered again by <see cref="RecoverAsync"/>. The first reason is the one later callers see.
    /// </summary>
    internal void Suspend(Exception reason)
    {
        if (Volatile.Read(ref _closeReason) is not null)
        {
            return;
        }

        Interlocked.CompareExchange(ref _suspended, reason, null);
        Volatile.Write(ref _settleOutput, null);
        ForgetUnacked();
        _rpc.Fail(reason);
        FailParked(reason);
        _confirms?.Fail(new AmqpConnectionClosedException(0,
            "the connection was lost before the broker confirmed this publish; it may or may not have the message", innerException: reason));
    }

    /// <summary>
    /// Reopens the channel on the connection's new link, with its QoS, confirm mode and consumers, then resumes it. A
    /// consumer the broker refuses (its queue is gone) closes the channel on the broker's side: the channel is opened
    /// again and recovery goes on with the next consumer, the refused one left out (or tried once more if the
    /// application's <see cref="AmqpConnectionOptions.TopologyRecoveryFailed"/> handler asks).
    /// </summary>
    internal async Task RecoverAsync(CancellationToken cancellationToken)
    {
        if (Volatile.Read(ref _closeReason) is not null)
        {
            return;
        }

        try
        {
            await ReopenAsync(cancellationToken).ConfigureAwait(false);
            AmqpConsumer[] consumers;
            lock (_consumersLock)
            {
                consumers = [.. _consumers];
            }

            AmqpTopologyRecoveryFilter? filter = _connection.RecoveryFilter;
            foreach (AmqpConsumer consumer in consumers)
            {
                (bool autoAck, bool exclusive, FieldTable arguments) = consumer.Registration;
                var recorded = new AmqpRecordedConsumer(consumer, consumer.Queue, consumer.Tag, autoAck, exclusive, arguments);
                if (filter?.Consumers?.Invoke(recorded) == false)
                {
                    LeaveOut(consumer, new AmqpConnectionClosedException(0, "the consumer was not recovered: the topology recovery filter left it out"));
                    continue;
                }

                consumer.Registration = (autoAck, exclusive, await _connection.OnRecoveringConsumerAsync(consumer, arguments).ConfigureAwait(false));
                if (await TryRegisterAsync(consumer, cancellationToken).ConfigureAwait(false) is not { } refused)
                {
                    continue;
                }

                await ReopenAsync(cancellationToken).ConfigureAwait(false);
                if (await RetryRequestedAsync(recorded, refused, cancellationToken).ConfigureAwait(false)
                    && await TryRegisterAsync(consumer, cancellationToken).ConfigureAwait(false) is null)
                {
                    continue;
                }

                LeaveOut(consumer, refused);
                if (!IsOpenOnLink)
                {
                    await ReopenAsync(cancellationToken).ConfigureAwait(false);
                }
            }
        }
        catch (AmqpChannelClosedException ex)
        {
            // The broker refused the channel itself (its QoS, say): this channel ends, the connection's recovery goes on.
            Shutdown(ex);
            return;
        }

        Volatile.Write(ref _suspended, null);
    }

    /// <summary>Whether the channel is open on the current link (after open-ok, until the broker or the link closes it).</summary>
    private bool IsOpenOnLink => Volatile.Read(ref _settleOutput) is not null;

    /// <summary>Opens the channel on the current link with its QoS and confirm mode; delivery tags start again there.</summary>
    private async Task ReopenAsync(CancellationToken cancellationToken)
    {
        AbandonIncomingContent();
        Volatile.Write(ref _tagOffset, Volatile.Read(ref _lastTag));
        _rpc.Reset();
        await OpenAsync(cancellationToken).ConfigureAwait(false);
        if (_qos is { } qos)
        {
            await CallRawAsync(AmqpMethods.BasicQosOk, (o, ch) => WriteQos(o, ch, qos.Size, qos.Count, qos.Global), null, cancellationToken)
                .ConfigureAwait(false);
        }

        if (_confirms is not null)
        {
            var tracker = new ConfirmTracker(_connection) { Translate = _errorTranslator };
            await CallRawAsync(AmqpMethods.ConfirmSelectOk, static (o, ch) => WriteConfirmSelect(o, ch), (in AmqpMethodReader _) =>
            {
                _confirms = tracker; // publish numbers start again at 1 on the new link
            }, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Registers a consumer again; the broker's refusal (a channel error) is returned, anything else thrown.</summary>
    private async Task<AmqpChannelClosedException?> TryRegisterAsync(AmqpConsumer consumer, CancellationToken cancellationToken)
    {
        string before = consumer.Tag;
        (bool autoAck, bool exclusive, FieldTable arguments) = consumer.Registration;
        try
        {
            await CallRawAsync(AmqpMethods.BasicConsumeOk, (o, ch) => WriteConsume(o, ch, consumer.Queue, before, autoAck, exclusive, arguments),
                (in AmqpMethodReader reply) =>
                {
                    string tag = new BasicConsumeOkArguments(reply).ConsumerTag;
                    if (tag != before)
                    {
                        consumer.SetTag(tag); // on the read loop, before any delivery for the new tag
                    }
                }, cancellationToken).ConfigureAwait(false);
        }
        catch (AmqpChannelClosedException refused)
        {
            return refused;
        }

        if (consumer.Tag != before)
        {
            _connection.OnConsumerTagChanged(before, consumer.Tag);
        }

        return null;
    }

    private async Task<bool> RetryRequestedAsync(AmqpRecordedConsumer recorded, Exception refused, CancellationToken cancellationToken)
    {
        if (!_connection.HasRecoveryFailureHandler)
        {
            return false; // nobody to ask: no channel to open for it
        }

        AmqpChannel helper = await _connection.OpenRecoveryChannelAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            return await _connection.ShouldRetryAsync(recorded, refused, helper, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            await helper.CloseAsync(AmqpReplyCode.Success, "Goodbye", abort: true, cancellationToken).ConfigureAwait(false);
        }
    }

    private void LeaveOut(AmqpConsumer consumer, Exception reason)
    {
        RemoveConsumer(consumer);
        consumer.Complete(reason);
    }

    /// <summary>Whether a consumer on this channel consumes from <paramref name="queue"/>.</summary>
    internal bool ConsumesFrom(string queue)
    {
        lock (_consumersLock)
        {
            return _consumers.Exists(c => c.Queue == queue);
        }
    }

    internal void RenameQueueInConsumers(string before, string after)
    {
        lock (_consumersLock)
        {
            foreach (AmqpConsumer consumer in _consumers)
            {
                if (consumer.Queue == before)
                {
                    consumer.Queue = after;
                }
            }
        }
    }
}
