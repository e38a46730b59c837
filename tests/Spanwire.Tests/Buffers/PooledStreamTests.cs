using System.Buffers;
using Spanwire.Buffers;

namespace Spanwire.Tests.Buffers;

/// <summary>What the differential test cannot compare: members MemoryStream lacks, and disposal.</summary>
public sealed class PooledStreamTests
{
    [Fact]
    public void Disposed_stream_reports_closed_and_throws_ObjectDisposedException()
    {
        var pool = new TrackingSegmentPool(16);
        var stream = new PooledStream(pool);
        stream.Write(new byte[100]);
        stream.Dispose();
        stream.Dispose();
        Assert.Equal(0, pool.Outstanding);
        Assert.False(stream.CanRead);
        Assert.False(stream.CanWrite);
        Assert.False(stream.CanSeek);
        Assert.Throws<ObjectDisposedException>(() => stream.Length);
        Assert.Throws<ObjectDisposedException>(() => stream.Position);
        Assert.Throws<ObjectDisposedException>(() => stream.Position = 0);
        Assert.Throws<ObjectDisposedException>(() => stream.Write([1]));
        Assert.Throws<ObjectDisposedException>(() => stream.WriteByte(1));
        Assert.Throws<ObjectDisposedException>(() => stream.Read(new byte[1]));
        Assert.Throws<ObjectDisposedException>(() => stream.ReadByte());
        Assert.Throws<ObjectDisposedException>(() => stream.Seek(0, SeekOrigin.Begin));
        Assert.Throws<ObjectDisposedException>(() => stream.SetLength(0));
        Assert.Throws<ObjectDisposedException>(() => stream.ToArray()); // MemoryStream would still answer: documented
        Assert.Throws<ObjectDisposedException>(() => stream.GetSpan());
        Assert.Throws<ObjectDisposedException>(() => stream.Advance(0));
        Assert.Throws<ObjectDisposedException>(() => stream.GetReadOnlySequence());
        Assert.Throws<ObjectDisposedException>(() => stream.CopyTo(Stream.Null));
        Assert.Throws<ObjectDisposedException>(() => stream.Capacity);
        Assert.True(stream.WriteAsync(new byte[1]).IsFaulted);
    }

    [Fact]
    public void Positions_and_lengths_past_2_GiB_are_accepted_where_MemoryStream_stops()
    {
        using var stream = new PooledStream();
        stream.Position = 3L << 30;
        Assert.Equal(3L << 30, stream.Position);
        Assert.Equal(0, stream.Read(new byte[10]));
        Assert.Equal(-1, stream.ReadByte());
        Assert.Equal(5L << 30, stream.Seek(2L << 30, SeekOrigin.Current));
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Seek(long.MaxValue, SeekOrigin.Current));
    }

    [Fact]
    public void The_sequence_view_matches_the_content_and_does_not_allocate_on_each_call()
    {
        using var stream = new PooledStream(SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 64 }));
        byte[] data = Enumerable.Range(0, 1000).Select(i => (byte)i).ToArray();
        stream.Write(data);
        stream.Position = 10;
        stream.Write([0xEE, 0xEF]);
        data[10] = 0xEE;
        data[11] = 0xEF;
        Assert.Equal(data, stream.GetReadOnlySequence().ToArray());
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 10; i++)
        {
            _ = stream.GetReadOnlySequence();
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Fact]
    public void Capacity_covers_the_length_and_grows_a_segment_at_a_time()
    {
        using var stream = new PooledStream(SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 64 }));
        Assert.Equal(0, stream.Capacity);
        stream.WriteByte(1);
        Assert.Equal(64, stream.Capacity);
        stream.Write(new byte[64]);
        Assert.Equal(128, stream.Capacity);
    }

    [Fact]
    public void The_buffer_writer_at_the_end_gives_segment_memory_and_before_the_end_overwrites()
    {
        using var stream = new PooledStream(SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 32 }));
        stream.Write(new byte[30]);
        Span<byte> span = stream.GetSpan(10); // does not fit the 2 bytes left: a new segment, no copy
        Assert.True(span.Length >= 10);
        span[..10].Fill(7);
        stream.Advance(10);
        Assert.Equal(40, stream.Length);
        Assert.Equal(40, stream.Position);

        stream.Position = 25; // across the segment boundary, overwriting
        span = stream.GetSpan(8);
        span[..8].Fill(9);
        stream.Advance(8);
        Assert.Equal(33, stream.Position);
        byte[] expected = [.. new byte[25], .. Enumerable.Repeat((byte)9, 8), .. Enumerable.Repeat((byte)7, 7)];
        Assert.Equal(expected, stream.ToArray());
        Assert.Equal(expected, stream.GetReadOnlySequence().ToArray());
    }

    [Fact]
    public void Writing_1_MiB_in_small_pieces_allocates_nothing_once_warm()
    {
        // A pool of its own: tests running in parallel on the shared pool could empty it and make it allocate.
        using var stream = new PooledStream(SegmentPool.Create(new SegmentPoolOptions { MaxRetainedSegments = 32, Name = "alloc-stream" }));
        byte[] piece = new byte[100];
        void Cycle()
        {
            stream.SetLength(0);
            for (int i = 0; i < 10_486; i++)
            {
                stream.Write(piece, 0, piece.Length);
            }

            stream.Position = 0;
            stream.CopyTo(Stream.Null);
        }

        Cycle();
        long before = GC.GetAllocatedBytesForCurrentThread();
        Cycle();
        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Theory]
    [InlineData(0)] // an empty start: the stream is as new
    [InlineData(1)]
    [InlineData(64)] // exactly one segment of the test pool
    [InlineData(65)] // one byte into a second segment
    [InlineData(64 * 3 + 7)]
    public void A_stream_made_from_bytes_reads_writes_and_grows_as_a_MemoryStream_holding_them(int size)
    {
        byte[] content = new byte[size];
        new Random(size).NextBytes(content);
        var pool = new TrackingSegmentPool(64);
        var expected = new MemoryStream(); // growable, holding the same bytes at position 0: new MemoryStream(content) cannot grow
        expected.Write(content);
        expected.Position = 0;
        using (var actual = new PooledStream(content, pool))
        {
            content.AsSpan().Clear(); // the stream holds a copy

            Expect.Equal((expected.Length, expected.Position), (actual.Length, actual.Position), $"length and position of {size} bytes");
            byte[] first = new byte[10], mine = new byte[10];
            Expect.Equal(expected.Read(first), actual.Read(mine), "bytes read");
            Expect.Equal(Convert.ToHexString(first), Convert.ToHexString(mine), "the first bytes");
            expected.Write([1, 2, 3]);
            actual.Write([1, 2, 3]);
            expected.Seek(5, SeekOrigin.End);
            actual.Seek(5, SeekOrigin.End);
            expected.WriteByte(9); // past the end: a zero-filled gap, then the byte
            actual.WriteByte(9);
            Expect.Equal(Convert.ToHexString(expected.ToArray()), Convert.ToHexString(actual.ToArray()), $"the content of {size} bytes after the writes");
        }

        Expect.Equal(0, pool.Outstanding, "segments still rented after Dispose");
    }

    [Fact]
    public void A_stream_from_bytes_that_the_pool_cannot_hold_fails_and_keeps_no_segment()
    {
        var pool = new TrackingSegmentPool(64) { FailOnRent = 3 };

        Assert.Throws<OutOfMemoryException>(() => new PooledStream(new byte[64 * 4], pool));
        Expect.Equal(0, pool.Outstanding, "segments still rented after the failed copy");
    }
}
