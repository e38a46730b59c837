using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// A Stream is read as the nodes need it, as the in-box reader reads one: memory holds a block and the largest
/// record, not the document; the stream is closed with the reader; a record that claims more than the stream holds
/// is refused where the bytes run out, and costs no more than the bytes that came. The node-for-node comparisons
/// over streams that hand out a few bytes per read are in the differential, walk and damaged-input tests.
/// </summary>
public class StreamInputTests
{
    // <root> then <item>value</item> repeated, then </root>: short ASCII names, a Chars8 text with end element.
    private static readonly byte[] s_rootStart = [0x40, 0x04, .. "root"u8];
    private static readonly byte[] s_item = [0x40, 0x04, .. "item"u8, 0x99, 0x05, .. "value"u8];

    [Fact]
    public void A_document_far_larger_than_the_reader_keeps_is_read_without_holding_it()
    {
        const int Items = 4_000_000; // 52 MB
        using var stream = new RepeatingStream(s_rootStart, s_item, Items, [0x01]);
        long before = GC.GetAllocatedBytesForCurrentThread();
        int elements = 0, texts = 0;
        using (XmlDictionaryReader reader = Nbfx.CreateReader(stream, null, XmlDictionaryReaderQuotas.Max))
        {
            while (reader.Read())
            {
                if (reader.NodeType == XmlNodeType.Element)
                {
                    elements++;
                }
                else if (reader.NodeType == XmlNodeType.Text)
                {
                    texts++;
                }
            }
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Expect.Equal((Items + 1, Items), (elements, texts), "elements and texts read");
        Assert.True(allocated < 1 << 20, $"reading {stream.Length / 1_000_000} MB allocated {allocated} bytes");
    }

    [Fact]
    public void The_stream_is_read_only_as_far_as_the_nodes_need_and_closed_with_the_reader_as_in_box()
    {
        foreach (bool inBox in new[] { true, false })
        {
            using var stream = new RepeatingStream(s_rootStart, s_item, 100_000, [0x01]);
            XmlDictionaryReader reader = inBox
                ? XmlDictionaryReader.CreateBinaryReader(stream, XmlDictionaryReaderQuotas.Max)
                : Nbfx.CreateReader(stream, null, XmlDictionaryReaderQuotas.Max);
            Assert.True(reader.Read());
            Assert.True(stream.Position < stream.Length / 10, $"{(inBox ? "in-box" : "ours")}: {stream.Position} of {stream.Length} bytes read for the first node");
            Assert.True(stream.CanRead);
            reader.Close();
            Expect.Equal(false, stream.CanRead, $"{(inBox ? "in-box" : "ours")}: the stream is closed with the reader");
        }
    }

    /// <summary>
    /// A stream that is a connection has nothing more to give after a message until the reply is sent: the reader
    /// reads no further than the nodes need, as in-box, so every node of the message, to the root's end, is read.
    /// </summary>
    [Fact]
    public void A_message_on_a_connection_is_read_to_its_end_without_asking_for_more()
    {
        byte[] message = [.. s_rootStart, .. s_item, .. s_item, 0x01];
        foreach (bool inBox in new[] { true, false })
        {
            var connection = new ConnectionStream(message);
            XmlDictionaryReader reader = inBox
                ? XmlDictionaryReader.CreateBinaryReader(connection, XmlDictionaryReaderQuotas.Max)
                : Nbfx.CreateReader(connection, null, XmlDictionaryReaderQuotas.Max);
            var nodes = new List<string>();
            while (reader.Read())
            {
                nodes.Add($"{reader.NodeType} {reader.LocalName} {reader.Value}");
                if (reader.NodeType == XmlNodeType.EndElement && reader.Depth == 0)
                {
                    break;
                }
            }

            Expect.Equal(8, nodes.Count, $"{(inBox ? "in-box" : "ours")}: nodes read before the reply ({string.Join(", ", nodes)})");
        }
    }

    /// <summary>A connection: the message in two pieces, then nothing until a reply that never comes (a read then fails the test).</summary>
    private sealed class ConnectionStream(byte[] message) : ReaderHarness.ForwardOnlyStream
    {
        private int _sent;

        public override int Read(Span<byte> buffer)
        {
            if (_sent == message.Length)
            {
                throw new InvalidOperationException("the connection has nothing more until the reply is sent");
            }

            int n = Math.Min(buffer.Length, _sent == 0 ? message.Length / 2 : message.Length - _sent);
            message.AsSpan(_sent, n).CopyTo(buffer);
            _sent += n;
            return n;
        }
    }

    [Fact]
    public void SetInput_with_a_stream_reads_it_as_the_in_box_reader_does()
    {
        byte[] first = [.. s_rootStart, .. s_item, 0x01];
        byte[] second = [0x40, 0x01, (byte)'r', 0x04, 0x01, (byte)'a', 0x88, 0x07, 0x99, 0x02, (byte)'h', (byte)'i'];
        var expected = (XmlDictionaryReader)XmlDictionaryReader.CreateBinaryReader(new MemoryStream(first), XmlDictionaryReaderQuotas.Max);
        XmlDictionaryReader actual = Nbfx.CreateReader(new MemoryStream(first), null, XmlDictionaryReaderQuotas.Max);
        foreach (byte[] bytes in new[] { first, second })
        {
            ((IXmlBinaryReaderInitializer)expected).SetInput(ReaderHarness.Trickle(bytes, 3), null, XmlDictionaryReaderQuotas.Max, null, null);
            ((IXmlBinaryReaderInitializer)actual).SetInput(ReaderHarness.Trickle(bytes, 3), null, XmlDictionaryReaderQuotas.Max, null, null);
            Expect.SameLines(ReaderHarness.Nodes(expected), ReaderHarness.Nodes(actual), $"SetInput with {Convert.ToHexString(bytes)}");
        }
    }

    [Fact]
    public void A_long_stream_given_to_SetInput_after_an_array_leaves_that_array_as_it_was()
    {
        byte[] first = [.. s_rootStart, .. s_item, 0x01];
        byte[] copy = (byte[])first.Clone();
        using var long_ = new RepeatingStream([0x40, 0x02, .. "zz"u8], [0x40, 0x03, .. "xyz"u8, 0x01], 20_000, [0x01]); // past one block, names copied
        XmlDictionaryReader reader = Nbfx.CreateReader(first, null, XmlDictionaryReaderQuotas.Max);
        ReaderHarness.Nodes(reader);
        ((IXmlBinaryReaderInitializer)reader).SetInput(long_, null, XmlDictionaryReaderQuotas.Max, null, null);
        int elements = 0;
        while (reader.Read())
        {
            elements += reader.NodeType == XmlNodeType.Element && reader.LocalName == "xyz" ? 1 : 0;
        }

        Expect.Equal(20_000, elements, "elements read from the stream");
        Expect.Equal(Convert.ToHexString(copy), Convert.ToHexString(first), "the first input's bytes");
    }

    [Theory]
    [InlineData("a Chars32 text that claims 2^31 − 1 bytes", "40 01 61 9D FF FF FF 7F 61 62 63")]
    [InlineData("a Bytes32 text that claims 1 GB", "40 01 61 A3 00 00 00 40 00 01 02")]
    [InlineData("a name that claims 2^31 − 1 bytes", "41 FF FF FF FF 07 61 62")]
    public void A_record_that_claims_more_than_the_stream_holds_is_refused_at_little_cost(string why, string hex)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        long before = GC.GetAllocatedBytesForCurrentThread();
        var streamed = ReaderHarness.NodesUntilRefused(() => Nbfx.CreateReader(ReaderHarness.Trickle(bytes, 2), null, XmlDictionaryReaderQuotas.Max));
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        var whole = ReaderHarness.NodesUntilRefused(() => Nbfx.CreateReader(bytes, null, XmlDictionaryReaderQuotas.Max));
        Expect.Equal("refused", streamed.Error, $"{why}: refused with an XmlException, as the in-box reader refuses the first two (the third it fails with IndexOutOfRangeException)");
        Expect.SameLines(whole.Nodes, streamed.Nodes, $"{why}: the nodes before the refusal");
        Assert.True(allocated < 64 << 10, $"{why}: {allocated} bytes allocated");
    }

