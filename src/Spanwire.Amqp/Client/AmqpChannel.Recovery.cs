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

    /// <summary>Reopens the channel on the connection's new link, with its QoS, confirm mode and consumers, then resumes it.</summary>
    internal async Task RecoverAsync(CancellationToken cancellationToken)
    {
        if (Volatile.Read(ref _closeReason) is not null)
        {
            return;
        }

        AbandonIncomingContent();
        Volatile.Write(ref _tagOffset, Volatile.Read(ref _lastTag));
        _rpc.Reset();
        try
        {
            await OpenAsync(cancellationToken).ConfigureAwait(false);
            if (_qos is { } qos)
            {
                await CallRawAsync(AmqpMethods.BasicQosOk, (o, ch) => WriteQos(o, ch, qos.Size, qos.Count, qos.Global), null, cancellationToken)
                    .ConfigureAwait(false);
            }

            if (_confirms is not null)
            {
                var tracker = new ConfirmTracker(_connection);
                await CallRawAsync(AmqpMethods.ConfirmSelectOk, static (o, ch) => WriteConfirmSelect(o, ch), (in AmqpMethodReader _) =>
                {
                    _confirms = tracker; // publish numbers start again at 1 on the new link
                    return null;
                }, cancellationToken).ConfigureAwait(false);
            }

            AmqpConsumer[] consumers;
            lock (_consumersLock)
            {
                consumers = [.. _consumers];
            }

            foreach (AmqpConsumer consumer in consumers)
            {
                await CallRawAsync(AmqpMethods.BasicConsumeOk, (o, ch) => WriteConsume(o, ch, consumer.Queue, consumer.Tag,
                    consumer.Registration.AutoAck, consumer.Registration.Exclusive, consumer.Registration.Arguments), null, cancellationToken).ConfigureAwait(false);
            }
        }
        catch (AmqpChannelClosedException ex)
        {
            // The broker refused part of the channel's state (a consumer's queue is gone): this channel ends, the
            // connection's recovery goes on.
            Shutdown(ex);
            return;
        }

        Volatile.Write(ref _suspended, null);
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
