using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// MoveToContent and an attribute's value node, as the in-box binary reader has them (both differ from XmlReader's
/// defaults): MoveToContent skips whitespace-only text like a comment, and on an attribute's value the reader still
/// gives the attribute's prefix, local name and namespace. Each case is checked against the in-box reader.
/// </summary>
public class ContentNavigationTests
{
    public static TheoryData<string, Action<XmlDictionaryWriter>> Documents => new()
    {
        { "spaces before a child: skipped", w => { w.WriteStartElement("a"); w.WriteString("  "); w.WriteElementString("b", "x"); w.WriteEndElement(); } },
        { "tab, CR, LF before a number: skipped, the number is content", w => { w.WriteStartElement("a"); w.WriteString("\t\r\n "); w.WriteValue(7); w.WriteEndElement(); } },
        { "a space before the end element: skipped", w => { w.WriteStartElement("a"); w.WriteString(" "); w.WriteEndElement(); } },
        { "a space then é in one UTF-16 record: content", w => { w.WriteStartElement("a"); w.WriteChars([' ', '\u00e9'], 0, 2); w.WriteEndElement(); } },
        { "a space as a UTF-16 record: skipped", w => { w.WriteStartElement("a"); w.WriteChars(['\u00e9'], 0, 0); w.WriteChars([' '], 0, 1); w.WriteStartElement("b"); w.WriteEndElement(); w.WriteEndElement(); } },
        { "a comment: skipped", w => { w.WriteStartElement("a"); w.WriteComment("c"); w.WriteStartElement("b"); w.WriteEndElement(); w.WriteEndElement(); } },
        { "text with a space inside: content", w => { w.WriteStartElement("a"); w.WriteString(" x "); w.WriteEndElement(); } },
        { "no bytes as base64 then an element", w => { w.WriteStartElement("a"); w.WriteBase64([], 0, 0); w.WriteStartElement("b"); w.WriteEndElement(); w.WriteEndElement(); } },
        { "an int array: items are content", w => { w.WriteStartElement("r"); w.WriteArray(null, "i", null, new[] { 1, 2 }, 0, 2); w.WriteEndElement(); } },
        { "whitespace after the root", w => { w.WriteStartElement("a"); w.WriteEndElement(); w.WriteString("\n"); } },
    };

    [Theory]
    [MemberData(nameof(Documents))]
    public void MoveToContent_from_every_node_moves_as_in_box(string why, Action<XmlDictionaryWriter> write)
    {
        byte[] bytes = Write(write);
        for (int start = 0; ; start++)
        {
            using XmlDictionaryReader expected = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
            using XmlDictionaryReader actual = Nbfx.CreateReader(bytes);
            bool more = true;
            for (int i = 0; i < start && more; i++)
            {
                more = expected.Read();
                Assert.Equal(more, actual.Read());
            }

            if (!more)
            {
                return;
            }
            // From this node: MoveToContent, then Read, repeatedly, to the end.
            string at = $"{why}: from node {start}";
            do
            {
                Assert.Equal(expected.MoveToContent(), actual.MoveToContent());
                Assert.True(expected.NodeType == actual.NodeType && expected.LocalName == actual.LocalName && expected.Depth == actual.Depth,
                    $"{at}: in-box {expected.NodeType} '{expected.LocalName}' at {expected.Depth}, ours {actual.NodeType} '{actual.LocalName}' at {actual.Depth}");
                Assert.Equal(expected.Value, actual.Value);
            }
            while (Both(expected.Read(), actual.Read(), at));
        }
    }

    public static TheoryData<string, string?, string, string?, string> Attributes => new()
    {
        { "a plain attribute", null, "x", null, "v" },
        { "a prefixed attribute", "p", "x", "urn:n", "v" },
        { "a whitespace value: MoveToContent goes on to the child", null, "x", null, "  " },
        { "an empty value", null, "x", null, "" },
    };

    [Theory]
    [MemberData(nameof(Attributes))]
    public void On_an_attributes_value_the_names_are_the_attributes(string why, string? prefix, string localName, string? ns, string value)
    {
        byte[] bytes = Write(w =>
        {
            w.WriteStartElement("a");
            w.WriteAttributeString(prefix, localName, ns, value);
            w.WriteElementString("b", "x");
            w.WriteEndElement();
        });
        using XmlDictionaryReader expected = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
        using XmlDictionaryReader actual = Nbfx.CreateReader(bytes);
        foreach (XmlDictionaryReader r in new[] { expected, actual })
        {
            r.Read();
            r.MoveToAttribute(localName, ns ?? "");
            r.ReadAttributeValue();
        }

        Assert.True(Same(expected, actual), $"{why}: in-box {Describe(expected)}, ours {Describe(actual)}");

        // On the attribute (not its value) MoveToContent returns to the element.
        expected.MoveToAttribute(localName, ns ?? "");
        actual.MoveToAttribute(localName, ns ?? "");
        Assert.Equal(expected.MoveToContent(), actual.MoveToContent());
        Assert.True(Same(expected, actual), $"{why}, back on the element: in-box {Describe(expected)}, ours {Describe(actual)}");

        // From the value node: content is the value itself, unless it is whitespace.
        expected.MoveToAttribute(localName, ns ?? "");
        actual.MoveToAttribute(localName, ns ?? "");
        expected.ReadAttributeValue();
        actual.ReadAttributeValue();
        Assert.Equal(expected.MoveToContent(), actual.MoveToContent());
        Assert.True(Same(expected, actual), $"{why}, MoveToContent on the value: in-box {Describe(expected)}, ours {Describe(actual)}");
    }

    /// <summary>
    /// As in-box: on an attribute's value whose Value was read, ReadContentAsString hands the value over once and the
    /// node is empty after; read first with ReadContentAsString, the value stays.
    /// </summary>
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void ReadContentAsString_on_an_attributes_value(bool valueReadFirst)
    {
        byte[] bytes = Write(w =>
        {
            w.WriteStartElement("a");
            w.WriteAttributeString("x", "v\u00e9");
            w.WriteEndElement();
        });
        using XmlDictionaryReader expected = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
        using XmlDictionaryReader actual = Nbfx.CreateReader(bytes);
        var seen = new List<string>[] { [], [] };
        foreach ((XmlDictionaryReader r, List<string> log) in new[] { (expected, seen[0]), (actual, seen[1]) })
        {
            r.Read();
            r.MoveToFirstAttribute();
            r.ReadAttributeValue();
            if (valueReadFirst)
            {
                log.Add(r.Value);
            }

            log.Add(r.ReadContentAsString());
            log.Add(r.Value);
            log.Add(r.ReadContentAsString());
            log.Add(Describe(r));
        }

        Assert.Equal(seen[0], seen[1]);
    }

    private static bool Same(XmlReader a, XmlReader b) => Describe(a) == Describe(b);

    private static string Describe(XmlReader r) =>
        $"{r.NodeType} prefix '{r.Prefix}' local '{r.LocalName}' ns '{r.NamespaceURI}' name '{r.Name}' value '{r.Value}' depth {r.Depth}";

    private static bool Both(bool expected, bool actual, string at)
    {
        Expect.Equal(expected, actual, $"{at}: in-box Read gave {expected}, ours {actual}");
        return expected;
    }

    private static byte[] Write(Action<XmlDictionaryWriter> write)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            write(writer);
        }

        return stream.ToArray();
    }
}
