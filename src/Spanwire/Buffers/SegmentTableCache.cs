using System.Diagnostics;

namespace Spanwire.Buffers;

/// <summary>
/// What a <see cref="SegmentChain"/> keeps once it holds more than one segment, has rented segments ahead or hands
/// out a temporary buffer: its slots, how many of them hold segments rented ahead, the tail's offset and the temporary
/// buffer. Apart from the chain, so that the many chains of one segment carry one null reference for it instead of
/// these fields.
/// </summary>
internal sealed class SegmentSlots
{
    /// <summary>The slots: the segments in order, then those rented ahead.</summary>
    public ChunkedTable<Segment> Table;

    /// <summary>Segments rented ahead for a capacity asked for, in the slots after the last in use.</summary>
    public int Reserved;

    /// <summary>Offset of the chain's tail in the whole content.</summary>
    public long TailStart;

    /// <summary>A span that cannot be handed out in place, handed out instead; its committed bytes are written on commit.</summary>
    public TemporaryBuffer Temporary;

    public SegmentSlots(Segment[] first) => Table = new ChunkedTable<Segment>(first);
}

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
    public static SegmentSlots Rent()
    {
        ref SegmentSlots? kept = ref ThreadSlot<SegmentSlots>.Value;
        SegmentSlots? table = kept;
        if (table is null)
        {
            return new SegmentSlots(new Segment[InitialSlots]);
        }

        kept = null;
        return table;
    }

    /// <summary>
    /// Takes back a table whose nodes hold no segments any more (none rented ahead either: the chain has cleared it);
    /// the larger of it and the one kept stays. A table grown past its first chunk is left to the collector.
    /// </summary>
    public static void Return(SegmentSlots table)
    {
        Debug.Assert(table.Reserved == 0 && table.TailStart == 0 && !table.Temporary.IsHandedOut, "A chain clears its table before giving it back.");
        ref SegmentSlots? kept = ref ThreadSlot<SegmentSlots>.Value;
        if (table.Table.SingleChunk is { Length: > 0 and <= MaxCachedSlots } &&
            (kept is null || kept.Table.Capacity < table.Table.Capacity))
        {
            kept = table;
        }
    }
}
