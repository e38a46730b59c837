using System.Buffers;

namespace Spanwire.Buffers;

/// <summary>
/// The one oversize path of the buffer writers: when a span cannot be handed out in place (a request larger than a
/// segment, or a position inside or past the content of a stream), a buffer is rented from
/// <see cref="ArrayPool{T}.Shared"/>, and on Advance its committed bytes are handed to the owner's own write and the
/// buffer goes back. A new request before the commit abandons the old one, as the IBufferWriter contract allows.
/// </summary>
/// <remarks>One field, in place in its owner: the buffer taken for a commit lives in the caller's local, not here.</remarks>
/// <example>
/// <code>
/// byte[] taken = _temporary.TakeCommitted(count);
/// try { Append(taken.AsSpan(0, count)); } finally { TemporaryBuffer.Return(taken); }
/// </code>
/// </example>
internal struct TemporaryBuffer
{
    private byte[]? _handedOut;

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
    /// The buffer handed out, whose first <paramref name="count"/> bytes the owner is to write; it is no longer
    /// handed out, and goes back with <see cref="Return"/> once they are written.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    /// <exception cref="InvalidOperationException"><paramref name="count"/> is more than the buffer holds.</exception>
    public byte[] TakeCommitted(int count)
    {
        byte[] buffer = _handedOut!;
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count > buffer.Length)
        {
            ThrowHelper.ThrowAdvancedTooFar(count, buffer.Length);
        }

        _handedOut = null;
        return buffer;
    }

    /// <summary>Gives back a buffer from <see cref="TakeCommitted"/>.</summary>
    public static void Return(byte[] taken) => ArrayPool<byte>.Shared.Return(taken);

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
