using System.Buffers;

namespace Spanwire.Signing;

/// <summary>
/// Wraps any <see cref="IBufferWriter{T}"/> and feeds every committed span into an HMAC-SHA256
/// <see cref="Signer"/> as it is committed, while the bytes are still in cache: serialize and sign in one pass.
/// </summary>
/// <example>
/// <code>
/// using var buffer = new PooledBufferWriter();
/// using var signing = new SigningBufferWriter(buffer, key);
/// JsonSerializer.Serialize(new Utf8JsonWriter(signing), envelope, MyContext.Default.Envelope);
/// Span&lt;char&gt; hex = stackalloc char[HmacSha256Signer.HexLength];
/// signing.Signer.WriteSignatureHex(hex);
/// </code>
/// </example>
public sealed class SigningBufferWriter : IBufferWriter<byte>, IDisposable
{
    private readonly IBufferWriter<byte> _inner;
    private readonly bool _ownsSigner;
    private Memory<byte> _handedOut;

    /// <summary>Signs with a new signer keyed with <paramref name="key"/>, owned and disposed by this writer.</summary>
    /// <param name="inner">Where the bytes go after they are signed.</param>
    /// <param name="key">The HMAC key.</param>
    public SigningBufferWriter(IBufferWriter<byte> inner, ReadOnlySpan<byte> key)
        : this(inner, new HmacSha256Signer(key), ownsSigner: true)
    {
    }

    /// <summary>Signs with <paramref name="signer"/>, which the caller keeps and disposes (reuse it across messages with Reset).</summary>
    /// <param name="inner">Where the bytes go after they are signed.</param>
    /// <param name="signer">The signer to feed.</param>
    public SigningBufferWriter(IBufferWriter<byte> inner, HmacSha256Signer signer)
        : this(inner, signer, ownsSigner: false)
    {
    }

    private SigningBufferWriter(IBufferWriter<byte> inner, HmacSha256Signer signer, bool ownsSigner)
    {
        ArgumentNullException.ThrowIfNull(inner);
        ArgumentNullException.ThrowIfNull(signer);
        _inner = inner;
        Signer = signer;
        _ownsSigner = ownsSigner;
    }

    /// <summary>The signer that has seen every committed byte.</summary>
    public HmacSha256Signer Signer { get; }

    /// <summary>The writer that receives the bytes.</summary>
    public IBufferWriter<byte> Inner => _inner;

    /// <inheritdoc />
    public void Advance(int count)
    {
        Memory<byte> handedOut = _handedOut;
        if ((uint)count > (uint)handedOut.Length)
        {
            ThrowHelper.ThrowAdvancedTooFar(count, handedOut.Length);
        }

        Signer.Append(handedOut.Span[..count]);
        _inner.Advance(count);
        _handedOut = handedOut[count..];
    }

    /// <inheritdoc />
    public Memory<byte> GetMemory(int sizeHint = 0) => _handedOut = _inner.GetMemory(sizeHint);

    /// <inheritdoc />
    public Span<byte> GetSpan(int sizeHint = 0) => (_handedOut = _inner.GetMemory(sizeHint)).Span;

    /// <summary>Disposes the signer if this writer made it. The inner writer is the caller's.</summary>
    public void Dispose()
    {
        _handedOut = default;
        if (_ownsSigner)
        {
            Signer.Dispose();
        }
    }
}
