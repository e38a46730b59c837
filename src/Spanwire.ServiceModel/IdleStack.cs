namespace Spanwire.ServiceModel;

/// <summary>Objects kept for reuse, up to a capacity, taken and given back from any thread: the encoder's reader and writer pools.</summary>
internal sealed class IdleStack<T>(int capacity)
    where T : class
{
    private readonly Stack<T> _idle = new();

    /// <summary>An idle object, or null when none is kept.</summary>
    public T? TryTake()
    {
        lock (_idle)
        {
            return _idle.TryPop(out T? item) ? item : null;
        }
    }

    /// <summary>Keeps <paramref name="item"/> for reuse, unless as many as the capacity are kept already.</summary>
    public void Return(T item)
    {
        lock (_idle)
        {
            if (_idle.Count < capacity)
            {
                _idle.Push(item);
            }
        }
    }
}
