using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Protocol;

public static partial class AmqpFrameWriter
{
    /// <summary>
    /// Body pieces of at least this many bytes are borrowed, not copied, when the output is an
    /// <see cref="IGatherBufferWriter"/> and the body comes as memory or a sequence. Below it a copy costs less than
    /// the extra piece it would add to the output.
    /// </summary>
    public const int BorrowThreshold = 1024;

    /// <summary>
    /// Writes a whole basic.publish: the method frame, the content header frame and the body frames, in one pass;
    /// the first two frames, and a body that fits one frame of at most 4 KiB, in one reservation. Returns the bytes
    /// written.
    /// </summary>
    /// <exception cref="ArgumentException">A name or property is over 255 UTF-8 bytes, or the header exceeds frame_max.</exception>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="exchange">The exchange to publish to (empty for the default exchange).</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="mandatory">Whether the broker returns the message (basic.return) when no queue takes it.</param>
    /// <param name="immediate">The immediate flag (RabbitMQ refuses it; kept because the wire format has it).</param>
    /// <param name="properties">The message properties.</param>
    /// <param name="body">The message body.</param>
    /// <param name="frameMax">The largest frame the connection negotiated, in bytes (0 for no limit); the body is split into frames that fit.</param>
    /// <returns>The number of bytes written, every frame included.</returns>
    [OverloadResolutionPriority(1)]
    public static long WriteBasicPublish(IBufferWriter<byte> output, ushort channel, ReadOnlySpan<char> exchange, ReadOnlySpan<char> routingKey,
        bool mandatory, bool immediate, in BasicProperties properties, ReadOnlySpan<byte> body, uint frameMax)
    {
        ArgumentNullException.ThrowIfNull(output);
        bool oneFrame = IsOneSmallFrame(body.Length, CheckFrameMax(frameMax));
        int head = WritePublishHead(output, channel, exchange, routingKey, mandatory, immediate, properties, (ulong)body.Length, frameMax,
            oneFrame ? body : default, out _);
        return oneFrame ? head : head + WriteBody(output, channel, body, frameMax);
    }

    /// <summary>
    /// As the span form; when <paramref name="output"/> is an <see cref="IGatherBufferWriter"/>, a body of at least
    /// <see cref="BorrowThreshold"/> bytes is borrowed rather than copied: keep it unchanged until the output is consumed.
    /// </summary>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="exchange">The exchange to publish to (empty for the default exchange).</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="mandatory">Whether the broker returns the message (basic.return) when no queue takes it.</param>
    /// <param name="immediate">The immediate flag (RabbitMQ refuses it; kept because the wire format has it).</param>
    /// <param name="properties">The message properties.</param>
    /// <param name="body">The message body.</param>
    /// <param name="frameMax">The largest frame the connection negotiated, in bytes (0 for no limit); the body is split into frames that fit.</param>
    /// <returns>The number of bytes written, every frame included.</returns>
    public static long WriteBasicPublish(IBufferWriter<byte> output, ushort channel, ReadOnlySpan<char> exchange, ReadOnlySpan<char> routingKey,
        bool mandatory, bool immediate, in BasicProperties properties, ReadOnlyMemory<byte> body, uint frameMax)
    {
        if (output is not IGatherBufferWriter || body.Length < BorrowThreshold)
        {
            return WriteBasicPublish(output, channel, exchange, routingKey, mandatory, immediate, properties, body.Span, frameMax);
        }

        CheckFrameMax(frameMax);
        int head = WritePublishHead(output, channel, exchange, routingKey, mandatory, immediate, properties, (ulong)body.Length, frameMax, default, out _);
        return head + WriteBody(output, channel, new ReadOnlySequence<byte>(body), frameMax);
    }

    /// <summary>
    /// Writes a whole basic.publish with a body held in a sequence (for example a <c>PooledBufferWriter</c>'s
    /// written sequence). When <paramref name="output"/> is an <see cref="IGatherBufferWriter"/>, pieces of at least
    /// <see cref="BorrowThreshold"/> bytes are borrowed rather than copied. Returns the bytes written.
    /// </summary>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="exchange">The exchange to publish to (empty for the default exchange).</param>
    /// <param name="routingKey">The routing key.</param>
    /// <param name="mandatory">Whether the broker returns the message (basic.return) when no queue takes it.</param>
    /// <param name="immediate">The immediate flag (RabbitMQ refuses it; kept because the wire format has it).</param>
    /// <param name="properties">The message properties.</param>
    /// <param name="body">The message body.</param>
    /// <param name="frameMax">The largest frame the connection negotiated, in bytes (0 for no limit); the body is split into frames that fit.</param>
    /// <returns>The number of bytes written, every frame included.</returns>
    public static long WriteBasicPublish(IBufferWriter<byte> output, ushort channel, ReadOnlySpan<char> exchange, ReadOnlySpan<char> routingKey,
        bool mandatory, bool immediate, in BasicProperties properties, in ReadOnlySequence<byte> body, uint frameMax)
    {
        ArgumentNullException.ThrowIfNull(output);
        CheckFrameMax(frameMax);
        int head = WritePublishHead(output, channel, exchange, routingKey, mandatory, immediate, properties, (ulong)body.Length, frameMax, default, out _);
        return head + WriteBody(output, channel, body, frameMax);
    }

