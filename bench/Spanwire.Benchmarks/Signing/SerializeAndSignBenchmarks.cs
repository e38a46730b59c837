using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using Microsoft.IO;
using Newtonsoft.Json;
using Newtonsoft.Json.Serialization;
using Spanwire.Buffers;
using Spanwire.Signing;

namespace Spanwire.Benchmarks.Signing;

/// <summary>
/// Serialize the 3000-widget envelope to camelCase JSON and sign it with HMAC-SHA256, returning the lowercase hex
/// signature: the published scenario (Newtonsoft to a string, then UTF-8 bytes, then HMACSHA256) as the baseline,
/// its MemoryStream and RecyclableMemoryStream variants, and Spanwire's one-pass signing buffers.
/// Every row produces the same bytes and signature (tests/Spanwire.Benchmarks.Tests checks it).
/// </summary>
[MemoryDiagnoser]
public class SerializeAndSignBenchmarks
{
    public static readonly byte[] Key = Encoding.ASCII.GetBytes("this is the super secure key oh my aren't you impressed");

    private static readonly UTF8Encoding s_utf8NoBom = new(encoderShouldEmitUTF8Identifier: false);

    private WidgetEnvelope _envelope = null!;
    private JsonSerializerSettings _settings = null!;
    private Newtonsoft.Json.JsonSerializer _serializer = null!;
    private RecyclableMemoryStreamManager _manager = null!;
    private Utf8JsonWriter _utf8JsonWriter = null!;
    private Utf8JsonWriter _byHandUtf8JsonWriter = null!;
    private Spanwire.Json.SpanwireJsonWriter _byHandJsonWriter = null!;

    [GlobalSetup]
    public void Setup()
    {
        _envelope = WidgetEnvelope.Create();
        _settings = new JsonSerializerSettings { ContractResolver = new CamelCasePropertyNamesContractResolver() };
        _serializer = Newtonsoft.Json.JsonSerializer.Create(_settings);
        _manager = new RecyclableMemoryStreamManager();
        _utf8JsonWriter = new Utf8JsonWriter(Stream.Null, new JsonWriterOptions { SkipValidation = true });
        _byHandUtf8JsonWriter = new Utf8JsonWriter(Stream.Null);
        _byHandJsonWriter = new Spanwire.Json.SpanwireJsonWriter(Stream.Null);
    }

    [Benchmark(Baseline = true)]
    public string NewtonsoftStringThenHmac()
    {
        string json = JsonConvert.SerializeObject(_envelope, _settings);
        byte[] bytes = Encoding.UTF8.GetBytes(json);
        using var hmac = new HMACSHA256(Key);
        return Convert.ToHexStringLower(hmac.ComputeHash(bytes));
    }

    [Benchmark]
    public string NewtonsoftMemoryStream()
    {
        using var stream = new MemoryStream();
        return SerializeThenHash(stream);
    }

    [Benchmark]
    public string NewtonsoftRecyclableMemoryStream()
    {
        using var stream = _manager.GetStream();
        return SerializeThenHash(stream);
    }

    [Benchmark]
    public string NewtonsoftSpanwireSigningStream()
    {
        using var buffer = new PooledStream();
        using var signing = new SigningStream(buffer, Key, leaveOpen: true);
        using (var text = new StreamWriter(signing, s_utf8NoBom, bufferSize: 4096, leaveOpen: true))
        using (var json = new JsonTextWriter(text))
        {
            _serializer.Serialize(json, _envelope);
        }

        return signing.Signer.GetSignatureHex();
    }

    [Benchmark]
    public string SystemTextJsonSpanwireSigningWriter()
    {
        using var buffer = new PooledBufferWriter();
        using var signing = new SigningBufferWriter(buffer, Key);
        _utf8JsonWriter.Reset(signing);
        System.Text.Json.JsonSerializer.Serialize(_utf8JsonWriter, _envelope, WidgetJsonContext.Default.WidgetEnvelope);
        return signing.Signer.GetSignatureHex();
    }

