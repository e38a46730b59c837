using System.Threading.Tasks.Sources;

namespace Spanwire.Amqp.Client;

/// <summary>
/// An auto-reset signal with one waiter, reusable without allocating: the writer loop waits on it and every frame
/// write sets it. Sets while nobody waits collapse into one.
/// </summary>
internal sealed class AsyncSignal : IValueTaskSource
{
    private readonly Lock _lock = new();
    private ManualResetValueTaskSourceCore<bool> _core = new() { RunContinuationsAsynchronously = true };
    private bool _set;
    private bool _waiting;

    public void Set()
    {
        lock (_lock)
        {
            if (_waiting)
            {
                _waiting = false;
                _core.SetResult(true);
            }
            else
            {
                _set = true;
            }
        }
    }

    public ValueTask WaitAsync()
    {
        lock (_lock)
        {
            if (_set)
            {
                _set = false;
                return default;
            }

            _core.Reset();
            _waiting = true;
            return new ValueTask(this, _core.Version);
        }
    }

    void IValueTaskSource.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}
