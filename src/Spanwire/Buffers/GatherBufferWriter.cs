using System.Buffers;
using System.Runtime.CompilerServices;

namespace Spanwire.Buffers;

/// <summary>
/// A <see cref="PooledBufferWriter"/> that also holds borrowed memory (<see cref="WriteBorrowed"/>): its content is its
/// own pooled bytes with the borrowed pieces in place among them, read back as one sequence or sent piece by piece,
/// with no borrowed byte copied.
/// </summary>
/// <remarks>
/// Single owner: one thread at a time. <see cref="Reset"/> forgets the borrowed pieces and gives the segments back;
/// the writer stays usable. Views from <see cref="WrittenSequence"/> are valid until the next write, <see cref="Reset"/>
/// or <see cref="Dispose"/>.
/// </remarks>
/// <example>
/// <code>
/// using var frames = new GatherBufferWriter();
/// AmqpFrameWriter.WriteBasicPublish(frames, channel, template, body, frameMax); // a large body is borrowed, not copied
/// frames.CopyTo(socketStream);                                               // keep body unchanged until here
/// frames.Reset();
/// </code>
/// </example>
public sealed class GatherBufferWriter : IGatherBufferWriter, IDisposable
{
    private readonly PooledBufferWriter _owned;

    // Borrowed pieces in order, each with the count of owned bytes written before it.
    // Both tables are chunked, so that no array of theirs reaches the large object heap.
    private ChunkedTable<Borrowed> _borrowed;
    private int _borrowedCount;
    private long _borrowedLength;

    // Sequence nodes, kept and relinked for every view, so views allocate nothing once the writer has warmed up.
    private ChunkedTable<SequenceNode> _nodes;
    private bool _disposed;

    /// <summary>A writer over <see cref="SegmentPool.Shared"/>.</summary>
    public GatherBufferWriter()
        : this(SegmentPool.Shared)
    {
    }

    /// <summary>A writer whose own bytes go into segments of <paramref name="pool"/>.</summary>
    /// <param name="pool">The pool the segments are rented from.</param>
    /// <exception cref="ArgumentNullException"><paramref name="pool"/> is null.</exception>
    public GatherBufferWriter(SegmentPool pool) => _owned = new PooledBufferWriter(pool);

    /// <summary>Bytes of content: written and borrowed.</summary>
    public long WrittenCount => _owned.WrittenCount + _borrowedLength;

    /// <summary>Bytes of content held by reference.</summary>
    public long BorrowedCount
    {
        get
        {
            ThrowIfDisposed();
            return _borrowedLength;
        }
    }

    /// <summary>The content as one sequence over the segments and the borrowed memory themselves.</summary>
    public ReadOnlySequence<byte> WrittenSequence
    {
        get
        {
            ThrowIfDisposed();
            ReadOnlySequence<byte> owned = _owned.WrittenSequence;
            return _borrowedCount == 0 ? owned : Link(owned);
        }
    }

    /// <inheritdoc />
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Advance(int count) => _owned.Advance(count);

