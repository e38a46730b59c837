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

    /// <summary>
    /// Report streams and writers over this pool that are never disposed, disposed twice or used after dispose,
    /// through <see cref="SegmentPool.MisuseDetected"/> and the counter <c>spanwire.buffers.misuse</c>. Each stream
    /// and writer then carries a small object with a finalizer; with it off (the default) they carry nothing. The
    /// shared pool detects misuse when the AppContext switch <c>Spanwire.Buffers.DetectMisuse</c> is on at start.
    /// </summary>
    public bool DetectMisuse { get; set; }

    /// <summary>
    /// With <see cref="DetectMisuse"/>, also record where each stream and writer was made
    /// (<see cref="SegmentPoolMisuseEventArgs.AllocationStack"/>). Costs a stack capture per stream. Default false.
    /// </summary>
    public bool CaptureAllocationStacks { get; set; }

    /// <summary>The name reported with this pool's metrics (tag <c>spanwire.pool.name</c>). Default "custom".</summary>
    public string Name { get; set; } = "custom";
}
