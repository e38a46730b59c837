using System.Buffers;

namespace Spanwire.Buffers;

// IBufferWriter<byte> at Position. At the end of the content (the usual case) spans come straight from the
// segments, as with PooledBufferWriter. Before the end, the bytes committed overwrite the content there, so the span
// is a temporary buffer copied in on Advance: a contiguous span across a segment boundary cannot exist otherwise.
public sealed partial class PooledStream
{
    private byte[]? _overwriteBuffer;

    /// <summary>A span to write at <see cref="Position"/>; commit it with <see cref="Advance"/>.</summary>
    public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;

    /// <summary>Memory to write at <see cref="Position"/>; commit it with <see cref="Advance"/>.</summary>
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        EnsureNotDisposed();
        ArgumentOutOfRangeException.ThrowIfNegative(sizeHint);
        ReleaseOverwriteBuffer();
        long length = _chain.Length;
        if (_position > length)
        {
            _chain.AppendZeros(_position - length);
            length = _position;
        }

        if (_position == length)
        {
            return _chain.GetTailMemory(sizeHint);
        }

        _overwriteBuffer = ArrayPool<byte>.Shared.Rent(Math.Max(sizeHint, 256));
        return _overwriteBuffer;
    }

    /// <summary>Commits <paramref name="count"/> bytes of the last span or memory handed out, moving <see cref="Position"/> past them.</summary>
    public void Advance(int count)
    {
        EnsureNotDisposed();
        byte[]? overwrite = _overwriteBuffer;
        if (overwrite is null)
        {
            _chain.AdvanceTail(count);
            _position += count;
            return;
        }

        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count > overwrite.Length)
        {
            ThrowHelper.ThrowAdvancedTooFar(count, overwrite.Length);
        }

        _overwriteBuffer = null;
        try
        {
            WriteCore(overwrite.AsSpan(0, count));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(overwrite);
        }
    }

    private void ReleaseOverwriteBuffer()
    {
        if (_overwriteBuffer is { } buffer)
        {
            _overwriteBuffer = null;
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
