namespace Spanwire.Amqp.Client;

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
