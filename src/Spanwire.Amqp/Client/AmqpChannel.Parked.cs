using System.Threading.RateLimiting;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

public sealed partial class AmqpChannel
{
    // Publishes that found the connection congested wait here, in call order, and one drain writes them in that order.
    // While any wait, later publishes on this channel queue behind them, so a call that finds room can never overtake
    // an earlier one (AMQP users rely on per-channel order).
    private readonly Queue<ParkedPublish> _parked = new();
    private readonly Lock _parkedLock = new();
    private readonly CancellationTokenSource _drainStop = new();
    private int _parkedCount;
    private bool _draining;
    private Task _drain = Task.CompletedTask; // the drain under way, owned by the channel and awaited when it closes

    private ValueTask Park(string exchange, string routingKey, in BasicProperties properties, AmqpPublishTemplate? template,
        ReadOnlyMemory<byte> body, bool mandatory, bool wait, RateLimitLease? lease, CancellationToken cancellationToken)
    {
        var parked = new ParkedPublish(exchange, routingKey, properties, template, body, mandatory, wait, lease);
        bool startDrain;
        lock (_parkedLock)
        {
            _parked.Enqueue(parked);
            Volatile.Write(ref _parkedCount, _parked.Count);
            startDrain = !_draining;
            _draining = true;
        }

        parked.WatchCancellation(cancellationToken);
        if (startDrain)
        {
            _drain = DrainParkedAsync();
        }

        return new ValueTask(parked.Completion.Task);
    }

    private async Task DrainParkedAsync()
    {
        while (true)
        {
            try
            {
                await Output.WaitForRoomAsync(FrameOutput.HighWater / 2, _drainStop.Token).ConfigureAwait(false);
                ThrowIfClosed();
            }
            catch (Exception ex)
            {
                FailParked(ex);
                return;
            }

            lock (_parkedLock)
            {
                while (_parked.Count > 0 && !Output.IsCongested)
                {
                    ParkedPublish next = _parked.Dequeue();
                    if (next.TryClaim())
                    {
                        next.Send(this);
                    }

                    Volatile.Write(ref _parkedCount, _parked.Count);
                }

                if (_parked.Count == 0)
                {
                    _draining = false;
                    return;
                }
            }
        }
    }

    /// <summary>Stops the drain (the channel has ended) and waits for it to finish.</summary>
    private async Task StopDrainAsync()
    {
        _drainStop.Cancel();
        await _drain.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
    }

    private void FailParked(Exception reason)
    {
        lock (_parkedLock)
        {
            while (_parked.TryDequeue(out ParkedPublish? parked))
            {
                if (parked.TryClaim())
                {
                    parked.ReleaseLease();
                    Exception copy = StoredFailure.Copy(reason);
                    parked.Completion.TrySetException(_errorTranslator is { } translate ? translate(copy) : copy);
                }
            }

            Volatile.Write(ref _parkedCount, 0);
            _draining = false;
        }
    }

    /// <summary>One publish waiting for room, with everything needed to write it later.</summary>
    private sealed class ParkedPublish(string exchange, string routingKey, BasicProperties properties, AmqpPublishTemplate? template,
        ReadOnlyMemory<byte> body, bool mandatory, bool wait, RateLimitLease? lease)
    {
        private const int Waiting = 0;
        private const int Claimed = 1;
        private int _state;
        private CancellationTokenRegistration _cancellation;

        public TaskCompletionSource Completion { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>Cancelling a parked publish takes it out of the line; once written it is past cancelling.</summary>
        public void WatchCancellation(CancellationToken cancellationToken)
        {
            if (cancellationToken.CanBeCanceled)
            {
                _cancellation = cancellationToken.UnsafeRegister(static (state, token) =>
                {
                    var parked = (ParkedPublish)state!;
                    if (parked.TryClaim())
                    {
                        parked.ReleaseLease();
                        parked.Completion.TrySetCanceled(token);
                    }
                }, this);
            }
        }

        public bool TryClaim()
        {
            if (Interlocked.Exchange(ref _state, Claimed) != Waiting)
            {
                return false;
            }

            _cancellation.Dispose();
            return true;
        }

        /// <summary>Gives back the limiter's lease of a publish that will not be sent.</summary>
        public void ReleaseLease() => lease?.Dispose();

        public void Send(AmqpChannel channel)
        {
            ValueTask confirmed;
            try
            {
                channel.ThrowIfClosed();
            }
            catch (Exception ex)
            {
                ReleaseLease();
                Completion.TrySetException(ex);
                return;
            }

            try
            {
                confirmed = channel.PublishNow(exchange, routingKey, properties, template, body, mandatory, wait, lease); // the tracker owns the lease now
            }
            catch (Exception ex)
            {
                Completion.TrySetException(ex);
                return;
            }

            if (confirmed.IsCompletedSuccessfully)
            {
                Completion.TrySetResult();
                return;
            }

            // The confirm completes this publish's task when it comes: a callback, not a task of its own.
            System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable.ConfiguredValueTaskAwaiter awaiter = confirmed.ConfigureAwait(false).GetAwaiter();
            awaiter.UnsafeOnCompleted(() =>
            {
                try
                {
                    awaiter.GetResult();
                    Completion.TrySetResult();
                }
                catch (Exception ex)
                {
                    Completion.TrySetException(ex);
                }
            });
        }
    }
}
