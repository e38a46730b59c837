using System.Threading.RateLimiting;
using System.Threading.Tasks.Sources;

namespace Spanwire.Amqp.Client;

/// <summary>
/// Publisher confirms for one channel. Sequence numbers are handed out in publish order; the broker's acks and nacks
/// (single or multiple) resolve them. Outstanding publishes live in a ring that grows by doubling, and per-publish
/// waiters are pooled, so a warmed-up channel tracks confirms without allocating. A publish may hold a lease of the
/// channel's limiter on publishes awaiting confirms, given back when its confirm comes; a mandatory publish the broker
/// returns faults its waiter with the return.
/// </summary>
internal sealed class ConfirmTracker
{
    private const byte Pending = 0;
    private const byte Acked = 1;
    private const byte Nacked = 2;
    private const byte Returned = 3; // its waiter already faulted with the return; the ack that follows settles it

    private readonly Lock _lock = new();
    private readonly bool _asynchronousContinuations;
    private readonly Stack<Waiter> _spare = new();
    private readonly List<(ulong Target, TaskCompletionSource Done)> _batchWaiters = [];

    // Only the read loop resolves confirms, so one reused list carries the waiters to complete outside the lock.
    private readonly List<(Waiter Waiter, bool Ack, ulong Sequence)> _completions = [];
    private readonly List<RateLimitLease> _freedLeases = [];
    private byte[] _state = new byte[1024];
    private Waiter?[] _waiters = new Waiter?[1024];
    private RateLimitLease?[]? _leases; // made with the first lease: channels without a limiter carry none
    private ulong _low = 1;   // lowest unresolved sequence number
    private ulong _next = 1;  // next to hand out
    private long _nackedSinceWait;
    private Exception? _failure;

    private readonly AmqpConnection _connection;
    private long[]? _started; // Stopwatch timestamps of publishes, made once the duration histogram is listened to

    /// <param name="connection">The connection: whether awaiting code may resume on the reader thread, and the endpoint for the metrics.</param>
    public ConfirmTracker(AmqpConnection connection)
    {
        _connection = connection;
        _asynchronousContinuations = !connection.AllowSynchronousContinuations;
    }

    /// <summary>Publishes sent and not yet acked or nacked.</summary>
    public long Outstanding
    {
        get
        {
            lock (_lock)
            {
                return (long)(_next - _low);
            }
        }
    }

    /// <summary>The sequence number the next publish will get.</summary>
    public ulong NextSequenceNumber
    {
        get
        {
            lock (_lock)
            {
                return _next;
            }
        }
    }

    /// <summary>Hands out the next sequence number; call in publish order, under the output lock.</summary>
    /// <param name="wait">Whether the caller awaits this publish's confirm (<paramref name="confirmed"/>).</param>
    /// <param name="lease">A lease of the channel's limiter, held until the confirm comes; the tracker disposes it.</param>
    /// <param name="confirmed">Completes with the confirm when <paramref name="wait"/>.</param>
    public ulong Add(bool wait, RateLimitLease? lease, out ValueTask confirmed)
    {
        lock (_lock)
        {
            if (_failure is not null)
            {
                StoredFailure.Throw(_failure);
            }

            if (_next - _low >= (ulong)_state.Length)
            {
                Grow();
            }

            ulong seq = _next++;
            int index = (int)(seq & (ulong)(_state.Length - 1));
            _state[index] = Pending;
            if (AmqpTelemetry.ConfirmDuration.Enabled)
            {
                (_started ??= new long[_state.Length])[index] = System.Diagnostics.Stopwatch.GetTimestamp();
            }
            else if (_started is not null)
            {
                _started[index] = 0;
            }

            AmqpTelemetry.Unconfirmed.Add(1);
            Waiter? waiter = null;
            if (wait)
            {
                waiter = _spare.Count > 0 ? _spare.Pop() : new Waiter(this, _asynchronousContinuations);
                confirmed = waiter.Start();
            }
            else
            {
                confirmed = default;
            }

            _waiters[index] = waiter;
            if (lease is not null || _leases is not null)
            {
                (_leases ??= new RateLimitLease?[_state.Length])[index] = lease;
            }

            return seq;
        }
    }

