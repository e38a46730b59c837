using System.Buffers;

namespace Spanwire.Buffers;

/// <summary>
/// The one oversize path of the buffer writers: when a span cannot be handed out in place (a request larger than a
/// segment, or a position inside or past the content of a stream), a buffer is rented from
/// <see cref="ArrayPool{T}.Shared"/>, and on Advance its committed bytes are handed to the owner's own write and the
/// buffer goes back. A new request before the commit abandons the old one, as the IBufferWriter contract allows.
/// </summary>
/// <example>
/// <code>
/// ReadOnlySpan&lt;byte&gt; committed = _temporary.TakeCommitted(count);
/// try { Append(committed); } finally { _temporary.ReturnTaken(); }
/// </code>
/// </example>
internal struct TemporaryBuffer
{
    private byte[]? _handedOut;
    private byte[]? _taken;

    /// <summary>Whether a buffer is handed out and not yet committed.</summary>
    public readonly bool IsHandedOut => _handedOut is not null;

    /// <summary>Rents a buffer of at least <paramref name="sizeHint"/> bytes (and at least <paramref name="minimum"/>), giving back one still out.</summary>
    public Memory<byte> Rent(int sizeHint, int minimum = 1)
    {
        Abandon();
        _handedOut = ArrayPool<byte>.Shared.Rent(Math.Max(sizeHint, minimum));
        return _handedOut;
    }

    /// <summary>
    /// The first <paramref name="count"/> bytes of the buffer handed out, for the owner to write; the buffer is no
    /// longer handed out, and goes back with <see cref="ReturnTaken"/> once they are written.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    /// <exception cref="InvalidOperationException"><paramref name="count"/> is more than the buffer holds.</exception>
    public ReadOnlySpan<byte> TakeCommitted(int count)
    {
        byte[] buffer = _handedOut!;
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count > buffer.Length)
        {
            ThrowHelper.ThrowAdvancedTooFar(count, buffer.Length);
        }

        _handedOut = null;
        _taken = buffer;
        return buffer.AsSpan(0, count);
    }

    /// <summary>Gives back the buffer of the last <see cref="TakeCommitted"/>.</summary>
    public void ReturnTaken()
    {
        if (_taken is { } taken)
        {
            _taken = null;
            ArrayPool<byte>.Shared.Return(taken);
        }
    }

    /// <summary>Gives back a buffer handed out and never committed.</summary>
    public void Abandon()
    {
        if (_handedOut is { } buffer)
        {
            _handedOut = null;
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
