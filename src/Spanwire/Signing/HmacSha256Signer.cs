using System.Diagnostics;
using System.Security.Cryptography;

namespace Spanwire.Signing;

/// <summary>
/// HMAC-SHA256 over data fed in pieces: the state behind <see cref="SigningBufferWriter"/> and
/// <see cref="SigningStream"/>. Signatures come out as bytes or lowercase hex written into the caller's span, and
/// are verified in fixed time. Nothing here allocates after construction.
/// </summary>
/// <remarks>
/// The key is handed to the platform's HMAC at construction and no managed copy is kept; the native HMAC context
/// that holds it is freed, and cleansed, on <see cref="Dispose"/>. Clear your own copy of the key once the signer
/// exists. Not thread-safe.
/// </remarks>
/// <example>
/// <code>
/// using var signer = new HmacSha256Signer(key);
/// signer.Append(payload);
/// Span&lt;char&gt; hex = stackalloc char[HmacSha256Signer.HexLength];
/// signer.WriteSignatureHex(hex);
/// </code>
/// </example>
public sealed class HmacSha256Signer : IDisposable
{
    /// <summary>Bytes in a signature.</summary>
    public const int SignatureSize = 32;

    /// <summary>Characters (or UTF-8 bytes) in a signature written as hex.</summary>
    public const int HexLength = 64;

    private readonly IncrementalHash _hash;
    private long _bytesSigned;
    private bool _disposed;

    /// <summary>A signer with the given key (any length; HMAC hashes keys longer than 64 bytes).</summary>
    /// <param name="key">The HMAC key; it is copied, and never appears in any message.</param>
    public HmacSha256Signer(ReadOnlySpan<byte> key)
    {
        _hash = IncrementalHash.CreateHMAC(HashAlgorithmName.SHA256, key);
    }

    /// <summary>Bytes fed since construction or the last <see cref="Reset"/>.</summary>
    public long BytesSigned => _bytesSigned;

    /// <summary>Feeds <paramref name="data"/> into the signature.</summary>
    /// <param name="data">The bytes to sign, in order after those fed before.</param>
    /// <exception cref="ObjectDisposedException">The signer is disposed.</exception>
    public void Append(ReadOnlySpan<byte> data)
    {
        ThrowIfDisposed();
        if (!data.IsEmpty)
        {
            _hash.AppendData(data);
            _bytesSigned += data.Length;
        }
    }

    /// <summary>
    /// Writes the signature of everything fed so far into <paramref name="destination"/> (at least
    /// <see cref="SignatureSize"/> bytes) and returns <see cref="SignatureSize"/>. Feeding may go on afterwards.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is too small.</exception>
    /// <param name="destination">Where the 32-byte signature goes.</param>
    /// <returns><see cref="SignatureSize"/>, the bytes written.</returns>
    public int GetSignature(Span<byte> destination)
    {
        ThrowIfDisposed();
        EnsureRoom(destination.Length, SignatureSize, nameof(destination));
        return _hash.GetCurrentHash(destination);
    }

    /// <summary>Writes the signature as 64 lowercase hex characters into <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than <see cref="HexLength"/>.</exception>
    /// <param name="destination">Where the 64 characters go.</param>
    /// <returns><see cref="HexLength"/>, the characters written.</returns>
    public int WriteSignatureHex(Span<char> destination)
    {
        EnsureRoom(destination.Length, HexLength, nameof(destination));
        Span<byte> signature = stackalloc byte[SignatureSize];
        GetSignature(signature);
        bool converted = Convert.TryToHexStringLower(signature, destination, out int written);
        Debug.Assert(converted, "the room was ensured");
        return written;
    }

    /// <summary>Writes the signature as 64 lowercase hex characters in UTF-8 into <paramref name="utf8Destination"/>.</summary>
    /// <exception cref="ArgumentException"><paramref name="utf8Destination"/> is shorter than <see cref="HexLength"/>.</exception>
    /// <param name="utf8Destination">Where the 64 UTF-8 bytes go.</param>
    /// <returns><see cref="HexLength"/>, the bytes written.</returns>
    public int WriteSignatureHex(Span<byte> utf8Destination)
    {
        EnsureRoom(utf8Destination.Length, HexLength, nameof(utf8Destination));
        Span<byte> signature = stackalloc byte[SignatureSize];
        GetSignature(signature);
        bool converted = Convert.TryToHexStringLower(signature, utf8Destination, out int written);
        Debug.Assert(converted, "the room was ensured");
        return written;
    }

