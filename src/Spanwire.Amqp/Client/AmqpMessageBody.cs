using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Client;

/// <summary>
/// A received message body in pooled memory, in pieces of at most 64 KiB so none lands on the large object heap.
/// Its owner disposes it to give the memory back; any use after that throws <see cref="ObjectDisposedException"/>
/// instead of reading bytes that now belong to another message.
/// </summary>
/// <example>
/// <code>
/// await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(ct))
/// {
///     Handle(delivery.Body.Sequence);              // any size; valid until the next delivery is read
///     // delivery.Body.Span works only for a body in one piece (IsSingleSegment: always up to 64 KiB)
///     using AmqpMessageBody kept = delivery.TakeBody(); // or keep it: now yours to dispose
/// }
/// </code>
/// </example>
public sealed class AmqpMessageBody : IDisposable
{
    internal const int PieceSize = 64 * 1024;

    private byte[][] _pieces = [];
    private int _pieceCount;
    private long _length;
    private bool _disposed;

    internal AmqpMessageBody()
    {
    }

    /// <summary>The body's size in bytes.</summary>
    public long Length
    {
        get
        {
            ThrowIfDisposed();
            return _length;
        }
    }

    /// <summary>Whether the body is one contiguous piece (always true up to 64 KiB), so <see cref="Span"/> can be used.</summary>
    public bool IsSingleSegment
    {
        get
        {
            ThrowIfDisposed();
            return _pieceCount <= 1;
        }
    }

    /// <summary>The body's bytes, when it is one piece (<see cref="IsSingleSegment"/>); otherwise use <see cref="Sequence"/>.</summary>
    /// <exception cref="InvalidOperationException">The body is larger than one piece.</exception>
    public ReadOnlySpan<byte> Span
    {
        get
        {
            ThrowIfDisposed();
            if (_pieceCount > 1)
            {
                ThrowMultiplePieces();
            }

            return _pieceCount == 0 ? [] : _pieces[0].AsSpan(0, (int)_length);
        }
    }

    /// <summary>The body as a sequence over its pieces; valid until the body is disposed.</summary>
    public ReadOnlySequence<byte> Sequence
    {
        get
        {
            ThrowIfDisposed();
            if (_pieceCount <= 1)
            {
                return _pieceCount == 0 ? ReadOnlySequence<byte>.Empty : new ReadOnlySequence<byte>(_pieces[0], 0, (int)_length);
            }

            var first = new SequenceNode(_pieces[0].AsMemory(0, PieceSize), 0);
            SequenceNode last = first;
            for (int i = 1; i < _pieceCount; i++)
            {
                int size = (int)Math.Min(PieceSize, _length - ((long)i * PieceSize));
                last = last.Append(_pieces[i].AsMemory(0, size));
            }

            return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
        }
    }

    /// <summary>Copies the body into <paramref name="destination"/>, which must be at least <see cref="Length"/> bytes.</summary>
    /// <param name="destination">The exchange that receives the messages.</param>
    public void CopyTo(Span<byte> destination) => Sequence.CopyTo(destination);

    /// <summary>Copies the body into a new array, which stays valid after the body is disposed.</summary>
    /// <returns>A new array with the whole body.</returns>
    public byte[] ToArray() => Sequence.ToArray();

    /// <summary>Gives the pooled memory back. Calling it again does nothing.</summary>
    public void Dispose()
    {
        byte[][] pieces;
        int count;
        lock (this)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            pieces = _pieces;
            count = _pieceCount;
            _pieces = [];
            _pieceCount = 0;
        }

        for (int i = 0; i < count; i++)
        {
            ArrayPool<byte>.Shared.Return(pieces[i]);
        }
    }

    /// <summary>Appends received bytes; pieces are rented as bytes arrive, never from a declared size.</summary>
    internal void Append(in ReadOnlySequence<byte> data)
    {
        foreach (ReadOnlyMemory<byte> memory in data)
        {
            ReadOnlySpan<byte> source = memory.Span;
            while (!source.IsEmpty)
            {
                int offset = (int)(_length % PieceSize);
                if (offset == 0)
                {
                    AddPiece(source.Length);
                }

                byte[] piece = _pieces[_pieceCount - 1];
                int room = Math.Min(piece.Length, PieceSize) - offset;
                if (room <= 0)
                {
                    // The piece was rented small for a short first frame; grow it to a full piece.
                    piece = GrowLastPiece(offset);
                    room = PieceSize - offset;
                }

                int count = Math.Min(room, source.Length);
                source[..count].CopyTo(piece.AsSpan(offset));
                _length += count;
                source = source[count..];
            }
        }
    }

    private void AddPiece(int firstChunk)
    {
        if (_pieceCount == _pieces.Length)
        {
            Array.Resize(ref _pieces, Math.Max(1, _pieces.Length * 2));
        }

        _pieces[_pieceCount++] = ArrayPool<byte>.Shared.Rent(Math.Min(PieceSize, Math.Max(firstChunk, 256)));
    }

    private byte[] GrowLastPiece(int used)
    {
        byte[] old = _pieces[_pieceCount - 1];
        byte[] grown = ArrayPool<byte>.Shared.Rent(PieceSize);
        old.AsSpan(0, used).CopyTo(grown);
        ArrayPool<byte>.Shared.Return(old);
        _pieces[_pieceCount - 1] = grown;
        return grown;
    }

    private void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowDisposed();
        }
    }

    [DoesNotReturn]
    private static void ThrowDisposed() =>
        throw new ObjectDisposedException(nameof(AmqpMessageBody), "The message body was given back to the pool: take it (TakeBody) or copy it (ToArray) before the delivery is released.");

    [DoesNotReturn]
    private void ThrowMultiplePieces() =>
        throw new InvalidOperationException($"The body is {_length} bytes in {_pieceCount} pooled pieces; read it through Sequence, CopyTo or ToArray.");
}
