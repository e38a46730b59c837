using System.Buffers;

namespace Spanwire.Amqp.Tests;

/// <summary>Byte helpers: hex vectors and inputs split into segments.</summary>
internal static class TestData
{
    /// <summary>Hex with spaces, and ASCII letters written as 'c', into bytes: "78 'x' 00".</summary>
    public static byte[] Hex(string text)
    {
        var bytes = new List<byte>();
        string[] parts = text.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        foreach (string part in parts)
        {
            if (part.Length == 3 && part[0] == '\'' && part[2] == '\'')
            {
                bytes.Add((byte)part[1]);
            }
            else
            {
                bytes.AddRange(Convert.FromHexString(part));
            }
        }

        return [.. bytes];
    }

    /// <summary>The bytes as a sequence of 1-byte segments with an empty segment between each.</summary>
    public static ReadOnlySequence<byte> OneByteSegments(ReadOnlySpan<byte> bytes) => Split(bytes, 1, emptyBetween: true);

    /// <summary>The bytes as a sequence of segments of <paramref name="size"/> bytes.</summary>
    public static ReadOnlySequence<byte> Split(ReadOnlySpan<byte> bytes, int size, bool emptyBetween = false)
    {
        if (bytes.IsEmpty)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        var first = new Segment(bytes[..Math.Min(size, bytes.Length)].ToArray(), 0);
        Segment last = first;
        for (int at = Math.Min(size, bytes.Length); at < bytes.Length; at += size)
        {
            if (emptyBetween)
            {
                last = last.Append([]);
            }

            last = last.Append(bytes.Slice(at, Math.Min(size, bytes.Length - at)).ToArray());
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(byte[] data, long runningIndex)
        {
            Memory = data;
            RunningIndex = runningIndex;
        }

        public Segment Append(byte[] data)
        {
            var next = new Segment(data, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }

    /// <summary>Every frame a decoder reads from the input, with payloads copied out.</summary>
    public static List<(AmqpFrameType Type, ushort Channel, byte[] Payload, long Offset)> DecodeAll(ReadOnlySequence<byte> input, uint frameMax = AmqpFraming.DefaultFrameMax)
    {
        var decoder = new AmqpFrameReader { FrameMax = frameMax };
        var frames = new List<(AmqpFrameType, ushort, byte[], long)>();
        while (decoder.TryReadFrame(ref input, out AmqpFrame frame))
        {
            frames.Add((frame.Type, frame.Channel, frame.Payload.ToArray(), frame.Offset));
        }

        Assert.True(input.IsEmpty, $"{input.Length} bytes were left undecoded.");
        return frames;
    }
}
