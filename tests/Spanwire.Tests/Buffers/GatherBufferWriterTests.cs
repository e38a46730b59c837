using System.Buffers;
using Spanwire.Buffers;

namespace Spanwire.Tests.Buffers;

public sealed class GatherBufferWriterTests
{
    [Theory]
    [InlineData(16, 1)]   // the smallest segment: owned bytes split everywhere
    [InlineData(64, 2)]
    [InlineData(4096, 3)]
    public void Owned_and_borrowed_pieces_come_back_in_the_order_written(int segmentSize, int seed)
    {
        var pool = new TrackingSegmentPool(segmentSize);
        var random = new Random(seed);
        var expected = new MemoryStream();
        using (var writer = new GatherBufferWriter(pool))
        {
            long borrowed = 0;
            for (int i = 0; i < 500; i++)
            {
                byte[] chunk = new byte[random.Next(0, 3 * segmentSize)];
                random.NextBytes(chunk);
                switch (random.Next(3))
                {
                    case 0:
                        writer.Write(chunk);
                        break;
                    case 1:
                        chunk.CopyTo(writer.GetSpan(chunk.Length));
                        writer.Advance(chunk.Length);
                        break;
                    default:
                        // A slice, so borrowed memory that does not start at its array's start is covered too.
                        int skip = chunk.Length == 0 ? 0 : random.Next(chunk.Length);
                        writer.WriteBorrowed(chunk.AsMemory(skip));
                        borrowed += chunk.Length - skip;
                        expected.Write(chunk, skip, chunk.Length - skip);
                        continue;
                }

                expected.Write(chunk);
            }

            Assert.Equal(expected.Length, writer.WrittenCount);
            Assert.Equal(borrowed, writer.BorrowedCount);
            Assert.Equal(expected.ToArray(), writer.WrittenSequence.ToArray());
            Assert.Equal(expected.ToArray(), writer.ToArray());
            var copied = new MemoryStream();
            writer.CopyTo(copied);
            Assert.Equal(expected.ToArray(), copied.ToArray());
        }

        Assert.Equal(0, pool.Outstanding);
    }

    [Fact]
    public void Borrowed_memory_is_referenced_not_copied()
    {
        using var writer = new GatherBufferWriter();
        byte[] body = [1, 2, 3];
        writer.Write([0xAA]);
        writer.WriteBorrowed(body);
        writer.Write([0xBB]);
        body[1] = 42; // a change after the write shows through: nothing was copied
        Assert.Equal(new byte[] { 0xAA, 1, 42, 3, 0xBB }, writer.ToArray());
    }

    [Theory]
    // Only borrowed content, and borrowed pieces at the very start and end of owned bytes.
    [InlineData("B")]
    [InlineData("BB")]
    [InlineData("BO")]
    [InlineData("OB")]
    [InlineData("OBBO")]
    // An empty borrowed piece adds nothing.
    [InlineData("OEO")]
    [InlineData("E")]
    public void Borrowed_pieces_at_the_edges_keep_their_place(string layout)
    {
        using var writer = new GatherBufferWriter(new TrackingSegmentPool(16));
        var expected = new List<byte>();
        byte next = 1;
        foreach (char c in layout)
        {
            byte[] piece = c == 'E' ? [] : [next++, next++];
            if (c == 'O')
            {
                writer.Write(piece);
            }
            else
            {
                writer.WriteBorrowed(piece);
            }

            expected.AddRange(piece);
        }

        Assert.Equal(expected.ToArray(), writer.ToArray());
        Assert.Equal(expected.Count, writer.WrittenSequence.Length);
    }

    [Fact]
    public async Task CopyToAsync_writes_every_piece()
    {
        using var writer = new GatherBufferWriter(new TrackingSegmentPool(16));
        writer.Write(new byte[40]);
        writer.WriteBorrowed(Enumerable.Range(1, 50).Select(i => (byte)i).ToArray());
        writer.Write(new byte[] { 9, 9 });
        var copied = new MemoryStream();
        await writer.CopyToAsync(copied);
        Assert.Equal(writer.ToArray(), copied.ToArray());
        Assert.Equal(92, copied.Length);
    }

    [Fact]
    public void Reset_forgets_borrowed_pieces_and_returns_segments_and_the_writer_is_reusable()
    {
        var pool = new TrackingSegmentPool(16);
        using var writer = new GatherBufferWriter(pool);
        writer.Write(new byte[100]);
        writer.WriteBorrowed(new byte[10]);
        writer.Reset();
        Assert.Equal(0, writer.WrittenCount);
        Assert.Equal(0, writer.BorrowedCount);
        Assert.Equal(0, pool.Outstanding);
        Assert.True(writer.WrittenSequence.IsEmpty);

        writer.Write([7]);
        writer.WriteBorrowed(new byte[] { 8 });
        Assert.Equal(new byte[] { 7, 8 }, writer.ToArray());
    }

    [Fact]
    public void Views_allocate_nothing_once_warm()
    {
        using var writer = new GatherBufferWriter();
        byte[] body = new byte[2048];
        byte[] head = new byte[8];
        void Fill()
        {
            writer.Reset();
            for (int i = 0; i < 4; i++)
            {
                writer.Write(head);
                writer.WriteBorrowed(body);
            }
        }

        Fill();
        _ = writer.WrittenSequence;
        long before = GC.GetAllocatedBytesForCurrentThread();
        Fill();
        ReadOnlySequence<byte> view = writer.WrittenSequence;
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, allocated);
        Assert.Equal(4 * (8 + 2048), view.Length);
    }

    [Fact]
    public void A_disposed_writer_refuses_use()
    {
        var writer = new GatherBufferWriter();
        writer.Dispose();
        writer.Dispose(); // twice is fine
        Assert.Throws<ObjectDisposedException>(() => writer.WriteBorrowed(new byte[1]));
        Assert.Throws<ObjectDisposedException>(() => writer.GetSpan());
        Assert.Throws<ObjectDisposedException>(() => _ = writer.WrittenSequence);
    }
}
