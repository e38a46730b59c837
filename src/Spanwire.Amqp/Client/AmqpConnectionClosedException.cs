namespace Spanwire.Amqp.Client;

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
