using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// A closed writer hands its namespace scope and element array to the next writer made on the same thread. Writers
/// open at the same time, writers reused through SetOutput, writers closed part way through a document and closed
/// writers asked questions all write and answer as the in-box writer does, each with its own state.
/// </summary>
public class WriterLifetimeTests
{
    /// <summary>A document with declarations at two depths, a generated prefix, xml:lang and base64 carried between calls.</summary>
    private static void WriteSample(XmlDictionaryWriter writer, int part)
    {
        switch (part)
        {
            case 0:
                writer.WriteStartElement("r", "urn:a");
                writer.WriteXmlnsAttribute("i", "urn:i");
                writer.WriteAttributeString("xml", "lang", null, "en");
                break;
            case 1:
                writer.WriteStartElement("x", "urn:b");
                writer.WriteAttributeString("t", "urn:c", "1");
                writer.WriteBase64([1, 2], 0, 2);
                break;
            case 2:
                writer.WriteBase64([3, 4, 5, 6], 0, 4);
                writer.WriteEndElement();
                break;
            default:
                writer.WriteElementString("y", "urn:i", "v");
                writer.WriteEndElement();
                break;
        }
    }

    private static byte[] InBox(Action<XmlDictionaryWriter> write)
    {
        using var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            write(writer);
        }

        return stream.ToArray();
    }

    private static byte[] Ours(Action<XmlDictionaryWriter> write)
    {
        using var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = Nbfx.CreateWriter(stream))
        {
            write(writer);
        }

        return stream.ToArray();
    }

    [Fact]
    public void Writers_open_at_once_on_one_thread_write_their_own_documents()
    {
        byte[] expected = InBox(w => { for (int part = 0; part < 4; part++) WriteSample(w, part); });
        using var first = new MemoryStream();
        using var second = new MemoryStream();
        using (XmlDictionaryWriter a = Nbfx.CreateWriter(first), b = Nbfx.CreateWriter(second))
        {
            for (int part = 0; part < 4; part++)
            {
                WriteSample(a, part);
                WriteSample(b, part);
            }
        }

        Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(first.ToArray()), "the first of two writers open at once");
        Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(second.ToArray()), "the second of two writers open at once");
        Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(Ours(w => { for (int part = 0; part < 4; part++) WriteSample(w, part); })), "a third writer after them");
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void A_writer_closed_part_way_answers_as_closed_and_the_next_writer_writes_as_in_box(int parts)
    {
        using var inBoxStream = new MemoryStream();
        using var ourStream = new MemoryStream();
        XmlDictionaryWriter inBox = XmlDictionaryWriter.CreateBinaryWriter(inBoxStream);
        XmlDictionaryWriter ours = Nbfx.CreateWriter(ourStream);
        for (int part = 0; part < parts; part++)
        {
            WriteSample(inBox, part);
            WriteSample(ours, part);
        }

        inBox.Close();
        ours.Close();
        string context = $"closed after {parts} of 4 parts";
        Expect.Equal(Convert.ToHexString(inBoxStream.ToArray()), Convert.ToHexString(ourStream.ToArray()), context + ": what Close completed");
        // The next writer takes the closed one's working set; asking the closed writer must not touch it.
        byte[] next = Ours(w =>
        {
            WriteSample(w, 0);
            Expect.Equal(Closed(inBox), Closed(ours), context + ": the closed writer, asked while the next one writes");
            for (int part = 1; part < 4; part++)
            {
                WriteSample(w, part);
            }
        });
        Expect.Equal(Convert.ToHexString(InBox(w => { for (int part = 0; part < 4; part++) WriteSample(w, part); })), Convert.ToHexString(next), context + ": the next writer");
    }

    [Fact]
    public void A_writer_reused_through_SetOutput_after_Close_writes_every_document_as_in_box()
    {
        byte[] expected = InBox(w => { for (int part = 0; part < 4; part++) WriteSample(w, part); });
        var writer = (IXmlBinaryWriterInitializer)Nbfx.CreateWriter(new MemoryStream());
        var asWriter = (XmlDictionaryWriter)writer;
        for (int round = 0; round < 3; round++)
        {
            using var stream = new MemoryStream();
            writer.SetOutput(stream, null, null, ownsStream: false);
            for (int part = 0; part < 4; part++)
            {
                WriteSample(asWriter, part);
            }

            asWriter.Close();
            Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(stream.ToArray()), $"round {round}");
            // Another writer between two uses takes the set the closed one gave back.
            Expect.Equal(Convert.ToHexString(expected), Convert.ToHexString(Ours(w => { for (int part = 0; part < 4; part++) WriteSample(w, part); })), $"a writer after round {round}");
        }
    }

    [Fact]
    public void A_writer_closed_after_a_deep_document_leaves_the_next_writer_the_same()
    {
        static void Deep(XmlDictionaryWriter writer)
        {
            for (int i = 0; i < 200; i++)
            {
                writer.WriteStartElement("p" + (i % 3), "e", "urn:" + i);
            }

            writer.WriteEndDocument();
        }

        Expect.Equal(Convert.ToHexString(InBox(Deep)), Convert.ToHexString(Ours(Deep)), "200 elements, each declaring a namespace");
        Expect.Equal(Convert.ToHexString(InBox(Deep)), Convert.ToHexString(Ours(Deep)), "the same, by the next writer");
    }

    private static string Closed(XmlWriter writer)
    {
        Func<object?>[] questions =
        [
            () => writer.WriteState, () => writer.XmlLang, () => writer.XmlSpace, () => writer.LookupPrefix("urn:a"), () => writer.LookupPrefix("urn:i"),
            () => { writer.WriteString("x"); return "written"; }, () => { writer.WriteStartElement("z"); return "written"; },
        ];
        return string.Join(" ", questions.Select(ReaderHarness.Answer));
    }
}
