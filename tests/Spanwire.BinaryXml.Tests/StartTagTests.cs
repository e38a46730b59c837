using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Start tags with attributes and namespace declarations, from one array (records parsed where they are) and from
/// 1-byte segments (each record gathered first): both show the in-box reader's nodes, and refuse what it refuses at
/// the same node.
/// </summary>
public class StartTagTests
{
    public static TheoryData<string, string> Documents => new()
    {
        { "one ShortAttribute, then the end element", "40 01 61 04 02 69 64 88 07 01" },
        { "a declaration of a, then an attribute with prefix letter a", "40 01 61 09 01 61 03 75 3A 78 26 01 62 98 01 7A 01" },
        { "an element with prefix letter a bound by its own declaration", "5E 01 78 09 01 61 05 75 72 6E 3A 78 01" },
        { "an attribute whose value is a list", "40 01 61 04 01 62 A4 88 05 A6 01" },
        { "a declaration and an attribute, then an attribute with a prefix string", "40 01 61 09 01 70 03 75 3A 70 04 01 62 80 05 01 70 01 63 82 01" },
        { "the input ends right after the start tag's attribute", "40 01 61 04 01 62 80" },
        { "an attribute's Chars8 value runs past the end", "40 01 61 04 01 62 98 05 61" },
        { "an attribute record cut in its name", "40 01 61 04 05 62 63" },
        { "two attributes with the same name", "40 01 61 04 01 62 80 04 01 62 82 01" },
        { "an attribute with prefix letter a, never declared", "40 01 61 26 01 62 80 01" },
        { "xml:lang through an Attribute record", "40 01 61 05 03 78 6D 6C 04 6C 61 6E 67 98 02 65 6E 40 01 62 01 01" },
        { "xmlns:p=\"\" is refused", "40 01 61 09 01 70 00 01" },
        { "attributes on an inner element, then text with end element", "40 01 72 40 01 61 04 01 62 98 02 68 69 99 01 74 01" },
        { "an attribute on an element after a sibling's text", "40 01 72 40 01 61 99 01 78 40 01 62 04 01 63 8A 34 12 01 01" },
        { "a declaration whose URI is a dictionary string, a dictionary attribute", "40 01 61 0A 00 06 02 80 01" },
        { "a dictionary declaration of a, and an attribute with prefix letter a and a dictionary name", "40 01 61 0B 01 61 00 0C 02 86 01" },
        { "a dictionary attribute name id that is not in the dictionary", "40 01 61 06 64 80 01" },
        { "an attribute record after the first text: refused", "40 01 61 99 01 78 04 01 62 80 01" },
        { "xmlns:xml=\"lang\": refused, the prefix xml is the XML namespace's only", "40 01 61 09 03 78 6D 6C 04 6C 61 6E 67 01" },
        { "xmlns:xml bound to the XML namespace itself", "40 01 61 09 03 78 6D 6C 24 687474703A2F2F7777772E77332E6F72672F584D4C2F313939382F6E616D657370616365 01" },
        { "xmlns:xmlns=\"u\": refused", "40 01 61 09 05 78 6D 6C 6E 73 01 75 01" },
        { "xmlns:xmlns bound to the xmlns namespace itself: read", "40 01 61 09 05 78 6D 6C 6E 73 1D 687474703A2F2F7777772E77332E6F72672F323030302F786D6C6E732F 01" },
        { "xmlns:xml=\"lang\" after an attribute: refused", "40 01 61 04 01 62 80 09 03 78 6D 6C 04 6C 61 6E 67 05 01 70 01 63 82 01" },
    };

    [Theory]
    [MemberData(nameof(Documents))]
    public void Reads_as_the_in_box_reader_from_one_array_and_from_segments(string why, string hex)
    {
        ReaderHarness.ReadsAsInBox(why, hex);
    }

    /// <summary>
    /// An element with an empty name, which the in-box reader hands out, is refused on purpose (the README's list of
    /// differences), whether the name is inline or an empty dictionary string, from one array or from segments: the
    /// nodes before it are the in-box reader's.
    /// </summary>
    [Theory]
    [InlineData("ShortElement with an empty name", "40 01 72 40 00 01 01")]
    [InlineData("ShortDictionaryElement naming the empty dictionary string", "40 01 72 42 04 01 01")]
    [InlineData("PrefixDictionaryElement a naming the empty dictionary string, after a declaration of a", "40 01 72 09 01 61 01 75 44 04 01 01")]
    public void An_element_with_an_empty_name_is_refused_where_in_box_hands_it_out(string why, string hex)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        var dictionary = new XmlDictionary();
        dictionary.Add("urn:d");
        dictionary.Add("n");
        dictionary.Add("");
        (List<string> Nodes, string? Error) inBox = ReaderHarness.NodesUntilRefused(() => XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max));
        int at = inBox.Nodes.FindIndex(node => node.StartsWith("Element|1|", StringComparison.Ordinal) && node.Split('|')[3].Length == 0);
        Assert.True(at > 0 && inBox.Error is null, $"{why}: in-box hands out the element: {string.Join(" / ", inBox.Nodes)}");
        foreach ((string how, Func<XmlReader> open) in new (string, Func<XmlReader>)[]
        {
            ("one array", () => Nbfx.CreateReader(bytes, dictionary, XmlDictionaryReaderQuotas.Max)),
            ("1-byte segments", () => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1), dictionary, XmlDictionaryReaderQuotas.Max)),
        })
        {
            (List<string> Nodes, string? Error) ours = ReaderHarness.NodesUntilRefused(open);
            Expect.Equal("refused", ours.Error, $"{why} ({hex}), {how}");
            Expect.SameLines(inBox.Nodes[..at], ours.Nodes, $"{why} ({hex}), {how}: the nodes before it, then refused on the element");
        }
    }
}
