using System.Buffers;
using System.Runtime.InteropServices;
using Spanwire.Buffers;

namespace Spanwire.Tests.Buffers;

public sealed class PooledBufferWriterTests
{
    private static byte Pattern(long i) => (byte)(i * 31 + (i >> 8));

    [Fact]
    public void Every_sizeHint_up_to_the_segment_size_is_served_from_a_segment_without_copying()
    {
        // Every hint from 0 to the default segment size, at the fill levels those hints leave behind.
        using var writer = new PooledBufferWriter();
        int segmentSize = writer.Pool.SegmentSize;
        for (int hint = 0; hint <= segmentSize; hint++)
        {
            Memory<byte> memory = writer.GetMemory(hint);
            Assert.True(memory.Length >= Math.Max(hint, 1), $"hint {hint} gave {memory.Length}");
            Assert.True(MemoryMarshal.TryGetArray<byte>(memory, out var segment));
            Assert.Equal(segmentSize, segment.Array!.Length);
            writer.Advance(Math.Min(hint, 3));
        }
    }

    [Theory]
    [InlineData(16)] // the smallest segment: boundaries everywhere
    [InlineData(64)]
    [InlineData(1000)]
    public void Every_sizeHint_from_zero_to_past_the_segment_size_round_trips_the_bytes(int segmentSize)
    {
        var pool = new TrackingSegmentPool(segmentSize);
        var random = new Random(segmentSize);
        var expected = new List<byte>();
        using (var writer = new PooledBufferWriter(pool))
        {
            for (int hint = 0; hint <= segmentSize * 3 + 5; hint++)
            {
                Span<byte> span = writer.GetSpan(hint);
                Assert.True(span.Length >= Math.Max(hint, 1));
                int count = random.Next(Math.Min(span.Length, hint + 1) + 1);
                for (int i = 0; i < count; i++)
                {
                    span[i] = Pattern(expected.Count);
                    expected.Add(span[i]);
                }

                writer.Advance(count);
                Assert.Equal(expected.Count, writer.WrittenCount);
            }

            Assert.Equal(expected.ToArray(), writer.WrittenSequence.ToArray());
            Assert.Equal(expected.ToArray(), writer.ToArray());
        }

        Assert.Equal(0, pool.Outstanding);
    }

    [Fact]
    public async Task Sequences_span_many_segments_and_match_what_was_written()
    {
        var pool = new TrackingSegmentPool(64);
        var random = new Random(7);
        using var writer = new PooledBufferWriter(pool);
        var expected = new MemoryStream();
        for (int i = 0; i < 2000; i++)
        {
            byte[] chunk = new byte[random.Next(0, 200)];
            random.NextBytes(chunk);
            if (random.Next(2) == 0)
            {
                writer.Write(chunk);
            }
            else
            {
                chunk.CopyTo(writer.GetSpan(chunk.Length));
                writer.Advance(chunk.Length);
            }

            expected.Write(chunk);
        }

        ReadOnlySequence<byte> sequence = writer.WrittenSequence;
        Assert.False(sequence.IsSingleSegment);
        Assert.Equal(expected.Length, sequence.Length);
        Assert.Equal(expected.ToArray(), sequence.ToArray());

        int segments = 0;
        foreach (ReadOnlyMemory<byte> memory in sequence)
        {
            segments++;
            Assert.True(memory.Length <= 64);
        }

        Assert.True(segments > 2000 * 100 / 64 / 2);

        var copy = new MemoryStream();
        writer.CopyTo(copy);
        Assert.Equal(expected.ToArray(), copy.ToArray());
        var copyAsync = new MemoryStream();
        await writer.CopyToAsync(copyAsync);
        Assert.Equal(expected.ToArray(), copyAsync.ToArray());
        byte[] span = new byte[writer.WrittenCount + 3];
        writer.CopyTo(span);
        Assert.Equal(expected.ToArray(), span[..^3]);
    }

