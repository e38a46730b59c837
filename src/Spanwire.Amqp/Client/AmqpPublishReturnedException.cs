namespace Spanwire.Amqp.Client;

/// <summary>
/// A mandatory publish awaited for its confirm that the broker could not route: it sent the message back
/// (basic.return) before acking it. Carries the returned message with the broker's reply code and text.
/// </summary>
public sealed class AmqpPublishReturnedException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="publishSequenceNumber">The publish's sequence number on its channel.</param>
    /// <param name="returned">The message as the broker returned it.</param>
    public AmqpPublishReturnedException(ulong publishSequenceNumber, AmqpReturnedMessage returned)
        : base($"The broker returned the message published to exchange '{returned?.Exchange}' with routing key '{returned?.RoutingKey}': "
            + $"{returned?.ReplyCode} {returned?.ReplyText}")
    {
        ArgumentNullException.ThrowIfNull(returned);
        PublishSequenceNumber = publishSequenceNumber;
        Returned = returned;
    }

    /// <summary>The publish's sequence number on its channel (see <see cref="AmqpChannel.NextPublishSequenceNumber"/>).</summary>
    public ulong PublishSequenceNumber { get; }

    /// <summary>The returned message: reply code and text, exchange, routing key, properties and body.</summary>
    public AmqpReturnedMessage Returned { get; }

    /// <summary>The broker's reply code (312 NO_ROUTE).</summary>
    public ushort ReplyCode => Returned.ReplyCode;

    /// <summary>The broker's reply text.</summary>
    public string ReplyText => Returned.ReplyText;
}
