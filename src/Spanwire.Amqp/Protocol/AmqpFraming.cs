namespace Spanwire.Amqp.Protocol;

/// <summary>Framing constants of AMQP 0-9-1.</summary>
public static class AmqpFraming
{
    /// <summary>The octet that ends every frame.</summary>
    public const byte FrameEnd = 0xCE;

    /// <summary>Bytes a frame adds around its payload: type, channel, size (7) and the frame end (1).</summary>
    public const int FrameOverhead = 8;

    /// <summary>Bytes of the frame header: type (1), channel (2), payload size (4).</summary>
    public const int FrameHeaderSize = 7;

    /// <summary>The smallest frame_max a peer may ask for, and the size every peer accepts before tuning.</summary>
    public const int MinFrameMax = 4096;

    /// <summary>The frame_max RabbitMQ offers by default.</summary>
    public const int DefaultFrameMax = 131072;

    /// <summary>The protocol header a client opens with: "AMQP" 0 0 9 1.</summary>
    public static ReadOnlySpan<byte> ProtocolHeader => "AMQP\0\0\u0009\u0001"u8;

    /// <summary>A heartbeat frame: type 8, channel 0, empty payload.</summary>
    public static ReadOnlySpan<byte> HeartbeatFrame => [8, 0, 0, 0, 0, 0, 0, FrameEnd];

    /// <summary>
    /// The largest body piece one body frame carries under <paramref name="frameMax"/> (frame_max − 8);
    /// <see cref="int.MaxValue"/> when frame_max is 0 (no limit).
    /// </summary>
    /// <param name="frameMax">The largest frame the connection negotiated, in bytes (0 for no limit); the body is split into frames that fit.</param>
    /// <returns>The value.</returns>
    public static int GetMaxBodyFramePayload(uint frameMax) =>
        frameMax == 0 || frameMax > int.MaxValue ? int.MaxValue - FrameOverhead : checked((int)frameMax - FrameOverhead);

    /// <summary>How many body frames a body of <paramref name="bodyLength"/> bytes needs under <paramref name="frameMax"/> (0 for an empty body).</summary>
    /// <param name="bodyLength">The body length in bytes.</param>
    /// <param name="frameMax">The largest frame the connection negotiated, in bytes (0 for no limit); the body is split into frames that fit.</param>
    /// <returns>The value.</returns>
    public static long GetBodyFrameCount(long bodyLength, uint frameMax)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(bodyLength);
        if (frameMax != 0 && frameMax < MinFrameMax)
        {
            throw new ArgumentOutOfRangeException(nameof(frameMax), frameMax, $"frame_max must be 0 or at least {MinFrameMax}.");
        }

        long piece = GetMaxBodyFramePayload(frameMax);
        return (bodyLength + piece - 1) / piece;
    }
}
