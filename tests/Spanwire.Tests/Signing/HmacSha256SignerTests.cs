using System.Buffers;
using System.Security.Cryptography;
using System.Text;
using Spanwire.Buffers;
using Spanwire.Signing;

namespace Spanwire.Tests.Signing;

public sealed class HmacSha256SignerTests
{
    private static byte[] Repeat(byte value, int count) => Enumerable.Repeat(value, count).ToArray();

    private static byte[] Ascii(string s) => Encoding.ASCII.GetBytes(s);

    // RFC 4231, section 4: HMAC-SHA-256 test cases 1-7. Case 5 specifies only the first 128 bits.
    public static TheoryData<string, byte[], byte[], string> Rfc4231 => new()
    {
        { "1: short key, short data", Repeat(0x0b, 20), Ascii("Hi There"),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
        { "2: key shorter than the output", Ascii("Jefe"), Ascii("what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
        { "3: combined key and data of 0xaa/0xdd", Repeat(0xaa, 20), Repeat(0xdd, 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
        { "4: counting key", Enumerable.Range(1, 25).Select(i => (byte)i).ToArray(), Repeat(0xcd, 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b" },
        { "5: truncated output", Repeat(0x0c, 20), Ascii("Test With Truncation"),
            "a3b6167473100ee06e0c796c2955552b" },
        { "6: key larger than the block, hashed first", Repeat(0xaa, 131), Ascii("Test Using Larger Than Block-Size Key - Hash Key First"),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
        { "7: key and data larger than the block", Repeat(0xaa, 131),
            Ascii("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2" },
    };

    [Theory]
    [MemberData(nameof(Rfc4231))]
    public void Rfc4231_vectors(string name, byte[] key, byte[] data, string expectedHex)
    {
        using var signer = new HmacSha256Signer(key);
        signer.Append(data);
        Span<char> hex = stackalloc char[HmacSha256Signer.HexLength];
        Assert.Equal(64, signer.WriteSignatureHex(hex));
        Assert.True(hex.ToString().StartsWith(expectedHex, StringComparison.Ordinal), name);

        // The same through the buffer writer, one byte per commit.
        using var signing = new SigningBufferWriter(new ArrayBufferWriter<byte>(), key);
        foreach (byte b in data)
        {
            signing.GetSpan(1)[0] = b;
            signing.Advance(1);
        }

        Assert.StartsWith(expectedHex, signing.Signer.GetSignatureHex(), StringComparison.Ordinal);
    }

    [Fact]
    public void Random_data_in_random_chunks_signs_as_HMACSHA256_of_the_whole()
    {
        var random = new Random(42);
        for (int trial = 0; trial < 200; trial++)
        {
            byte[] key = new byte[random.Next(0, 100)];
            byte[] data = new byte[random.Next(0, trial < 190 ? 5000 : 300_000)];
            random.NextBytes(key);
            random.NextBytes(data);
            byte[] expected = HMACSHA256.HashData(key, data);

            using var pooled = new PooledBufferWriter(SegmentPool.Create(new SegmentPoolOptions { SegmentSize = 16 + trial }));
            using var viaWriter = new SigningBufferWriter(pooled, key);
            using var sink = new MemoryStream();
            using var viaStream = new SigningStream(sink, key, leaveOpen: true);
            int at = 0;
            while (at < data.Length)
            {
                int n = Math.Min(data.Length - at, random.Next(0, 3) switch { 0 => 1, 1 => random.Next(1, 64), _ => random.Next(1, 70_000) });
                Span<byte> span = viaWriter.GetSpan(random.Next(0, 2) == 0 ? 0 : Math.Min(n, 100));
                int take = Math.Min(n, span.Length);
                data.AsSpan(at, take).CopyTo(span);
                viaWriter.Advance(take);
                viaStream.Write(data, at, take);
                at += take;
            }

            byte[] actual = new byte[32];
            viaWriter.Signer.GetSignature(actual);
            Assert.Equal(expected, actual);
            viaStream.Signer.GetSignature(actual);
            Assert.Equal(expected, actual);
            Assert.Equal(data, pooled.ToArray());
            Assert.Equal(data, sink.ToArray());
            Assert.Equal(data.Length, viaWriter.Signer.BytesSigned);
        }
    }

    [Fact]
    public void Verification_rejects_a_one_bit_change_in_signature_or_data()
    {
        byte[] key = Ascii("key");
        byte[] data = Ascii("the quick brown fox");
        byte[] good = HMACSHA256.HashData(key, data);
        using var signer = new HmacSha256Signer(key);
        signer.Append(data);
        Assert.True(signer.Verify(good));
        Assert.True(signer.VerifyHex(Convert.ToHexStringLower(good)));
        Assert.True(signer.VerifyHex(Convert.ToHexString(good))); // upper case is the same signature
        Assert.True(signer.VerifyHex(Encoding.ASCII.GetBytes(Convert.ToHexStringLower(good))));

        for (int bit = 0; bit < good.Length * 8; bit++)
        {
            byte[] bad = (byte[])good.Clone();
            bad[bit / 8] ^= (byte)(1 << (bit % 8));
            Assert.False(signer.Verify(bad));
            Assert.False(signer.VerifyHex(Convert.ToHexStringLower(bad)));
        }

        for (int bit = 0; bit < data.Length * 8; bit++)
        {
            byte[] changed = (byte[])data.Clone();
            changed[bit / 8] ^= (byte)(1 << (bit % 8));
            using var other = new HmacSha256Signer(key);
            other.Append(changed);
            Assert.False(other.Verify(good));
        }
    }

    [Theory]
    [InlineData("")] // empty
    [InlineData("00")] // too short
    [InlineData("zz7ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")] // not hex
    [InlineData("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe00")] // too long
    public void Text_that_is_not_64_hex_characters_never_verifies(string hex)
    {
        using var signer = new HmacSha256Signer(Repeat(0xaa, 20));
        signer.Append(Repeat(0xdd, 50));
        Assert.False(signer.VerifyHex(hex));
        Assert.False(signer.Verify(Convert.FromHexString(hex.Length % 2 == 0 && hex.All(char.IsAsciiHexDigit) ? hex : "")));
    }

    [Fact]
    public void Signatures_are_written_into_the_callers_span_without_allocating()
    {
        using var signer = new HmacSha256Signer(Ascii("k"));
        byte[] data = new byte[1000];
        Span<byte> raw = stackalloc byte[32];
        Span<char> hex = stackalloc char[64];
        Span<byte> utf8Hex = stackalloc byte[64];
        signer.Append(data);
        signer.GetSignature(raw);
        signer.WriteSignatureHex(hex);
        signer.Reset();
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 10; i++)
        {
            signer.Append(data);
            signer.GetSignature(raw);
            signer.WriteSignatureHex(hex);
            signer.WriteSignatureHex(utf8Hex);
            _ = signer.Verify(raw);
            _ = signer.VerifyHex(hex);
            signer.Reset();
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.Equal(Encoding.ASCII.GetString(utf8Hex), hex.ToString());
        Assert.Equal(hex.ToString(), hex.ToString().ToLowerInvariant());
    }

    [Fact]
    public void Reset_starts_a_new_signature_with_the_same_key()
    {
        using var signer = new HmacSha256Signer(Ascii("k"));
        signer.Append(Ascii("first"));
        signer.Reset();
        signer.Append(Ascii("second"));
        Assert.Equal(Convert.ToHexStringLower(HMACSHA256.HashData(Ascii("k"), Ascii("second"))), signer.GetSignatureHex());
        Assert.Equal(6, signer.BytesSigned);
    }

    [Fact]
    public void Small_destinations_and_disposed_signers_are_refused()
    {
        var signer = new HmacSha256Signer(Ascii("k"));
        Assert.Throws<ArgumentException>(() => signer.GetSignature(new byte[31]));
        Assert.Throws<ArgumentException>(() => signer.WriteSignatureHex(new char[63]));
        signer.Dispose();
        signer.Dispose();
        Assert.Throws<ObjectDisposedException>(() => signer.Append([1]));
        Assert.Throws<ObjectDisposedException>(() => signer.GetSignature(new byte[32]));
    }

    [Fact]
    public void The_signing_writer_refuses_to_commit_more_than_it_handed_out()
    {
        using var signing = new SigningBufferWriter(new ArrayBufferWriter<byte>(), Ascii("k"));
        int length = signing.GetSpan(8).Length;
        Assert.Throws<ArgumentOutOfRangeException>(() => signing.Advance(length + 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => signing.Advance(-1));
    }

    [Fact]
    public void The_signing_stream_is_write_only_and_disposes_what_it_owns()
    {
        var inner = new MemoryStream();
        var stream = new SigningStream(inner, Ascii("k"));
        stream.Write(Ascii("abc"));
        stream.WriteByte((byte)'d');
        Assert.Equal(4, stream.Position);
        Assert.False(stream.CanRead);
        Assert.False(stream.CanSeek);
        Assert.Throws<NotSupportedException>(() => stream.Read(new byte[1], 0, 1));
        Assert.Throws<NotSupportedException>(() => stream.Seek(0, SeekOrigin.Begin));
        Assert.Throws<NotSupportedException>(() => stream.Length);
        Assert.Equal(Convert.ToHexStringLower(HMACSHA256.HashData(Ascii("k"), Ascii("abcd"))), stream.Signer.GetSignatureHex());
        stream.Dispose();
        Assert.False(inner.CanWrite); // not left open
        Assert.Throws<ObjectDisposedException>(() => stream.Signer.GetSignatureHex());
        Assert.Throws<ArgumentException>(() => new SigningStream(new MemoryStream([], writable: false), Ascii("k")));
    }

    [Fact]
    public async Task The_signing_stream_signs_asynchronous_writes()
    {
        using var inner = new MemoryStream();
        using var signer = new HmacSha256Signer(Ascii("k"));
        await using (var stream = new SigningStream(inner, signer, leaveOpen: true))
        {
            await stream.WriteAsync(Ascii("ab"));
            await stream.WriteAsync(Ascii("xcdx"), 1, 2);
            await stream.FlushAsync();
        }

        Assert.Equal(Convert.ToHexStringLower(HMACSHA256.HashData(Ascii("k"), Ascii("abcd"))), signer.GetSignatureHex());
        Assert.True(inner.CanWrite);
    }
}
