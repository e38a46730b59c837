using System.Buffers;
using System.Buffers.Binary;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Splits one direction of an AMQP 0-9-1 byte stream into frames. Input is a <see cref="ReadOnlySequence{T}"/> split
/// anywhere, even inside a frame header; the decoder answers "need more data" (false) or a frame, and checks the
/// declared size against frame_max before anything is buffered, the frame end, the heartbeat shape, and (unless
/// turned off) the content sequence: a content method, then its header, then body frames summing to the body size.
/// Faults throw <see cref="AmqpProtocolException"/> with the reply code and stream offset.
/// </summary>
/// <example>
/// <code>
/// var decoder = new AmqpFrameReader();
/// while (decoder.TryReadFrame(ref buffer, out AmqpFrame frame))
/// {
///     if (frame.Type == AmqpFrameType.Method)
///     {
///         AmqpMethodReader method = AmqpMethodReader.Parse(decoder.GetPayloadSpan(frame), frame.PayloadOffset);
///     }
/// }
/// // buffer now starts at the first byte not yet decoded: keep it for the next read.
/// </code>
/// </example>
public sealed class AmqpFrameReader
{
    private readonly Dictionary<ushort, ContentState> _content = [];
    private byte[] _scratch = [];
    private long _position;

    /// <summary>
    /// The largest frame accepted, frame overhead included; 0 means no limit. Starts at
    /// <see cref="AmqpFraming.DefaultFrameMax"/>; set it to the negotiated value after tuning.
    /// </summary>
    public uint FrameMax { get; set; } = AmqpFraming.DefaultFrameMax;

    /// <summary>Whether the stream may open with an 8-byte protocol header ("AMQP" and a version). Default true.</summary>
    public bool AllowProtocolHeader { get; set; } = true;

    /// <summary>Whether to check that content headers and bodies follow content methods as they must. Default true.</summary>
    public bool CheckContentSequence { get; set; } = true;

    /// <summary>The stream offset of the next undecoded byte.</summary>
    public long Position => _position;

    /// <summary>
    /// Reads the next frame from <paramref name="buffer"/>. On success the buffer is moved past the frame. On false
    /// the buffer is unchanged and holds less than a whole frame: append more input and call again.
    /// </summary>
    /// <exception cref="AmqpProtocolException">The input is malformed at <see cref="Position"/> or within the frame.</exception>
    /// <param name="buffer">The bytes received so far; on success, what follows the frame.</param>
    /// <param name="frame">The frame, when a whole one is there.</param>
    /// <returns>True when it succeeded; otherwise false (the out values are then default).</returns>
    public bool TryReadFrame(ref ReadOnlySequence<byte> buffer, out AmqpFrame frame)
    {
        frame = default;
        if (buffer.IsEmpty)
        {
            return false;
        }

        Span<byte> header = stackalloc byte[AmqpFraming.FrameHeaderSize + 1];
        if (_position == 0 && FirstByte(buffer) == (byte)'A')
        {
            return TryReadProtocolHeader(ref buffer, header, out frame);
        }

        // The common case: the whole frame sits in the first segment, so it is checked on one span.
        ReadOnlySpan<byte> first = buffer.FirstSpan;
        if (first.Length >= AmqpFraming.FrameOverhead && TryReadContiguous(ref buffer, first, out frame))
        {
            return true;
        }

        if (buffer.Length < AmqpFraming.FrameHeaderSize)
        {
            return false;
        }

        buffer.Slice(0, AmqpFraming.FrameHeaderSize).CopyTo(header);
        byte type = header[0];
        ushort channel = BinaryPrimitives.ReadUInt16BigEndian(header[1..]);
        uint size = BinaryPrimitives.ReadUInt32BigEndian(header[3..]);
        if (type is not (1 or 2 or 3 or 8))
        {
            AmqpThrow.Protocol(AmqpReplyCode.FrameError, _position, $"Unknown frame type {type}; AMQP 0-9-1 has 1 method, 2 header, 3 body and 8 heartbeat.");
        }

        if (FrameMax != 0 && size > FrameMax - AmqpFraming.FrameOverhead)
        {
            AmqpThrow.Protocol(AmqpReplyCode.FrameError, _position + 3, $"A frame of {size + (ulong)AmqpFraming.FrameOverhead} bytes exceeds frame_max {FrameMax}.");
        }

        if (buffer.Length < AmqpFraming.FrameOverhead + (long)size)
        {
            return false;
        }

        long endAt = AmqpFraming.FrameHeaderSize + (long)size;
        byte frameEnd = buffer.Slice(endAt, 1).FirstSpan[0];
        if (frameEnd != AmqpFraming.FrameEnd)
        {
            AmqpThrow.Protocol(AmqpReplyCode.FrameError, _position + endAt, $"The frame end is 0x{frameEnd:X2}, not 0xCE: the frame's size or content is wrong.");
        }

        var frameType = (AmqpFrameType)type;
        if (frameType == AmqpFrameType.Heartbeat && (channel != 0 || size != 0))
        {
            AmqpThrow.Protocol(AmqpReplyCode.FrameError, _position, $"A heartbeat must be empty and on channel 0; this one is on channel {channel} with {size} bytes.");
        }

        frame = Accept(ref buffer, frameType, channel, size, CheckContentSequence);
        return true;
    }

