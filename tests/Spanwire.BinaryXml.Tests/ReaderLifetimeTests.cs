using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// A closed reader hands its working arrays to the next reader made on the same thread. Readers open at the same time,
/// readers reused through SetInput and closed readers asked questions all read as the in-box reader does, each with
/// its own state.
/// </summary>
public class ReaderLifetimeTests
{
    // <r xmlns:p="u:p"><a b="1" p:c="2">x</a><a b="3"/></r>, as the in-box writer writes it.
    private static readonly byte[] s_document = Write(writer =>
    {
        writer.WriteStartElement("r");
        writer.WriteXmlnsAttribute("p", "u:p");
        writer.WriteStartElement("a");
        writer.WriteAttributeString("b", "1");
        writer.WriteAttributeString("p", "c", "u:p", "2");
        writer.WriteString("x");
        writer.WriteEndElement();
        writer.WriteStartElement("a");
        writer.WriteAttributeString("b", "3");
        writer.WriteEndElement();
        writer.WriteEndElement();
    });

    private static byte[] Write(Action<XmlDictionaryWriter> write)
    {
        using var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            write(writer);
        }

        return stream.ToArray();
    }

    private static XmlDictionaryReader InBox(byte[] bytes) => XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);

    private static XmlDictionaryReader Ours(byte[] bytes) => Nbfx.CreateReader(bytes, null, XmlDictionaryReaderQuotas.Max);

    [Fact]
    public void Readers_open_at_once_on_one_thread_keep_their_own_nodes()
    {
        using XmlDictionaryReader first = Ours(s_document);
        using XmlDictionaryReader second = Ours(s_document);
        var fromFirst = new List<string>();
        var fromSecond = new List<string>();
        // Interleaved: each Read of one reader between two of the other.
        while (true)
        {
            bool a = first.Read(), b = second.Read();
            if (!a || !b)
            {
                Assert.Equal(a, b);
                break;
            }

            fromFirst.Add(Describe(first));
            fromSecond.Add(Describe(second));
        }

        List<string> inBoxNodes = [];
        using (XmlDictionaryReader control = InBox(s_document))
        {
            while (control.Read())
            {
                inBoxNodes.Add(Describe(control));
            }
        }

        Expect.SameLines(inBoxNodes, fromFirst, "the first of two readers open at once");
        Expect.SameLines(inBoxNodes, fromSecond, "the second of two readers open at once");
        Expect.SameLines(ReaderHarness.Nodes(InBox(s_document)), ReaderHarness.Nodes(Ours(s_document)), "a third reader after the two");
    }

    [Fact]
    public void A_reader_closed_on_an_element_with_attributes_answers_as_closed_and_leaves_the_next_reader_alone()
    {
        XmlDictionaryReader inBox = InBox(s_document);
        XmlDictionaryReader closed = Ours(s_document);
        foreach (XmlDictionaryReader reader in new[] { inBox, closed })
        {
            reader.Read();
            reader.Read();
            Assert.Equal(2, reader.AttributeCount);
            reader.Close();
        }

        // The next reader on this thread takes the closed reader's arrays; asking the closed reader must not touch them.
        using XmlDictionaryReader next = Ours(s_document);
        next.Read();
        next.Read();
        Assert.Equal(Describe(inBox), Describe(closed));
        Assert.Equal(ReaderState(inBox), ReaderState(closed));
        Assert.False(closed.Read());
        using XmlDictionaryReader control = InBox(s_document);
        control.Read();
        control.Read();
        Assert.Equal(Describe(control), Describe(next));
        Expect.SameLines(ReaderHarness.Nodes(control), ReaderHarness.Nodes(next), "the reader made after one was closed");
    }

    [Fact]
    public void A_closed_reader_gives_the_depth_in_box_gives_wherever_it_was_closed()
    {
        for (int reads = 0; reads <= 12; reads++)
        {
            using XmlDictionaryReader inBox = InBox(s_document), ours = Ours(s_document);
            for (int i = 0; i < reads; i++)
            {
                inBox.Read();
                ours.Read();
            }

            string at = $"{inBox.NodeType} {inBox.LocalName} at depth {inBox.Depth}";
            inBox.Close();
            ours.Close();
            Expect.Equal(inBox.Depth, ours.Depth, $"closed after {reads} reads, on {at} (in-box counts the elements open)");
        }
    }

    [Fact]
    public void A_reader_reused_through_SetInput_after_Close_reads_every_document_as_in_box()
    {
        byte[] other = Write(writer =>
        {
            writer.WriteStartElement("x");
            writer.WriteElementString("y", "z");
            writer.WriteEndElement();
        });
        var reader = (IXmlBinaryReaderInitializer)Ours(s_document);
        var asReader = (XmlDictionaryReader)reader;
        int closes = 0;
        for (int round = 0; round < 4; round++)
        {
            byte[] bytes = round % 2 == 0 ? s_document : other;
            reader.SetInput(bytes, 0, bytes.Length, null, XmlDictionaryReaderQuotas.Max, null, _ => closes++);
            Expect.SameLines(ReaderHarness.Nodes(InBox(bytes)), ReaderHarness.Nodes(asReader), $"round {round}");
            asReader.Close();
            // Another reader between two uses takes the arrays the closed one gave back.
            Expect.SameLines(ReaderHarness.Nodes(InBox(other)), ReaderHarness.Nodes(Ours(other)), $"a reader between rounds {round} and {round + 1}");
        }

        Assert.Equal(4, closes);
    }

    [Fact]
    public void A_reader_closed_after_a_deep_document_gives_its_grown_arrays_or_drops_them_and_the_next_reads_the_same()
    {
        // 200 nested elements with 70 attributes on the innermost: arrays grown past what is kept.
        byte[] deep = Write(writer =>
        {
            for (int i = 0; i < 200; i++)
            {
                writer.WriteStartElement("e" + i);
            }

            for (int i = 0; i < 70; i++)
            {
                writer.WriteAttributeString("a" + i, new string('v', i * 100));
            }

            writer.WriteEndDocument();
        });
        List<string> expected = ReaderHarness.Nodes(InBox(deep));
        using (XmlDictionaryReader reader = Ours(deep))
        {
            Expect.SameLines(expected, ReaderHarness.Nodes(reader), "the deep document");
        }

        Expect.SameLines(expected, ReaderHarness.Nodes(Ours(deep)), "the deep document, by the next reader");
        Expect.SameLines(ReaderHarness.Nodes(InBox(s_document)), ReaderHarness.Nodes(Ours(s_document)), "a small document after it");
    }

    private static string Describe(XmlReader reader)
    {
        var attributes = new List<string>();
        for (int i = 0; i < reader.AttributeCount; i++)
        {
            reader.MoveToAttribute(i);
            attributes.Add($"{reader.LocalName}={reader.Value}");
            reader.MoveToElement();
        }

        return string.Join("|", [reader.LocalName, reader.Depth.ToString(), reader.AttributeCount.ToString(), .. attributes]);
    }

    private static string ReaderState(XmlReader reader)
    {
        Func<object?>[] questions =
        [
            () => reader.ReadState, () => reader.NodeType, () => reader.AttributeCount, () => reader.LocalName,
            () => reader.NamespaceURI, () => reader.Value, () => reader.GetAttribute(0), () => reader.GetAttribute("b"),
            () => reader.MoveToFirstAttribute(), () => reader.HasAttributes, () => reader.IsStartElement(), () => reader.LookupNamespace("xml"),
        ];
        return string.Join(" ", questions.Select(ReaderHarness.Answer));
    }

}