    [Fact]
    public void The_sequence_view_does_not_allocate_on_each_call()
    {
        using var writer = new PooledBufferWriter(SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 100 }));
        writer.Write(new byte[1050]);
        _ = writer.WrittenSequence; // the first call makes the nodes
        long before = GC.GetAllocatedBytesForCurrentThread();
        long total = 0;
        for (int i = 0; i < 100; i++)
        {
            total += writer.WrittenSequence.Length;
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.Equal(105_000, total);
    }

    [Theory]
    [InlineData(100)] // one segment: held as the tail alone, from the pool's per-thread slot
    [InlineData(10_000)] // several: the table of slots comes back from the per-thread cache
    public void A_short_lived_writer_or_stream_allocates_only_itself_once_warm(int length)
    {
        var pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 4096, Name = "short-lived" });
        byte[] message = new byte[length];
        long WriterCycle()
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            using (var writer = new PooledBufferWriter(pool))
            {
                writer.Write(message);
            }

            return GC.GetAllocatedBytesForCurrentThread() - before;
        }

        long StreamCycle()
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            using (var stream = new PooledStream(pool))
            {
                stream.Write(message);
            }

            return GC.GetAllocatedBytesForCurrentThread() - before;
        }

        long writerAlone = GC.GetAllocatedBytesForCurrentThread();
        _ = new PooledBufferWriter(pool);
        writerAlone = GC.GetAllocatedBytesForCurrentThread() - writerAlone;
        long streamAlone = GC.GetAllocatedBytesForCurrentThread();
        _ = new PooledStream(pool);
        streamAlone = GC.GetAllocatedBytesForCurrentThread() - streamAlone;

        WriterCycle();
        StreamCycle();
        Expect.Equal(writerAlone, WriterCycle(), $"bytes allocated by a writer's whole life ({length} bytes written) against the writer object alone");
        Expect.Equal(streamAlone, StreamCycle(), $"bytes allocated by a stream's whole life ({length} bytes written) against the stream object alone");
    }

    [Fact]
    public void A_writer_or_stream_object_carries_only_its_one_segment_state()
    {
        // On a small message the object is most of the cost: the table of slots, the tail's offset, the temporary
        // buffer, the misuse tracker and the tag live behind one reference each, not in fields of every writer and
        // stream, and disposal is the chain's own state (64-bit sizes, headers included).
        var pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 4096, Name = "size" });
        _ = new PooledBufferWriter(pool);
        _ = new PooledStream(pool);
        long before = GC.GetAllocatedBytesForCurrentThread();
        _ = new PooledBufferWriter(pool);
        long writer = GC.GetAllocatedBytesForCurrentThread() - before;
        before = GC.GetAllocatedBytesForCurrentThread();
        _ = new PooledStream(pool);
        long stream = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(writer <= 56, $"a PooledBufferWriter takes {writer} bytes; expected at most 56");
        Assert.True(stream <= 80, $"a PooledStream takes {stream} bytes; expected at most 80");
    }

    [Fact]
    public void Writing_and_reading_back_allocates_nothing_once_warm()
    {
        var pool = SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 4096, Name = "alloc" });
        using var writer = new PooledBufferWriter(pool);
        byte[] chunk = new byte[100];
        void Cycle()
        {
            for (int i = 0; i < 200; i++)
            {
                writer.Write(chunk);
                writer.GetSpan(50)[0] = 1;
                writer.Advance(50);
            }

            writer.CopyTo(Stream.Null);
            writer.Reset();
        }

        Cycle();
        long before = GC.GetAllocatedBytesForCurrentThread();
        Cycle();
        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Fact]
    public void A_sizeHint_larger_than_a_segment_is_served_and_committed_across_segments()
    {
        var pool = new TrackingSegmentPool(16);
        using var writer = new PooledBufferWriter(pool);
        writer.Write([1, 2, 3]);
        Span<byte> span = writer.GetSpan(100);
        Assert.True(span.Length >= 100);
        for (int i = 0; i < 100; i++)
        {
            span[i] = (byte)(i + 4);
        }

        writer.Advance(100);
        writer.Write([200]);
        byte[] expected = [1, 2, 3, .. Enumerable.Range(4, 100).Select(i => (byte)i), 200];
        Assert.Equal(expected, writer.ToArray());
        Assert.Equal(16, pool.LargestRented);
    }

    [Fact]
    public void Advance_past_the_span_or_negative_throws()
    {
        using var writer = new PooledBufferWriter(SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 16 }));
        writer.GetSpan(4);
        Assert.Throws<ArgumentOutOfRangeException>(() => writer.Advance(17));
        Assert.Throws<ArgumentOutOfRangeException>(() => writer.Advance(-1));
        Assert.Throws<ArgumentOutOfRangeException>(() => writer.GetSpan(-1));
    }

    [Fact]
    public void Reset_returns_every_segment_and_the_writer_goes_on()
    {
        var pool = new TrackingSegmentPool(32);
        using var writer = new PooledBufferWriter(pool);
        writer.Write(new byte[1000]);
        Assert.True(pool.Outstanding >= 1000 / 32);
        writer.Reset();
        Assert.Equal(0, pool.Outstanding);
        Assert.Equal(0, writer.WrittenCount);
        Assert.True(writer.WrittenSequence.IsEmpty);
        writer.Write([9]);
        Assert.Equal([9], writer.ToArray());
    }

    [Fact]
    public void Dispose_is_idempotent_and_use_after_dispose_throws()
    {
        var pool = new TrackingSegmentPool(32);
        var writer = new PooledBufferWriter(pool);
        writer.Write(new byte[100]);
        writer.Dispose();
        writer.Dispose();
        Assert.Equal(0, pool.Outstanding);
        Assert.Throws<ObjectDisposedException>(() => writer.GetSpan());
        Assert.Throws<ObjectDisposedException>(() => writer.GetMemory(1));
        Assert.Throws<ObjectDisposedException>(() => writer.Advance(0));
        Assert.Throws<ObjectDisposedException>(() => writer.Write([1]));
        Assert.Throws<ObjectDisposedException>(() => writer.WrittenCount);
        Assert.Throws<ObjectDisposedException>(() => writer.WrittenSequence);
        Assert.Throws<ObjectDisposedException>(() => writer.ToArray());
        Assert.Throws<ObjectDisposedException>(() => writer.CopyTo(Stream.Null));
        Assert.Throws<ObjectDisposedException>(() => writer.Reset());
    }

    [Fact]
    public void Empty_writer_gives_empty_views()
    {
        using var writer = new PooledBufferWriter();
        Assert.Equal(0, writer.WrittenCount);
        Assert.True(writer.WrittenSequence.IsEmpty);
        Assert.Empty(writer.ToArray());
        var copy = new MemoryStream();
        writer.CopyTo(copy);
        Assert.Equal(0, copy.Length);
    }

    [Fact]
    public void More_than_2_GiB_can_be_written_and_read_back()
    {
        // Its own pool, retaining nothing, so the memory goes back to the runtime at the end.
        var pool = SegmentPool.Create(new SegmentPoolOptions { MaxRetainedSegments = 0, Name = "over-2gib" });
        const long Total = (2L << 30) + 12345;
        var writer = new PooledBufferWriter(pool);
        try
        {
            byte[] chunk = new byte[61_440];
            for (int i = 0; i < chunk.Length; i++)
            {
                chunk[i] = Pattern(i);
            }

            long written = 0;
            while (written < Total)
            {
                int n = (int)Math.Min(chunk.Length, Total - written);
                writer.Write(chunk.AsSpan(0, n));
                written += n;
            }

            Assert.Equal(Total, writer.WrittenCount);
            ReadOnlySequence<byte> sequence = writer.WrittenSequence;
            Assert.Equal(Total, sequence.Length);
            long probe = Total - 12345 + 1234;
            Assert.Equal(chunk[probe % chunk.Length], sequence.Slice(probe, 1).FirstSpan[0]);

            var check = new ChunkPatternStream(chunk);
            writer.CopyTo(check);
            Assert.Equal(Total, check.Position);
            Assert.Throws<InvalidOperationException>(() => writer.ToArray());
        }
        finally
        {
            writer.Dispose();
            GC.Collect();
        }
    }

    /// <summary>A write-only stream that checks what it receives is the chunk repeated.</summary>
    private sealed class ChunkPatternStream(byte[] chunk) : Stream
    {
        private long _position;

        public override bool CanRead => false;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => _position;
        public override long Position { get => _position; set => throw new NotSupportedException(); }
        public override void Flush() { }
        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

        public override void Write(ReadOnlySpan<byte> buffer)
        {
            while (!buffer.IsEmpty)
            {
                int at = (int)(_position % chunk.Length);
                int n = Math.Min(buffer.Length, chunk.Length - at);
                if (!buffer[..n].SequenceEqual(chunk.AsSpan(at, n)))
                {
                    throw new InvalidOperationException($"Content differs near byte {_position}.");
                }

                buffer = buffer[n..];
                _position += n;
            }
        }
    }
}