    /// <inheritdoc />
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Span<byte> GetSpan(int sizeHint = 0) => _owned.GetSpan(sizeHint);

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0) => _owned.GetMemory(sizeHint);

    /// <summary>Appends a copy of <paramref name="source"/>.</summary>
    /// <param name="source">The bytes to copy in.</param>
    /// <exception cref="ObjectDisposedException">The writer is disposed.</exception>
    public void Write(ReadOnlySpan<byte> source) => _owned.Write(source);

    /// <inheritdoc />
    public void WriteBorrowed(ReadOnlyMemory<byte> memory)
    {
        ThrowIfDisposed();
        if (memory.IsEmpty)
        {
            return;
        }

        if (_borrowedCount == _borrowed.Capacity)
        {
            _borrowed.Grow();
        }

        _borrowed[_borrowedCount++] = new Borrowed(_owned.WrittenCount, memory);
        _borrowedLength += memory.Length;
    }

    /// <summary>Writes the content to <paramref name="destination"/>, piece by piece.</summary>
    /// <param name="destination">The stream the content is written to, in order.</param>
    public void CopyTo(Stream destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        foreach (ReadOnlyMemory<byte> piece in WrittenSequence)
        {
            destination.Write(piece.Span);
        }
    }

    /// <summary>Writes the content to <paramref name="destination"/>. Do not write to this writer until the task ends.</summary>
    /// <param name="destination">The stream the content is written to, in order.</param>
    /// <param name="cancellationToken">Cancels the writes.</param>
    /// <returns>A task that completes when everything is written.</returns>
    public async Task CopyToAsync(Stream destination, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(destination);
        foreach (ReadOnlyMemory<byte> piece in WrittenSequence)
        {
            await destination.WriteAsync(piece, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>A new array holding a copy of the content (for tests and small content).</summary>
    /// <returns>A new array with the whole content.</returns>
    public byte[] ToArray() => WrittenSequence.ToArray();

    /// <summary>Forgets the content, borrowed pieces included, and gives every segment back to the pool.</summary>
    public void Reset()
    {
        ThrowIfDisposed();
        _owned.Reset();
        Forget();
    }

    /// <summary>Gives every segment back and forgets the borrowed pieces. Calling it again does nothing.</summary>
    public void Dispose()
    {
        if (!_disposed)
        {
            _disposed = true;
            _owned.Dispose();
            Forget();
        }
    }

    private void Forget()
    {
        // Drop the references, so borrowed memory is not kept alive by a writer that no longer needs it.
        _borrowed.Clear(_borrowedCount);
        _borrowedCount = 0;
        _borrowedLength = 0;
        for (int i = 0; i < _nodes.Capacity; i++)
        {
            _nodes[i].Set(default, 0, null);
        }
    }

    /// <summary>Splits the owned pieces at the borrowing points and links everything into one sequence.</summary>
    private ReadOnlySequence<byte> Link(ReadOnlySequence<byte> owned)
    {
        int used = 0;
        long running = 0;
        long ownedAt = 0; // owned bytes linked so far
        int next = 0;     // next borrowed piece
        foreach (ReadOnlyMemory<byte> segment in owned)
        {
            ReadOnlyMemory<byte> rest = segment;
            while (next < _borrowedCount && _borrowed[next].OwnedBefore <= ownedAt + rest.Length)
            {
                int split = (int)(_borrowed[next].OwnedBefore - ownedAt);
                AddNode(ref used, ref running, rest[..split]);
                AddNode(ref used, ref running, _borrowed[next].Memory);
                ownedAt += split;
                rest = rest[split..];
                next++;
            }

            AddNode(ref used, ref running, rest);
            ownedAt += rest.Length;
        }

        for (; next < _borrowedCount; next++)
        {
            AddNode(ref used, ref running, _borrowed[next].Memory); // borrowed with no owned byte after (or at all)
        }

        if (used == 0)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        SequenceNode last = _nodes[used - 1];
        return new ReadOnlySequence<byte>(_nodes[0], 0, last, last.Memory.Length);
    }

    private void AddNode(ref int used, ref long running, ReadOnlyMemory<byte> memory)
    {
        if (memory.IsEmpty)
        {
            return;
        }

        if (used == _nodes.Capacity)
        {
            int oldLength = _nodes.Capacity;
            _nodes.Grow();
            for (int i = oldLength; i < _nodes.Capacity; i++)
            {
                _nodes[i] = new SequenceNode();
            }
        }

        SequenceNode node = _nodes[used];
        node.Set(memory, running, null);
        if (used > 0)
        {
            _nodes[used - 1].LinkTo(node);
        }

        used++;
        running += memory.Length;
    }

    private void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(GatherBufferWriter));
        }
    }

    private readonly record struct Borrowed(long OwnedBefore, ReadOnlyMemory<byte> Memory);
}
