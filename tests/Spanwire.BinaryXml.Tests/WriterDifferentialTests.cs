using System.Buffers;
using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>Same calls through the in-box binary writer and through ours: the same bytes, or the same exception type.</summary>
public class WriterDifferentialTests
{
    internal static (byte[]? Bytes, Type? Error) InBox(List<Action<XmlDictionaryWriter>> calls, IXmlDictionary? dictionary, XmlBinaryWriterSession? session) =>
        ThroughStream(stream => XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary, session, ownsStream: false), calls);

    private static (byte[]? Bytes, Type? Error) ThroughStream(Func<Stream, XmlDictionaryWriter> create, List<Action<XmlDictionaryWriter>> calls)
    {
        var stream = new MemoryStream();
        try
        {
            using (XmlDictionaryWriter writer = create(stream))
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

    internal static (byte[]? Bytes, Type? Error) Ours(List<Action<XmlDictionaryWriter>> calls, IXmlDictionary? dictionary, XmlBinaryWriterSession? session,
        bool tinySegments = false, bool toStream = false)
    {
        if (toStream)
        {
            // The stream form: large array and base64 blocks go to the stream directly, between buffered bytes.
            return ThroughStream(stream => Nbfx.CreateWriter(stream, dictionary, session, ownsStream: false), calls);
        }

        IBufferWriter<byte> output = tinySegments ? new TinyBufferWriter() : new ArrayBufferWriter<byte>();
        try
        {
            using (XmlDictionaryWriter writer = Nbfx.CreateWriter(output, dictionary, session))
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
    public void Over_a_stream_a_large_array_block_goes_to_the_stream_in_one_write_and_the_bytes_match_the_in_box_writer()
    {
        Guid[] guids = [.. Enumerable.Range(0, 100).Select(i => new Guid(i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))];
        double[] small = [1.5, 2.5];
        List<Action<XmlDictionaryWriter>> calls =
        [
            w => w.WriteStartElement("root"),
            w => w.WriteArray(null, "a", null, guids, 0, guids.Length), // 1600 bytes: not staged by the in-box writer
            w => w.WriteArray(null, "d", null, small, 0, small.Length),  // 16 bytes: staged
            w => w.WriteString("after"),
            w => w.WriteEndElement(),
        ];
        var stream = new RecordingStream();
        using (XmlDictionaryWriter writer = Nbfx.CreateWriter(stream, ownsStream: false))
        {
            foreach (var call in calls) call(writer);
        }

        Assert.Equal(InBox(calls, null, null).Bytes, stream.ToArray());
        Assert.Contains(guids.Length * 16, stream.WriteSizes);
        Assert.DoesNotContain(small.Length * 8, stream.WriteSizes);
    }

    private sealed class RecordingStream : MemoryStream
    {
        public List<int> WriteSizes { get; } = [];

        public override void Write(byte[] buffer, int offset, int count)
        {
            WriteSizes.Add(count);
            base.Write(buffer, offset, count);
        }

        public override void Write(ReadOnlySpan<byte> buffer)
        {
            WriteSizes.Add(buffer.Length);
            base.Write(buffer);
        }
    }

    [Fact]
    public void Ten_thousand_random_documents_match_the_in_box_writer()
    {
        const int Seed = 20261121;
        var documents = new RandomDocuments(Seed);
        XmlBinaryWriterSession inBoxSession = new(), ourSession = new();
        int compared = 0;
        for (int i = 0; i < LongRuns.Scale(10_000); i++)
        {
            List<Action<XmlDictionaryWriter>> calls = documents.Next();
            IXmlDictionary? dictionary = i % 3 == 0 ? null : documents.Dictionary;
            bool useSession = i % 2 == 0;
            var expected = InBox(calls, dictionary, useSession ? inBoxSession : null);
            var actual = Ours(calls, dictionary, useSession ? ourSession : null, tinySegments: i % 10 == 0, toStream: i % 4 == 1);
            if (expected.Error is not null)
            {
                Expect.Equal(actual.Error, expected.Error, $"seed {Seed}, document {i}: in-box threw {expected.Error}, ours {actual.Error?.ToString() ?? "nothing"}");
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
