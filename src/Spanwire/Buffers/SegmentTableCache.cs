namespace Spanwire.Buffers;

/// <summary>
/// Keeps one released segment table (with its nodes) per thread, so a new writer or stream reuses the table of the
/// last one disposed on that thread instead of allocating a table and a node per segment again.
/// </summary>
internal static class SegmentTableCache
{
    private const int InitialSlots = 8;

    // Tables past this many slots (64 MiB of content at the default segment size) are left to the collector.
    private const int MaxCachedSlots = 1024;

    [ThreadStatic]
    private static Segment[]? t_table;

    public static Segment[] Rent()
    {
        Segment[]? table = t_table;
        if (table is not null)
        {
            t_table = null;
            return table;
        }

        return new Segment[InitialSlots];
    }

    /// <summary>Takes back a table (a chain's only chunk of slots) whose nodes hold no arrays any more.</summary>
    public static void Return(Segment[] table)
    {
        if (table.Length is > 0 and <= MaxCachedSlots && (t_table is null || t_table.Length < table.Length))
        {
            t_table = table;
        }
    }
}
