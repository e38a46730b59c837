using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// BinHex content (ReadElementContentAsBinHex, ReadContentAsBinHex) through the drop-in reader against the in-box
/// reader on the same in-box bytes: the same bytes, or an XmlException in both, for text in one record or split over
/// several, with whitespace, with an odd digit carried to the next record, not hex at all, and a Bytes record (whose
/// text is base64, so not BinHex).
/// </summary>
public class BinHexReadTests
{
    public static TheoryData<string, string[]> Texts => new()
    {
        { "one text record", ["540068006500200071007500"] },
        { "lower-case digits", ["0a0b0c"] },
        { "split over three text records", ["5400", "6800", "65"] },
        { "an odd digit carried to the next record", ["540", "06800"] },
        { "whitespace between the digits", ["54 00\t68\n00"] },
        { "an odd number of digits in all", ["540"] },
        { "not hex", ["5G00"] },
        { "empty", [""] },
    };

    [Theory]
    [MemberData(nameof(Texts))]
    public void BinHex_text_reads_as_in_box(string why, string[] texts)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            writer.WriteStartElement("root");
            writer.WriteStartElement("data");
            foreach (string text in texts)
            {
                writer.WriteString(text);
                writer.WriteComment("split"); // keeps the writer from joining the texts into one record
            }

            writer.WriteEndElement();
            writer.WriteElementString("after", "x");
            writer.WriteEndElement();
        }

        byte[] bytes = stream.ToArray();
        Expect.Equal(Read(XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max)), Read(Nbfx.CreateReader(bytes)), why);
    }

    [Fact]
    public void BinHex_of_a_Bytes_record_is_refused_as_in_box()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            writer.WriteStartElement("data");
            writer.WriteBase64([1, 2, 3], 0, 3);
            writer.WriteEndElement();
        }

        byte[] bytes = stream.ToArray();
        Expect.Equal(Read(XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max)), Read(Nbfx.CreateReader(bytes)), "a Bytes record");
    }

    /// <summary>The bytes of the data element and the node after it, or the exception's type.</summary>
    private static string Read(XmlDictionaryReader reader)
    {
        using (reader)
        {
            try
            {
                reader.ReadToFollowing("data");
                byte[] value = reader.ReadElementContentAsBinHex();
                return $"{Convert.ToHexString(value)}, then {reader.NodeType} {reader.LocalName}";
            }
            catch (XmlException e)
            {
                return e is NbfxFormatException ? nameof(XmlException) : e.GetType().Name;
            }
        }
    }
}
