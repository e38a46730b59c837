namespace Spanwire.Buffers;

/// <summary>Settings for a pool made with <see cref="SegmentPool.Create(SegmentPoolOptions)"/>.</summary>
public sealed class SegmentPoolOptions
{
    /// <summary>
    /// Bytes per segment. Default 65,536. At most <see cref="SegmentPool.MaxSegmentSize"/>, so that no segment
    /// is ever allocated on the large object heap; at least <see cref="SegmentPool.MinSegmentSize"/>.
    /// </summary>
    public int SegmentSize { get; set; } = SegmentPool.DefaultSegmentSize;

    /// <summary>
    /// How many returned segments the pool keeps for reuse; segments returned beyond that are left to the
    /// garbage collector. Default 256 (16 MiB at the default segment size). Zero keeps none.
    /// </summary>
    public int MaxRetainedSegments { get; set; } = SegmentPool.DefaultMaxRetainedSegments;

    /// <summary>
    /// Zero every segment when it comes back to the pool, for buffers that held secrets. Costs a memory clear
    /// per returned segment. Default false.
    /// </summary>
    public bool ClearOnReturn { get; set; }

    /// <summary>The name reported with this pool's metrics (tag <c>spanwire.pool.name</c>). Default "custom".</summary>
    public string Name { get; set; } = "custom";
}