    /// <summary>
    /// From a stream the in-box reader hands a text longer than MaxBytesPerRead − 5 out in pieces (UTF-8 never cut
    /// inside a character, UTF-16 never after a high surrogate, bytes in threes), the last ending the element if the
    /// record does; content reads join them. Node for node against the in-box reader over the same stream, at quotas
    /// that cut and that do not, from a stream that ends in its first block and from one that does not.
    /// </summary>
    [Theory]
    [InlineData(64)]
    [InlineData(100)]
    [InlineData(4096)]
    [InlineData(int.MaxValue)]
    public void Long_texts_from_a_stream_come_in_the_in_box_pieces(int maxBytesPerRead)
    {
        string mixed = string.Concat(Enumerable.Repeat("ab€é😀c", 700));
        byte[] utf16 = System.Text.Encoding.Unicode.GetBytes(mixed);
        var documents = new List<(string Why, byte[] Bytes)>
        {
            ("ASCII text with end element", Write(w => w.WriteElementString("t", new string('x', 10_000)))),
            ("mixed UTF-8 text with end element", Write(w => w.WriteElementString("t", mixed))),
            ("UTF-8 text then a comment", Write(w => { w.WriteStartElement("t"); w.WriteString(mixed); w.WriteComment("c"); w.WriteEndElement(); })),
            ("bytes", Write(w => { w.WriteStartElement("t"); w.WriteBase64(Enumerable.Range(0, 5000).Select(i => (byte)i).ToArray(), 0, 5000); w.WriteEndElement(); })),
            ("UTF-16 text with end element", [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'t', 0xBB, .. BitConverter.GetBytes(utf16.Length), .. utf16, 0x01]),
            ("a long document of long texts", Write(w => { for (int i = 0; i < 40; i++) w.WriteElementString("t", mixed); })),
        };
        var quotas = new XmlDictionaryReaderQuotas { MaxBytesPerRead = maxBytesPerRead, MaxStringContentLength = int.MaxValue, MaxArrayLength = int.MaxValue };
        foreach ((string why, byte[] bytes) in documents)
        {
            string context = $"{why}, MaxBytesPerRead {maxBytesPerRead}";
            var expected = ReaderHarness.NodesUntilRefused(() => XmlDictionaryReader.CreateBinaryReader(ReaderHarness.Trickle(bytes, 4000), quotas));
            var actual = ReaderHarness.NodesUntilRefused(() => Nbfx.CreateReader(ReaderHarness.Trickle(bytes, 4000), null, quotas));
            Expect.Equal(expected.Error, actual.Error, context + ": refused");
            Expect.SameLines(expected.Nodes, actual.Nodes, context + ": nodes");
            Expect.Equal(Content(XmlDictionaryReader.CreateBinaryReader(new MemoryStream(bytes), quotas)), Content(Nbfx.CreateReader(new MemoryStream(bytes), null, quotas)), context + ": content read as strings");
        }

        static string Content(XmlDictionaryReader reader)
        {
            using (reader)
            {
                var text = new System.Text.StringBuilder();
                while (reader.Read())
                {
                    if (reader.NodeType == XmlNodeType.Text)
                    {
                        text.Append(reader.ReadContentAsString()).Append('|').Append(reader.NodeType).Append('|');
                    }
                }

                return text.ToString();
            }
        }

        static byte[] Write(Action<XmlDictionaryWriter> write)
        {
            var stream = new MemoryStream();
            using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
            {
                writer.WriteStartElement("r");
                write(writer);
                writer.WriteEndElement();
            }

            return stream.ToArray();
        }
    }

