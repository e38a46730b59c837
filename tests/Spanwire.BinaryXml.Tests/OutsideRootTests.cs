using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Text before or after the root element, as the in-box reader takes it: characters and bytes there must be
/// whitespace, and a typed value (a number, a date, a dictionary string) is a text node refused by nothing. Read from
/// one array and from 1-byte segments, with the in-box reader as the control.
/// </summary>
public class OutsideRootTests
{
    public static TheoryData<string, string> Documents => new()
    {
        { "One before the root: a text node", "82 40 01 61 01" },
        { "One alone: a text node, then the end", "82" },
        { "Zero, False, Int8 and a DateTime before the root", "80 84 88 05 96 00 00 00 00 00 00 00 00 40 01 61 01" },
        { "Empty text before the root", "A8 40 01 61 01" },
        { "a dictionary string before the root", "AA 02 40 01 61 01" },
        { "a Guid after the root", "40 01 61 01 B0 00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F" },
        { "Chars \"a\" before the root: refused", "98 01 61 40 01 61 01" },
        { "Chars \" \" before the root: whitespace", "98 01 20 40 01 61 01" },
        { "UnicodeChars \"a\" after the root: refused", "40 01 61 01 B6 02 61 00" },
        { "Bytes before the root: refused", "9E 01 00 40 01 61 01" },
        { "One with end element before the root: refused", "83 40 01 61 01" },
        { "Chars \"a\" with end element after the root: refused", "40 01 61 01 99 01 61" },
        { "a list of Int8 before the root: a text node", "A4 88 05 A6 40 01 61 01" },
        { "an empty list ending an element before the root: refused", "A4 A7 04 49 74 65 6D 01" },
        { "a list ending an element after the root: refused", "40 01 61 01 A4 88 05 A7" },
    };

    [Theory]
    [MemberData(nameof(Documents))]
    public void Reads_as_the_in_box_reader_from_one_array_and_from_segments(string why, string hex)
    {
        ReaderHarness.ReadsAsInBox(why, hex);
    }
}
