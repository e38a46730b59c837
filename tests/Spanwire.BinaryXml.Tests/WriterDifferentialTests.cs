using System.Buffers;
using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>Same calls through the in-box binary writer and through ours: the same bytes, or the same exception type.</summary>
public class WriterDifferentialTests
{
    internal static (byte[]? Bytes, Type? Error) InBox(List<Action<XmlDictionaryWriter>> calls, IXmlDictionary? dictionary, XmlBinaryWriterSession? session)
    {
        var stream = new MemoryStream();
        try
        {
            using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary, session, ownsStream: false))
            {
                foreach (var call in calls) call(writer);
            }
            return (stream.ToArray(), null);
        }
        catch (Exception e)
        {
            return (null, e.GetType());
        }
    }

    internal static (byte[]? Bytes, Type? Error) Ours(List<Action<XmlDictionaryWriter>> calls, IXmlDictionary? dictionary, XmlBinaryWriterSession? session, bool tinySegments = false)
    {
        IBufferWriter<byte> output = tinySegments ? new TinyBufferWriter() : new ArrayBufferWriter<byte>();
        try
        {
            using (XmlDictionaryWriter writer = BinaryXml.CreateWriter(output, dictionary, session))
            {
                foreach (var call in calls) call(writer);
            }
            return (output is ArrayBufferWriter<byte> a ? a.WrittenSpan.ToArray() : ((TinyBufferWriter)output).ToArray(), null);
        }
        catch (Exception e)
        {
            return (null, e.GetType());
        }
    }

    [Fact]
    public void TenThousandRandomDocumentsMatchTheInBoxWriter()
    {
        const int Seed = 20261121;
        var documents = new RandomDocuments(Seed);
        XmlBinaryWriterSession inBoxSession = new(), ourSession = new();
        int compared = 0;
        for (int i = 0; i < 10_000; i++)
        {
            List<Action<XmlDictionaryWriter>> calls = documents.Next();
            IXmlDictionary? dictionary = i % 3 == 0 ? null : documents.Dictionary;
            bool useSession = i % 2 == 0;
            var expected = InBox(calls, dictionary, useSession ? inBoxSession : null);
            var actual = Ours(calls, dictionary, useSession ? ourSession : null, tinySegments: i % 10 == 0);
            if (expected.Error is not null)
            {
                Assert.True(actual.Error == expected.Error, $"seed {Seed}, document {i}: in-box threw {expected.Error}, ours {actual.Error?.ToString() ?? "nothing"}");
                // The sessions may now differ in what they hold; start both afresh.
                inBoxSession = new(); ourSession = new();
                continue;
            }
            Assert.True(actual.Error is null, $"seed {Seed}, document {i}: ours threw {actual.Error}");
            if (!expected.Bytes!.AsSpan().SequenceEqual(actual.Bytes))
            {
                int at = expected.Bytes!.AsSpan().CommonPrefixLength(actual.Bytes);
                if (Environment.GetEnvironmentVariable("SPANWIRE_NBFX_DUMP") is not null)
                {
                    Console.WriteLine("in-box " + Convert.ToHexString(expected.Bytes!));
                    Console.WriteLine("ours   " + Convert.ToHexString(actual.Bytes!));
                }
                Assert.Fail($"seed {Seed}, document {i}: first difference at byte {at} of {expected.Bytes!.Length}/{actual.Bytes!.Length}: " +
                    $"in-box {Hex(expected.Bytes, at)} ours {Hex(actual.Bytes, at)}");
            }
            compared++;
        }
        // About one document in seven ends in an exception on both sides (an undefined or rebound prefix, a lone surrogate).
        Assert.True(compared > 8_000, $"only {compared} documents compared");
    }

    private static string Hex(byte[] bytes, int at) =>
        Convert.ToHexString(bytes.AsSpan(Math.Max(0, at - 8), Math.Min(bytes.Length - Math.Max(0, at - 8), 24)));
}

/// <summary>A buffer writer that hands out at most 7 bytes at a time, to force every slow path.</summary>
internal sealed class TinyBufferWriter : IBufferWriter<byte>
{
    private readonly List<byte[]> _segments = [];
    private byte[] _current = [];

    public void Advance(int count) => _segments.Add(_current[..count]);

    public Memory<byte> GetMemory(int sizeHint = 0) => _current = new byte[Math.Max(sizeHint, 7)];

    public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;

    public byte[] ToArray() => _segments.SelectMany(s => s).ToArray();
}
