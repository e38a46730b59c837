using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Buffers;

/// <summary>
/// The pool behind <see cref="SegmentPool.Shared"/> and <see cref="SegmentPool.Create"/>: a LIFO stack of at most
/// <c>MaxRetainedSegments</c> arrays under one lock. LIFO hands back the most recently used, cache-warm segment.
/// </summary>
/// <remarks>
/// Chosen over ArrayPool&lt;byte&gt;.Shared because retention must be bounded and configurable, segments may need
/// clearing on return, and the pool reports metrics; SegmentSourceBenchmarks measures the difference.
/// </remarks>
internal sealed class BoundedSegmentPool : SegmentPool
{
    private readonly int _segmentSize;
    private readonly bool _clearOnReturn;
    private readonly byte[]?[] _retained;
    private readonly Lock _lock = new();
    private int _retainedCount;

    // Counters for metrics; written under _lock, read without it (a torn read of a metric is harmless on 64-bit).
    private long _rented;
    private long _returned;
    private long _allocated;

    internal BoundedSegmentPool(SegmentPoolOptions options)
    {
        if (options.SegmentSize is < MinSegmentSize or > MaxSegmentSize)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(options),
                $"SegmentSize must be from {MinSegmentSize} to {MaxSegmentSize} bytes (below the large object heap threshold); it was {options.SegmentSize}.");
        }

        if (options.MaxRetainedSegments < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(options),
                $"MaxRetainedSegments must not be negative; it was {options.MaxRetainedSegments}.");
        }

        _segmentSize = options.SegmentSize;
        _clearOnReturn = options.ClearOnReturn;
        _retained = new byte[]?[options.MaxRetainedSegments];
        Name = options.Name ?? "custom";
        DetectsMisuse = options.DetectMisuse;
        CapturesAllocationStacks = options.DetectMisuse && options.CaptureAllocationStacks;
        BufferMetrics.Register(this);
    }

    internal string Name { get; }

    internal override string MetricName => Name;

    /// <inheritdoc />
    public override bool DetectsMisuse { get; }

    /// <inheritdoc />
    public override bool CapturesAllocationStacks { get; }

    /// <summary>Whether a thread may keep a segment of this pool between uses (not when segments are cleared on return: they may hold secrets).</summary>
    internal bool KeepsSegmentsPerThread => !_clearOnReturn && _retained.Length > 0;

    public override int SegmentSize => _segmentSize;

    // One segment per thread in front of the locked stack, so that a short-lived writer rents and returns without a
    // lock (as ArrayPool.Shared keeps arrays per thread). To the counters a segment in a thread's slot is still rented:
    // the pool sees each thread's slot as one long-lived rent.
    public override byte[] Rent()
    {
        ref Kept kept = ref ThreadSlot<Kept>.Value;
        if (kept.Segment is { } cached && ReferenceEquals(kept.Pool, this))
        {
            kept.Segment = null;
            return cached;
        }

        return RentShared();
    }

    private byte[] RentShared()
    {
        byte[]? segment = null;
        lock (_lock)
        {
            _rented++;
            if (_retainedCount > 0)
            {
                int top = --_retainedCount;
                segment = _retained[top];
                _retained[top] = null;
            }
            else
            {
                _allocated++;
            }
        }

        return segment ?? Allocate();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private byte[] Allocate() => GC.AllocateUninitializedArray<byte>(_segmentSize);

    public override void Return(byte[] segment)
    {
        ArgumentNullException.ThrowIfNull(segment);
        if (segment.Length != _segmentSize)
        {
            ThrowNotASegment(segment.Length, _segmentSize);
        }

        if (_clearOnReturn)
        {
            segment.AsSpan().Clear();
        }
        else if (KeepsSegmentsPerThread)
        {
            ref Kept kept = ref ThreadSlot<Kept>.Value;
            if (kept.Segment is null)
            {
                if (!ReferenceEquals(kept.Pool, this))
                {
                    kept.Pool = this; // usually the same pool as last time: no reference store
                }

                kept.Segment = segment;
                return;
            }
        }

        lock (_lock)
        {
            _returned++;
            if (_retainedCount < _retained.Length)
            {
                _retained[_retainedCount++] = segment;
            }
        }
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowNotASegment(int length, int segmentSize) =>
        ThrowHelper.ThrowArgument("segment", $"The array has {length} bytes; this pool's segments have {segmentSize}. It was not rented from this pool.");

    /// <summary>Drops every retained segment, leaving them to the garbage collector.</summary>
    internal void Trim()
    {
        lock (_lock)
        {
            Array.Clear(_retained, 0, _retainedCount);
            _retainedCount = 0;
        }
    }

    internal SegmentPoolStatistics GetStatistics()
    {
        lock (_lock)
        {
            return new SegmentPoolStatistics(_rented, _returned, _allocated, _retainedCount, (_rented - _returned) * _segmentSize);
        }
    }

    /// <summary>A thread's kept segment and the pool it belongs to (<see cref="ThreadSlot{T}"/>).</summary>
    private struct Kept
    {
        public BoundedSegmentPool? Pool;
        public byte[]? Segment;
    }
}

/// <summary>A consistent snapshot of a pool's counters.</summary>
internal readonly record struct SegmentPoolStatistics(long Rented, long Returned, long Allocated, int Retained, long BytesInUse);
