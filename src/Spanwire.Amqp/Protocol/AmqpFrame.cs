using System.Buffers;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// One decoded frame: type, channel and payload (a slice of the input, not a copy). For
/// <see cref="AmqpFrameType.ProtocolHeader"/> the payload is the four bytes after "AMQP".
/// </summary>
public readonly struct AmqpFrame
{
    internal AmqpFrame(AmqpFrameType type, ushort channel, ReadOnlySequence<byte> payload, long offset)
    {
        Type = type;
        Channel = channel;
        Payload = payload;
        Offset = offset;
    }

    /// <summary>The frame type.</summary>
    public AmqpFrameType Type { get; }

    /// <summary>The channel number.</summary>
    public ushort Channel { get; }

    /// <summary>The payload, between the frame header and the frame end.</summary>
    public ReadOnlySequence<byte> Payload { get; }

    /// <summary>The stream offset of the frame's first byte.</summary>
    public long Offset { get; }

    /// <summary>The stream offset of the payload's first byte.</summary>
    public long PayloadOffset => Type == AmqpFrameType.ProtocolHeader ? Offset + 4 : Offset + AmqpFraming.FrameHeaderSize;

    /// <summary>The frame's size on the wire, header and frame end included.</summary>
    public long Length => Type == AmqpFrameType.ProtocolHeader ? 8 : Payload.Length + AmqpFraming.FrameOverhead;
}
