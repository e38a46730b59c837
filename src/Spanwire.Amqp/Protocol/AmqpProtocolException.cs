namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Malformed or out-of-order AMQP 0-9-1 input. Carries the AMQP reply code a peer would close the connection with
/// (501 frame-error, 502 syntax-error, 503 command-invalid, 505 unexpected-frame) and the byte offset where decoding stopped.
/// </summary>
public sealed class AmqpProtocolException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="replyCode">The AMQP reply code, such as <see cref="AmqpReplyCode.FrameError"/>.</param>
    /// <param name="offset">The byte offset in the input at which the problem was found.</param>
    /// <param name="detail">What was wrong, without the offset.</param>
    /// <param name="innerException">The failure this one reports again, if any.</param>
    public AmqpProtocolException(ushort replyCode, long offset, string detail, Exception? innerException = null)
        : base($"{AmqpReplyCode.GetName(replyCode)} ({replyCode}) at byte {offset}: {detail}", innerException)
    {
        ReplyCode = replyCode;
        Offset = offset;
        Detail = detail;
    }

    /// <summary>The AMQP reply code that describes the fault.</summary>
    public ushort ReplyCode { get; }

    /// <summary>The byte offset in the input (counted from the start of the stream given to the decoder) where the fault was found.</summary>
    public long Offset { get; }

    /// <summary>What was wrong, without the code and offset.</summary>
    public string Detail { get; }
}
