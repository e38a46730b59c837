using System.Buffers;
using System.Text;
using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>Helpers for the reader tests: node dumps of any XmlReader, token dumps of NbfxReader, inputs split into segments.</summary>
internal static class ReaderHarness
{
    /// <summary>Every node the reader yields, one line each, with the element's attributes.</summary>
    public static List<string> Nodes(XmlReader reader)
    {
        var nodes = new List<string>();
        while (reader.Read())
        {
            nodes.Add($"{reader.NodeType}|{reader.Depth}|{reader.Prefix}|{reader.LocalName}|{reader.NamespaceURI}|{reader.Value}|{reader.IsEmptyElement}");
            if (reader.NodeType == XmlNodeType.Element && reader.MoveToFirstAttribute())
            {
                do
                {
                    nodes.Add($"  @{reader.Depth}|{reader.Prefix}|{reader.LocalName}|{reader.NamespaceURI}|{reader.Value}");
                    // The value as a text node, as XmlWriter.WriteAttributes reads it.
                    if (reader.ReadAttributeValue())
                    {
                        nodes.Add($"   ={reader.NodeType}|{reader.Depth}|{reader.Value}|{reader.AttributeCount}");
                    }
                }
                while (reader.MoveToNextAttribute());
                reader.MoveToElement();
            }
        }

        nodes.Add($"end {reader.NodeType} {reader.ReadState} {reader.EOF}");
        return nodes;
    }

