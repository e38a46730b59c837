using System.Runtime.CompilerServices;
using Spanwire.Buffers;

namespace Spanwire.Tests.Buffers;

/// <summary>
/// A pool that remembers every segment it hands out: it fails on a segment returned twice or never rented, on any
/// segment of 85,000 bytes or more, and on one that was allocated on the large object heap.
/// </summary>
internal sealed class TrackingSegmentPool(int segmentSize) : SegmentPool
{
    private readonly Lock _lock = new();
    private readonly HashSet<byte[]> _outstanding = new(ReferenceEqualityComparer.Instance);

    public override int SegmentSize { get; } = segmentSize;

    public int Outstanding
    {
        get
        {
            lock (_lock)
            {
                return _outstanding.Count;
            }
        }
    }

    public long TotalRented { get; private set; }

    public int LargestRented { get; private set; }

    /// <summary>When set, the rent with this number (1 for the first) throws OutOfMemoryException, as a real pool may.</summary>
    public long? FailOnRent { get; set; }

    public override byte[] Rent()
    {
        if (FailOnRent == TotalRented + 1)
        {
            FailOnRent = null;
            throw new OutOfMemoryException("The test pool refused this segment.");
        }

        var segment = new byte[SegmentSize];
        if (segment.Length >= 85_000 || GC.GetGeneration(segment) == GC.MaxGeneration)
        {
            throw new InvalidOperationException($"A segment of {segment.Length} bytes landed on the large object heap.");
        }

        segment.AsSpan().Fill(0xCC); // stale-looking content, as a reused segment would have
        lock (_lock)
        {
            _outstanding.Add(segment);
            TotalRented++;
            LargestRented = Math.Max(LargestRented, segment.Length);
        }

        return segment;
    }

    public override void Return(byte[] segment)
    {
        lock (_lock)
        {
            if (!_outstanding.Remove(segment))
            {
                throw new InvalidOperationException("A segment came back that was not rented, or came back twice.");
            }
        }
    }
}
