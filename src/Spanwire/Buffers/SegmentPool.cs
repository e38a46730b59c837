namespace Spanwire.Buffers;

/// <summary>
/// A thread-safe source of fixed-size byte segments for <see cref="PooledBufferWriter"/> and
/// <see cref="PooledStream"/>. Every segment is smaller than the 85,000-byte large object heap threshold.
/// </summary>
/// <remarks>
/// <para>
/// <see cref="Shared"/> serves 64 KiB segments and keeps at most 256 of them (16 MiB) between uses. Make a pool of
/// your own with <see cref="Create(SegmentPoolOptions)"/> to change the size, the retention bound, or to clear
/// segments as they come back (for buffers that carry secrets).
/// </para>
/// <para>
/// Derive from this class to observe or replace the source of segments (a tracking pool in tests, say).
/// Implementations must be safe to call from several threads at once.
/// </para>
/// </remarks>
/// <example>
/// <code>
/// var pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 16 * 1024, MaxRetainedSegments = 64, ClearOnReturn = true });
/// using var writer = new PooledBufferWriter(pool);
/// </code>
/// </example>
public abstract class SegmentPool
{
    /// <summary>The default segment size: 64 KiB.</summary>
    public const int DefaultSegmentSize = 64 * 1024;

    /// <summary>The default number of segments a pool keeps between uses.</summary>
    public const int DefaultMaxRetainedSegments = 256;

    /// <summary>
    /// The largest segment size allowed: a byte array of this length plus its 24-byte object header stays below
    /// the 85,000-byte large object heap threshold, with room for alignment.
    /// </summary>
    public const int MaxSegmentSize = 84_968;

    /// <summary>The smallest segment size allowed (small sizes exist for tests that force many segments).</summary>
    public const int MinSegmentSize = 16;

    /// <summary>
    /// The process-wide pool: 64 KiB segments, at most 256 retained, not cleared on return. It detects misuse when the
    /// AppContext switch <c>Spanwire.Buffers.DetectMisuse</c> is on when it is first used.
    /// </summary>
    public static SegmentPool Shared { get; } = new BoundedSegmentPool(new SegmentPoolOptions
    {
        Name = "shared",
        DetectMisuse = AppContext.TryGetSwitch("Spanwire.Buffers.DetectMisuse", out bool detect) && detect,
    });

    /// <summary>
    /// Raised for each stream or writer over this pool found never disposed, disposed twice or used after dispose,
    /// when the pool detects misuse (<see cref="SegmentPoolOptions.DetectMisuse"/>). A stream never disposed is found
    /// when the collector finalizes it, on the finalizer thread; the other two on the thread that misused it.
    /// </summary>
    /// <example>
    /// <code>
    /// var pool = SegmentPool.Create(new SegmentPoolOptions { DetectMisuse = true, CaptureAllocationStacks = true });
    /// pool.MisuseDetected += (_, e) => logger.LogWarning("{Kind} {Type} {Tag} made at {Stack}", e.Kind, e.Type, e.Tag, e.AllocationStack);
    /// </code>
    /// </example>
    public event EventHandler<SegmentPoolMisuseEventArgs>? MisuseDetected;

    /// <summary>Whether streams and writers over this pool are watched for misuse (<see cref="MisuseDetected"/>).</summary>
    public virtual bool DetectsMisuse => false;

    /// <summary>Whether, when detecting misuse, the pool records where each stream and writer was made.</summary>
    public virtual bool CapturesAllocationStacks => false;

    /// <summary>Counts the misuse on the pool's meter and raises <see cref="MisuseDetected"/>.</summary>
    internal void ReportMisuse(SegmentPoolMisuseEventArgs misuse)
    {
        BufferMetrics.RecordMisuse(this, misuse);
        MisuseDetected?.Invoke(this, misuse);
    }

    /// <summary>The name this pool's measurements are tagged with.</summary>
    internal virtual string MetricName => GetType().Name;

    /// <summary>Makes a bounded pool with the given settings.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A setting is out of its range.</exception>
    /// <param name="options">Segment size and how many segments to keep.</param>
    /// <returns>A new pool.</returns>
    public static SegmentPool Create(SegmentPoolOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new BoundedSegmentPool(options);
    }

    /// <summary>The length of every segment this pool hands out.</summary>
    public abstract int SegmentSize { get; }

    /// <summary>Hands out a segment of exactly <see cref="SegmentSize"/> bytes. Its content is unspecified.</summary>
    /// <returns>An array of exactly <see cref="SegmentSize"/> bytes, its content unspecified.</returns>
    public abstract byte[] Rent();

    /// <summary>Takes back a segment that <see cref="Rent"/> handed out. The caller must not touch it afterwards.</summary>
    /// <exception cref="ArgumentException">The array is not of this pool's segment size.</exception>
    /// <param name="segment">An array rented from this pool and no longer used.</param>
    public abstract void Return(byte[] segment);
}
