using System.Buffers;
using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>MC-NBFSE: in-band string tables before each document of a session.</summary>
public class SessionTableTests
{
    [Fact]
    public void Table_bytes_are_the_size_then_names()
    {
        var output = new ArrayBufferWriter<byte>();
        NbfxSessionTable.Write(output, ["hello", "world"]);
        Assert.Equal("0C0568656C6C6F05776F726C64", Convert.ToHexString(output.WrittenSpan));
        output.Clear();
        NbfxSessionTable.Write(output, []);
        Assert.Equal("00", Convert.ToHexString(output.WrittenSpan));
    }

    [Fact]
    public void Ids_persist_across_the_tables_of_a_session()
    {
        var session = new XmlBinaryReaderSession();
        int nextKey = 0;
        byte[] first = Convert.FromHexString("0C0568656C6C6F05776F726C64" + "4201"); // then <hello/>... as ShortDictionaryElement id 1
        int used = NbfxSessionTable.Read(first, session, ref nextKey);
        Assert.Equal(13, used);
        Assert.Equal(2, nextKey);
        byte[] second = Convert.FromHexString("0403616E64");
        NbfxSessionTable.Read(second, session, ref nextKey);
        Assert.True(session.TryLookup(0, out XmlDictionaryString? hello) && hello.Value == "hello"); // wire id 1
        Assert.True(session.TryLookup(2, out XmlDictionaryString? and) && and.Value == "and");       // wire id 5
    }

    [Theory]
    [InlineData("05", 0, "runs past the end")]
    [InlineData("020568", 1, "runs past the end of its table")]
    [InlineData("0201FF", 1, "not valid UTF-8")]
    [InlineData("8080808010", 0, "invalid MB31")]
    public void Malformed_tables_are_rejected(string hex, long offset, string message)
    {
        int nextKey = 0;
        var e = Assert.Throws<NbfxFormatException>(() => NbfxSessionTable.Read(Convert.FromHexString(hex), new XmlBinaryReaderSession(), ref nextKey));
        Assert.Equal(offset, e.Offset);
        Assert.Contains(message, e.Message);
    }

    [Fact]
    public void A_session_of_documents_reads_back_through_both_readers()
    {
        var dictionary = new XmlDictionary();
        XmlDictionaryString order = dictionary.Add("Order"), line = dictionary.Add("Line"), ns = dictionary.Add("urn:shop");
        var writerSession = new NbfxWriterSession();
        var messages = new List<byte[]>();
        for (int m = 0; m < 3; m++)
        {
            var body = new ArrayBufferWriter<byte>();
            using (XmlDictionaryWriter writer = Nbfx.CreateWriter(body, null, writerSession))
            {
                writer.WriteStartElement("p", order, ns);
                writer.WriteStartElement(m == 2 ? dictionary.Add("Extra") : line, ns);
                writer.WriteValue(m);
                writer.WriteEndElement();
                writer.WriteEndElement();
            }

            var framed = new ArrayBufferWriter<byte>();
            NbfxSessionTable.Write(framed, writerSession.TakeNewStrings());
            framed.Write(body.WrittenSpan);
            messages.Add(framed.WrittenSpan.ToArray());
        }

        XmlBinaryReaderSession inBoxSession = new(), ourSession = new();
        int inBoxKey = 0, ourKey = 0;
        foreach (byte[] message in messages)
        {
            int a = NbfxSessionTable.Read(message, inBoxSession, ref inBoxKey);
            int b = NbfxSessionTable.Read(message, ourSession, ref ourKey);
            Assert.Equal(a, b);
            var expected = ReaderHarness.Nodes(XmlDictionaryReader.CreateBinaryReader(message, a, message.Length - a, null, XmlDictionaryReaderQuotas.Max, inBoxSession));
            var actual = ReaderHarness.Nodes(Nbfx.CreateReader(message.AsMemory(b), null, null, ourSession));
            Assert.Equal(expected, actual);
        }

        Assert.Equal(4, ourKey); // Order, urn:shop, Line, Extra
    }
}
