using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Buffers;

/// <summary>
/// A read/write/seekable <see cref="Stream"/> over pooled segments, with <see cref="MemoryStream"/>'s semantics for
/// every member, that never puts a buffer on the large object heap. It is also an <see cref="IBufferWriter{T}"/>
/// that writes at <see cref="Position"/>.
/// </summary>
/// <remarks>
/// <para>
/// Differences from MemoryStream: lengths and positions may exceed 2 GiB; there is no GetBuffer (the content is not
/// one array: use <see cref="GetReadOnlySequence"/>); <see cref="Capacity"/> counts whole segments, so it may read
/// more than was set; and after Dispose the content is gone (the segments went back to the pool), so
/// <see cref="ToArray"/> throws ObjectDisposedException where MemoryStream's still answers.
/// </para>
/// <para>
/// No finalizer: a stream that is not disposed just leaves its segments to the garbage collector. A pool made with
/// <see cref="SegmentPoolOptions.DetectMisuse"/> reports such streams, and streams disposed twice or used after
/// dispose, with their <see cref="Tag"/>. Single owner: one thread at a time.
/// </para>
/// </remarks>
/// <example>
/// <code>
/// using var stream = new PooledStream();
/// serializer.Serialize(stream, value);
/// stream.Position = 0;
/// await stream.CopyToAsync(response.Body);
/// </code>
/// </example>
public sealed partial class PooledStream : Stream, IBufferWriter<byte>
{
    private SegmentChain _chain; // released once disposed
    private MisuseWatch _watch;
    private long _position;

    /// <summary>An empty stream over <see cref="SegmentPool.Shared"/>.</summary>
    public PooledStream()
        : this(SegmentPool.Shared)
    {
    }

    /// <summary>An empty stream over the given pool.</summary>
    /// <param name="pool">The pool the segments are rented from.</param>
    /// <exception cref="ArgumentNullException"><paramref name="pool"/> is null.</exception>
    public PooledStream(SegmentPool pool)
    {
        ArgumentNullException.ThrowIfNull(pool);
        _chain.Init(pool);
        _watch.Start(pool, nameof(PooledStream));
    }

    /// <summary>
    /// A name for what this stream is used for, carried by the misuse its pool reports
    /// (<see cref="SegmentPool.MisuseDetected"/>, the <c>spanwire.buffers.misuse</c> counter), as RecyclableMemoryStream's tags are.
    /// Keep the set of tags small: each becomes a metric dimension.
    /// </summary>
    public string? Tag
    {
        get => _watch.Tag;
        set => _watch.Tag = value;
    }

    /// <summary>
    /// An empty stream over <see cref="SegmentPool.Shared"/> that can hold <paramref name="capacity"/> bytes before it
    /// rents again: the segments are rented now, as <c>new MemoryStream(capacity)</c> allocates its array and
    /// RecyclableMemoryStream's <c>GetStream(tag, requiredSize)</c> rents its blocks.
    /// </summary>
    /// <param name="capacity">How many bytes the stream is expected to hold; a hint, not a limit.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is negative or past <see cref="MaxLength"/>.</exception>
    /// <exception cref="OutOfMemoryException">The pool cannot hand out the segments.</exception>
    public PooledStream(long capacity)
        : this(capacity, SegmentPool.Shared)
    {
    }

