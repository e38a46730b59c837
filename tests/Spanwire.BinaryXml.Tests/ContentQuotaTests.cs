using System.Xml;
using System.Xml.Linq;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// The content quotas apply where the in-box reader applies them. MaxStringContentLength: when content is read as a
/// string (ReadContentAsString and what reads through it), not when a text, attribute or comment is passed by Read,
/// asked for its Value, copied out (ReadOuterXml, XElement) or read as a typed value. MaxArrayLength: when base64
/// content is read whole or an array is made, not when the bytes or items are passed by Read or read into the
/// caller's buffer. MaxNameTableCharCount: when a name goes into the name table (handed out, or added by the
/// caller). Each call runs on the in-box reader as the control and on the drop-in, from one array and from 1-byte
/// segments.
/// </summary>
public class ContentQuotaTests
{
    // <r a="ATTR"><v>TEXT</v><!--COMMENT--><w>ab</w><n/></r>, with the text records as given.
    private static byte[] Document(string attribute, string text, string comment) => Convert.FromHexString(
        "400172" + "040161" + attribute + "400176" + text + "02" + comment + "400177" + "99026162" + "40016E01" + "01");

    private static string Chars8(string s)
    {
        byte[] utf8 = System.Text.Encoding.UTF8.GetBytes(s);
        return "98" + utf8.Length.ToString("X2") + Convert.ToHexString(utf8);
    }

    public static TheoryData<string, string, string, string, int> Documents => new()
    {
        // why, attribute value record, content text record(s) of <v>, comment (length-prefixed), quota
        { "ASCII over the quota", Chars8("abc"), "99036162 63".Replace(" ", ""), "03616263", 2 },
        { "ASCII at the quota", Chars8("abc"), "9903616263", "03616263", 3 },
        { "two-byte chars: more bytes than the quota, as many chars", Chars8("éé"), "9904C3A9C3A9", "04C3A9C3A9", 2 },
        { "UTF-16 text over the quota", Chars8("ab"), "B706610062006300", "026162", 2 },
        { "two texts that together pass the quota", Chars8("a"), "9801619901 62".Replace(" ", ""), "0161", 1 },
        { "digits over the quota (typed reads pass them)", Chars8("42"), "99023432", "023432", 1 },
        { "a Guid's text over the quota", Chars8("x"), "99" + "24" + Convert.ToHexString("00112233-4455-6677-8899-aabbccddeeff"u8), "0178", 2 },
        { "a list", Chars8("x"), "A4 88 05 88 06 A6 01".Replace(" ", ""), "0178", 2 },
        { "a text, then an EndElement record, over the quota", Chars8("abc"), "9803616263 01".Replace(" ", ""), "03616263", 2 },
        { "a text, then an EndElement record, at the quota", Chars8("abc"), "9803616263 01".Replace(" ", ""), "03616263", 3 },
        { "a Chars16 text over the quota", Chars8("abc"), "9B0300616263", "03616263", 2 },
        { "a Chars16 text, then an EndElement record, at the quota", Chars8("abc"), "9A0300616263 01".Replace(" ", ""), "03616263", 3 },
    };

    private static readonly (string Name, Func<XmlDictionaryReader, object> Call)[] s_calls =
    [
        ("every node's Value", r => string.Join(",", Nodes(r))),
        ("GetAttribute", r => { r.MoveToContent(); return r.GetAttribute("a") ?? "null"; }),
        ("the attribute's ReadContentAsString", r => { r.MoveToContent(); r.MoveToFirstAttribute(); return r.ReadContentAsString(); }),
        ("the attribute's value node", r => { r.MoveToContent(); r.MoveToFirstAttribute(); r.ReadAttributeValue(); return r.Value; }),
        ("ReadElementContentAsString", r => { r.MoveToContent(); r.Read(); return r.ReadElementContentAsString(); }),
        ("ReadElementString", r => { r.MoveToContent(); r.Read(); return r.ReadElementString(); }),
        ("ReadString", r => { r.MoveToContent(); r.Read(); return r.ReadString(); }),
        ("ReadContentAsString", r => { r.MoveToContent(); r.Read(); r.Read(); return r.ReadContentAsString(); }),
        ("ReadContentAsObject", r => { r.MoveToContent(); r.Read(); r.Read(); return r.ReadContentAsObject(); }),
        ("ReadElementContentAsObject", r => { r.MoveToContent(); r.Read(); return r.ReadElementContentAsObject(); }),
        ("ReadElementContentAsInt", r => { r.MoveToContent(); r.Read(); return r.ReadElementContentAsInt(); }),
        ("ReadElementContentAsGuid", r => { r.MoveToContent(); r.Read(); return r.ReadElementContentAsGuid(); }),
        ("ReadValueChunk", r =>
        {
            r.MoveToContent(); r.Read(); r.Read();
            var chars = new char[64];
            return new string(chars, 0, r.ReadValueChunk(chars, 0, chars.Length));
        }),
        ("ReadOuterXml", r => { r.MoveToContent(); return r.ReadOuterXml(); }),
        ("XElement.Load", r => XElement.Load(r).ToString(SaveOptions.DisableFormatting)),
    ];