    // Decodes a frame that lies whole in the first segment; false (nothing consumed) sends the caller to the general path.
    private bool TryReadContiguous(ref ReadOnlySequence<byte> buffer, ReadOnlySpan<byte> first, out AmqpFrame frame)
    {
        frame = default;
        byte type = first[0];
        uint size = BinaryPrimitives.ReadUInt32BigEndian(first[3..]);
        if (type is not (1 or 2 or 3 or 8) || (FrameMax != 0 && size > FrameMax - AmqpFraming.FrameOverhead)
            || size > (uint)(first.Length - AmqpFraming.FrameOverhead) || first[AmqpFraming.FrameHeaderSize + (int)size] != AmqpFraming.FrameEnd)
        {
            return false;
        }

        ushort channel = BinaryPrimitives.ReadUInt16BigEndian(first[1..]);
        var frameType = (AmqpFrameType)type;
        if (frameType == AmqpFrameType.Heartbeat && (channel != 0 || size != 0))
        {
            return false;
        }

        bool checkSequence = CheckContentSequence && (frameType != AmqpFrameType.Method || _content.Count != 0 || MethodHasContent(first));
        frame = Accept(ref buffer, frameType, channel, size, checkSequence);
        return true;
    }

    // A frame that passed the framing checks: check its place in the content sequence, then consume it.
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private AmqpFrame Accept(ref ReadOnlySequence<byte> buffer, AmqpFrameType type, ushort channel, uint size, bool checkSequence)
    {
        ReadOnlySequence<byte> payload = buffer.Slice(AmqpFraming.FrameHeaderSize, size);
        if (checkSequence)
        {
            CheckSequence(type, channel, payload, _position + AmqpFraming.FrameHeaderSize);
        }

        var frame = new AmqpFrame(type, channel, payload, _position);
        long length = AmqpFraming.FrameOverhead + (long)size;
        _position += length;
        buffer = buffer.Slice(length);
        return frame;
    }

    // True unless the frame is a known method without content (those need no sequence bookkeeping).
    private static bool MethodHasContent(ReadOnlySpan<byte> frame) =>
        frame.Length < AmqpFraming.FrameOverhead + 4
        || AmqpMethods.Find(BinaryPrimitives.ReadUInt16BigEndian(frame[7..]), BinaryPrimitives.ReadUInt16BigEndian(frame[9..])) is not { HasContent: false };

    /// <summary>
    /// The frame's payload as one span: a slice of the input when it lies in one segment, otherwise a copy in the
    /// decoder's scratch buffer, valid until the next call. Meant for method and header frames; read body payloads
    /// from <see cref="AmqpFrame.Payload"/>.
    /// </summary>
    /// <param name="frame">A frame this reader returned.</param>
    /// <returns>The value.</returns>
    public ReadOnlySpan<byte> GetPayloadSpan(in AmqpFrame frame)
    {
        ReadOnlySequence<byte> payload = frame.Payload;
        if (payload.IsSingleSegment)
        {
            return payload.FirstSpan;
        }

        int length = checked((int)payload.Length);
        if (_scratch.Length < length)
        {
            _scratch = new byte[Math.Max(length, Math.Min(2 * _scratch.Length, 80 * 1024))];
        }

        payload.CopyTo(_scratch);
        return _scratch.AsSpan(0, length);
    }

    /// <summary>Forgets the position and content state, to decode a new stream.</summary>
    public void Reset()
    {
        _position = 0;
        _content.Clear();
    }

    private bool TryReadProtocolHeader(ref ReadOnlySequence<byte> buffer, Span<byte> header, out AmqpFrame frame)
    {
        frame = default;
        int available = (int)Math.Min(buffer.Length, 8);
        buffer.Slice(0, available).CopyTo(header);
        if (!header[..Math.Min(available, 4)].SequenceEqual("AMQP"u8[..Math.Min(available, 4)]))
        {
            AmqpThrow.Protocol(AmqpReplyCode.FrameError, 0, "The stream starts with 'A' but not with the protocol header \"AMQP\".");
        }

        if (available < 8)
        {
            return false;
        }

        if (!AllowProtocolHeader)
        {
            AmqpThrow.Protocol(AmqpReplyCode.FrameError, 0, "A protocol header is not expected on this stream.");
        }

        frame = new AmqpFrame(AmqpFrameType.ProtocolHeader, 0, buffer.Slice(4, 4), 0);
        _position = 8;
        buffer = buffer.Slice(8);
        return true;
    }