    /// <summary>Takes back the last number handed out, when its publish could not be written.</summary>
    public void Undo(ulong seq)
    {
        lock (_lock)
        {
            if (seq == _next - 1)
            {
                _next--;
                AmqpTelemetry.Unconfirmed.Add(-1);
                int index = (int)(seq & (ulong)(_state.Length - 1));
                _waiters[index] = null;
                if (_leases is not null)
                {
                    _leases[index]?.Dispose();
                    _leases[index] = null;
                }
            }
        }
    }

    /// <summary>Applies basic.ack or basic.nack from the broker.</summary>
    public void Resolve(ulong tag, bool multiple, bool ack)
    {
        List<(Waiter Waiter, bool Ack, ulong Sequence)> completions = _completions;
        List<TaskCompletionSource>? batches = null;
        Exception? batchError = null;
        ulong from;
        long resolved = 0;
        lock (_lock)
        {
            if (tag >= _next)
            {
                return; // not ours (or already past); a broker bug we do not amplify
            }

            int mask = _state.Length - 1;
            from = multiple ? _low : tag;
            for (ulong seq = from; seq <= tag; seq++)
            {
                int index = (int)(seq & (ulong)mask);
                if (seq < _low || _state[index] is not (Pending or Returned))
                {
                    continue;
                }

                FreeLease(index);
                resolved++;
                if (_started is not null && _started[index] != 0)
                {
                    AmqpTelemetry.RecordConfirm(_connection.Endpoint, _started[index], ack);
                    _started[index] = 0;
                }

                if (_state[index] == Returned)
                {
                    _state[index] = Acked; // its waiter has its outcome already
                    continue;
                }

                _state[index] = ack ? Acked : Nacked;
                if (_waiters[index] is { } waiter)
                {
                    _waiters[index] = null;
                    completions.Add((waiter, ack, seq));
                }
                else if (!ack)
                {
                    _nackedSinceWait++; // reported by the next batch wait; an awaited publish reports its own
                }
            }

            while (_low < _next && _state[(int)(_low & (ulong)mask)] is not (Pending or Returned))
            {
                _low++;
            }

            for (int i = _batchWaiters.Count - 1; i >= 0; i--)
            {
                if (_low >= _batchWaiters[i].Target)
                {
                    (batches ??= []).Add(_batchWaiters[i].Done);
                    _batchWaiters.RemoveAt(i);
                }
            }

            if (batches is not null && _nackedSinceWait > 0)
            {
                batchError = new AmqpPublishNackedException(_nackedSinceWait);
                _nackedSinceWait = 0;
            }
        }

        if (AmqpTelemetry.Confirmed.Enabled || AmqpTelemetry.Nacked.Enabled)
        {
            CountResolved(from, tag, ack);
        }

        if (resolved > 0)
        {
            AmqpTelemetry.Unconfirmed.Add(-resolved);
        }

        foreach ((Waiter waiter, bool acked, ulong sequence) in completions)
        {
            waiter.Finish(acked ? null : new AmqpPublishNackedException(1) { PublishSequenceNumber = sequence });
        }

        completions.Clear();
        DisposeFreedLeases();

        if (batches is not null)
        {
            foreach (TaskCompletionSource done in batches)
            {
                if (batchError is null)
                {
                    done.TrySetResult();
                }
                else
                {
                    done.TrySetException(batchError);
                }
            }
        }
    }

    /// <summary>
    /// Applies basic.return for the awaited mandatory publish <paramref name="seq"/> (read from the header it was sent
    /// with): its waiter faults with the return now; the broker's ack, which follows, settles it.
    /// </summary>
    public void Return(ulong seq, AmqpReturnedMessage message)
    {
        Waiter? waiter;
        lock (_lock)
        {
            int index = (int)(seq & (ulong)(_state.Length - 1));
            if (seq < _low || seq >= _next || _state[index] != Pending || _waiters[index] is null)
            {
                return;
            }

            waiter = _waiters[index];
            _waiters[index] = null;
            _state[index] = Returned;
        }

        waiter!.Finish(new AmqpPublishReturnedException(seq, message));
    }

    /// <summary>Completes once every publish handed out so far is resolved; faults if any was nacked since the last wait.</summary>
    public Task WaitForAllAsync(CancellationToken cancellationToken)
    {
        lock (_lock)
        {
            if (_failure is not null)
            {
                return Task.FromException(_failure);
            }

            if (_low >= _next)
            {
                if (_nackedSinceWait > 0)
                {
                    long count = _nackedSinceWait;
                    _nackedSinceWait = 0;
                    return Task.FromException(new AmqpPublishNackedException(count));
                }

                return Task.CompletedTask;
            }

            var done = new TaskCompletionSource(_asynchronousContinuations ? TaskCreationOptions.RunContinuationsAsynchronously : TaskCreationOptions.None);
            _batchWaiters.Add((_next, done));
            return done.Task.WaitAsync(cancellationToken);
        }
    }

