using System.Buffers;
using Spanwire.Buffers;
using Spanwire.Signing;

namespace Spanwire.Tests.Buffers;

/// <summary>
/// What the pooled types do at their limits and when memory runs out: MemoryStream is the control where it has the
/// same member; elsewhere the rule is all or nothing (a call that fails leaves the content as it was).
/// </summary>
public sealed class FailureAndLimitTests
{
    [Theory]
    [InlineData(long.MaxValue)]
    [InlineData(long.MaxValue / 2)]
    public void A_length_no_segment_table_could_hold_is_refused_as_MemoryStream_refuses_one(long length)
    {
        using var control = new MemoryStream();
        using var stream = new PooledStream(new TrackingSegmentPool(16));
        Assert.Throws<ArgumentOutOfRangeException>(() => control.SetLength(length));
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.SetLength(length));
        Assert.Throws<ArgumentOutOfRangeException>(() => control.Position = length);
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Position = length);
        Assert.Equal(control.Length, stream.Length);
        Assert.Equal(control.Position, stream.Position);
    }

    [Fact]
    public void A_failed_segment_rent_leaves_the_buffer_writer_as_it_was()
    {
        var pool = new TrackingSegmentPool(16) { FailOnRent = 2 };
        using var writer = new PooledBufferWriter(pool);
        writer.Write([1, 2, 3]);
        Assert.Throws<OutOfMemoryException>(() => writer.Write(new byte[20]));
        AssertContent([1, 2, 3], writer.WrittenCount, writer.WrittenSequence, writer.ToArray());

        writer.Write(new byte[20]); // the pool works again
        Assert.Equal(23, writer.WrittenCount);
        Assert.Equal(23, writer.WrittenSequence.Length);
        Assert.Equal(23, writer.ToArray().Length);
    }

    [Fact]
    public void A_failed_segment_rent_in_GetSpan_changes_nothing()
    {
        var pool = new TrackingSegmentPool(16) { FailOnRent = 2 };
        using var writer = new PooledBufferWriter(pool);
        writer.GetSpan(16).Fill(7);
        writer.Advance(16);
        Assert.Throws<OutOfMemoryException>(() => writer.GetSpan(1));
        Assert.Equal(16, writer.WrittenCount);
        Assert.Equal(16, writer.WrittenSequence.Length);
        writer.GetSpan(1)[0] = 8;
        writer.Advance(1);
        Assert.Equal([.. Enumerable.Repeat((byte)7, 16), 8], writer.ToArray());
    }

    [Fact]
    public void A_failed_segment_rent_leaves_the_stream_as_it_was()
    {
        var pool = new TrackingSegmentPool(16) { FailOnRent = 2 };
        using var stream = new PooledStream(pool);
        stream.Write([1, 2, 3]);
        Assert.Throws<OutOfMemoryException>(() => stream.Write(new byte[20]));
        Assert.Equal(3, stream.Length);
        Assert.Equal(3, stream.Position);
        Assert.Equal([1, 2, 3], stream.ToArray());

        pool.FailOnRent = pool.TotalRented + 1;
        Assert.Throws<OutOfMemoryException>(() => stream.SetLength(40));
        Assert.Equal(3, stream.Length);
        Assert.Equal([1, 2, 3], stream.ToArray());
    }

    [Fact]
    public void Asking_for_a_span_past_the_end_does_not_lengthen_the_stream_until_Advance()
    {
        using var stream = new PooledStream(new TrackingSegmentPool(16));
        stream.Write(new byte[10]);
        stream.Position = 100;
        stream.GetSpan(8).Fill(5);
        Assert.Equal(10, stream.Length);

        stream.Advance(8);
        Assert.Equal(108, stream.Length);
        Assert.Equal(108, stream.Position);

        // The same bytes MemoryStream holds after the same write.
        using var control = new MemoryStream();
        control.Write(new byte[10]);
        control.Position = 100;
        control.Write([5, 5, 5, 5, 5, 5, 5, 5]);
        Assert.Equal(control.ToArray(), stream.ToArray());
    }

    [Fact]
    public void A_disposed_signing_stream_refuses_every_member_as_a_disposed_stream()
    {
        var stream = new SigningStream(Stream.Null, new byte[32]);
        stream.Dispose();
        Assert.Throws<ObjectDisposedException>(() => stream.Position);
        Assert.Throws<ObjectDisposedException>(() => stream.Position = 0);
        Assert.Throws<ObjectDisposedException>(() => stream.Length);
        Assert.Throws<ObjectDisposedException>(() => stream.Write([1]));
        Assert.Throws<ObjectDisposedException>(stream.Flush);
        Assert.False(stream.CanWrite);
    }

    [Theory]
    [InlineData(100_000)]
    [InlineData(1_000_000)]
    public void Tables_of_any_size_keep_every_array_off_the_large_object_heap(int entries)
    {
        var segments = default(ChunkedTable<object>);
        var pieces = default(ChunkedTable<(long, ReadOnlyMemory<byte>)>);
        while (segments.Capacity < entries)
        {
            segments.Grow();
        }

        while (pieces.Capacity < entries)
        {
            pieces.Grow();
        }

        Assert.InRange(segments.LargestArrayBytes(), 1, 84_000);
        Assert.InRange(pieces.LargestArrayBytes(), 1, 84_000);
        segments[entries - 1] = "last";
        Assert.Equal("last", segments[entries - 1]);
    }

    [Fact]
    public void Thousands_of_segments_and_borrowed_pieces_read_back_whole()
    {
        var pool = new TrackingSegmentPool(16);
        using var gather = new GatherBufferWriter(pool);
        byte[] piece = [1, 2, 3];
        for (int i = 0; i < 10_000; i++)
        {
            gather.Write([(byte)i]);
            gather.WriteBorrowed(piece);
        }

        ReadOnlySequence<byte> all = gather.WrittenSequence;
        Assert.Equal(40_000, all.Length);
        byte[] bytes = all.ToArray();
        for (int i = 0; i < 10_000; i++)
        {
            Assert.Equal((byte)i, bytes[i * 4]);
            Assert.Equal(3, bytes[(i * 4) + 3]);
        }
    }

    private static void AssertContent(byte[] expected, long count, ReadOnlySequence<byte> sequence, byte[] array)
    {
        Assert.Equal(expected.Length, count);
        Assert.Equal(expected.Length, sequence.Length);
        Assert.Equal(expected, sequence.ToArray());
        Assert.Equal(expected, array);
    }
}
