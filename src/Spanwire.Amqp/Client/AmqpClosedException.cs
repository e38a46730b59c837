namespace Spanwire.Amqp.Client;

/// <summary>
/// A channel or connection was closed, by the broker (with its reply code and text) or because the connection was
/// lost. Every operation pending on what closed faults with it.
/// </summary>
public class AmqpClosedException : Exception
{
    /// <summary>Creates the exception.</summary>
    public AmqpClosedException(ushort replyCode, string replyText, ushort classId, ushort methodId, string message, Exception? innerException = null)
        : base(message, innerException)
    {
        ReplyCode = replyCode;
        ReplyText = replyText;
        ClassId = classId;
        MethodId = methodId;
    }

    /// <summary>The reply code (404 not-found, 406 precondition-failed, 320 connection-forced, ...); 0 when the connection was lost.</summary>
    public ushort ReplyCode { get; }

    /// <summary>The broker's reply text, or what happened to the connection.</summary>
    public string ReplyText { get; }

    /// <summary>The class id of the method that caused the close, or 0.</summary>
    public ushort ClassId { get; }

    /// <summary>The method id of the method that caused the close, or 0.</summary>
    public ushort MethodId { get; }
}

/// <summary>A channel was closed: its calls fault with this; the connection and other channels go on.</summary>
public sealed class AmqpChannelClosedException : AmqpClosedException
{
    /// <summary>Creates the exception.</summary>
    public AmqpChannelClosedException(ushort channel, ushort replyCode, string replyText, ushort classId = 0, ushort methodId = 0, Exception? innerException = null)
        : base(replyCode, replyText, classId, methodId, Describe(channel, replyCode, replyText, classId, methodId), innerException)
    {
        Channel = channel;
    }

    /// <summary>The channel number.</summary>
    public ushort Channel { get; }

    private static string Describe(ushort channel, ushort code, string text, ushort classId, ushort methodId) =>
        $"Channel {channel} closed: {code} {text}" + (classId != 0 ? $" (in reply to {Protocol.AmqpMethods.Find(classId, methodId)?.Name ?? $"{classId}.{methodId}"})" : "");
}

/// <summary>The connection was closed by the broker or lost; every pending operation on it faults with this.</summary>
public sealed class AmqpConnectionClosedException : AmqpClosedException
{
    /// <summary>Creates the exception.</summary>
    public AmqpConnectionClosedException(ushort replyCode, string replyText, ushort classId = 0, ushort methodId = 0, Exception? innerException = null)
        : base(replyCode, replyText, classId, methodId,
            replyCode == 0 ? $"Connection lost: {replyText}" : $"Connection closed: {replyCode} {replyText}", innerException)
    {
    }

    /// <summary>What callers see for a connection ended by <paramref name="error"/>: protocol and close exceptions as they are, anything else (a socket error) as a lost connection.</summary>
    internal static Exception ForFailure(Exception error) => error switch
    {
        Protocol.AmqpProtocolException or AmqpClosedException => error,
        _ => new AmqpConnectionClosedException(0, $"the socket failed: {error.Message}", innerException: error),
    };
}

/// <summary>The broker refused (nacked) one or more publishes.</summary>
public sealed class AmqpPublishNackedException : Exception
{
    /// <summary>Creates the exception.</summary>
    public AmqpPublishNackedException(long count)
        : base(count == 1 ? "The broker nacked the publish." : $"The broker nacked {count} publishes.")
    {
        Count = count;
    }

    /// <summary>How many publishes were nacked.</summary>
    public long Count { get; }
}