    /// <summary>A seekable-looking stream that makes a long document from a start, an item repeated and an end, without holding it.</summary>
    private sealed class RepeatingStream(byte[] start, byte[] item, int count, byte[] end) : ReaderHarness.ForwardOnlyStream
    {
        private readonly long _length = start.Length + (long)item.Length * count + end.Length;
        private long _position;
        private bool _closed;

        public override bool CanRead => !_closed;

        public override long Length => _length;

        public override long Position
        {
            get => _position;
            set => throw new NotSupportedException();
        }

        public override int Read(Span<byte> buffer)
        {
            ObjectDisposedException.ThrowIf(_closed, this);
            int written = 0;
            while (written < buffer.Length && _position < _length)
            {
                byte[] source;
                long at;
                if (_position < start.Length)
                {
                    (source, at) = (start, _position);
                }
                else if (_position < _length - end.Length)
                {
                    (source, at) = (item, (_position - start.Length) % item.Length);
                }
                else
                {
                    (source, at) = (end, _position - (_length - end.Length));
                }

                int n = (int)Math.Min(buffer.Length - written, source.Length - at);
                source.AsSpan((int)at, n).CopyTo(buffer[written..]);
                written += n;
                _position += n;
            }

            return written;
        }

        protected override void Dispose(bool disposing)
        {
            _closed = true;
            base.Dispose(disposing);
        }
    }

    /// <summary>
    /// Base64 content of two Bytes texts: over bytes both readers know its length and read exactly that much, leaving
    /// the reader on the last text; over a stream neither knows it, and both read on to the end tag.
    /// </summary>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Base64_content_length_is_known_over_bytes_only_as_in_box(bool overStream)
    {
        var written = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(written))
        {
            w.WriteStartElement("a");
            w.WriteBase64(new byte[255], 0, 255);
            w.WriteBase64(new byte[30], 0, 30);
            w.WriteEndElement();
        }

        byte[] bytes = written.ToArray();
        XmlDictionaryReader Open(bool ours) => (ours, overStream) switch
        {
            (false, false) => XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max),
            (false, true) => XmlDictionaryReader.CreateBinaryReader(new MemoryStream(bytes), XmlDictionaryReaderQuotas.Max),
            (true, false) => Nbfx.CreateReader(bytes),
            (true, true) => Nbfx.CreateReader(new MemoryStream(bytes), null, XmlDictionaryReaderQuotas.Max),
        };

        using XmlDictionaryReader expected = Open(ours: false), actual = Open(ours: true);
        foreach (XmlDictionaryReader r in new[] { expected, actual })
        {
            r.ReadStartElement();
        }

        Expect.Equal(expected.TryGetBase64ContentLength(out int expectedLength) + " " + expectedLength,
            actual.TryGetBase64ContentLength(out int actualLength) + " " + actualLength, $"the length known (over a stream: {overStream})");
        Expect.Equal(expected.ReadContentAsBase64().Length, actual.ReadContentAsBase64().Length, "the bytes read");
        Expect.Equal(expected.NodeType, actual.NodeType, $"the node after (over a stream: {overStream})");
    }
}