    /// <summary>
    /// Writes a whole basic.publish from a template: its two head frames are copied with this channel and body size
    /// filled in, then the body frames. The head, and a body that fits one frame of at most 4 KiB, go into one
    /// reservation. Returns the bytes written.
    /// </summary>
    /// <exception cref="ArgumentException">The template's content header exceeds frame_max.</exception>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="template">The exchange, routing key, flags and properties, encoded once.</param>
    /// <param name="body">The message body.</param>
    /// <param name="frameMax">The largest frame the connection negotiated, in bytes (0 for no limit); the body is split into frames that fit.</param>
    /// <returns>The number of bytes written, every frame included.</returns>
    [OverloadResolutionPriority(1)]
    public static long WriteBasicPublish(IBufferWriter<byte> output, ushort channel, AmqpPublishTemplate template, ReadOnlySpan<byte> body, uint frameMax)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(template);
        CheckTemplate(template, CheckFrameMax(frameMax));
        if (!IsOneSmallFrame(body.Length, frameMax))
        {
            return WriteTemplateHead(output, channel, template, body.Length) + WriteBody(output, channel, body, frameMax);
        }

        int headLength = template.HeadLength;
        int total = headLength + (body.IsEmpty ? 0 : body.Length + AmqpFraming.FrameOverhead);
        Span<byte> span = output.GetSpan(total);
        template.CopyHead(span, channel, (ulong)body.Length);
        if (!body.IsEmpty)
        {
            WriteWholeBodyFrame(span[headLength..], channel, body);
        }

