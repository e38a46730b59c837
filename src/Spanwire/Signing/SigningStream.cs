namespace Spanwire.Signing;

/// <summary>
/// A write-only stream that feeds every byte written into an HMAC-SHA256 <see cref="Signer"/> and passes it on to
/// an inner stream: for serializers that write to a <see cref="Stream"/>.
/// </summary>
/// <example>
/// <code>
/// using var buffer = new PooledStream();
/// using var signing = new SigningStream(buffer, key, leaveOpen: true);
/// using (var text = new StreamWriter(signing, leaveOpen: true)) { serializer.Serialize(text, envelope); }
/// string signature = signing.Signer.GetSignatureHex();
/// </code>
/// </example>
public sealed class SigningStream : Stream
{
    private readonly Stream _inner;
    private readonly bool _leaveOpen;
    private readonly bool _ownsSigner;
    private bool _disposed;

    /// <summary>Signs with a new signer keyed with <paramref name="key"/>, owned by this stream.</summary>
    /// <param name="inner">The stream the bytes go to after they are signed.</param>
    /// <param name="key">The HMAC key.</param>
    /// <param name="leaveOpen">Whether disposing this stream leaves <paramref name="inner"/> open.</param>
    public SigningStream(Stream inner, ReadOnlySpan<byte> key, bool leaveOpen = false)
        : this(inner, new HmacSha256Signer(key), leaveOpen, ownsSigner: true)
    {
    }

    /// <summary>Signs with <paramref name="signer"/>, which the caller keeps and disposes.</summary>
    /// <param name="inner">The stream the bytes go to after they are signed.</param>
    /// <param name="signer">The signer to feed.</param>
    /// <param name="leaveOpen">Whether disposing this stream leaves <paramref name="inner"/> open.</param>
    public SigningStream(Stream inner, HmacSha256Signer signer, bool leaveOpen = false)
        : this(inner, signer, leaveOpen, ownsSigner: false)
    {
    }

    private SigningStream(Stream inner, HmacSha256Signer signer, bool leaveOpen, bool ownsSigner)
    {
        ArgumentNullException.ThrowIfNull(inner);
        ArgumentNullException.ThrowIfNull(signer);
        if (!inner.CanWrite)
        {
            ThrowHelper.ThrowArgument(nameof(inner), "The inner stream must be writable.");
        }

        _inner = inner;
        _leaveOpen = leaveOpen;
        _ownsSigner = ownsSigner;
        Signer = signer;
    }

    /// <summary>The signer that has seen every byte written.</summary>
    public HmacSha256Signer Signer { get; }

    /// <inheritdoc />
    public override bool CanRead => false;

    /// <inheritdoc />
    public override bool CanSeek => false;

    /// <inheritdoc />
    public override bool CanWrite => !_disposed;

    /// <inheritdoc />
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    /// <exception cref="NotSupportedException">Always, while open: the stream cannot report a length.</exception>
    public override long Length
    {
        get
        {
            EnsureNotDisposed();
            throw new NotSupportedException("A signing stream cannot report a length.");
        }
    }

    /// <summary>Bytes written so far. Setting it is not supported.</summary>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override long Position
    {
        get
        {
            EnsureNotDisposed();
            return Signer.BytesSigned;
        }

        set
        {
            EnsureNotDisposed();
            throw new NotSupportedException("A signing stream cannot seek.");
        }
    }

    /// <inheritdoc />
    public override void Write(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        Write(new ReadOnlySpan<byte>(buffer, offset, count));
    }

    /// <inheritdoc />
    public override void Write(ReadOnlySpan<byte> buffer)
    {
        EnsureNotDisposed();
        Signer.Append(buffer);
        _inner.Write(buffer);
    }

    /// <inheritdoc />
    public override void WriteByte(byte value) => Write([value]);

    /// <inheritdoc />
    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        ValidateBufferArguments(buffer, offset, count);
        return WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    /// <inheritdoc />
    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled(cancellationToken);
        }

        EnsureNotDisposed();
        Signer.Append(buffer.Span);
        return _inner.WriteAsync(buffer, cancellationToken);
    }

    /// <inheritdoc />
    public override void Flush()
    {
        EnsureNotDisposed();
        _inner.Flush();
    }

    /// <inheritdoc />
    public override Task FlushAsync(CancellationToken cancellationToken)
    {
        EnsureNotDisposed();
        return _inner.FlushAsync(cancellationToken);
    }

    /// <inheritdoc />
    public override int Read(byte[] buffer, int offset, int count)
    {
        EnsureNotDisposed();
        throw new NotSupportedException("A signing stream is write-only.");
    }

    /// <inheritdoc />
    public override long Seek(long offset, SeekOrigin origin)
    {
        EnsureNotDisposed();
        throw new NotSupportedException("A signing stream cannot seek.");
    }

    /// <inheritdoc />
    public override void SetLength(long value)
    {
        EnsureNotDisposed();
        throw new NotSupportedException("A signing stream cannot change length.");
    }

    /// <inheritdoc />
    protected override void Dispose(bool disposing)
    {
        if (!_disposed)
        {
            _disposed = true;
            if (disposing)
            {
                if (!_leaveOpen)
                {
                    _inner.Dispose();
                }

                if (_ownsSigner)
                {
                    Signer.Dispose();
                }
            }
        }

        base.Dispose(disposing);
    }

    private void EnsureNotDisposed()
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(SigningStream));
        }
    }
}