    /// <summary>Faults every waiter, and every later publish, with <paramref name="reason"/>.</summary>
    public void Fail(Exception reason)
    {
        List<Waiter> waiters = [];
        List<TaskCompletionSource> batches;
        lock (_lock)
        {
            if (_failure is null)
            {
                AmqpTelemetry.Unconfirmed.Add(-(long)(_next - _low)); // what the broker will never confirm now
            }

            _failure ??= reason;
            for (int i = 0; i < _waiters.Length; i++)
            {
                if (_waiters[i] is { } waiter)
                {
                    waiters.Add(waiter);
                    _waiters[i] = null;
                }
            }

            batches = [.. _batchWaiters.Select(b => b.Done)];
            _batchWaiters.Clear();
            for (int i = 0; _leases is not null && i < _leases.Length; i++)
            {
                FreeLease(i);
            }
        }

        DisposeFreedLeases();

        foreach (Waiter waiter in waiters)
        {
            waiter.Finish(reason);
        }

        foreach (TaskCompletionSource done in batches)
        {
            done.TrySetException(reason);
        }
    }

    // Under the lock: the lease is disposed once the lock is released, since disposing may run a waiting publisher.
    private void FreeLease(int index)
    {
        if (_leases?[index] is { } lease)
        {
            _leases[index] = null;
            _freedLeases.Add(lease);
        }
    }

    private void DisposeFreedLeases()
    {
        if (Volatile.Read(ref _leases) is null)
        {
            return;
        }

        RateLimitLease[] freed;
        lock (_lock)
        {
            if (_freedLeases.Count == 0)
            {
                return;
            }

            freed = [.. _freedLeases];
            _freedLeases.Clear();
        }

        foreach (RateLimitLease lease in freed)
        {
            lease.Dispose();
        }
    }

    // Approximate for a multiple ack that also covers publishes resolved earlier; exact for the usual in-order acks.
    private static void CountResolved(ulong from, ulong tag, bool ack)
    {
        long count = tag >= from ? (long)(tag - from + 1) : 1;
        (ack ? AmqpTelemetry.Confirmed : AmqpTelemetry.Nacked).Add(count);
    }

    private void Grow()
    {
        int oldSize = _state.Length;
        var state = new byte[oldSize * 2];
        var waiters = new Waiter?[oldSize * 2];
        RateLimitLease?[]? leases = _leases is null ? null : new RateLimitLease?[oldSize * 2];
        long[]? started = _started is null ? null : new long[oldSize * 2];
        for (ulong seq = _low; seq < _next; seq++)
        {
            int to = (int)(seq & (ulong)(state.Length - 1)), from = (int)(seq & (ulong)(oldSize - 1));
            state[to] = _state[from];
            waiters[to] = _waiters[from];
            if (leases is not null)
            {
                leases[to] = _leases![from];
            }

            if (started is not null)
            {
                started[to] = _started![from];
            }
        }

        _state = state;
        _waiters = waiters;
        _leases = leases;
        _started = started;
    }

    private void Return(Waiter waiter)
    {
        lock (_lock)
        {
            _spare.Push(waiter);
        }
    }

    /// <summary>A reusable completion for one publish's confirm; back to the pool once its result is read.</summary>
    private sealed class Waiter(ConfirmTracker owner, bool asynchronousContinuations) : IValueTaskSource
    {
        private ManualResetValueTaskSourceCore<bool> _core = new() { RunContinuationsAsynchronously = asynchronousContinuations };

        public ValueTask Start()
        {
            _core.Reset();
            return new ValueTask(this, _core.Version);
        }

        public void Finish(Exception? error)
        {
            if (error is null)
            {
                _core.SetResult(true);
            }
            else
            {
                _core.SetException(error);
            }
        }

        public void GetResult(short token)
        {
            try
            {
                _core.GetResult(token);
            }
            finally
            {
                owner.Return(this);
            }
        }

        public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
            _core.OnCompleted(continuation, state, token, flags);
    }
}
