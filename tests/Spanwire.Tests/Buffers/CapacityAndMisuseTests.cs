using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;
using Spanwire.Buffers;

namespace Spanwire.Tests.Buffers;

/// <summary>
/// A capacity asked for up front (segments rented ahead, given back when no longer wanted, all or nothing when the
/// pool fails), and the misuse a pool reports when asked to (never disposed, disposed twice, used after dispose).
/// PooledStreamDifferentialTests runs both the capacity constructor and the Capacity setter against MemoryStream.
/// </summary>
public sealed class CapacityAndMisuseTests
{
    [Fact]
    public void A_capacity_hint_rents_the_segments_up_front_and_writing_up_to_it_rents_no_more()
    {
        var pool = new TrackingSegmentPool(16);
        using (var stream = new PooledStream(1000, pool))
        {
            Expect.Equal(63L, pool.TotalRented, "segments rented for 1000 bytes of 16-byte segments");
            Assert.True(stream.Capacity >= 1000, $"Capacity {stream.Capacity}");
            Expect.Equal(0L, stream.Length, "length of a new stream with a capacity");

            stream.Write(Enumerable.Range(0, 1000).Select(i => (byte)i).ToArray());
            Expect.Equal(63L, pool.TotalRented, "segments rented after writing 1000 bytes");
            Assert.Equal(Enumerable.Range(0, 1000).Select(i => (byte)i), stream.ToArray());
        }

        Expect.Equal(0, pool.Outstanding, "segments not given back after Dispose");
    }

