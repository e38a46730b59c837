using System.Buffers;
using System.Buffers.Binary;

namespace Spanwire.Amqp.Protocol;

/// <summary>A method frame being written by <see cref="AmqpFrameWriter.BeginMethod(System.Buffers.IBufferWriter{byte}, ushort, AmqpMethod, int)"/>.</summary>
public ref struct AmqpMethodFrame
{
    private readonly IBufferWriter<byte> _output;
    private readonly Span<byte> _frame;
    private AmqpMethodWriter _arguments;

    internal AmqpMethodFrame(IBufferWriter<byte> output, Span<byte> frame, AmqpMethodWriter arguments)
    {
        _output = output;
        _frame = frame;
        _arguments = arguments;
    }

    /// <summary>The arguments encoder; write every argument of the method in order.</summary>
    [System.Diagnostics.CodeAnalysis.UnscopedRef]
    public ref AmqpMethodWriter Arguments => ref _arguments;

    /// <summary>Fills in the payload size and frame end and commits the frame. Returns the frame's size.</summary>
    /// <returns>The number of bytes written.</returns>
    public readonly int Complete()
    {
        int payload = _arguments.Complete();
        BinaryPrimitives.WriteUInt32BigEndian(_frame[3..], (uint)payload);
        _frame[AmqpFraming.FrameHeaderSize + payload] = AmqpFraming.FrameEnd;
        int total = payload + AmqpFraming.FrameOverhead;
        _output.Advance(total);
        return total;
    }
}
