using System.Buffers;

namespace Spanwire.BinaryXml.Xml;

/// <summary>An <see cref="IBufferWriter{T}"/> that hands out one pooled buffer and writes it to a stream when it fills or on flush.</summary>
internal sealed class StreamBufferWriter(Stream stream) : IBufferWriter<byte>, IDirectWriteTarget, IDisposable
{
    private const int ChunkSize = 16 * 1024;
    private byte[]? _buffer = ArrayPool<byte>.Shared.Rent(ChunkSize);
    private int _count;

    public void Advance(int count) => _count += count;

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        byte[] buffer = _buffer ?? throw new ObjectDisposedException(nameof(StreamBufferWriter));
        if (buffer.Length - _count < Math.Max(sizeHint, 1))
        {
            WriteOut();
            if (buffer.Length < sizeHint)
            {
                ArrayPool<byte>.Shared.Return(buffer);
                _buffer = buffer = ArrayPool<byte>.Shared.Rent(sizeHint);
            }
        }

        return buffer.AsMemory(_count);
    }

    public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;

    /// <summary>Writes what is buffered, the pending bytes included, then <paramref name="bytes"/> straight to the stream.</summary>
    /// <returns>The whole buffer, empty again.</returns>
    public byte[] WriteDirect(int pending, ReadOnlySpan<byte> bytes)
    {
        ObjectDisposedException.ThrowIf(_buffer is null, this);
        _count += pending;
        WriteOut();
        stream.Write(bytes);
        return _buffer;
    }

    private void WriteOut()
    {
        if (_count > 0)
        {
            stream.Write(_buffer!, 0, _count);
            _count = 0;
        }
    }

    public void Flush()
    {
        WriteOut();
        stream.Flush();
    }

    public async Task FlushAsync()
    {
        ObjectDisposedException.ThrowIf(_buffer is null, this);
        if (_count > 0)
        {
            await stream.WriteAsync(_buffer.AsMemory(0, _count)).ConfigureAwait(false);
            _count = 0;
        }

        await stream.FlushAsync().ConfigureAwait(false);
    }

    public void Dispose()
    {
        if (_buffer is not null)
        {
            WriteOut();
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = null;
        }
    }
}
