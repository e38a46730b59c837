using System.Buffers;

namespace Spanwire.Buffers;

// IBufferWriter<byte> at Position. At the end of the content (the usual case) spans come straight from the
// segments, as with PooledBufferWriter. Elsewhere the span is a temporary buffer written on Advance, as Write would
// write it: before the end the bytes overwrite the content there (a contiguous span across a segment boundary cannot
// exist otherwise); past the end the gap is zero-filled then, not when the span is handed out, so that asking for a
// span changes nothing.
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
        if (_position == _chain.Length)
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
