using System.Threading.Tasks.Sources;

namespace Spanwire.Amqp.Client;

/// <summary>
/// Publisher confirms for one channel. Sequence numbers are handed out in publish order; the broker's acks and nacks
/// (single or multiple) resolve them. Outstanding publishes live in a ring that grows by doubling, and per-publish
/// waiters are pooled, so a warmed-up channel tracks confirms without allocating.
/// </summary>
internal sealed class ConfirmTracker
{
    private const byte Pending = 0;
    private const byte Acked = 1;
    private const byte Nacked = 2;

    private readonly Lock _lock = new();
    private readonly bool _asynchronousContinuations;
    private readonly Stack<Waiter> _spare = new();
    private readonly List<(ulong Target, TaskCompletionSource Done)> _batchWaiters = [];

    // Only the read loop resolves confirms, so one reused list carries the waiters to complete outside the lock.
    private readonly List<(Waiter Waiter, bool Ack)> _completions = [];
    private byte[] _state = new byte[1024];
    private Waiter?[] _waiters = new Waiter?[1024];
    private ulong _low = 1;   // lowest unresolved sequence number
    private ulong _next = 1;  // next to hand out
    private long _nackedSinceWait;
    private Exception? _failure;

    /// <param name="synchronousContinuations">Whether awaiting code may resume on the thread that resolves the confirm (the reader).</param>
    public ConfirmTracker(bool synchronousContinuations) => _asynchronousContinuations = !synchronousContinuations;

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

    /// <summary>Hands out the next sequence number; call in publish order, under the output lock.</summary>
    public ulong Add(bool wait, out ValueTask confirmed)
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
                _waiters[(int)(seq & (ulong)(_state.Length - 1))] = null;
            }
        }
    }

    /// <summary>Applies basic.ack or basic.nack from the broker.</summary>
    public void Resolve(ulong tag, bool multiple, bool ack)
    {
        List<(Waiter Waiter, bool Ack)> completions = _completions;
        List<TaskCompletionSource>? batches = null;
        Exception? batchError = null;
        ulong from;
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
                if (seq < _low || _state[index] != Pending)
                {
                    continue;
                }

                _state[index] = ack ? Acked : Nacked;
                if (_waiters[index] is { } waiter)
                {
                    _waiters[index] = null;
                    completions.Add((waiter, ack));
                }
                else if (!ack)
                {
                    _nackedSinceWait++; // reported by the next batch wait; an awaited publish reports its own
                }
            }

            while (_low < _next && _state[(int)(_low & (ulong)mask)] != Pending)
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

        foreach ((Waiter waiter, bool acked) in completions)
        {
            waiter.Finish(acked ? null : new AmqpPublishNackedException(1));
        }

        completions.Clear();

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
        }

        foreach (Waiter waiter in waiters)
        {
            waiter.Finish(reason);
        }

        foreach (TaskCompletionSource done in batches)
        {
            done.TrySetException(reason);
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
        for (ulong seq = _low; seq < _next; seq++)
        {
            state[(int)(seq & (ulong)(state.Length - 1))] = _state[(int)(seq & (ulong)(oldSize - 1))];
            waiters[(int)(seq & (ulong)(state.Length - 1))] = _waiters[(int)(seq & (ulong)(oldSize - 1))];
        }

        _state = state;
        _waiters = waiters;
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