    /// <summary>The signature as a lowercase hex string. Allocates the string; the span overloads do not.</summary>
    /// <returns>64 lowercase hex characters.</returns>
    public string GetSignatureHex()
    {
        Span<byte> signature = stackalloc byte[SignatureSize];
        GetSignature(signature);
        return Convert.ToHexStringLower(signature);
    }

    /// <summary>Whether <paramref name="expected"/> is the signature of everything fed so far, compared in fixed time.</summary>
    /// <param name="expected">The signature to check, 32 bytes.</param>
    /// <returns>True when it matches; any other length never matches.</returns>
    public bool Verify(ReadOnlySpan<byte> expected)
    {
        Span<byte> signature = stackalloc byte[SignatureSize];
        GetSignature(signature);
        return expected.Length == SignatureSize && CryptographicOperations.FixedTimeEquals(signature, expected);
    }

    /// <summary>
    /// Whether <paramref name="expectedHex"/> (64 hex characters, either case) is the signature of everything fed so
    /// far. Text that is not 64 hex characters never matches.
    /// </summary>
    /// <param name="expectedHex">The signature to check as hex.</param>
    /// <returns>True when it matches.</returns>
    public bool VerifyHex(ReadOnlySpan<char> expectedHex)
    {
        Span<byte> expected = stackalloc byte[SignatureSize];
        return TryParseHexSignature(expectedHex, expected) & Verify(expected);
    }

    /// <summary>As <see cref="VerifyHex(ReadOnlySpan{char})"/>, for UTF-8 hex.</summary>
    /// <param name="utf8ExpectedHex">The signature to check as UTF-8 hex.</param>
    /// <returns>True when it matches.</returns>
    public bool VerifyHex(ReadOnlySpan<byte> utf8ExpectedHex)
    {
        Span<byte> expected = stackalloc byte[SignatureSize];
        return TryParseHexSignature(utf8ExpectedHex, expected) & Verify(expected);
    }

    /// <summary>Parses 64 hex characters into a 32-byte signature. False for any other text.</summary>
    /// <param name="hex">The text to parse.</param>
    /// <param name="signature">Where the 32 bytes go (at least 32 bytes).</param>
    /// <returns>True when the text was 64 hex characters and was parsed.</returns>
    public static bool TryParseHexSignature(ReadOnlySpan<char> hex, Span<byte> signature) =>
        hex.Length == HexLength && signature.Length >= SignatureSize &&
        Convert.FromHexString(hex, signature[..SignatureSize], out _, out int written) == System.Buffers.OperationStatus.Done &&
        written == SignatureSize;

    /// <summary>Parses 64 UTF-8 hex characters into a 32-byte signature. False for any other text.</summary>
    /// <param name="utf8Hex">The UTF-8 text to parse.</param>
    /// <param name="signature">Where the 32 bytes go (at least 32 bytes).</param>
    /// <returns>True when the text was 64 hex characters and was parsed.</returns>
    public static bool TryParseHexSignature(ReadOnlySpan<byte> utf8Hex, Span<byte> signature) =>
        utf8Hex.Length == HexLength && signature.Length >= SignatureSize &&
        Convert.FromHexString(utf8Hex, signature[..SignatureSize], out _, out int written) == System.Buffers.OperationStatus.Done &&
        written == SignatureSize;

    /// <summary>Starts a new signature with the same key.</summary>
    public void Reset()
    {
        ThrowIfDisposed();
        Span<byte> discard = stackalloc byte[SignatureSize];
        _hash.GetHashAndReset(discard);
        _bytesSigned = 0;
    }

    /// <summary>Frees the HMAC context and the key material it holds. Calling it again does nothing.</summary>
    public void Dispose()
    {
        if (!_disposed)
        {
            _disposed = true;
            _hash.Dispose();
        }
    }

    private void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(HmacSha256Signer));
        }
    }

    private static void EnsureRoom(int length, int required, string paramName)
    {
        if (length < required)
        {
            ThrowHelper.ThrowArgument(paramName, $"The destination has {length} elements; {required} are needed.");
        }
    }
}
