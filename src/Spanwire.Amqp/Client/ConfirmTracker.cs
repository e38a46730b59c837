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
    private readonly Stack<ResumeBatch> _spareBatches = new();
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

    /// <summary>What a failed awaited publish throws in place of Spanwire's exception (set by a drop-in layer), or null.</summary>
    internal Func<Exception, Exception>? Translate { get; set; }

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
                waiter = _spare.Count > 0 ? _spare.Pop() : new Waiter(this);
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

        // The leases of the confirmed publishes go back before anything resumes: code after a confirm can publish again.
        DisposeFreedLeases();

        // Every outcome first, then the code awaiting them, all of one ack together: a continuation that waits on another
        // confirm of the same ack finds it complete.
        ResumeBatch? resume = null;
        Waiter? single = null;
        foreach ((Waiter waiter, bool acked, ulong sequence) in completions)
        {
            if (!waiter.Complete(acked ? null : new AmqpPublishNackedException(1) { PublishSequenceNumber = sequence }))
            {
                continue;
            }

            if (single is null)
            {
                single = waiter;
            }
            else
            {
                resume ??= TakeBatch(single);
                resume.Ready.Add(waiter);
            }
        }

        completions.Clear();
        if (resume is not null)
        {
            Dispatch(resume);
        }
        else if (single is not null)
        {
            Dispatch(single);
        }


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

    /// <summary>Resumes awaiting code as the connection asks: inline on the reader thread, else on the dispatch thread while it is idle, else on the thread pool.</summary>
    private void Dispatch(IThreadPoolWorkItem resume)
    {
        if (!_asynchronousContinuations)
        {
            resume.Execute();
        }
        else if (_connection.Dispatcher is { } dispatcher)
        {
            dispatcher.Post(resume);
        }
        else
        {
            ThreadPool.UnsafeQueueUserWorkItem(resume, preferLocal: false);
        }
    }

    private ResumeBatch TakeBatch(Waiter first)
    {
        ResumeBatch batch;
        lock (_lock)
        {
            batch = _spareBatches.Count > 0 ? _spareBatches.Pop() : new ResumeBatch(this);
        }

        batch.Ready.Add(first);
        return batch;
    }

    private void Return(ResumeBatch batch)
    {
        lock (_lock)
        {
            _spareBatches.Push(batch);
        }
    }

    private void Return(Waiter waiter)
    {
        lock (_lock)
        {
            _spare.Push(waiter);
        }
    }

    /// <summary>
    /// A reusable completion for one publish's confirm; back to the pool once its result is read. Its outcome is set
    /// where the confirm is read; code awaiting it resumes elsewhere: on the connection's dispatch thread while that is
    /// idle, else on the thread pool (or on the reader thread with synchronous continuations). The outcome is set before
    /// any continuation runs, so a continuation that waits on another confirm of the same ack finds it complete.
    /// </summary>
    /// <summary>
    /// The code awaiting the confirms of one ack, resumed one after another on one thread instead of one thread-pool
    /// work item each. What is left when one has run for over a millisecond goes to the thread pool, so a continuation
    /// that blocks holds up the others for no longer than that.
    /// </summary>
    private sealed class ResumeBatch(ConfirmTracker owner) : IThreadPoolWorkItem
    {
        private static readonly long s_slice = System.Diagnostics.Stopwatch.Frequency / 1000;

        public List<Waiter> Ready { get; } = [];

        public void Execute()
        {
            long started = System.Diagnostics.Stopwatch.GetTimestamp();
            int i = 0;
            for (; i < Ready.Count && (i == 0 || System.Diagnostics.Stopwatch.GetTimestamp() - started < s_slice); i++)
            {
                ((IThreadPoolWorkItem)Ready[i]).Execute();
            }

            for (; i < Ready.Count; i++)
            {
                ThreadPool.UnsafeQueueUserWorkItem(Ready[i], preferLocal: false);
            }

            Ready.Clear();
            owner.Return(this);
        }
    }

    private sealed class Waiter(ConfirmTracker owner) : IValueTaskSource, IThreadPoolWorkItem
    {
        private static readonly Action<object?> s_completed = static _ => throw new InvalidOperationException("a confirm's continuation ran twice");
        private Action<object?>? _continuation; // null: pending with none; s_completed: the outcome is set
        private Action<object?>? _toRun;        // the continuation found waiting when the outcome was set
        private object? _state;
        private ExecutionContext? _context;
        private object? _scheduler;             // a SynchronizationContext or TaskScheduler the awaiter asked to resume on
        private Exception? _error;
        private short _version;

        public ValueTask Start()
        {
            _continuation = null;
            _toRun = null;
            _state = null;
            _context = null;
            _scheduler = null;
            _error = null;
            return new ValueTask(this, _version);
        }

        /// <summary>Sets the outcome, then resumes the code awaiting it, if any, as the connection asks.</summary>
        public void Finish(Exception? error)
        {
            if (Complete(error))
            {
                owner.Dispatch(this);
            }
        }

        /// <summary>Sets the outcome; true when code awaits it, to be resumed by <see cref="IThreadPoolWorkItem.Execute"/>.</summary>
        public bool Complete(Exception? error)
        {
            _error = error is not null && owner.Translate is { } translate ? translate(error) : error;
            Action<object?>? waiting = Interlocked.Exchange(ref _continuation, s_completed);
            if (waiting is null)
            {
                return false; // an awaiter that comes later finds the outcome set, and queues itself
            }

            _toRun = waiting;
            return true;
        }

        void IThreadPoolWorkItem.Execute() => Run();

        private void Run()
        {
            switch (_scheduler)
            {
                case SynchronizationContext sync:
                    sync.Post(static s => ((Waiter)s!).RunHere(), this);
                    break;
                case TaskScheduler scheduler:
                    new Task(static s => ((Waiter)s!).RunHere(), this, CancellationToken.None, TaskCreationOptions.DenyChildAttach).Start(scheduler);
                    break;
                default:
                    RunHere();
                    break;
            }
        }

        /// <summary>Runs the continuation on this thread, in the execution context it was awaited in, if it asked for that.</summary>
        private void RunHere()
        {
            if (_context is { } context)
            {
                ExecutionContext.Run(context, static s => ((Waiter)s!).RunContinuation(), this);
            }
            else
            {
                RunContinuation();
            }
        }

        private void RunContinuation() => _toRun!(_state);

        public ValueTaskSourceStatus GetStatus(short token)
        {
            Check(token);
            return !ReferenceEquals(Volatile.Read(ref _continuation), s_completed) ? ValueTaskSourceStatus.Pending
                : _error is null ? ValueTaskSourceStatus.Succeeded : ValueTaskSourceStatus.Faulted;
        }

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        {
            Check(token);
            if ((flags & ValueTaskSourceOnCompletedFlags.FlowExecutionContext) != 0)
            {
                _context = ExecutionContext.Capture();
            }

            if ((flags & ValueTaskSourceOnCompletedFlags.UseSchedulingContext) != 0)
            {
                _scheduler = SynchronizationContext.Current is { } sync && sync.GetType() != typeof(SynchronizationContext) ? sync
                    : TaskScheduler.Current != TaskScheduler.Default ? TaskScheduler.Current : null;
            }

            _state = state;
            if (Interlocked.CompareExchange(ref _continuation, continuation, null) is not null)
            {
                // The outcome was set meanwhile: resume on the thread pool, never inline in the awaiter's OnCompleted.
                _toRun = continuation;
                ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: true);
            }
        }

        public void GetResult(short token)
        {
            Check(token);
            Exception? error = _error;
            _version++;
            owner.Return(this);
            if (error is not null)
            {
                System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(error);
            }
        }

        private void Check(short token)
        {
            if (token != _version)
            {
                throw new InvalidOperationException("A confirm's ValueTask was awaited twice, or after its result was read.");
            }
        }
    }
}
