using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Buffers;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> over pooled segments that never touch the large object heap. Content can grow
/// past 2 GiB; it is read back as a <see cref="ReadOnlySequence{T}"/>, copied to a stream, or copied to an array.
/// </summary>
/// <remarks>
/// <para>
/// A span request of up to <see cref="SegmentPool.SegmentSize"/> bytes is always served from a segment directly:
/// if the current segment has less room than asked, the rest of it is left unused and the next segment is started,
/// so nothing is copied. A larger request is served from a temporary ArrayPool buffer whose bytes are copied into
/// segments on <see cref="Advance"/>.
/// </para>
/// <para>
/// Single owner: one thread at a time. Dispose it to give its segments back; <see cref="Reset"/> does the same and
/// keeps the writer usable. Views from <see cref="WrittenSequence"/> are valid until the next write that starts a
/// segment, <see cref="Reset"/> or <see cref="Dispose"/>.
/// </para>
/// </remarks>
/// <example>
/// <code>
/// using var buffer = new PooledBufferWriter();
/// JsonSerializer.Serialize(new Utf8JsonWriter(buffer), value);
/// await buffer.CopyToAsync(networkStream);
/// </code>
/// </example>
public sealed class PooledBufferWriter : IBufferWriter<byte>, IDisposable
{
    private SegmentChain _chain; // released once disposed
    private MisuseWatch _watch;

    /// <summary>A writer over <see cref="SegmentPool.Shared"/>.</summary>
    public PooledBufferWriter()
        : this(SegmentPool.Shared)
    {
    }

    /// <summary>A writer over the given pool.</summary>
    /// <param name="pool">The pool the segments are rented from.</param>
    /// <exception cref="ArgumentNullException"><paramref name="pool"/> is null.</exception>
    public PooledBufferWriter(SegmentPool pool)
    {
        ArgumentNullException.ThrowIfNull(pool);
        _chain.Init(pool);
        _watch.Start(pool, nameof(PooledBufferWriter));
    }

    /// <summary>
    /// A name for what this writer is used for, carried by the misuse its pool reports
    /// (<see cref="SegmentPool.MisuseDetected"/>, the <c>spanwire.buffers.misuse</c> counter), as RecyclableMemoryStream's tags are.
    /// Keep the set of tags small: each becomes a metric dimension.
    /// </summary>
    public string? Tag
    {
        get => _watch.Tag;
        set => _watch.Tag = value;
    }

    /// <summary>The pool segments come from.</summary>
    public SegmentPool Pool => _chain.Pool;

    /// <summary>Bytes written (committed with <see cref="Advance"/> or <see cref="Write"/>).</summary>
    public long WrittenCount
    {
        get
        {
            ThrowIfDisposed();
            return _chain.Length;
        }
    }

    /// <summary>The written bytes as a sequence over the segments themselves. Allocates nothing once the writer has seen its segments.</summary>
    public ReadOnlySequence<byte> WrittenSequence
    {
        get
        {
            ThrowIfDisposed();
            return _chain.AsSequence();
        }
    }

    /// <inheritdoc />
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Advance(int count)
    {
        ThrowIfDisposed();
        _chain.AdvanceTail(count);
    }

    /// <inheritdoc />
    /// <remarks>Served without copying for any <paramref name="sizeHint"/> up to the pool's segment size.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Span<byte> GetSpan(int sizeHint = 0)
    {
        ThrowIfDisposed();
        return _chain.GetTailSpan(sizeHint);
    }

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        ThrowIfDisposed();
        return _chain.GetTailMemory(sizeHint);
    }

    /// <summary>Appends <paramref name="source"/>.</summary>
    /// <param name="source">The bytes to append.</param>
    /// <exception cref="ObjectDisposedException">The writer is disposed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Write(ReadOnlySpan<byte> source)
    {
        ThrowIfDisposed();
        _chain.Append(source);
    }

    /// <summary>Writes every written byte to <paramref name="destination"/>, segment by segment.</summary>
    /// <param name="destination">The stream the content is written to, in order.</param>
    public void CopyTo(Stream destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        ThrowIfDisposed();
        _chain.CopyTo(destination);
    }

    /// <summary>Writes every written byte to <paramref name="destination"/>. Do not write to this writer until the task ends.</summary>
    /// <param name="destination">The stream the content is written to, in order.</param>
    /// <param name="cancellationToken">Cancels the writes.</param>
    /// <returns>A task that completes when everything is written.</returns>
    public Task CopyToAsync(Stream destination, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(destination);
        ThrowIfDisposed();
        return _chain.CopyToAsync(destination, 0, cancellationToken);
    }

    /// <summary>Copies every written byte into <paramref name="destination"/>, which must be large enough.</summary>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than <see cref="WrittenCount"/>.</exception>
    /// <param name="destination">Where the content goes; at least <see cref="WrittenCount"/> bytes.</param>
    public void CopyTo(Span<byte> destination)
    {
        ThrowIfDisposed();
        if (destination.Length < _chain.Length)
        {
            ThrowHelper.ThrowArgument(nameof(destination),
                $"The destination has {destination.Length} bytes; {_chain.Length} were written.");
        }

        _chain.CopyTo(0, destination[..(int)_chain.Length]);
    }

    /// <summary>
    /// A new array holding a copy of every written byte. This allocates, on the large object heap when 85,000 bytes or
    /// more: prefer <see cref="WrittenSequence"/> or <see cref="CopyTo(Stream)"/>.
    /// </summary>
    /// <exception cref="InvalidOperationException">More bytes were written than an array can hold.</exception>
    /// <returns>A new array with the whole content.</returns>
    public byte[] ToArray()
    {
        ThrowIfDisposed();
        return _chain.ToArray();
    }

    /// <summary>Forgets the written bytes and gives every segment back to the pool; the writer stays usable.</summary>
    public void Reset()
    {
        ThrowIfDisposed();
        _chain.Clear();
    }

    /// <summary>Gives every segment back to the pool. Calling it again does nothing (a pool that detects misuse reports it).</summary>
    public void Dispose()
    {
        if (!_chain.IsReleased)
        {
            _chain.Release();
            _watch.Disposed();
        }
        else
        {
            _watch.DisposedAgain();
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ThrowIfDisposed()
    {
        if (_chain.IsReleased)
        {
            ThrowDisposed();
        }
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowDisposed()
    {
        _watch.UsedAfterDispose();
        ThrowHelper.ThrowObjectDisposed(nameof(PooledBufferWriter));
    }
}
