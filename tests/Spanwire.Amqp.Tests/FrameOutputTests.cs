using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Tests;

/// <summary>The client's writer loop: against a stream that fails, and holding wakes while the reader thread dispatches.</summary>
public sealed class FrameOutputTests
{
    /// <summary>
    /// A socket error in the loop must reach every later writer as a lost connection: the raw IOException once
    /// escaped from a publish made just after the broker went away.
    /// </summary>
    [Fact]
    public void A_socket_error_reaches_later_writers_as_a_lost_connection()
    {
        var output = new FrameOutput(SegmentPool.Shared);
        using (FrameOutput.Scope scope = output.Begin())
        {
            AmqpFrameWriter.WriteHeartbeat(scope.Writer);
        }

        Exception loopError = output.Run(new FailingStream());

        var lost = Assert.IsType<AmqpConnectionClosedException>(loopError);
        Assert.Equal(0, lost.ReplyCode);
        Assert.IsType<IOException>(lost.InnerException);
        Assert.Contains("the socket failed", lost.Message, StringComparison.Ordinal);
        // Each later writer gets an exception of its own reporting the kept one (never the kept object thrown again).
        var later = Assert.Throws<AmqpConnectionClosedException>(() => output.Begin().Dispose());
        Assert.NotSame(loopError, later);
        Assert.Same(loopError, later.InnerException);
        Assert.Equal(loopError.Message, later.Message);
        output.Release();
    }

    /// <summary>A protocol or close exception is what callers see as it is.</summary>
    [Fact]
    public void Protocol_and_close_exceptions_are_kept_as_they_are()
    {
        var protocol = new AmqpProtocolException(AmqpReplyCode.FrameError, 7, "bad frame");
        var closed = new AmqpConnectionClosedException(320, "CONNECTION_FORCED");
        Assert.Same(protocol, AmqpConnectionClosedException.ForFailure(protocol));
        Assert.Same(closed, AmqpConnectionClosedException.ForFailure(closed));
    }

    /// <summary>
    /// Frames the reader thread writes while it dispatches one socket read (acks and publishes of code resuming there)
    /// wake the loop once, at the end, and go out in one write; afterwards each write wakes it again.
    /// </summary>
    [Fact]
    public async Task Frames_written_during_a_deferral_go_out_together_when_it_ends()
    {
        var output = new FrameOutput(SegmentPool.Shared);
        var stream = new RecordingStream();
        Task<Exception> loop = Task.Factory.StartNew(() => output.Run(stream), TaskCreationOptions.LongRunning);

        output.BeginDeferral(); // on this thread, as the reader thread does; nothing below awaits until it ends
        for (int i = 0; i < 3; i++)
        {
            using FrameOutput.Scope scope = output.Begin();
            AmqpFrameWriter.WriteHeartbeat(scope.Writer);
        }

        Thread.Sleep(200); // the loop, never woken, has written nothing
        Assert.Empty(stream.Writes);
        output.EndDeferral();
        Assert.Equal([24], stream.WaitForWrites(1));

        using (FrameOutput.Scope scope = output.Begin())
        {
            AmqpFrameWriter.WriteHeartbeat(scope.Writer);
        }

        Assert.Equal([24, 8], stream.WaitForWrites(2));
        output.Fail(new ObjectDisposedException("test"));
        await loop.WaitAsync(TimeSpan.FromSeconds(10));
        output.Release();
    }

    private sealed class RecordingStream : MemoryStream
    {
        private readonly Lock _lock = new();

        public List<int> Writes { get; } = [];

        public override void Write(ReadOnlySpan<byte> buffer)
        {
            lock (_lock)
            {
                Writes.Add(buffer.Length);
            }
        }

        public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

        /// <summary>The sizes of the first <paramref name="count"/> writes, waiting up to 10 s for them.</summary>
        public int[] WaitForWrites(int count)
        {
            var deadline = DateTime.UtcNow.AddSeconds(10);
            while (DateTime.UtcNow < deadline)
            {
                lock (_lock)
                {
                    if (Writes.Count >= count)
                    {
                        return [.. Writes];
                    }
                }

                Thread.Sleep(5);
            }

            lock (_lock)
            {
                return [.. Writes];
            }
        }
    }

    private sealed class FailingStream : Stream
    {
        public override bool CanRead => false;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
        public override void Flush() { }
        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) => throw new IOException("Connection reset by peer");
        public override void Write(ReadOnlySpan<byte> buffer) => throw new IOException("Connection reset by peer");
    }
}