    private static IEnumerable<string> Nodes(XmlDictionaryReader reader)
    {
        while (reader.Read())
        {
            yield return $"{reader.NodeType}:{reader.Value}";
        }
    }

    [Theory]
    [MemberData(nameof(Documents))]
    public void MaxStringContentLength_applies_where_the_in_box_reader_applies_it(string why, string attribute, string text, string comment, int quota)
    {
        byte[] bytes = Document(attribute, text, comment);
        var quotas = new XmlDictionaryReaderQuotas { MaxStringContentLength = quota };
        foreach ((string name, Func<XmlDictionaryReader, object> call) in s_calls)
        {
            string expected = Outcome(() => XmlDictionaryReader.CreateBinaryReader(bytes, quotas), call);
            Expect.Equal(expected, Outcome(() => Nbfx.CreateReader(bytes, null, quotas), call), $"{why}, quota {quota}: {name}, one array");
            Expect.Equal(expected, Outcome(() => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1), null, quotas), call), $"{why}, quota {quota}: {name}, 1-byte segments");
        }
    }

    private static string Outcome(Func<XmlDictionaryReader> open, Func<XmlDictionaryReader, object> call)
    {
        try
        {
            using XmlDictionaryReader reader = open();
            return Convert.ToString(call(reader), System.Globalization.CultureInfo.InvariantCulture)!;
        }
        catch (Exception e)
        {
            return $"error: {(e is XmlException ? nameof(XmlException) : e.GetType().Name)}";
        }
    }

    public static TheoryData<string, string, int> ArrayDocuments => new()
    {
        // why, the content of <r>, MaxArrayLength
        { "base64 of 5 bytes over the quota", "400176 9F05 0102030405 01", 2 },
        { "base64 of 5 bytes at the quota", "400176 9F05 0102030405 01", 5 },
        { "base64 in two records that together pass the quota", "400176 9E02 0102 9F03 030405 01", 4 },
        { "an array of 5 ints over the quota", "03400176018D05 0100000002000000030000000400000005000000", 2 },
        { "an array of 5 ints at the quota", "03400176018D05 0100000002000000030000000400000005000000", 5 },
    };

    private static readonly (string Name, Func<XmlDictionaryReader, object> Call)[] s_arrayCalls =
    [
        ("every node's Value", r => string.Join(",", Nodes(r))),
        ("ReadElementContentAsBase64", r => { r.MoveToContent(); r.Read(); return Convert.ToHexString(r.ReadElementContentAsBase64()); }),
        // Until it returns 0: how the bytes are cut into calls differs on purpose (see the README), the bytes do not.
        ("ReadContentAsBase64 into a buffer", r =>
        {
            r.MoveToContent(); r.Read(); r.Read();
            var buffer = new byte[16];
            int total = 0;
            for (int n; (n = r.ReadContentAsBase64(buffer, total, buffer.Length - total)) > 0;)
            {
                total += n;
            }

            return Convert.ToHexString(buffer, 0, total);
        }),
        ("ReadArray into the caller's array", r => { r.MoveToContent(); r.Read(); return r.ReadArray("v", "", new int[16], 0, 16); }),
        ("ReadInt32Array", r => { r.MoveToContent(); r.Read(); return string.Join(" ", r.ReadInt32Array("v", "")); }),
        ("ReadOuterXml", r => { r.MoveToContent(); return r.ReadOuterXml(); }),
    ];

    [Theory]
    [MemberData(nameof(ArrayDocuments))]
    public void MaxArrayLength_applies_where_the_in_box_reader_applies_it(string why, string content, int quota)
    {
        byte[] bytes = Convert.FromHexString(("400172" + content + "01").Replace(" ", ""));
        var quotas = new XmlDictionaryReaderQuotas { MaxArrayLength = quota };
        foreach ((string name, Func<XmlDictionaryReader, object> call) in s_arrayCalls)
        {
            string expected = Outcome(() => XmlDictionaryReader.CreateBinaryReader(bytes, quotas), call);
            Expect.Equal(expected, Outcome(() => Nbfx.CreateReader(bytes, null, quotas), call), $"{why}, quota {quota}: {name}, one array");
            Expect.Equal(expected, Outcome(() => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1), null, quotas), call), $"{why}, quota {quota}: {name}, 1-byte segments");
        }
    }

    /// <summary>
    /// MaxNameTableCharCount counts what goes into the name table, when it goes in: the smallest quota under which a
    /// walk asking for more and more of each node (nothing; local names; prefixes; namespaces; values; attributes;
    /// qualified names) succeeds is the same for both readers.
    /// </summary>
    [Theory]
    [InlineData("<root/>")]
    [InlineData("<root xmlns='urn:abc'/>")]
    [InlineData("<pp:root xmlns:pp='urn:abc'><pp:x/></pp:root>")]
    [InlineData("<root attr='value'/>")]
    [InlineData("<root q:a='v' xmlns:q='urn:q' xmlns:i='http://www.w3.org/2001/XMLSchema-instance' i:nil='true'/>")]
    [InlineData("<root><long-element-name-of-forty-characters-x/><long-element-name-of-forty-characters-x/></root>")]
    public void MaxNameTableCharCount_counts_names_as_the_in_box_reader_does(string xml)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            using XmlReader text = XmlReader.Create(new StringReader(xml));
            writer.WriteNode(text, defattr: true);
        }

        byte[] bytes = stream.ToArray();
        for (int level = 0; level <= 6; level++)
        {
            int expected = SmallestNameQuota(quota => XmlDictionaryReader.CreateBinaryReader(bytes, new XmlDictionaryReaderQuotas { MaxNameTableCharCount = quota }), level);
            Expect.Equal(expected, SmallestNameQuota(quota => Nbfx.CreateReader(bytes, null, new XmlDictionaryReaderQuotas { MaxNameTableCharCount = quota }), level), $"{xml}: walk level {level}, one array");
            Expect.Equal(expected, SmallestNameQuota(quota => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1), null, new XmlDictionaryReaderQuotas { MaxNameTableCharCount = quota }), level), $"{xml}: walk level {level}, 1-byte segments");
        }
    }

    [Fact]
    public void The_name_table_and_its_count_last_across_SetInput_and_count_what_the_caller_adds()
    {
        static byte[] Document(string name)
        {
            var stream = new MemoryStream();
            using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
            {
                writer.WriteStartElement(name);
                writer.WriteEndElement();
            }

            return stream.ToArray();
        }

        byte[] first = Document("aaaa"), second = Document("bbbb");
        foreach ((string what, Func<XmlDictionaryReader, object> call) in new (string, Func<XmlDictionaryReader, object>)[]
        {
            ("a second document through SetInput", r =>
            {
                r.Read();
                _ = r.LocalName;
                ((IXmlBinaryReaderInitializer)r).SetInput(second, 0, second.Length, null, r.Quotas, null, null);
                r.Read();
                return r.LocalName;
            }),
            ("the caller's own Add", r => { r.Read(); return r.NameTable.Add("0123") + r.LocalName; }),
            ("the name table with a quota under its constants", r => r.NameTable.Add("x")),
        })
        {
            foreach (int quota in new[] { 50, 103, 107, 110 })
            {
                var quotas = new XmlDictionaryReaderQuotas { MaxNameTableCharCount = quota };
                string expected = Outcome(() => XmlDictionaryReader.CreateBinaryReader(first, quotas), call);
                Expect.Equal(expected, Outcome(() => Nbfx.CreateReader(first, null, quotas), call), $"{what}, quota {quota}");
            }
        }
    }

    private static int SmallestNameQuota(Func<int, XmlDictionaryReader> open, int level)
    {
        for (int quota = 1; quota < 1_000; quota++)
        {
            try
            {
                using XmlDictionaryReader reader = open(quota);
                WalkNames(reader, level);
                return quota;
            }
            catch (XmlException)
            {
            }
        }

        return -1;
    }

    private static void WalkNames(XmlDictionaryReader reader, int level)
    {
        while (reader.Read())
        {
            _ = level >= 1 ? reader.LocalName : null;
            _ = level >= 2 ? reader.Prefix : null;
            _ = level >= 3 ? reader.NamespaceURI : null;
            _ = level >= 4 ? reader.Value : null;
            if (level >= 5 && reader.NodeType == XmlNodeType.Element && reader.MoveToFirstAttribute())
            {
                do
                {
                    _ = (reader.LocalName, reader.Prefix, reader.NamespaceURI, reader.Value);
                }
                while (reader.MoveToNextAttribute());
                reader.MoveToElement();
            }

            _ = level >= 6 ? reader.Name : null;
        }
    }
}
