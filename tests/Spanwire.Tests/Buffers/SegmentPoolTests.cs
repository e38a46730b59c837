using System.Diagnostics.Metrics;
using Spanwire.Buffers;

namespace Spanwire.Tests.Buffers;

public sealed class SegmentPoolTests
{
    [Fact]
    public void The_largest_segment_allowed_is_not_on_the_large_object_heap()
    {
        var segment = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = SegmentPool.MaxSegmentSize }).Rent();
        Assert.Equal(SegmentPool.MaxSegmentSize, segment.Length);
        // The large object heap reports the oldest generation from the start; a small object is in a younger one
        // (gen 0, or gen 1 if a collection ran since: other tests allocate in parallel).
        Assert.True(GC.GetGeneration(segment) < GC.MaxGeneration, $"generation {GC.GetGeneration(segment)}");
        Assert.True(SegmentPool.Shared.SegmentSize < 85_000);
    }

    [Theory]
    [InlineData(SegmentPool.MaxSegmentSize + 1)] // would reach the large object heap
    [InlineData(85_000)]
    [InlineData(SegmentPool.MinSegmentSize - 1)]
    [InlineData(0)]
    public void Segment_sizes_out_of_range_are_refused(int size) =>
        Assert.Throws<ArgumentOutOfRangeException>(() => SegmentPool.Create(new SegmentPoolOptions { SegmentSize = size }));

    [Fact]
    public void Negative_retention_is_refused() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => SegmentPool.Create(new SegmentPoolOptions { MaxRetainedSegments = -1 }));

    [Fact]
    public void Retention_is_bounded()
    {
        var pool = (BoundedSegmentPool)SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 64, MaxRetainedSegments = 3 });
        var segments = Enumerable.Range(0, 10).Select(_ => pool.Rent()).ToList();
        segments.ForEach(pool.Return);
        var stats = pool.GetStatistics();
        Assert.Equal(3, stats.Retained);
        Assert.Equal(10, stats.Rented);
        Assert.Equal(10, stats.Returned);
        Assert.Equal(10, stats.Allocated);
        Assert.Equal(0, stats.BytesInUse);

        // The retained ones come back first, most recent first.
        Assert.Same(segments[2], pool.Rent());
        pool.Trim();
        Assert.Equal(0, pool.GetStatistics().Retained);
    }

    [Fact]
    public void Shared_pool_retention_is_bounded_by_default() =>
        Assert.Equal(SegmentPool.DefaultMaxRetainedSegments, new SegmentPoolOptions().MaxRetainedSegments);

    [Fact]
    public void Segments_are_cleared_on_return_when_asked()
    {
        var pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 64, ClearOnReturn = true });
        byte[] segment = pool.Rent();
        segment.AsSpan().Fill(0xAB);
        pool.Return(segment);
        Assert.All(segment, b => Assert.Equal(0, b));

        var keep = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 64 });
        byte[] other = keep.Rent();
        other.AsSpan().Fill(0xAB);
        keep.Return(other);
        Assert.Equal(0xAB, other[10]);
    }

    [Fact]
    public void A_foreign_array_is_refused()
    {
        var pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 64 });
        Assert.Throws<ArgumentException>(() => pool.Return(new byte[63]));
        Assert.Throws<ArgumentNullException>(() => pool.Return(null!));
    }

    [Fact]
    public void Every_segment_comes_back_after_dispose_and_none_is_ever_85000_bytes_or_more()
    {
        var pool = new TrackingSegmentPool(SegmentPool.MaxSegmentSize);
        var small = new TrackingSegmentPool(16);
        var random = new Random(3);
        for (int round = 0; round < 50; round++)
        {
            var p = round % 2 == 0 ? pool : small;
            using (var writer = new PooledBufferWriter(p))
            using (var stream = new PooledStream(p))
            {
                for (int i = 0; i < 20; i++)
                {
                    int size = random.Next(0, 200_000);
                    writer.GetSpan(size);
                    writer.Advance(size);
                    stream.Write(new byte[random.Next(0, 50_000)]);
                    stream.GetSpan(random.Next(0, 1000));
                    stream.Advance(random.Next(0, 2));
                    stream.Position = random.NextInt64(0, stream.Length + 10);
                    stream.GetSpan(random.Next(0, 100)); // before the end: a temporary buffer, not a segment
                    stream.Advance(1);
                    stream.SetLength(random.NextInt64(0, stream.Length + 1000));
                }

                if (round % 3 == 0)
                {
                    writer.Reset();
                }
            }

            Assert.Equal(0, p.Outstanding);
        }

        Assert.True(pool.TotalRented > 100);
        Assert.True(pool.LargestRented < 85_000);
    }

    [Fact]
    public void Several_threads_renting_and_returning_never_share_a_segment()
    {
        var pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 256, MaxRetainedSegments = 8, Name = "stress" });
        const int Threads = 6;
        int failures = 0;
        var threads = Enumerable.Range(0, Threads).Select(t => new Thread(() =>
        {
            var random = new Random(t);
            var held = new List<byte[]>();
            for (int i = 0; i < 50_000; i++)
            {
                if (held.Count < 4 && random.Next(2) == 0)
                {
                    byte[] segment = pool.Rent();
                    segment.AsSpan().Fill((byte)t);
                    held.Add(segment);
                }
                else if (held.Count > 0)
                {
                    byte[] segment = held[^1];
                    held.RemoveAt(held.Count - 1);
                    if (segment.AsSpan().IndexOfAnyExcept((byte)t) >= 0)
                    {
                        Interlocked.Increment(ref failures);
                    }

                    pool.Return(segment);
                }
            }

            held.ForEach(pool.Return);
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());

        Assert.Equal(0, failures);
        var stats = ((BoundedSegmentPool)pool).GetStatistics();

        // Each thread may keep one segment in its own slot, which the statistics count as rented.
        Assert.InRange(stats.Rented - stats.Returned, 0, Threads);
        Assert.True(stats.Retained <= 8);
    }

    [Fact]
    public void Writers_on_several_threads_keep_their_content()
    {
        var pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 128, MaxRetainedSegments = 16, Name = "stress-writers" });
        int failures = 0;
        Parallel.For(0, 8, new ParallelOptions { MaxDegreeOfParallelism = 4 }, t =>
        {
            for (int round = 0; round < 300; round++)
            {
                using var writer = new PooledBufferWriter(pool);
                int length = 1 + (round * 37 % 2000);
                for (int i = 0; i < length; i++)
                {
                    writer.Write([(byte)(t ^ i)]);
                }

                byte[] content = writer.ToArray();
                for (int i = 0; i < length; i++)
                {
                    if (content[i] != (byte)(t ^ i))
                    {
                        Interlocked.Increment(ref failures);
                        break;
                    }
                }
            }
        });
        Assert.Equal(0, failures);
    }

    [Fact]
    public void Metrics_report_rented_returned_retained_and_bytes_in_use()
    {
        var pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 100, MaxRetainedSegments = 2, Name = "metrics-test" });
        var seen = new Dictionary<string, long>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == BufferMetrics.MeterName)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            foreach (var tag in tags)
            {
                if (tag.Key == "spanwire.pool.name" && (string?)tag.Value == "metrics-test")
                {
                    seen[instrument.Name] = value;
                }
            }
        });
        listener.Start();

        var a = pool.Rent();
        var b = pool.Rent();
        var c = pool.Rent();
        pool.Return(a);
        listener.RecordObservableInstruments();

        Assert.Equal(3, seen["spanwire.buffers.segments.rented"]);
        Assert.Equal(1, seen["spanwire.buffers.segments.returned"]);
        Assert.Equal(3, seen["spanwire.buffers.segments.allocated"]);
        Assert.Equal(1, seen["spanwire.buffers.segments.retained"]);
        Assert.Equal(200, seen["spanwire.buffers.bytes_in_use"]);
        pool.Return(b);
        pool.Return(c);
    }
}
