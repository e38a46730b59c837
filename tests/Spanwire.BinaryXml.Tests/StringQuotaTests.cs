using System.Xml;
using System.Xml.Linq;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// MaxStringContentLength applies where the in-box reader applies it: when content is read as a string
/// (ReadContentAsString and what reads through it), not when a text, attribute or comment is passed by Read, asked
/// for its Value, copied out (ReadOuterXml, XElement) or read as a typed value. Each call runs on the in-box reader
/// as the control and on the drop-in, from one array and from 1-byte segments.
/// </summary>
public class StringQuotaTests
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
}
