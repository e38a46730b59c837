using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Start tags with attributes and namespace declarations, from one array (the in-place step takes them, or puts the
/// element back for the general step part way through) and from 1-byte segments (the general step only): both show
/// the in-box reader's nodes, and refuse what it refuses at the same node.
/// </summary>
public class StartTagInPlaceTests
{
    public static TheoryData<string, string> Documents => new()
    {
        { "one ShortAttribute, then the end element", "40 01 61 04 02 69 64 88 07 01" },
        { "a declaration of a, then an attribute with prefix letter a", "40 01 61 09 01 61 03 75 3A 78 26 01 62 98 01 7A 01" },
        { "an element with prefix letter a bound by its own declaration", "5E 01 78 09 01 61 05 75 72 6E 3A 78 01" },
        { "an attribute whose value is a list: put back whole", "40 01 61 04 01 62 A4 88 05 A6 01" },
        { "a declaration and an attribute taken, then an attribute with a prefix string: put back after a binding was added", "40 01 61 09 01 70 03 75 3A 70 04 01 62 80 05 01 70 01 63 82 01" },
        { "the input ends right after the start tag's attribute", "40 01 61 04 01 62 80" },
        { "an attribute's Chars8 value runs past the end", "40 01 61 04 01 62 98 05 61" },
        { "an attribute record cut in its name", "40 01 61 04 05 62 63" },
        { "two attributes with the same name", "40 01 61 04 01 62 80 04 01 62 82 01" },
        { "an attribute with prefix letter a, never declared", "40 01 61 26 01 62 80 01" },
        { "xml:lang through an Attribute record: put back", "40 01 61 05 03 78 6D 6C 04 6C 61 6E 67 98 02 65 6E 40 01 62 01 01" },
        { "xmlns:p=\"\" is refused", "40 01 61 09 01 70 00 01" },
        { "attributes on an inner element, then text with end element", "40 01 72 40 01 61 04 01 62 98 02 68 69 99 01 74 01" },
        { "an attribute on an element after a sibling's text", "40 01 72 40 01 61 99 01 78 40 01 62 04 01 63 8A 34 12 01 01" },
        { "a declaration whose URI is a dictionary string, a dictionary attribute", "40 01 61 0A 00 06 02 80 01" },
        { "a dictionary declaration of a, and an attribute with prefix letter a and a dictionary name", "40 01 61 0B 01 61 00 0C 02 86 01" },
        { "a dictionary attribute name id that is not in the dictionary", "40 01 61 06 64 80 01" },
        { "an attribute record after the first text: refused", "40 01 61 99 01 78 04 01 62 80 01" },
    };

    [Theory]
    [MemberData(nameof(Documents))]
    public void Reads_as_the_in_box_reader_from_one_array_and_from_segments(string why, string hex)
    {
        ReaderHarness.ReadsAsInBox(why, hex);
    }
}