        output.Advance(total);
        return total;
    }

    /// <summary>
    /// As the span form; when <paramref name="output"/> is an <see cref="IGatherBufferWriter"/>, a body of at least
    /// <see cref="BorrowThreshold"/> bytes is borrowed rather than copied: keep it unchanged until the output is consumed.
    /// </summary>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="template">The exchange, routing key, flags and properties, encoded once.</param>
    /// <param name="body">The message body.</param>
    /// <param name="frameMax">The largest frame the connection negotiated, in bytes (0 for no limit); the body is split into frames that fit.</param>
    /// <returns>The number of bytes written, every frame included.</returns>
    public static long WriteBasicPublish(IBufferWriter<byte> output, ushort channel, AmqpPublishTemplate template, ReadOnlyMemory<byte> body, uint frameMax)
    {
        if (output is not IGatherBufferWriter || body.Length < BorrowThreshold)
        {
            return WriteBasicPublish(output, channel, template, body.Span, frameMax);
        }

        return WriteBasicPublish(output, channel, template, new ReadOnlySequence<byte>(body), frameMax);
    }

    /// <summary>
    /// Writes a whole basic.publish from a template with a body held in a sequence. When <paramref name="output"/> is
    /// an <see cref="IGatherBufferWriter"/>, pieces of at least <see cref="BorrowThreshold"/> bytes are borrowed rather
    /// than copied. Returns the bytes written.
    /// </summary>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="template">The exchange, routing key, flags and properties, encoded once.</param>
    /// <param name="body">The message body.</param>
    /// <param name="frameMax">The largest frame the connection negotiated, in bytes (0 for no limit); the body is split into frames that fit.</param>
    /// <returns>The number of bytes written, every frame included.</returns>
    public static long WriteBasicPublish(IBufferWriter<byte> output, ushort channel, AmqpPublishTemplate template, in ReadOnlySequence<byte> body, uint frameMax)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(template);
        CheckTemplate(template, CheckFrameMax(frameMax));
        return WriteTemplateHead(output, channel, template, body.Length) + WriteBody(output, channel, body, frameMax);
    }

    /// <summary>Writes a template's two head frames on their own (the body frames follow apart); returns their length.</summary>
    private static int WriteTemplateHead(IBufferWriter<byte> output, ushort channel, AmqpPublishTemplate template, long bodyLength)
    {
        int headLength = template.HeadLength;
        template.CopyHead(output.GetSpan(headLength), channel, (ulong)bodyLength);
        output.Advance(headLength);
        return headLength;
    }

    /// <summary>Whether a body goes into the head's reservation: it fits one frame of at most 4 KiB.</summary>
    private static bool IsOneSmallFrame(int bodyLength, uint frameMax) =>
        bodyLength <= ContiguousLimit && bodyLength <= AmqpFraming.GetMaxBodyFramePayload(frameMax);

    private static void CheckTemplate(AmqpPublishTemplate template, uint frameMax)
    {
        if (frameMax != 0 && template.HeaderPayloadSize > frameMax - AmqpFraming.FrameOverhead)
        {
            ThrowHeaderTooLarge(template.HeaderPayloadSize, frameMax);
        }
    }

    /// <summary>Writes the method and content header frames (and <paramref name="bodyFrame"/> as one body frame); returns the bytes written.</summary>
    internal static int WritePublishHead(IBufferWriter<byte> output, ushort channel, ReadOnlySpan<char> exchange, ReadOnlySpan<char> routingKey,
        bool mandatory, bool immediate, in BasicProperties properties, ulong bodySize, uint frameMax, ReadOnlySpan<byte> bodyFrame, out int headerFrameAt)
    {
        // The callers have checked output and frameMax. One pass: reserve the most the frames can take (from string
        // lengths), write them, then fill in the payload sizes. Each string is transcoded once, never measured apart.
        int maxMethod = 4 + 2 + AmqpPrimitives.GetMaxShortStringSize(exchange.Length) + AmqpPrimitives.GetMaxShortStringSize(routingKey.Length) + 1;
        int maxHeader = 12 + properties.GetMaxEncodedSize();
        int bodyFrameSize = bodyFrame.IsEmpty ? 0 : bodyFrame.Length + AmqpFraming.FrameOverhead;
        Span<byte> span = output.GetSpan(maxMethod + maxHeader + 2 * AmqpFraming.FrameOverhead + bodyFrameSize);
        // class 60, method 40, reserved short 0, exchange, routing key, the two bits.
        BinaryPrimitives.WriteUInt64BigEndian(span[AmqpFraming.FrameHeaderSize..], 0x003C_0028_0000_0000);
        int at = AmqpFraming.FrameHeaderSize + 6;
        at += AmqpPrimitives.WriteShortString(span[at..], exchange);
        at += AmqpPrimitives.WriteShortString(span[at..], routingKey);
        span[at++] = (byte)((mandatory ? 1 : 0) | (immediate ? 2 : 0));
        WriteFrameHeader(span, AmqpFrameType.Method, channel, at - AmqpFraming.FrameHeaderSize);
        span[at++] = AmqpFraming.FrameEnd;
        headerFrameAt = at;
        int headerPayload = AmqpContentHeader.Write(span[(at + AmqpFraming.FrameHeaderSize)..], 60, bodySize, properties);
        if (frameMax != 0 && headerPayload > frameMax - AmqpFraming.FrameOverhead)
        {
            ThrowHeaderTooLarge(headerPayload, frameMax);
        }

        WriteFrameHeader(span[at..], AmqpFrameType.ContentHeader, channel, headerPayload);
        at += AmqpFraming.FrameHeaderSize + headerPayload;
        span[at++] = AmqpFraming.FrameEnd;
        if (!bodyFrame.IsEmpty)
        {
            WriteWholeBodyFrame(span[at..], channel, bodyFrame);
            at += bodyFrameSize;
        }

        output.Advance(at);
        return at;
    }

    /// <summary>Writes one body frame whole into <paramref name="destination"/>.</summary>
    private static void WriteWholeBodyFrame(Span<byte> destination, ushort channel, ReadOnlySpan<byte> body)
    {
        WriteFrameHeader(destination, AmqpFrameType.ContentBody, channel, body.Length);
        body.CopyTo(destination[AmqpFraming.FrameHeaderSize..]);
        destination[AmqpFraming.FrameHeaderSize + body.Length] = AmqpFraming.FrameEnd;
    }

    [DoesNotReturn]
    private static void ThrowHeaderTooLarge(int headerPayload, uint frameMax) =>
        throw new ArgumentException($"The content header ({headerPayload + AmqpFraming.FrameOverhead} bytes) exceeds frame_max {frameMax}.", "properties");
}
