using System.Threading.Tasks.Sources;

namespace Spanwire.Amqp.Client;

/// <summary>
/// A consumer's deliveries in arrival order: the reader thread writes, the consumer's loops read. A loop that finds
/// the queue empty waits on a <see cref="Waiter"/> of its own (reused, so a wait allocates nothing), and a delivery
/// wakes one waiting loop. Where the woken loop resumes is the <see cref="DeliveryDispatcher"/>'s choice: on the
/// dispatcher's thread when it is idle, on the thread pool otherwise, or (with synchronous continuations) inline.
/// </summary>
internal sealed class DeliveryQueue
{
    private readonly Lock _lock = new();
    private readonly Queue<AmqpDelivery> _items = new();
    private readonly List<Waiter> _waiting = [];
    private readonly DeliveryDispatcher? _dispatcher;
    private bool _completed;

    /// <param name="dispatcher">Where woken loops resume; null: inline, on the thread that writes.</param>
    public DeliveryQueue(DeliveryDispatcher? dispatcher) => _dispatcher = dispatcher;

    /// <summary>Adds a delivery and wakes one waiting loop; false once the queue is completed.</summary>
    public bool TryWrite(AmqpDelivery delivery)
    {
        Waiter? wake = null;
        lock (_lock)
        {
            if (_completed)
            {
                return false;
            }

            _items.Enqueue(delivery);
            if (_waiting.Count > 0)
            {
                wake = _waiting[^1];
                _waiting.RemoveAt(_waiting.Count - 1);
            }
        }

        Wake(wake);
        return true;
    }

    /// <summary>Takes the oldest delivery, if any.</summary>
    public bool TryRead(out AmqpDelivery delivery)
    {
        lock (_lock)
        {
            return _items.TryDequeue(out delivery!);
        }
    }

    /// <summary>Ends the queue: loops read what is left, then their waits return false. False if already completed.</summary>
    public bool TryComplete()
    {
        Waiter[] wake;
        lock (_lock)
        {
            if (_completed)
            {
                return false;
            }

            _completed = true;
            wake = [.. _waiting];
            _waiting.Clear();
        }

        foreach (Waiter waiter in wake)
        {
            Wake(waiter);
        }

        return true;
    }

    /// <summary>A wait handle for one reading loop; each loop makes its own once.</summary>
    public Waiter CreateWaiter() => new(this);

    private void Wake(Waiter? waiter)
    {
        if (waiter is null)
        {
            return;
        }

        if (_dispatcher is null)
        {
            waiter.Signal();
        }
        else
        {
            _dispatcher.Post(waiter);
        }
    }

    /// <summary>
    /// One reading loop's wait: <see cref="WaitToReadAsync"/> completes with true when a delivery may be read, false
    /// once the queue is completed and empty. One wait at a time per waiter.
    /// </summary>
    internal sealed class Waiter : IValueTaskSource<bool>, IThreadPoolWorkItem
    {
        private readonly DeliveryQueue _queue;
        private ManualResetValueTaskSourceCore<bool> _core; // continuations run where Signal is called
        private CancellationTokenRegistration _cancellation;
        private CancellationToken _token;

        public Waiter(DeliveryQueue queue) => _queue = queue;

        public ValueTask<bool> WaitToReadAsync(CancellationToken cancellationToken)
        {
            cancellationToken.ThrowIfCancellationRequested();
            DeliveryQueue queue = _queue;
            lock (queue._lock)
            {
                if (queue._items.Count > 0)
                {
                    return new ValueTask<bool>(true);
                }

                if (queue._completed)
                {
                    return new ValueTask<bool>(false);
                }

                _core.Reset();
                _token = cancellationToken;
                queue._waiting.Add(this);
            }

            if (cancellationToken.CanBeCanceled)
            {
                _cancellation = cancellationToken.UnsafeRegister(static state => ((Waiter)state!).Cancel(), this);
            }

            return new ValueTask<bool>(this, _core.Version);
        }

        /// <summary>Resumes the waiting loop on this thread: the dispatcher's, a pool thread, or the writer's.</summary>
        public void Signal()
        {
            bool readable;
            lock (_queue._lock)
            {
                readable = _queue._items.Count > 0 || !_queue._completed;
            }

            _core.SetResult(readable);
        }

        void IThreadPoolWorkItem.Execute() => Signal();

        public bool GetResult(short token)
        {
            _cancellation.Unregister(); // never waits, even when called from the cancellation's own callback
            _cancellation = default;
            return _core.GetResult(token);
        }

        public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
            _core.OnCompleted(continuation, state, token, flags);

        private void Cancel()
        {
            lock (_queue._lock)
            {
                if (!_queue._waiting.Remove(this))
                {
                    return; // already woken: the wake completes the wait
                }
            }

            _core.SetException(new OperationCanceledException(_token));
        }
    }
}
