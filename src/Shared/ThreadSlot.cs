namespace Spanwire;

/// <summary>
/// The libraries' one per-thread cache: one slot per thread for each type <typeparamref name="T"/>, for what a
/// short-lived object leaves for the next one made on the same thread (a pool's segment, a segment table, a reader's
/// working arrays), as ArrayPool.Shared keeps arrays per thread. Read and write it through <see cref="Value"/> on the
/// thread that owns it; use a type of the cache's own for <typeparamref name="T"/>, so no two caches share a slot.
/// Compiled into each library that keeps something per thread (linked source).
/// </summary>
/// <typeparam name="T">What one slot holds; a record struct of the cache's own when it holds more than one thing.</typeparam>
internal static class ThreadSlot<T>
{
    [ThreadStatic]
    private static T? s_value;

    /// <summary>This thread's slot.</summary>
    public static ref T? Value => ref s_value;
}
