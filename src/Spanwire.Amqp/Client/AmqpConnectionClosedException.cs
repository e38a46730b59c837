namespace Spanwire.Amqp.Client;

/// <summary>The connection was closed by the broker or lost; every pending operation on it faults with this.</summary>
public sealed class AmqpConnectionClosedException : AmqpClosedException
{
    /// <summary>Creates the exception.</summary>
    /// <param name="replyCode">The AMQP reply code; 0 when the connection was lost.</param>
    /// <param name="replyText">The reply text the broker sent, or a description of the loss.</param>
    /// <param name="classId">The class id of the method that caused the close, or 0.</param>
    /// <param name="methodId">The method id of the method that caused the close, or 0.</param>
    /// <param name="innerException">The cause, when the connection was lost (a socket or TLS error), or null.</param>
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
