namespace Spanwire.Buffers;

/// <summary>
/// Keeps one released segment table (with its nodes) per thread, so that a writer or stream that grows past one
/// segment reuses the table of the last one disposed on that thread instead of allocating a table and a node per
/// segment again. A chain of one segment needs no table (<see cref="SegmentChain"/>); its segment comes from the
/// pool's own per-thread slot.
/// </summary>
internal static class SegmentTableCache
{
    private const int InitialSlots = 8;

    // Tables past this many slots (64 MiB of content at the default segment size) are left to the collector.
    private const int MaxCachedSlots = 1024;

    /// <summary>A table whose nodes hold no segments.</summary>
    public static Segment[] Rent()
    {
        ref Segment[]? kept = ref ThreadSlot<Segment[]>.Value;
        Segment[]? table = kept;
        if (table is null)
        {
            return new Segment[InitialSlots];
        }

        kept = null;
        return table;
    }

    /// <summary>Takes back a table whose nodes hold no segments any more; the larger of it and the one kept stays.</summary>
    public static void Return(Segment[] table)
    {
        ref Segment[]? kept = ref ThreadSlot<Segment[]>.Value;
        if (table.Length is > 0 and <= MaxCachedSlots && (kept is null || kept.Length < table.Length))
        {
            kept = table;
        }
    }
}
