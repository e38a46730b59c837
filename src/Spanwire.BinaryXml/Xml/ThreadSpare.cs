namespace Spanwire.BinaryXml.Xml;

/// <summary>
/// One spare instance per thread: what a closed reader or writer leaves for the next one made on that thread, since
/// most are made for one message and closed.
/// </summary>
internal static class ThreadSpare<T>
    where T : class, new()
{
    /// <summary>The thread's spare, which is now the caller's, or a new one.</summary>
    public static T Take()
    {
        ref T? slot = ref ThreadSlot<T>.Value;
        T? spare = slot;
        slot = null;
        return spare ?? new T();
    }

    /// <summary>Leaves <paramref name="item"/> for the next <see cref="Take"/> on this thread.</summary>
    public static void Give(T item) => ThreadSlot<T>.Value = item;
}
