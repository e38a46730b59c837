using System.Buffers;

namespace Spanwire.Buffers;

// IBufferWriter<byte> at Position. At the end of the content (the usual case) spans come straight from the
// segments, as with PooledBufferWriter. Elsewhere the span is a temporary buffer written on Advance, as Write would
// write it: before the end the bytes overwrite the content there (a contiguous span across a segment boundary cannot
// exist otherwise); past the end the gap is zero-filled then, not when the span is handed out, so that asking for a
// span changes nothing.
public sealed partial class PooledStream
{
    /// <summary>A span to write at <see cref="Position"/>; commit it with <see cref="Advance"/>.</summary>
    /// <param name="sizeHint">The least room wanted; 0 for any.</param>
    /// <returns>A span of at least <paramref name="sizeHint"/> bytes (at least one).</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="sizeHint"/> is negative.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;

    /// <summary>Memory to write at <see cref="Position"/>; commit it with <see cref="Advance"/>.</summary>
    /// <param name="sizeHint">The least room wanted; 0 for any.</param>
    /// <returns>Memory of at least <paramref name="sizeHint"/> bytes (at least one).</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="sizeHint"/> is negative.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        EnsureNotDisposed();
        ArgumentOutOfRangeException.ThrowIfNegative(sizeHint);
        _chain.AbandonTemporary();
        if (_position == _chain.Length)
        {
            return _chain.GetTailMemory(sizeHint);
        }

        return _chain.RentTemporary(sizeHint, minimum: 256);
    }

    /// <summary>Commits <paramref name="count"/> bytes of the last span or memory handed out, moving <see cref="Position"/> past them.</summary>
    /// <param name="count">How many of the bytes handed out were written.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    /// <exception cref="InvalidOperationException"><paramref name="count"/> is more than was handed out.</exception>
    public void Advance(int count)
    {
        EnsureNotDisposed();
        if (!_chain.IsTemporaryHandedOut)
        {
            _chain.AdvanceTail(count);
            _position += count;
            return;
        }

        // The chain's own temporary buffer serves spans away from the end and spans larger than a segment at the end
        // alike: either way its bytes are written at the position, as Write writes them.
        byte[] taken = _chain.TakeTemporary(count);
        try
        {
            WriteCore(taken.AsSpan(0, count));
        }
        finally
        {
            TemporaryBuffer.Return(taken);
        }
    }
}
