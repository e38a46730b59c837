using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Tests;

/// <summary>The client's writer loop, against a stream that fails.</summary>
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
        var later = Assert.Throws<AmqpConnectionClosedException>(() => output.Begin().Dispose());
        Assert.Same(loopError, later);
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
