using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Writes whole frames into an <see cref="IBufferWriter{T}"/> (a <c>PooledBufferWriter</c> for pooled segments):
/// method frames through <see cref="AmqpMethodWriter"/>, content headers, body frames split to frame_max, and a
/// whole publish in one pass with each size computed once.
/// </summary>
public static partial class AmqpFrameWriter
{
    // A frame up to this size is written into one contiguous reservation; larger body pieces are copied through
    // whatever spans the output hands out, so no reservation ever exceeds a pooled segment.
    private const int ContiguousLimit = 4096;

    /// <summary>Writes the protocol header "AMQP" 0 0 9 1.</summary>
    /// <param name="output">Where the frame bytes go.</param>
    public static void WriteProtocolHeader(IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        output.Write(AmqpFraming.ProtocolHeader);
    }

    /// <summary>Writes a heartbeat frame.</summary>
    /// <param name="output">Where the frame bytes go.</param>
    public static void WriteHeartbeat(IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        output.Write(AmqpFraming.HeartbeatFrame);
    }

    /// <summary>
    /// Starts a method frame with room for <paramref name="maxArgumentsSize"/> bytes of arguments; write them through
    /// <see cref="AmqpMethodFrame.Arguments"/>, then call <see cref="AmqpMethodFrame.Complete"/>.
    /// </summary>
    /// <example>
    /// <code>
    /// AmqpMethodFrame frame = AmqpFrameWriter.BeginMethod(output, channel: 1, AmqpMethods.QueueDeclare,
    ///     AmqpMethods.QueueDeclare.GetMaxArgumentsSize(table.EncodedLength));
    /// frame.Arguments.WriteShort(0);
    /// frame.Arguments.WriteShortString("jobs");
    /// // ... the five bits, then the arguments table
    /// frame.Complete();
    /// </code>
    /// </example>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="method">The method to write.</param>
    /// <param name="maxArgumentsSize">The most bytes the arguments can take (see AmqpMethod.GetMaxArgumentsSize).</param>
    /// <returns>The frame being written: its <c>Arguments</c> writer, and <c>Complete</c> to finish it.</returns>
    public static AmqpMethodFrame BeginMethod(IBufferWriter<byte> output, ushort channel, AmqpMethod method, int maxArgumentsSize)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(method);
        ArgumentOutOfRangeException.ThrowIfNegative(maxArgumentsSize);
        int size = AmqpFraming.FrameOverhead + 4 + maxArgumentsSize;
        Span<byte> span = output.GetSpan(size)[..size];
        span[0] = (byte)AmqpFrameType.Method;
        BinaryPrimitives.WriteUInt16BigEndian(span[1..], channel);
        return new AmqpMethodFrame(output, span, new AmqpMethodWriter(span[AmqpFraming.FrameHeaderSize..^1], method));
    }

    /// <summary>
    /// Starts a method frame with room for the method's arguments at their largest (<see cref="AmqpMethod.GetMaxArgumentsSize"/>),
    /// for a method without longstr or table arguments.
    /// </summary>
    /// <param name="output">Where the frame goes.</param>
    /// <param name="channel">The channel number.</param>
    /// <param name="method">The method.</param>
    /// <returns>The frame; write the arguments, then complete it.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The method has longstr or table arguments: use the overload with their size.</exception>
    public static AmqpMethodFrame BeginMethod(IBufferWriter<byte> output, ushort channel, AmqpMethod method)
    {
        ArgumentNullException.ThrowIfNull(method);
        if (method.VariableArgumentCount != 0)
        {
            throw new ArgumentOutOfRangeException(nameof(method), method.Name, $"{method.Name} has longstr or table arguments: pass their size to BeginMethod.");
        }

        return BeginMethod(output, channel, method, method.BoundedArgumentsSize);
    }

    /// <summary>Writes basic.ack as one frame.</summary>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="deliveryTag">The delivery tag the broker gave the message.</param>
    /// <param name="multiple">Whether every unacknowledged delivery up to and including this tag is acknowledged.</param>
    public static void WriteBasicAck(IBufferWriter<byte> output, ushort channel, ulong deliveryTag, bool multiple)
    {
        AmqpMethodFrame frame = BeginMethod(output, channel, AmqpMethods.BasicAck);
        frame.Arguments.WriteLongLong(deliveryTag);
        frame.Arguments.WriteBit(multiple);
        frame.Complete();
    }

    /// <summary>Writes a content header frame.</summary>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="classId">The AMQP class of the content (60, basic).</param>
    /// <param name="bodySize">The length of the body that follows, in bytes.</param>
    /// <param name="properties">The message properties.</param>
    public static void WriteContentHeader(IBufferWriter<byte> output, ushort channel, ushort classId, ulong bodySize, in BasicProperties properties)
    {
        ArgumentNullException.ThrowIfNull(output);
        int payload = AmqpContentHeader.GetEncodedSize(properties);
        Span<byte> span = output.GetSpan(payload + AmqpFraming.FrameOverhead);
        WriteFrameHeader(span, AmqpFrameType.ContentHeader, channel, payload);
        AmqpContentHeader.Write(span.Slice(AmqpFraming.FrameHeaderSize, payload), classId, bodySize, properties);
        span[AmqpFraming.FrameHeaderSize + payload] = AmqpFraming.FrameEnd;
        output.Advance(payload + AmqpFraming.FrameOverhead);
    }

    /// <summary>
    /// Writes a body as body frames of at most frame_max − 8 bytes each; an empty body writes nothing. Returns the
    /// bytes written.
    /// </summary>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="body">The message body.</param>
    /// <param name="frameMax">The largest frame the connection negotiated, in bytes (0 for no limit); the body is split into frames that fit.</param>
    /// <returns>The number of bytes written, every frame included.</returns>
    public static long WriteBody(IBufferWriter<byte> output, ushort channel, ReadOnlySpan<byte> body, uint frameMax)
    {
        ArgumentNullException.ThrowIfNull(output);
        int piece = AmqpFraming.GetMaxBodyFramePayload(CheckFrameMax(frameMax));
        long written = 0;
        while (!body.IsEmpty)
        {
            int length = Math.Min(piece, body.Length);
            WriteBodyFrame(output, channel, body[..length]);
            written += length + AmqpFraming.FrameOverhead;
            body = body[length..];
        }

        return written;
    }

    /// <summary>
    /// Writes a body held in a sequence as body frames; frames may span its segments. When <paramref name="output"/> is
    /// an <see cref="IGatherBufferWriter"/>, pieces of at least <see cref="BorrowThreshold"/> bytes are borrowed rather
    /// than copied: keep them unchanged until the output is consumed. Returns the bytes written.
    /// </summary>
    /// <param name="output">Where the frame bytes go.</param>
    /// <param name="channel">The channel number (0 for the connection itself).</param>
    /// <param name="body">The message body.</param>
    /// <param name="frameMax">The largest frame the connection negotiated, in bytes (0 for no limit); the body is split into frames that fit.</param>
    /// <returns>The number of bytes written, every frame included.</returns>
    public static long WriteBody(IBufferWriter<byte> output, ushort channel, in ReadOnlySequence<byte> body, uint frameMax)
    {
        ArgumentNullException.ThrowIfNull(output);
        IGatherBufferWriter? gather = output as IGatherBufferWriter;
        if (body.IsSingleSegment && (gather is null || body.Length < BorrowThreshold))
        {
            return WriteBody(output, channel, body.FirstSpan, frameMax);
        }

        long written = 0;
        long piece = AmqpFraming.GetMaxBodyFramePayload(CheckFrameMax(frameMax));
        ReadOnlySequence<byte> rest = body;
        while (!rest.IsEmpty)
        {
            long length = Math.Min(piece, rest.Length);
            Span<byte> head = output.GetSpan(AmqpFraming.FrameHeaderSize);
            WriteFrameHeader(head, AmqpFrameType.ContentBody, channel, (int)length);
            output.Advance(AmqpFraming.FrameHeaderSize);
            foreach (ReadOnlyMemory<byte> segment in rest.Slice(0, length))
            {
                if (gather is not null && segment.Length >= BorrowThreshold)
                {
                    gather.WriteBorrowed(segment);
                }
                else
                {
                    output.Write(segment.Span);
                }
            }

            output.GetSpan(1)[0] = AmqpFraming.FrameEnd;
            output.Advance(1);
            written += length + AmqpFraming.FrameOverhead;
            rest = rest.Slice(length);
        }

        return written;
    }

    private static void WriteBodyFrame(IBufferWriter<byte> output, ushort channel, ReadOnlySpan<byte> piece)
    {
        int total = piece.Length + AmqpFraming.FrameOverhead;
        Span<byte> span = output.GetSpan();
        if (span.Length < total && total <= ContiguousLimit)
        {
            span = output.GetSpan(total);
        }

        if (span.Length >= total)
        {
            WriteFrameHeader(span, AmqpFrameType.ContentBody, channel, piece.Length);
            piece.CopyTo(span[AmqpFraming.FrameHeaderSize..]);
            span[total - 1] = AmqpFraming.FrameEnd;
            output.Advance(total);
            return;
        }

        span = output.GetSpan(AmqpFraming.FrameHeaderSize);
        WriteFrameHeader(span, AmqpFrameType.ContentBody, channel, piece.Length);
        output.Advance(AmqpFraming.FrameHeaderSize);
        output.Write(piece);
        output.GetSpan(1)[0] = AmqpFraming.FrameEnd;
        output.Advance(1);
    }

    internal static void WriteFrameHeader(Span<byte> destination, AmqpFrameType type, ushort channel, int payloadSize)
    {
        destination[0] = (byte)type;
        BinaryPrimitives.WriteUInt16BigEndian(destination[1..], channel);
        BinaryPrimitives.WriteUInt32BigEndian(destination[3..], (uint)payloadSize);
    }

    private static uint CheckFrameMax(uint frameMax)
    {
        if (frameMax != 0 && frameMax < AmqpFraming.MinFrameMax)
        {
            ThrowFrameMaxTooSmall(frameMax);
        }

        return frameMax;
    }

    [DoesNotReturn]
    private static void ThrowFrameMaxTooSmall(uint frameMax) =>
        throw new ArgumentOutOfRangeException(nameof(frameMax), frameMax, $"frame_max must be 0 (no limit) or at least {AmqpFraming.MinFrameMax}.");
}

