namespace Spanwire.Buffers;

/// <summary>
/// Keeps one released segment table (with its nodes) per thread, so a new writer or stream reuses the table of the
/// last one disposed on that thread instead of allocating a table and a node per segment again. The first node may
/// keep its segment, when it came from one of Spanwire's own pools that does not clear segments: then the next chain
/// on the thread starts with it, and a short-lived writer or stream neither rents nor returns a segment.
/// </summary>
/// <remarks>
/// A segment kept this way counts as rented in its pool's statistics (as one long-lived rent per thread).
/// </remarks>
internal static class SegmentTableCache
{
    private const int InitialSlots = 8;

    // Tables past this many slots (64 MiB of content at the default segment size) are left to the collector.
    private const int MaxCachedSlots = 1024;


    /// <summary>A table; <paramref name="firstReady"/> when its first node holds a segment of <paramref name="pool"/>, ready to use.</summary>
    public static Segment[] Rent(SegmentPool pool, out bool firstReady)
    {
        ref Kept kept = ref ThreadSlot<Kept>.Value;
        Segment[]? table = kept.Table;
        firstReady = false;
        if (table is null)
        {
            return new Segment[InitialSlots];
        }

        kept.Table = null;
        if (kept.FirstPool is { } firstPool)
        {
            kept.FirstPool = null;
            if (ReferenceEquals(firstPool, pool))
            {
                firstReady = true;
            }
            else
            {
                ReleaseFirst(table, firstPool);
            }
        }

        return table;
    }

    /// <summary>
    /// Takes back a table whose nodes hold no segments any more, except the first one's when
    /// <paramref name="firstPool"/> (its pool) is given.
    /// </summary>
    public static void Return(Segment[] table, SegmentPool? firstPool)
    {
        ref Kept kept = ref ThreadSlot<Kept>.Value;
        if (table.Length is > 0 and <= MaxCachedSlots && (kept.Table is null || kept.Table.Length < table.Length))
        {
            if (kept.Table is { } replaced && kept.FirstPool is { } replacedPool)
            {
                ReleaseFirst(replaced, replacedPool);
            }

            kept.Table = table;
            kept.FirstPool = firstPool;
            return;
        }

        if (firstPool is not null)
        {
            ReleaseFirst(table, firstPool);
        }
    }

    /// <summary>Whether a chain over <paramref name="pool"/> may leave its first segment in the cached table.</summary>
    public static bool MayKeepFirst(SegmentPool pool) => pool is BoundedSegmentPool { KeepsSegmentsPerThread: true };

    private static void ReleaseFirst(Segment[] table, SegmentPool pool)
    {
        Segment first = table[0];
        byte[]? array = first.Array;
        first.Release();
        if (array is not null)
        {
            pool.Return(array);
        }
    }

    /// <summary>A thread's kept table and the pool of its first node's segment, while that node still holds one (<see cref="ThreadSlot{T}"/>).</summary>
    private struct Kept
    {
        public Segment[]? Table;
        public SegmentPool? FirstPool;
    }
}
