using System.Buffers;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Client;

/// <summary>
/// The connection's single writer. Callers on any thread write whole frames into the pending batch under one lock
/// (<see cref="Begin"/>); one loop swaps the batch out and writes it to the socket segment by segment, one flush per
/// batch however many frames and channels it holds. Batches live in pooled segments, never on the large object heap.
/// The loop runs on a thread of its own and blocks on an event: waking it allocates nothing, where an async loop
/// woken through the thread pool costs a work item per batch.
/// </summary>
internal sealed class FrameOutput
{
    // Above this many pending bytes a publisher waits for the socket to catch up.
    internal const long HighWater = 1 << 20;

    private readonly Lock _lock = new();
    private readonly ManualResetEventSlim _ready = new(false, spinCount: 0);
    private PooledBufferWriter _pending;
    private PooledBufferWriter _sending;
    private TaskCompletionSource? _batchDone; // created only when someone waits, so batches allocate nothing
    private Exception? _failure;
    private bool _inFlight;
    private long _lastWriteTicks = Environment.TickCount64;
    private long _pendingBytes; // the pending batch's size as of the last scope or swap, readable after Release
    private Thread? _deferringThread; // while set, frames that thread writes wake the loop only at EndDeferral
    private bool _wakeDeferred;

    public FrameOutput(SegmentPool pool)
    {
        _pending = new PooledBufferWriter(pool);
        _sending = new PooledBufferWriter(pool);
    }

    /// <summary>Environment.TickCount64 when bytes last went to the socket.</summary>
    public long LastWriteTicks => Volatile.Read(ref _lastWriteTicks);

    /// <summary>Whether the pending batch is past <see cref="HighWater"/>; read without the lock, so approximate.</summary>
    public bool IsCongested => Volatile.Read(ref _pendingBytes) > HighWater;

    /// <summary>Takes the lock; write whole frames into <see cref="Scope.Writer"/>, then dispose the scope.</summary>
    public Scope Begin()
    {
        if (!TryBegin(out Scope scope))
        {
            StoredFailure.Throw(_failure!); // set once, never cleared
        }

        return scope;
    }

    /// <summary>Takes the lock as <see cref="Begin"/> does, or returns false once the output has failed.</summary>
    public bool TryBegin(out Scope scope)
    {
        _lock.Enter();
        if (_failure is not null)
        {
            _lock.Exit();
            scope = default;
            return false;
        }

        scope = new Scope(this);
        return true;
    }

    /// <summary>Waits until the pending batch is at or below <paramref name="threshold"/> bytes (0 with nothing in flight: all written).</summary>
    public async ValueTask WaitForRoomAsync(long threshold, CancellationToken cancellationToken)
    {
        while (true)
        {
            Task done;
            lock (_lock)
            {
                if (_failure is not null)
                {
                    StoredFailure.Throw(_failure);
                }

                if (_pending.WrittenCount <= threshold && (threshold > 0 || !_inFlight))
                {
                    return;
                }

                done = (_batchDone ??= NewBatchSignal()).Task;
            }

            await done.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Stops the loop; writers and waiters from now on see <paramref name="reason"/>.</summary>
    public void Fail(Exception reason)
    {
        TaskCompletionSource? done;
        lock (_lock)
        {
            _failure ??= reason;
            done = _batchDone;
            _batchDone = null;
        }

        done?.TrySetResult();
        _ready.Set();
    }

    /// <summary>The writer loop, for a dedicated thread: runs until <see cref="Fail"/> or a socket error, which it returns.</summary>
    public Exception Run(Stream stream)
    {
        try
        {
            while (true)
            {
                _ready.Wait();
                _ready.Reset(); // before looking at the batch, so a frame written after the look sets it again
                while (true)
                {
                    PooledBufferWriter batch;
                    lock (_lock)
                    {
                        if (_failure is not null)
                        {
                            return _failure;
                        }

                        if (_pending.WrittenCount == 0)
                        {
                            break;
                        }

                        batch = _pending;
                        _pending = _sending;
                        _sending = batch;
                        _inFlight = true;
                        Volatile.Write(ref _pendingBytes, 0);
                    }

                    foreach (ReadOnlyMemory<byte> segment in batch.WrittenSequence)
                    {
                        stream.Write(segment.Span);
                    }

                    Volatile.Write(ref _lastWriteTicks, Environment.TickCount64);
                    AmqpTelemetry.Bytes.Add(batch.WrittenCount, AmqpTelemetry.Transmit);
                    batch.Reset();
                    TaskCompletionSource? done;
                    lock (_lock)
                    {
                        _inFlight = false;
                        done = _batchDone;
                        _batchDone = null;
                    }

                    done?.TrySetResult();
                }
            }
        }
        catch (Exception ex)
        {
            // Publishers that come after this see it too: as a lost connection, not as the socket's own exception.
            Exception reason = AmqpConnectionClosedException.ForFailure(ex);
            Fail(reason);
            return reason;
        }
        finally
        {
            TaskCompletionSource? done;
            lock (_lock)
            {
                _failure ??= new ObjectDisposedException(nameof(FrameOutput));
                done = _batchDone;
                _batchDone = null;
            }

            done?.TrySetResult();
        }
    }

    /// <summary>
    /// From now until <see cref="EndDeferral"/>, frames the calling thread writes do not wake the loop one by one:
    /// the reader thread calls this around the frames of one socket read, so that acks and publishes written by code
    /// resuming there go out in one batch.
    /// </summary>
    public void BeginDeferral() => _deferringThread = Thread.CurrentThread;

    /// <summary>Ends <see cref="BeginDeferral"/>, waking the loop once if anything was written meanwhile.</summary>
    public void EndDeferral()
    {
        _deferringThread = null;
        if (_wakeDeferred)
        {
            _wakeDeferred = false;
            _ready.Set();
        }
    }

    /// <summary>Gives both batches' segments back to the pool; call once the loop has ended.</summary>
    public void Release()
    {
        lock (_lock)
        {
            _pending.Dispose();
            _sending.Dispose();
        }
    }

    private static TaskCompletionSource NewBatchSignal() => new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Holds the output lock while frames are written; disposing it releases the lock and wakes the loop.</summary>
    internal readonly ref struct Scope
    {
        private readonly FrameOutput _owner;

        internal Scope(FrameOutput owner) => _owner = owner;

        public IBufferWriter<byte> Writer => _owner._pending;

        public void Dispose()
        {
            FrameOutput owner = _owner;
            Volatile.Write(ref owner._pendingBytes, owner._pending.WrittenCount);
            owner._lock.Exit();
            if (owner._deferringThread is { } deferring && ReferenceEquals(deferring, Thread.CurrentThread))
            {
                owner._wakeDeferred = true;
            }
            else
            {
                owner._ready.Set();
            }
        }
    }
}
