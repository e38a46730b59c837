using System.Buffers;

namespace Spanwire.Benchmarks.BinaryXml;

/// <summary>The buffer-writer twin of Stream.Null: hands out the same 64 KiB again and again and keeps nothing.</summary>
public sealed class DiscardBufferWriter : IBufferWriter<byte>
{
    private readonly byte[] _buffer = new byte[64 * 1024];

    public void Advance(int count)
    {
    }

    public Memory<byte> GetMemory(int sizeHint = 0) => sizeHint <= _buffer.Length ? _buffer : new byte[sizeHint];

    public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
}
