namespace Spanwire.Amqp.Client;

/// <summary>
/// Where a consumer loop woken by a delivery resumes, when continuations may not run on the reader thread. A thread of
/// the connection's own takes one woken loop at a time while it is idle, and blocks on an event in between: waking it
/// costs one system call. The thread pool, which the dispatcher hands a loop to whenever its thread is busy, wakes a
/// worker too but then keeps it spinning for more work, which costs more CPU per delivery than the delivery itself
/// when deliveries arrive one by one. Application code that blocks the dispatcher's thread delays nobody: every loop
/// woken meanwhile goes to the pool.
/// </summary>
internal sealed class DeliveryDispatcher
{
    private readonly Lock _lock = new();
    private readonly ManualResetEventSlim _ready = new(false, spinCount: 0);
    private IThreadPoolWorkItem? _next; // at most one: a loop never waits behind another's application code
    private bool _busy;
    private bool _stopped;
    private Thread? _thread;

    /// <summary>Whether the dispatcher's thread has started and not yet ended.</summary>
    internal bool IsRunning => Volatile.Read(ref _thread) is { IsAlive: true };

    /// <summary>
    /// Resumes <paramref name="waiter"/> (a consumer loop woken by a delivery, or code awaiting a confirm) on the
    /// dispatcher's thread if it is idle, else on the thread pool.
    /// </summary>
    public void Post(IThreadPoolWorkItem waiter)
    {
        bool mine = false;
        lock (_lock)
        {
            if (!_busy && _next is null && !_stopped)
            {
                _next = waiter;
                _thread ??= Start();
                mine = true;
            }
        }

        if (mine)
        {
            _ready.Set();
        }
        else
        {
            ThreadPool.UnsafeQueueUserWorkItem(waiter, preferLocal: false);
        }
    }

    /// <summary>Ends the thread once it is idle; loops woken later resume on the thread pool.</summary>
    public void Stop()
    {
        lock (_lock)
        {
            _stopped = true;
        }

        _ready.Set();
    }

    private Thread Start()
    {
        var thread = new Thread(Run)
        {
            IsBackground = true,
            Name = "Spanwire AMQP dispatch",
        };
        thread.Start();
        return thread;
    }

    private void Run()
    {
        while (true)
        {
            _ready.Wait();
            _ready.Reset(); // before looking, so a post after the look sets it again
            IThreadPoolWorkItem? waiter;
            lock (_lock)
            {
                waiter = _next;
                _next = null;
                _busy = waiter is not null;
                if (waiter is null && _stopped)
                {
                    return;
                }
            }

            if (waiter is null)
            {
                continue;
            }

            waiter.Execute(); // runs the continuation here, until it waits again or awaits something else
            lock (_lock)
            {
                _busy = false;
                if (_stopped)
                {
                    return; // its wake may have been taken by the reset above
                }
            }
        }
    }
}
