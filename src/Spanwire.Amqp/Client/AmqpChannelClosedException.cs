namespace Spanwire.Amqp.Client;

/// <summary>A channel was closed: its calls fault with this; the connection and other channels go on.</summary>
public sealed class AmqpChannelClosedException : AmqpClosedException
{
    /// <summary>Creates the exception.</summary>
    /// <param name="channel">The channel number.</param>
    /// <param name="replyCode">The AMQP reply code; 0 when the connection was lost.</param>
    /// <param name="replyText">The reply text the broker sent, or a description of the loss.</param>
    /// <param name="classId">The class id of the method that caused the close, or 0.</param>
    /// <param name="methodId">The method id of the method that caused the close, or 0.</param>
    /// <param name="innerException">The cause, or null.</param>
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