    /// <summary>System.Text.Json into a Nerdbank.Streams Sequence, then HMAC over its segments: the peer a pooled-buffer user would pick.</summary>
    [Benchmark]
    public string SystemTextJsonSequenceThenHmac()
    {
        using var buffer = Buffers.BufferPeers.NewSequence();
        _utf8JsonWriter.Reset(buffer);
        System.Text.Json.JsonSerializer.Serialize(_utf8JsonWriter, _envelope, WidgetJsonContext.Default.WidgetEnvelope);
        return HmacHex(buffer.AsReadOnlySequence);
    }

    /// <summary>System.Text.Json into CommunityToolkit's ArrayPoolBufferWriter, then HMAC over its one span.</summary>
    [Benchmark]
    public string SystemTextJsonArrayPoolBufferWriterThenHmac()
    {
        using var buffer = Buffers.BufferPeers.NewArrayPoolBufferWriter();
        _utf8JsonWriter.Reset(buffer);
        System.Text.Json.JsonSerializer.Serialize(_utf8JsonWriter, _envelope, WidgetJsonContext.Default.WidgetEnvelope);
        return HmacHex(new System.Buffers.ReadOnlySequence<byte>(buffer.WrittenMemory));
    }

    private static string HmacHex(in System.Buffers.ReadOnlySequence<byte> bytes)
    {
        using var hmac = IncrementalHash.CreateHMAC(HashAlgorithmName.SHA256, Key);
        foreach (ReadOnlyMemory<byte> segment in bytes)
        {
            hmac.AppendData(segment.Span);
        }

        Span<byte> mac = stackalloc byte[32];
        hmac.GetHashAndReset(mac);
        return Convert.ToHexStringLower(mac);
    }

    /// <summary>The envelope written by hand (pre-encoded names) with Utf8JsonWriter into the signing buffer writer: the fair partner of the next row.</summary>
    [Benchmark]
    public string Utf8JsonWriterByHandSpanwireSigningWriter()
    {
        using var buffer = new PooledBufferWriter();
        using var signing = new SigningBufferWriter(buffer, Key);
        _byHandUtf8JsonWriter.Reset(signing);
        WidgetWriting.Write(_byHandUtf8JsonWriter, _envelope);
        return signing.Signer.GetSignatureHex();
    }

    /// <summary>The same calls on Spanwire's SpanwireJsonWriter.</summary>
    [Benchmark]
    public string JsonWriterByHandSpanwireSigningWriter()
    {
        using var buffer = new PooledBufferWriter();
        using var signing = new SigningBufferWriter(buffer, Key);
        _byHandJsonWriter.Reset(signing);
        WidgetWriting.Write(_byHandJsonWriter, _envelope);
        return signing.Signer.GetSignatureHex();
    }

    /// <summary>The bytes the Spanwire System.Text.Json row produces, for the equality test.</summary>
    public byte[] SystemTextJsonBytes()
    {
        using var buffer = new PooledBufferWriter();
        _utf8JsonWriter.Reset(buffer);
        System.Text.Json.JsonSerializer.Serialize(_utf8JsonWriter, _envelope, WidgetJsonContext.Default.WidgetEnvelope);
        return buffer.ToArray();
    }

    /// <summary>The bytes the baseline signs, for the equality test.</summary>
    public byte[] BaselineBytes() => Encoding.UTF8.GetBytes(JsonConvert.SerializeObject(_envelope, _settings));

    private string SerializeThenHash(Stream stream)
    {
        using (var text = new StreamWriter(stream, s_utf8NoBom, bufferSize: 4096, leaveOpen: true))
        using (var json = new JsonTextWriter(text))
        {
            _serializer.Serialize(json, _envelope);
        }

        stream.Position = 0;
        using var hmac = new HMACSHA256(Key);
        return Convert.ToHexStringLower(hmac.ComputeHash(stream));
    }
}