    /// <summary>An empty stream over the given pool that can hold <paramref name="capacity"/> bytes before it rents again.</summary>
    /// <param name="capacity">How many bytes the stream is expected to hold; a hint, not a limit.</param>
    /// <param name="pool">The pool the segments are rented from.</param>
    /// <exception cref="ArgumentNullException"><paramref name="pool"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is negative or past <see cref="MaxLength"/>.</exception>
    /// <exception cref="OutOfMemoryException">The pool cannot hand out the segments.</exception>
    public PooledStream(long capacity, SegmentPool pool)
        : this(pool)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(capacity);
        ThrowIfPastMaxLength(capacity, nameof(capacity));
        _chain.Reserve(capacity);
    }

    /// <summary>
    /// A stream holding a copy of <paramref name="content"/>, positioned at its start, over
    /// <see cref="SegmentPool.Shared"/>: what <c>new MemoryStream(bytes)</c> and RecyclableMemoryStream's
    /// <c>GetStream(bytes)</c> give, except that this one can grow (MemoryStream over an array cannot).
    /// </summary>
    /// <param name="content">The bytes the stream starts with; copied, so the caller may reuse them.</param>
    /// <exception cref="OutOfMemoryException">The pool cannot hand out the segments the copy needs.</exception>
    public PooledStream(ReadOnlySpan<byte> content)
        : this(content, SegmentPool.Shared)
    {
    }

    /// <summary>A stream holding a copy of <paramref name="content"/>, positioned at its start, over the given pool.</summary>
    /// <param name="content">The bytes the stream starts with; copied, so the caller may reuse them.</param>
    /// <param name="pool">The pool the segments are rented from.</param>
    /// <exception cref="ArgumentNullException"><paramref name="pool"/> is null.</exception>
    /// <exception cref="OutOfMemoryException">The pool cannot hand out the segments the copy needs.</exception>
    public PooledStream(ReadOnlySpan<byte> content, SegmentPool pool)
        : this(pool)
    {
        try
        {
            _chain.Append(content);
        }
        catch
        {
            _chain.Release(); // a failed copy gives back what it rented: no stream half made
            throw;
        }
    }

    /// <summary>The pool segments come from.</summary>
    public SegmentPool Pool => _chain.Pool;

    /// <inheritdoc />
    public override bool CanRead => !_chain.IsReleased;

    /// <inheritdoc />
    public override bool CanSeek => !_chain.IsReleased;

    /// <inheritdoc />
    public override bool CanWrite => !_chain.IsReleased;

    /// <inheritdoc />
    public override long Length
    {
        get
        {
            EnsureNotDisposed();
            return _chain.Length;
        }
    }

    /// <inheritdoc />
    public override long Position
    {
        get
        {
            EnsureNotDisposed();
            return _position;
        }
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            EnsureNotDisposed();
            ThrowIfPastMaxLength(value, nameof(value));
            _position = value;
        }
    }

    /// <summary>
    /// The longest the stream can be: as many segments as a table can count (<see cref="Array.MaxLength"/>) of the
    /// pool's segment size. A length or position past it is refused with ArgumentOutOfRangeException, as MemoryStream
    /// refuses one past its own limit, instead of renting segments until memory runs out.
    /// </summary>
    public long MaxLength => (long)_chain.Pool.SegmentSize * Array.MaxLength;

    private void ThrowIfPastMaxLength(long value, string name)
    {
        if (value > MaxLength)
        {
            ThrowHelper.ThrowArgumentOutOfRange(name, $"{value} is past the longest a stream of {_chain.Pool.SegmentSize}-byte segments can be ({MaxLength} bytes).");
        }
    }

    /// <summary>
    /// Bytes the stream can hold before it rents another segment. Setting it rents segments ahead (a larger value) or
    /// gives back segments rented ahead and not yet used (a smaller one); the content never moves.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value set is less than <see cref="Length"/> or past <see cref="MaxLength"/>.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public long Capacity
    {
        get
        {
            EnsureNotDisposed();
            return _chain.Capacity;
        }
        set
        {
            EnsureNotDisposed();
            if (value < _chain.Length)
            {
                ThrowHelper.ThrowArgumentOutOfRange(nameof(value), $"Capacity cannot be less than the current length ({_chain.Length}); it was {value}.");
            }

            ThrowIfPastMaxLength(value, nameof(value));
            long current = _chain.Capacity;
            if (value > current)
            {
                _chain.Reserve(value);
            }
            else if (value < current && _chain.Reserved > 0)
            {
                long segment = _chain.Pool.SegmentSize;
                long inUse = current - (_chain.Reserved * segment);
                _chain.ReleaseReserved((int)Math.Max(0, (value - inUse + segment - 1) / segment));
            }
        }
    }

    /// <inheritdoc />
    public override void Flush()
    {
    }

    /// <inheritdoc />
    public override Task FlushAsync(CancellationToken cancellationToken) =>
        cancellationToken.IsCancellationRequested ? Task.FromCanceled(cancellationToken) : Task.CompletedTask;

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        EnsureNotDisposed();
        return ReadCore(buffer.AsSpan(offset, count));
    }

    /// <inheritdoc />
    public override int Read(Span<byte> buffer)
    {
        EnsureNotDisposed();
        return ReadCore(buffer);
    }

    /// <inheritdoc />
    public override int ReadByte()
    {
        EnsureNotDisposed();
        if (_position >= _chain.Length)
        {
            return -1;
        }

        Span<byte> one = stackalloc byte[1];
        _chain.CopyTo(_position++, one);
        return one[0];
    }

    private int ReadCore(Span<byte> destination)
    {
        long available = _chain.Length - _position;
        if (available <= 0)
        {
            return 0;
        }

        int n = (int)Math.Min(available, destination.Length);
        _chain.CopyTo(_position, destination[..n]);
        _position += n;
        return n;
    }

    /// <inheritdoc />
    public override long Seek(long offset, SeekOrigin origin)
    {
        EnsureNotDisposed();
        long origin64 = origin switch
        {
            SeekOrigin.Begin => 0,
            SeekOrigin.Current => _position,
            SeekOrigin.End => _chain.Length,
            _ => throw new ArgumentException($"Invalid seek origin {(int)origin}.", nameof(origin)),
        };

        if (offset > long.MaxValue - origin64)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(offset), "The resulting position is past the largest stream length.");
        }

        long target = origin64 + offset;
        if (target < 0)
        {
            ThrowHelper.ThrowIO("An attempt was made to move the position before the beginning of the stream.");
        }

        ThrowIfPastMaxLength(target, nameof(offset));

        _position = target;
        return target;
    }

    /// <inheritdoc />
    /// <remarks>As with MemoryStream, bytes added by lengthening are zero, and a position past the new length moves to it.</remarks>
    public override void SetLength(long value)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(value);
        EnsureNotDisposed();
        ThrowIfPastMaxLength(value, nameof(value));
        long length = _chain.Length;
        if (value < length)
        {
            _chain.Truncate(value);
        }
        else
        {
            _chain.AppendZeros(value - length);
        }

        if (_position > value)
        {
            _position = value;
        }
    }

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        EnsureNotDisposed();
        WriteCore(new ReadOnlySpan<byte>(buffer, offset, count));
    }

    /// <inheritdoc />
    public override void Write(ReadOnlySpan<byte> buffer)
    {
        EnsureNotDisposed();
        WriteCore(buffer);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteCore(ReadOnlySpan<byte> source)
    {
        if (_position == _chain.Length)
        {
            _chain.Append(source);
            _position += source.Length;
            return;
        }

        WriteAwayFromEnd(source);
    }

    /// <inheritdoc />
    public override void WriteByte(byte value)
    {
        EnsureNotDisposed();
        if (_position == _chain.Length)
        {
            _chain.AppendByte(value);
            _position++;
            return;
        }

        WriteAwayFromEnd([value]);
    }

    /// <summary>A write that starts before the end (overwrite, then append the rest) or past it (zero-fill first).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteAwayFromEnd(ReadOnlySpan<byte> source)
    {
        long length = _chain.Length;
        if (_position > length)
        {
            // MemoryStream zero-fills the gap, and extends the stream even for an empty write.
            _chain.AppendZeros(_position - length);
            _chain.Append(source);
            _position += source.Length;
            return;
        }

        int overwrite = (int)Math.Min(source.Length, length - _position);
        int i = _chain.FindSegment(_position);
        ReadOnlySpan<byte> rest = source;
        while (overwrite > 0)
        {
            Span<byte> content = _chain.SegmentContent(i++, out long start);
            content = content[(int)(_position - start)..];
            int n = Math.Min(content.Length, overwrite);
            rest[..n].CopyTo(content);
            rest = rest[n..];
            overwrite -= n;
            _position += n;
        }

        if (!rest.IsEmpty)
        {
            _chain.Append(rest);
            _position += rest.Length;
        }
    }

    /// <inheritdoc />
    public override void CopyTo(Stream destination, int bufferSize)
    {
        ValidateCopyToArguments(destination, bufferSize);
        EnsureNotDisposed();
        long from = _position;
        long length = _chain.Length;
        if (from >= length)
        {
            return;
        }

        _position = length;
        _chain.CopyTo(destination, from);
    }

    /// <inheritdoc />
    public override Task CopyToAsync(Stream destination, int bufferSize, CancellationToken cancellationToken)
    {
        ValidateCopyToArguments(destination, bufferSize);
        EnsureNotDisposed();
        if (cancellationToken.IsCancellationRequested)
        {
            return Task.FromCanceled(cancellationToken);
        }

        long from = _position;
        long length = _chain.Length;
        if (from >= length)
        {
            return Task.CompletedTask;
        }

        _position = length;
        return _chain.CopyToAsync(destination, from, cancellationToken);
    }

    /// <summary>Writes the whole content to <paramref name="stream"/>, whatever the position (as MemoryStream.WriteTo).</summary>
    /// <param name="stream">The stream the whole content is written to.</param>
    /// <exception cref="ObjectDisposedException">This stream is disposed.</exception>
    public void WriteTo(Stream stream)
    {
        ArgumentNullException.ThrowIfNull(stream);
        EnsureNotDisposed();
        _chain.CopyTo(stream);
    }

    /// <summary>The whole content as a sequence over the segments. Valid until the stream next changes or is disposed.</summary>
    /// <returns>The whole content, over the pooled segments (no copy); valid until the stream is written to or disposed.</returns>
    public ReadOnlySequence<byte> GetReadOnlySequence()
    {
        EnsureNotDisposed();
        return _chain.AsSequence();
    }

    /// <summary>
    /// A new array holding a copy of the whole content, whatever the position. This allocates (on the large object
    /// heap at 85,000 bytes or more): prefer <see cref="GetReadOnlySequence"/> or <see cref="WriteTo"/>.
    /// </summary>
    /// <returns>A new array with the whole content.</returns>
    public byte[] ToArray()
    {
        EnsureNotDisposed();
        return _chain.ToArray();
    }

    /// <summary>Disposes the stream: the segments go back to the pool.</summary>
    /// <remarks>Stream.Close also asks the collector to skip a finalizer this type does not have; that call is left out.</remarks>
    public override void Close() => Dispose(true);

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (!_chain.IsReleased)
        {
            _chain.Release();
            _position = 0;
            _watch.Disposed();
        }
        else
        {
            _watch.DisposedAgain();
        }

        base.Dispose(disposing);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void EnsureNotDisposed()
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
        ThrowHelper.ThrowObjectDisposed(nameof(PooledStream));
    }
}
