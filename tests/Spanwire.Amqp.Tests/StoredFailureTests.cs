using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

/// <summary>A kept failure is reported to every caller as an exception of its own: same type, codes and text, the kept one inside.</summary>
public sealed class StoredFailureTests
{
    public static TheoryData<Exception> Kept => new()
    {
        new AmqpConnectionClosedException(320, "CONNECTION_FORCED - broker shutdown", 10, 50),
        new AmqpChannelClosedException(7, 406, "PRECONDITION_FAILED", 50, 10),
        new AmqpProtocolException(AmqpReplyCode.FrameError, 1234, "a frame past frame_max"),
        new ObjectDisposedException("AmqpConnection"),
        new IOException("Connection reset by peer"),
    };

    [Theory]
    [MemberData(nameof(Kept))]
    public void Each_caller_gets_a_fresh_exception_carrying_the_kept_one(Exception kept)
    {
        Exception first = Record.Exception(() => StoredFailure.Throw(kept));
        Exception second = Record.Exception(() => StoredFailure.Throw(kept));

        Assert.NotSame(first, second);
        Assert.Same(kept, first.InnerException);
        Assert.Same(kept, second.InnerException);
        Assert.Null(kept.StackTrace); // the kept exception was never thrown again
        if (kept is AmqpClosedException or AmqpProtocolException or ObjectDisposedException)
        {
            Assert.IsType(kept.GetType(), first);
            Assert.Equal(kept.Message, first.Message);
        }
        else
        {
            AmqpConnectionClosedException closed = Assert.IsType<AmqpConnectionClosedException>(first);
            Assert.Contains(kept.Message, closed.Message, StringComparison.Ordinal);
        }
    }
}
