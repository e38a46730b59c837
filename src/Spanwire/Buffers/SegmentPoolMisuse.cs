using System.Diagnostics;

namespace Spanwire.Buffers;

/// <summary>What a pooled stream or writer was found doing wrong (<see cref="SegmentPool.MisuseDetected"/>).</summary>
public enum SegmentPoolMisuse
{
    /// <summary>It was collected without being disposed: its segments never went back to the pool.</summary>
    NotDisposed,

    /// <summary>It was disposed again. Harmless, as for MemoryStream, but a sign that two owners think they own it.</summary>
    DisposedTwice,

    /// <summary>A member was used after it was disposed (and threw <see cref="ObjectDisposedException"/>).</summary>
    UsedAfterDispose,
}

/// <summary>One misuse found by a pool that detects misuse (<see cref="SegmentPoolOptions.DetectMisuse"/>).</summary>
public sealed class SegmentPoolMisuseEventArgs : EventArgs
{
    internal SegmentPoolMisuseEventArgs(SegmentPoolMisuse kind, string type, long id, string? tag, string? allocationStack)
    {
        Kind = kind;
        Type = type;
        Id = id;
        Tag = tag;
        AllocationStack = allocationStack;
    }

    /// <summary>What went wrong.</summary>
    public SegmentPoolMisuse Kind { get; }

    /// <summary>The type misused: <c>PooledStream</c> or <c>PooledBufferWriter</c>.</summary>
    public string Type { get; }

    /// <summary>A number for the stream or writer, unique in the process, given when it was made.</summary>
    public long Id { get; }

    /// <summary>The tag its owner gave it (<see cref="PooledStream.Tag"/>, <see cref="PooledBufferWriter.Tag"/>), if any.</summary>
    public string? Tag { get; }

    /// <summary>Where it was made, when the pool captures stacks (<see cref="SegmentPoolOptions.CaptureAllocationStacks"/>).</summary>
    public string? AllocationStack { get; }
}

/// <summary>
/// What a pooled stream or writer carries when its pool detects misuse: an identity, its tag and where it was made,
/// and a finalizer that reports it if it is collected undisposed. A stream over a pool that does not detect misuse
/// has none, so it costs nothing but a null field and has no finalizer.
/// </summary>
internal sealed class MisuseTracker
{
    private static long s_lastId;
    private readonly SegmentPool _pool;
    private readonly string _type;
    private readonly long _id;
    private readonly string? _stack;

    /// <summary>A tracker for a new stream or writer over <paramref name="pool"/>, which detects misuse.</summary>
    public MisuseTracker(SegmentPool pool, string type)
    {
        _pool = pool;
        _type = type;
        _id = Interlocked.Increment(ref s_lastId);
        // From the stream's or writer's constructor on (this constructor and MisuseWatch.Start left out).
        _stack = pool.CapturesAllocationStacks ? new StackTrace(2, fNeedFileInfo: true).ToString() : null;
    }

    ~MisuseTracker()
    {
        try
        {
            Report(SegmentPoolMisuse.NotDisposed);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // A handler that throws on the finalizer thread would end the process; this report is advisory.
        }
    }

    public string? Tag { get; set; }

    /// <summary>Disposed once: nothing to report when collected.</summary>
    public void Disposed() => GC.SuppressFinalize(this);

    public void Report(SegmentPoolMisuse kind) =>
        _pool.ReportMisuse(new SegmentPoolMisuseEventArgs(kind, _type, _id, Tag, _stack));
}

/// <summary>
/// The misuse state a pooled stream or writer carries: its tag, and the tracker when its pool detects misuse. One
/// field in each owner, so both report the same way.
/// </summary>
/// <remarks>
/// One reference, not two: every stream and writer is allocated, and on a small message its size is most of its cost.
/// It holds the tracker when the pool detects misuse (the tracker carries the tag), otherwise the tag itself, if any.
/// </remarks>
internal struct MisuseWatch
{
    private object? _state;

    /// <summary>Starts watching for <paramref name="pool"/>'s misuse detection, in place in the owner's field.</summary>
    public void Start(SegmentPool pool, string type)
    {
        if (pool.DetectsMisuse)
        {
            _state = new MisuseTracker(pool, type); // only then: a store of null would still pay the write barrier
        }
    }

    public string? Tag
    {
        readonly get => _state is MisuseTracker tracker ? tracker.Tag : (string?)_state;
        set
        {
            if (_state is MisuseTracker tracker)
            {
                tracker.Tag = value;
            }
            else
            {
                _state = value;
            }
        }
    }

    /// <summary>The owner's first Dispose: nothing to report when it is collected.</summary>
    public readonly void Disposed() => (_state as MisuseTracker)?.Disposed();

    /// <summary>A Dispose after the first.</summary>
    public readonly void DisposedAgain() => (_state as MisuseTracker)?.Report(SegmentPoolMisuse.DisposedTwice);

    /// <summary>A member used after Dispose, about to throw ObjectDisposedException.</summary>
    public readonly void UsedAfterDispose() => (_state as MisuseTracker)?.Report(SegmentPoolMisuse.UsedAfterDispose);
}
