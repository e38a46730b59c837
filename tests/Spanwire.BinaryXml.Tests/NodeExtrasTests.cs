using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// What a member leaves on a node (an attribute position, an attribute's value node, a value made a string, a chunk
/// handed out, bytes decoded, a value handed over as content) is gone after Read: on every node of a document, each
/// member is called on the in-box reader (the control) and on the drop-in, both then Read, and the node after must
/// look the same. The drop-in's Read forgets those extras only when a member left some, so a member that leaves one
/// and does not say so fails here.
/// </summary>
public class NodeExtrasTests
{
    public static TheoryData<string> Members => new()
    {
        "MoveToFirstAttribute",
        "MoveToFirstAttribute, ReadAttributeValue",
        "MoveToFirstAttribute, Value",
        "MoveToFirstAttribute, ReadValueChunk of 2",
        "MoveToLastAttribute, MoveToElement",
        "Value",
        "ReadValueChunk of 2",
        "ReadContentAsBase64 of 3",
        "ReadValueAsBase64 of 3",
        "ReadContentAsBase64 of 3, ReadValueAsBase64 of 3",
        "MoveToFirstAttribute, ReadValueAsBase64 of 3",
        "ReadContentAsString",
        "Value, ReadContentAsString",
    };

    [Theory]
    [MemberData(nameof(Members))]
    public void After_the_member_and_Read_the_next_node_is_as_in_box(string member)
    {
        byte[] bytes = Document();
        for (int at = 0; ; at++)
        {
            using XmlDictionaryReader expected = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
            using XmlDictionaryReader actual = Nbfx.CreateReader(bytes);
            bool more = true;
            for (int i = 0; i <= at && more; i++)
            {
                more = expected.Read();
                Expect.Equal(more, actual.Read(), $"{member}: Read to node {i}");
            }

            if (!more)
            {
                return;
            }

            string where = $"{member}, on node {at} ({expected.NodeType} '{expected.LocalName}')";
            Expect.Equal(Call(expected, member), Call(actual, member), $"{where}: what the member answered");
            Expect.Equal(ReaderHarness.Answer(() => expected.Read()), ReaderHarness.Answer(() => actual.Read()), $"{where}: Read after it");
            Expect.Equal(Describe(expected), Describe(actual), $"{where}: the node after Read");
        }
    }

    /// <summary>Elements with attributes, short and long text, numbers, base64, an array and a list: every kind of node a member can leave something on.</summary>
    private static byte[] Document()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("r");
            w.WriteAttributeString("a", "first value");
            w.WriteAttributeString("p", "b", "urn:p", "12");
            w.WriteElementString("s", "short");
            w.WriteStartElement("n");
            w.WriteValue(42);
            w.WriteEndElement();
            w.WriteStartElement("t");
            w.WriteAttributeString("x", "AAECAwQF");
            w.WriteString("text of some length");
            w.WriteEndElement();
            w.WriteStartElement("b");
            w.WriteBase64([1, 2, 3, 4, 5, 6, 7], 0, 7);
            w.WriteEndElement();
            w.WriteArray(null, "i", null, new[] { 1, 2, 3 }, 0, 3);
            w.WriteStartElement("l");
            w.WriteStartAttribute("v");
            w.WriteValue(new object[] { 1, "two", 3.5 });
            w.WriteEndAttribute();
            w.WriteValue(new object[] { 4, "five" });
            w.WriteEndElement();
            w.WriteElementString("e", "");
            w.WriteEndElement();
        }

        return stream.ToArray();
    }

    private static string Call(XmlDictionaryReader r, string member) => member switch
    {
        "MoveToFirstAttribute" => ReaderHarness.Answer(() => r.MoveToFirstAttribute()),
        "MoveToFirstAttribute, ReadAttributeValue" => ReaderHarness.Answer(() => r.MoveToFirstAttribute() && r.ReadAttributeValue()),
        "MoveToFirstAttribute, Value" => ReaderHarness.Answer(() => r.MoveToFirstAttribute() ? r.Value : "none"),
        "MoveToFirstAttribute, ReadValueChunk of 2" => ReaderHarness.Answer(() => r.MoveToFirstAttribute() ? Chunk(r) : "none"),
        "MoveToLastAttribute, MoveToElement" => ReaderHarness.Answer(() => r.AttributeCount > 0 && Last(r) && r.MoveToElement()),
        "Value" => ReaderHarness.Answer(() => r.Value),
        "ReadValueChunk of 2" => ReaderHarness.Answer(() => Chunk(r)),
        "ReadContentAsBase64 of 3" => ReaderHarness.Answer(() => r.CanReadBinaryContent ? Bytes3(r.ReadContentAsBase64) : "no"),
        "ReadValueAsBase64 of 3" => ReaderHarness.Answer(() => Bytes3(r.ReadValueAsBase64)),
        // What the content read took of a Bytes value is gone for the value read too: one offset, as in-box.
        "ReadContentAsBase64 of 3, ReadValueAsBase64 of 3" => ReaderHarness.Answer(() => r.CanReadBinaryContent ? Bytes3(r.ReadContentAsBase64) + "|" + Bytes3(r.ReadValueAsBase64) : "no"),
        "MoveToFirstAttribute, ReadValueAsBase64 of 3" => ReaderHarness.Answer(() => r.MoveToFirstAttribute() ? Bytes3(r.ReadValueAsBase64) : "none"),
        "ReadContentAsString" => ReaderHarness.Answer(() => r.NodeType == XmlNodeType.Text ? r.ReadContentAsString() : "not text"),
        "Value, ReadContentAsString" => ReaderHarness.Answer(() => r.NodeType == XmlNodeType.Text ? r.Value + "|" + r.ReadContentAsString() : "not text"),
        _ => throw new ArgumentOutOfRangeException(nameof(member), member, "no such member in this test"),
    };

    private static bool Last(XmlReader r)
    {
        r.MoveToAttribute(r.AttributeCount - 1);
        return true;
    }

    private static string Chunk(XmlReader r)
    {
        if (!r.CanReadValueChunk || !r.HasValue)
        {
            return "no chunk";
        }

        char[] buffer = new char[2];
        int n = r.ReadValueChunk(buffer, 0, 2);
        return new string(buffer, 0, n);
    }

    /// <summary>One call of a read into a 3-byte buffer, what it gave as hex.</summary>
    private static string Bytes3(Func<byte[], int, int, int> read)
    {
        byte[] buffer = new byte[3];
        int n = read(buffer, 0, 3);
        return Convert.ToHexString(buffer, 0, n);
    }

    /// <summary>What a caller sees of a node: its kind, names, depth, value, attributes and their values.</summary>
    private static string Describe(XmlReader r)
    {
        string node = $"{r.NodeType}|{r.Depth}|{r.Prefix}|{r.LocalName}|{r.NamespaceURI}|{ReaderHarness.Answer(() => r.Value)}|{r.HasValue}|{r.IsEmptyElement}|{r.AttributeCount}|{r.EOF}";
        if (r.NodeType == XmlNodeType.Element && r.MoveToFirstAttribute())
        {
            do
            {
                node += $" @{r.Name}={r.Value}";
            }
            while (r.MoveToNextAttribute());
            r.MoveToElement();
        }

        return node;
    }
}