    [Fact]
    public void Setting_Capacity_rents_ahead_or_gives_back_what_was_rented_ahead_and_never_below_the_length()
    {
        var pool = new TrackingSegmentPool(16);
        using var stream = new PooledStream(pool);
        stream.Write(new byte[100]);
        int inUse = pool.Outstanding;

        stream.Capacity = 1000;
        Assert.True(stream.Capacity >= 1000, $"Capacity {stream.Capacity}");
        Expect.Equal(63, pool.Outstanding, "segments held at a capacity of 1000");

        stream.Capacity = 200;
        Assert.True(stream.Capacity >= 200 && stream.Capacity < 200 + 16, $"Capacity {stream.Capacity}");
        Expect.Equal(13, pool.Outstanding, "segments held at a capacity of 200");

        stream.Capacity = 100;
        Expect.Equal(inUse, pool.Outstanding, "segments held once nothing is rented ahead");
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Capacity = 99); // below the length, as MemoryStream
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Capacity = stream.MaxLength + 1);
        Expect.Equal(100L, stream.Length, "length after the refused settings");
    }

    [Fact]
    public void Shortening_a_stream_gives_back_the_segments_rented_ahead_and_keeps_the_content()
    {
        var pool = new TrackingSegmentPool(16);
        using var stream = new PooledStream(500, pool);
        byte[] data = [.. Enumerable.Range(0, 100).Select(i => (byte)i)];
        stream.Write(data);
        stream.SetLength(40);
        Expect.Equal(3, pool.Outstanding, "segments held by 40 bytes after SetLength");
        stream.Write(data);
        Assert.Equal(data[..40].Concat(data), stream.ToArray());
    }

    [Theory]
    [InlineData(1)] // the first segment
    [InlineData(5)] // one rented ahead
    public void A_pool_that_fails_while_renting_ahead_leaves_nothing_rented(int failOn)
    {
        var pool = new TrackingSegmentPool(16) { FailOnRent = failOn };
        Assert.Throws<OutOfMemoryException>(() => new PooledStream(1000, pool));
        Expect.Equal(0, pool.Outstanding, "segments left rented by the failed constructor");

        using var stream = new PooledStream(pool);
        stream.Write(new byte[40]);
        pool.FailOnRent = pool.TotalRented + 2;
        Assert.Throws<OutOfMemoryException>(() => stream.Capacity = 1000);
        Expect.Equal(3, pool.Outstanding, "segments held after the failed Capacity setting");
        Expect.Equal(40L, stream.Length, "length after the failed Capacity setting");
    }

    [Fact]
    public void Negative_capacity_is_refused()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new PooledStream(-1L));
        Assert.Throws<ArgumentOutOfRangeException>(() => new PooledStream(-1L, SegmentPool.Shared));
    }

    private static SegmentPool Watched(List<SegmentPoolMisuseEventArgs> seen, bool stacks = false)
    {
        SegmentPool pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 64, DetectMisuse = true, CaptureAllocationStacks = stacks, Name = "misuse-test" });
        pool.MisuseDetected += (_, e) =>
        {
            lock (seen)
            {
                seen.Add(e);
            }
        };
        return pool;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Abandon(SegmentPool pool, string tag, bool writer)
    {
        if (writer)
        {
            var abandoned = new PooledBufferWriter(pool) { Tag = tag };
            abandoned.Write([1, 2, 3]);
        }
        else
        {
            var abandoned = new PooledStream(pool) { Tag = tag };
            abandoned.Write([1, 2, 3]);
        }
    }

    private static void CollectUntil(List<SegmentPoolMisuseEventArgs> seen, int count)
    {
        for (int i = 0; i < 20; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            lock (seen)
            {
                if (seen.Count >= count)
                {
                    return;
                }
            }
        }
    }

    [Theory]
    [InlineData(false, "PooledStream")]
    [InlineData(true, "PooledBufferWriter")]
    public void One_never_disposed_is_reported_with_its_tag_when_collected(bool writer, string type)
    {
        var seen = new List<SegmentPoolMisuseEventArgs>();
        SegmentPool pool = Watched(seen);
        Abandon(pool, "orders", writer);
        CollectUntil(seen, 1);

        SegmentPoolMisuseEventArgs misuse = Assert.Single(seen);
        Expect.Equal(SegmentPoolMisuse.NotDisposed, misuse.Kind, "kind");
        Expect.Equal(type, misuse.Type, "type");
        Expect.Equal<string?>("orders", misuse.Tag, "tag");
        Assert.Null(misuse.AllocationStack); // not asked for
    }

    [Fact]
    public void Disposed_twice_and_used_after_dispose_are_reported_and_behave_as_before()
    {
        var seen = new List<SegmentPoolMisuseEventArgs>();
        SegmentPool pool = Watched(seen);
        var stream = new PooledStream(pool) { Tag = "twice" };
        stream.Dispose();
        stream.Dispose(); // harmless, as for MemoryStream, but reported
        Assert.Throws<ObjectDisposedException>(() => stream.Write([1]));
        var writer = new PooledBufferWriter(pool) { Tag = "writer" };
        writer.Dispose();
        writer.Dispose();
        Assert.Throws<ObjectDisposedException>(() => writer.GetSpan());
        CollectUntil(seen, 4); // and nothing more comes from the finalizer: both were disposed

        Assert.Equal(
            [(SegmentPoolMisuse.DisposedTwice, "PooledStream", "twice"), (SegmentPoolMisuse.UsedAfterDispose, "PooledStream", "twice"),
             (SegmentPoolMisuse.DisposedTwice, "PooledBufferWriter", "writer"), (SegmentPoolMisuse.UsedAfterDispose, "PooledBufferWriter", "writer")],
            seen.Select(e => (e.Kind, e.Type, e.Tag)));
        Assert.Equal(2, seen.Select(e => e.Id).Distinct().Count());
    }

    [Fact]
    public void With_stacks_asked_for_each_report_says_where_the_stream_was_made()
    {
        var seen = new List<SegmentPoolMisuseEventArgs>();
        SegmentPool pool = Watched(seen, stacks: true);
        var stream = new PooledStream(pool);
        stream.Dispose();
        stream.Dispose();

        string? stack = Assert.Single(seen).AllocationStack;
        Assert.NotNull(stack);
        Assert.Contains(nameof(With_stacks_asked_for_each_report_says_where_the_stream_was_made), stack, StringComparison.Ordinal);
    }

    [Fact]
    public void Misuse_is_counted_on_the_pool_meter_with_its_kind_and_tag()
    {
        var counted = new List<(long Value, Dictionary<string, object?> Tags)>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == BufferMetrics.MeterName && instrument.Name == "spanwire.buffers.misuse")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, value, tags, _) =>
        {
            var all = new Dictionary<string, object?>();
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                all[tag.Key] = tag.Value;
            }

            if (all.GetValueOrDefault("spanwire.pool.name") as string == "misuse-meter")
            {
                lock (counted)
                {
                    counted.Add((value, all));
                }
            }
        });
        listener.Start();

        SegmentPool pool = SegmentPool.Create(new SegmentPoolOptions { DetectMisuse = true, Name = "misuse-meter" });
        var stream = new PooledStream(pool) { Tag = "checkout" };
        stream.Dispose();
        stream.Dispose();

        (long value, Dictionary<string, object?> tags) = Assert.Single(counted);
        Expect.Equal(1L, value, "counter increment");
        Expect.Equal<object?>("disposed_twice", tags["spanwire.buffers.misuse.kind"], "kind tag");
        Expect.Equal<object?>("checkout", tags["spanwire.buffers.tag"], "stream tag");
        Expect.Equal<object?>("PooledStream", tags["spanwire.buffers.type"], "type tag");
    }

    [Fact]
    public void A_pool_that_does_not_detect_misuse_reports_nothing()
    {
        var seen = new List<SegmentPoolMisuseEventArgs>();
        SegmentPool pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 64 });
        pool.MisuseDetected += (_, e) => seen.Add(e);
        Assert.False(pool.DetectsMisuse);
        var stream = new PooledStream(pool) { Tag = "ignored" };
        stream.Dispose();
        stream.Dispose();
        Assert.Throws<ObjectDisposedException>(() => stream.Length);
        Abandon(pool, "ignored", writer: false);
        CollectUntil(seen, 1);
        Assert.Empty(seen);
        Expect.Equal<string?>("ignored", stream.Tag, "the tag is kept either way");
    }
}
