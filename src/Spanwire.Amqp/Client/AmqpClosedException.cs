namespace Spanwire.Amqp.Client;

/// <summary>
/// A channel or connection was closed, by the broker (with its reply code and text) or because the connection was
/// lost. Every operation pending on what closed faults with it.
/// </summary>
public class AmqpClosedException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="replyCode">The AMQP reply code (320 connection forced, 404 not found, 406 precondition failed, and so on); 0 when the connection was lost.</param>
    /// <param name="replyText">The reply text the broker sent, or a description of the loss.</param>
    /// <param name="classId">The class id of the method that caused the close, or 0.</param>
    /// <param name="methodId">The method id of the method that caused the close, or 0.</param>
    /// <param name="message">The exception message.</param>
    /// <param name="innerException">The cause, when the connection was lost (a socket or TLS error), or null.</param>
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