    /// <summary>
    /// Reads the document <paramref name="hex"/> with the in-box reader (the control) and with the drop-in from one
    /// array and from 1-byte segments, and expects the same nodes and the same refusal. The dictionary holds
    /// "urn:d" (id 0) and "n" (id 2).
    /// </summary>
    public static void ReadsAsInBox(string why, string hex)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        var dictionary = new XmlDictionary();
        dictionary.Add("urn:d");
        dictionary.Add("n");
        (List<string> Nodes, string? Error) expected = NodesUntilRefused(() => XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max));
        (List<string> Nodes, string? Error) whole = NodesUntilRefused(() => Nbfx.CreateReader(bytes, dictionary, XmlDictionaryReaderQuotas.Max));
        (List<string> Nodes, string? Error) split = NodesUntilRefused(() => Nbfx.CreateReader(Split(bytes, 1), dictionary, XmlDictionaryReaderQuotas.Max));
        Expect.SameLines(expected.Nodes, whole.Nodes, $"{why} ({hex}), one array");
        Expect.Equal(expected.Error, whole.Error, $"{why} ({hex}), one array");
        Expect.SameLines(expected.Nodes, split.Nodes, $"{why} ({hex}), 1-byte segments");
        Expect.Equal(expected.Error, split.Error, $"{why} ({hex}), 1-byte segments");
        (List<string> Nodes, string? Error) streamed = NodesUntilRefused(() => Nbfx.CreateReader(Trickle(bytes, 1), dictionary, XmlDictionaryReaderQuotas.Max));
        Expect.SameLines(expected.Nodes, streamed.Nodes, $"{why} ({hex}), a stream read a byte at a time");
        Expect.Equal(expected.Error, streamed.Error, $"{why} ({hex}), a stream read a byte at a time");
    }

    /// <summary>
    /// Each node with its attributes until the end or the exception, and whether the input was refused (an
    /// XmlException: the drop-in's is NbfxFormatException, which derives from it and gives the byte offset).
    /// </summary>
    public static (List<string> Nodes, string? Error) NodesUntilRefused(Func<XmlReader> open)
    {
        var nodes = new List<string>();
        try
        {
            using XmlReader reader = open();
            while (reader.Read())
            {
                nodes.Add($"{reader.NodeType}|{reader.Depth}|{reader.Prefix}|{reader.LocalName}|{reader.NamespaceURI}|{reader.Value}|{reader.IsEmptyElement}|{reader.AttributeCount}");
                for (int i = 0; i < reader.AttributeCount; i++)
                {
                    reader.MoveToAttribute(i);
                    nodes.Add($"  @{reader.Depth}|{reader.Prefix}|{reader.LocalName}|{reader.NamespaceURI}|{reader.Value}");
                }

                reader.MoveToElement();
            }

            nodes.Add($"end {reader.NodeType} {reader.ReadState}");
            return (nodes, null);
        }
        catch (XmlException)
        {
            return (nodes, "refused");
        }
    }

    /// <summary>What a member answers, as text: its value, "null", or the name of the exception it throws.</summary>
    public static string Answer(Func<object?> ask)
    {
        try
        {
            return ask()?.ToString() ?? "null";
        }
        catch (Exception e)
        {
            return e.GetType().Name;
        }
    }

    /// <summary>The nodes, or the type of the exception the reader threw.</summary>
    public static (List<string>? Nodes, Type? Error) TryNodes(Func<XmlReader> open)
    {
        try
        {
            using XmlReader reader = open();
            return (Nodes(reader), null);
        }
        catch (XmlException e)
        {
            if (Environment.GetEnvironmentVariable("SPANWIRE_NBFX_DUMP") is not null) Console.WriteLine(e.Message);
            return (null, e.GetType());
        }
    }

    /// <summary>Every token of a raw reader as text; array values read through ReadArray when <paramref name="readArrays"/>.</summary>
    public static string Tokens(ref NbfxReader reader, bool readArrays = true)
    {
        var text = new StringBuilder();
        while (reader.Read())
        {
            text.Append(reader.TokenType).Append(' ').Append(reader.CurrentDepth);
            switch (reader.TokenType)
            {
                case NbfxTokenType.StartElement:
                case NbfxTokenType.Attribute:
                case NbfxTokenType.NamespaceDeclaration:
                    text.Append(' ').Append(reader.GetPrefix()).Append(':').Append(reader.GetLocalName());
                    if (reader.IsArrayElement) text.Append(" array");
                    if (reader.TokenType != NbfxTokenType.StartElement) text.Append(" = ").Append(reader.ValueType).Append(' ').Append(reader.GetString());
                    break;
                case NbfxTokenType.Text:
                case NbfxTokenType.Comment:
                    text.Append(' ').Append(reader.ValueType).Append(' ').Append(reader.GetString());
                    break;
                case NbfxTokenType.Array:
                    text.Append(' ').Append(reader.ArrayType).Append(" x").Append(reader.ArrayLength);
                    if (readArrays) text.Append(" [").Append(ArrayText(ref reader)).Append(']');
                    break;
            }

            text.Append('\n');
        }

        return text.ToString();
    }

    private static string ArrayText(ref NbfxReader reader)
    {
        int n = reader.ArrayLength;
        // Read in two calls, to cover partial reads.
        int first = n / 2;
        switch (reader.ArrayType)
        {
            case NbfxValueType.Bool: { var a = new bool[n]; reader.ReadArray(a.AsSpan(0, first)); reader.ReadArray(a.AsSpan(first)); return string.Join(",", a); }
            case NbfxValueType.Int16: { var a = new short[n]; reader.ReadArray(a.AsSpan(0, first)); reader.ReadArray(a.AsSpan(first)); return string.Join(",", a); }
            case NbfxValueType.Int32: { var a = new int[n]; reader.ReadArray(a.AsSpan(0, first)); reader.ReadArray(a.AsSpan(first)); return string.Join(",", a); }
            case NbfxValueType.Int64: { var a = new long[n]; reader.ReadArray(a.AsSpan(0, first)); reader.ReadArray(a.AsSpan(first)); return string.Join(",", a); }
            case NbfxValueType.Float: { var a = new float[n]; reader.ReadArray(a.AsSpan(0, first)); reader.ReadArray(a.AsSpan(first)); return string.Join(",", a.Select(XmlConvert.ToString)); }
            case NbfxValueType.Double: { var a = new double[n]; reader.ReadArray(a.AsSpan(0, first)); reader.ReadArray(a.AsSpan(first)); return string.Join(",", a.Select(XmlConvert.ToString)); }
            case NbfxValueType.Decimal: { var a = new decimal[n]; reader.ReadArray(a.AsSpan(0, first)); reader.ReadArray(a.AsSpan(first)); return string.Join(",", a.Select(XmlConvert.ToString)); }
            case NbfxValueType.DateTime: { var a = new DateTime[n]; reader.ReadArray(a.AsSpan(0, first)); reader.ReadArray(a.AsSpan(first)); return string.Join(",", a.Select(d => XmlConvert.ToString(d, XmlDateTimeSerializationMode.RoundtripKind))); }
            case NbfxValueType.TimeSpan: { var a = new TimeSpan[n]; reader.ReadArray(a.AsSpan(0, first)); reader.ReadArray(a.AsSpan(first)); return string.Join(",", a.Select(XmlConvert.ToString)); }
            case NbfxValueType.Guid: { var a = new Guid[n]; reader.ReadArray(a.AsSpan(0, first)); reader.ReadArray(a.AsSpan(first)); return string.Join(",", a); }
            default: throw new InvalidOperationException(reader.ArrayType.ToString());
        }
    }

    /// <summary>
    /// <paramref name="count"/> random documents as the in-box writer writes them: a third without the dictionary, every
    /// other one with a session. The few calls the in-box writer refuses are skipped.
    /// </summary>
    public static IEnumerable<(int Index, byte[] Bytes, IXmlDictionary? Dictionary, XmlBinaryReaderSession? Session)> InBoxDocuments(int seed, int count)
    {
        var documents = new RandomDocuments(seed);
        for (int i = 0; i < count; i++)
        {
            List<Action<XmlDictionaryWriter>> calls = documents.Next();
            IXmlDictionary? dictionary = i % 3 == 0 ? null : documents.Dictionary;
            var writerSession = i % 2 == 0 ? new RecordingWriterSession() : null;
            var (bytes, error) = WriterDifferentialTests.InBox(calls, dictionary, writerSession);
            if (error is null)
            {
                yield return (i, bytes!, dictionary, writerSession?.ToReaderSession());
            }
        }
    }

    /// <summary><paramref name="data"/> as a sequence of segments of <paramref name="size"/> bytes (the last may be shorter).</summary>
    public static ReadOnlySequence<byte> Split(byte[] data, int size)
    {
        if (data.Length == 0) return ReadOnlySequence<byte>.Empty;
        Chunk first = new(data.AsMemory(0, Math.Min(size, data.Length)), 0);
        Chunk last = first;
        for (int at = size; at < data.Length; at += size)
        {
            last = last.Append(data.AsMemory(at, Math.Min(size, data.Length - at)));
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    /// <summary>
    /// A stream over <paramref name="data"/> that hands out at most <paramref name="size"/> bytes per read, as a socket
    /// may: every record boundary and every byte inside a record falls between two reads somewhere.
    /// </summary>
    public static Stream Trickle(byte[] data, int size) => new TrickleStream(data, size);

    private sealed class TrickleStream(byte[] data, int size) : MemoryStream(data, writable: false)
    {
        public override int Read(byte[] buffer, int offset, int count) => base.Read(buffer, offset, Math.Min(count, size));

        public override int Read(Span<byte> buffer) => base.Read(buffer[..Math.Min(buffer.Length, size)]);
    }

    /// <summary>A stream that is read forward only: what the test streams share; each gives its own Read.</summary>
    public abstract class ForwardOnlyStream : Stream
    {
        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => throw new NotSupportedException();
            set => throw new NotSupportedException();
        }

        public abstract override int Read(Span<byte> buffer);

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }

    private sealed class Chunk : ReadOnlySequenceSegment<byte>
    {
        public Chunk(ReadOnlyMemory<byte> memory, long runningIndex)
        {
            Memory = memory;
            RunningIndex = runningIndex;
        }

        public Chunk Append(ReadOnlyMemory<byte> memory)
        {
            var next = new Chunk(memory, RunningIndex + Memory.Length);
            Next = next;
            return next;
        }
    }

    /// <summary>A writer session that remembers the strings it added, so a reader session can be built to match.</summary>
    public sealed class RecordingWriterSession : XmlBinaryWriterSession
    {
        public List<string> Added { get; } = [];

        public override bool TryAdd(XmlDictionaryString value, out int key)
        {
            bool added = base.TryAdd(value, out key);
            if (added) Added.Add(value.Value);
            return added;
        }

        public XmlBinaryReaderSession ToReaderSession()
        {
            var session = new XmlBinaryReaderSession();
            for (int i = 0; i < Added.Count; i++) session.Add(i, Added[i]);
            return session;
        }
    }
}
