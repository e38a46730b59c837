using RabbitMQ.Client.Events;

namespace Spanwire.Amqp.DropIn;

/// <summary>
/// RabbitMQ.Client's asynchronous events, raised in the order they happened, one handler at a time, off the thread
/// that raised them (the connection's reader must not wait on an application's handler). The chain of raises is owned
/// here, and a close awaits it, so no handler runs unobserved after its connection is closed.
/// </summary>
internal sealed class AsyncEvents
{
    private readonly Lock _gate = new();
    private Task _tail = Task.CompletedTask;

    /// <summary>Raises the event after those raised before it; a handler that throws is reported to <paramref name="failed"/>.</summary>
    public void Raise<T>(AsyncEventHandler<T>? handler, object sender, T args, Action<Exception>? failed = null)
        where T : AsyncEventArgs
    {
        if (handler is null)
        {
            return;
        }

        lock (_gate)
        {
            _tail = RunAfter(_tail, handler, sender, args, failed);
        }
    }

    /// <summary>Runs a consumer's callback after the events raised before it; if it throws, <paramref name="failed"/> hears.</summary>
    public void Call(Func<Task> callback, Action<Exception> failed)
    {
        lock (_gate)
        {
            _tail = CallAfter(_tail, callback, failed);
        }
    }

    /// <summary>
    /// A handler added after its event happened, called at once with what the event said, as RabbitMQ.Client calls a
    /// shutdown handler added to what is already closed (inside the add: a synchronous throw reaches the caller). What
    /// it leaves running is awaited with the events, so a close waits for it; a later failure is not reported, as
    /// RabbitMQ.Client's add drops the task.
    /// </summary>
    public void CallLate<T>(AsyncEventHandler<T> handler, object sender, T args)
        where T : AsyncEventArgs
    {
        Task running = handler(sender, args);
        if (!running.IsCompletedSuccessfully)
        {
            Call(() => running, static _ => { });
        }
    }

    /// <summary>Adds <paramref name="value"/> to an event's handlers, as a field-like event's add does (safe from any thread).</summary>
    public static void Add<T>(ref AsyncEventHandler<T>? handlers, AsyncEventHandler<T>? value)
        where T : AsyncEventArgs => Change(ref handlers, value, add: true);

    /// <summary>Removes <paramref name="value"/> from an event's handlers, as a field-like event's remove does.</summary>
    public static void Remove<T>(ref AsyncEventHandler<T>? handlers, AsyncEventHandler<T>? value)
        where T : AsyncEventArgs => Change(ref handlers, value, add: false);

    private static void Change<T>(ref AsyncEventHandler<T>? handlers, AsyncEventHandler<T>? value, bool add)
        where T : AsyncEventArgs
    {
        AsyncEventHandler<T>? seen = Volatile.Read(ref handlers);
        while (true)
        {
            var changed = (AsyncEventHandler<T>?)(add ? Delegate.Combine(seen, value) : Delegate.Remove(seen, value));
            AsyncEventHandler<T>? before = Interlocked.CompareExchange(ref handlers, changed, seen);
            if (ReferenceEquals(before, seen))
            {
                return;
            }

            seen = before;
        }
    }

    /// <summary>Completes when every event raised so far has been handled.</summary>
    public Task DrainAsync()
    {
        lock (_gate)
        {
            return _tail;
        }
    }

    private static async Task CallAfter(Task before, Func<Task> callback, Action<Exception> failed)
    {
        await before.ConfigureAwait(false);
        await Task.Yield();
        try
        {
            await callback().ConfigureAwait(false);
        }
        catch (Exception e)
        {
            failed(e);
        }
    }

    private static async Task RunAfter<T>(Task before, AsyncEventHandler<T> handler, object sender, T args, Action<Exception>? failed)
        where T : AsyncEventArgs
    {
        await before.ConfigureAwait(false);
        await Task.Yield();
        foreach (AsyncEventHandler<T> one in handler.GetInvocationList().Cast<AsyncEventHandler<T>>())
        {
            try
            {
                await one(sender, args).ConfigureAwait(false);
            }
            catch (Exception e)
            {
                // As RabbitMQ.Client: a failing handler does not stop the others or the connection; it is reported
                // through the callback exception event (whose own handlers' failures go nowhere).
                failed?.Invoke(e);
            }
        }
    }
}
