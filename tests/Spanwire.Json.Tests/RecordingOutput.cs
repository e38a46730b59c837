using System.Buffers;
using System.Text;

namespace Spanwire.Json.Tests;

/// <summary>How a <see cref="RecordingOutput"/> hands out memory.</summary>
internal enum OutputKind
{
    /// <summary>As ArrayBufferWriter: at least the hint, often more.</summary>
    Growing,

    /// <summary>Exactly the hint (one byte for a hint of 0).</summary>
    ExactHint,

    /// <summary>A fixed total capacity; hands out whatever is left, which may be less than the hint.</summary>
    Fixed,

    /// <summary>As ExactHint, from memory that is not an array.</summary>
    NotAnArray,
}

/// <summary>
/// An IBufferWriter that records every GetMemory hint and Advance count, so a test can require that two writers ask
/// their output for the same room and commit the same bytes at the same moments, not only end with the same bytes.
/// </summary>
internal sealed class RecordingOutput(OutputKind kind, int capacity = 256) : IBufferWriter<byte>
{
    private readonly StringBuilder _log = new();
    private byte[] _written = new byte[64];
    private int _count;
    private byte[] _current = [];
    private int _currentLength;
    private Memory<byte> _handedOut;

    public string Log => _log.ToString();

    public ReadOnlySpan<byte> WrittenSpan => _written.AsSpan(0, _count);

    public void Advance(int count)
    {
        _log.Append('A').Append(count).Append(' ');
        if (count < 0 || count > _currentLength)
        {
            throw new InvalidOperationException($"Advance({count}) past the {_currentLength} bytes handed out.");
        }

        Append(_handedOut.Span[..count]);
        _handedOut = _handedOut[count..];
        _currentLength -= count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        int length = kind switch
        {
            OutputKind.Fixed => capacity - _count,
            OutputKind.Growing => Math.Max(Math.Max(sizeHint, 1), 256),
            _ => Math.Max(sizeHint, 1),
        };
        _log.Append('G').Append(sizeHint).Append('>').Append(length).Append(' ');
        _current = new byte[length];
        _currentLength = length;
        _handedOut = kind == OutputKind.NotAnArray ? new NotAnArray(_current).Memory : _current;
        return _handedOut;
    }

    public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;

    private void Append(ReadOnlySpan<byte> bytes)
    {
        if (_count + bytes.Length > _written.Length)
        {
            Array.Resize(ref _written, Math.Max(_written.Length * 2, _count + bytes.Length));
        }

        bytes.CopyTo(_written.AsSpan(_count));
        _count += bytes.Length;
    }

    /// <summary>Memory that TryGetArray cannot see through.</summary>
    private sealed class NotAnArray(byte[] array) : MemoryManager<byte>
    {
        public override Span<byte> GetSpan() => array;

        public override MemoryHandle Pin(int elementIndex = 0) => throw new NotSupportedException();

        public override void Unpin()
        {
        }

        protected override bool TryGetArray(out ArraySegment<byte> segment)
        {
            segment = default;
            return false;
        }

        protected override void Dispose(bool disposing)
        {
        }
    }
}