    private void CheckSequence(AmqpFrameType type, ushort channel, ReadOnlySequence<byte> payload, long payloadOffset)
    {
        if (type == AmqpFrameType.Heartbeat)
        {
            return;
        }

        ContentState state = _content.GetValueOrDefault(channel); // a channel with no content under way has the default state
        Span<byte> head = stackalloc byte[12];
        switch (type)
        {
            case AmqpFrameType.Method:
                if (state.Expecting != Expecting.Nothing)
                {
                    AmqpThrow.Protocol(AmqpReplyCode.UnexpectedFrame, payloadOffset - AmqpFraming.FrameHeaderSize,
                        $"A method frame on channel {channel} arrived while a content {(state.Expecting == Expecting.Header ? "header" : "body")} was due.");
                }

                if (payload.Length < 4)
                {
                    AmqpThrow.Protocol(AmqpReplyCode.FrameError, payloadOffset, $"A method frame payload needs at least 4 bytes; it has {payload.Length}.");
                }

                payload.Slice(0, 4).CopyTo(head);
                ushort classId = BinaryPrimitives.ReadUInt16BigEndian(head);
                ushort methodId = BinaryPrimitives.ReadUInt16BigEndian(head[2..]);
                AmqpMethod? method = AmqpMethods.Find(classId, methodId);
                if (method is null)
                {
                    AmqpThrow.Protocol(AmqpReplyCode.CommandInvalid, payloadOffset, $"Unknown method: class {classId}, method {methodId}.");
                }

                if (method.HasContent)
                {
                    _content[channel] = new ContentState(Expecting.Header, classId, 0);
                }

                break;

            case AmqpFrameType.ContentHeader:
                if (state.Expecting != Expecting.Header)
                {
                    AmqpThrow.Protocol(AmqpReplyCode.UnexpectedFrame, payloadOffset - AmqpFraming.FrameHeaderSize,
                        $"A content header on channel {channel} that follows no content method.");
                }

                if (payload.Length < 14)
                {
                    AmqpThrow.Protocol(AmqpReplyCode.FrameError, payloadOffset, $"A content header payload needs at least 14 bytes; it has {payload.Length}.");
                }

                payload.Slice(0, 12).CopyTo(head);
                if (BinaryPrimitives.ReadUInt16BigEndian(head) != state.ClassId)
                {
                    AmqpThrow.Protocol(AmqpReplyCode.FrameError, payloadOffset,
                        $"The content header's class {BinaryPrimitives.ReadUInt16BigEndian(head)} differs from its method's class {state.ClassId}.");
                }

                ulong bodySize = BinaryPrimitives.ReadUInt64BigEndian(head[4..]);
                SetOrClear(channel, bodySize == 0 ? default : new ContentState(Expecting.Body, state.ClassId, bodySize));
                break;

            default:
                if (state.Expecting != Expecting.Body)
                {
                    AmqpThrow.Protocol(AmqpReplyCode.UnexpectedFrame, payloadOffset - AmqpFraming.FrameHeaderSize,
                        $"A body frame on channel {channel} that follows no content header (or a body already complete).");
                }

                if ((ulong)payload.Length > state.Remaining)
                {
                    AmqpThrow.Protocol(AmqpReplyCode.FrameError, payloadOffset,
                        $"A body frame of {payload.Length} bytes, but only {state.Remaining} bytes of the declared body size remain.");
                }

                ulong remaining = state.Remaining - (ulong)payload.Length;
                SetOrClear(channel, remaining == 0 ? default : state with { Remaining = remaining });
                break;
        }
    }

    private void SetOrClear(ushort channel, ContentState state)
    {
        if (state.Expecting == Expecting.Nothing)
        {
            _content.Remove(channel);
        }
        else
        {
            _content[channel] = state;
        }
    }

    private static byte FirstByte(in ReadOnlySequence<byte> buffer)
    {
        ReadOnlySpan<byte> first = buffer.FirstSpan;
        if (!first.IsEmpty)
        {
            return first[0];
        }

        Span<byte> one = stackalloc byte[1];
        buffer.Slice(0, 1).CopyTo(one);
        return one[0];
    }

    private enum Expecting : byte
    {
        Nothing,
        Header,
        Body,
    }

    private readonly record struct ContentState(Expecting Expecting, ushort ClassId, ulong Remaining);
}
