using System.Buffers;
using System.Runtime.Serialization;
using System.Xml;
using System.Xml.Schema;
using System.Xml.Serialization;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// DataContractSerializer.ReadObject through the drop-in reader: what it reads, written again by the in-box writer,
/// gives the bytes it was read from, for in-box bytes and for ours, whole, split and through a stream.
/// </summary>
public class DataContractReadTests
{
    [XmlRoot(Namespace = "urn:shop")]
    public sealed class Shape : IXmlSerializable
    {
        public int Sides { get; set; }

        public XmlSchema? GetSchema() => null;

        public void ReadXml(XmlReader reader)
        {
            Sides = int.Parse(reader.GetAttribute("sides")!);
            reader.Skip();
        }

        public void WriteXml(XmlWriter writer) => writer.WriteAttributeString("sides", Sides.ToString());
    }

    [DataContract(Namespace = "urn:shop")]
    [KnownType(typeof(DataContractTests.Customer))]
    public sealed class Catalog
    {
        [DataMember] public List<DataContractTests.Order>? Orders { get; set; }
        [DataMember] public XmlElement? Extra { get; set; }
        [DataMember] public Shape? Figure { get; set; }
        [DataMember] public int[]? Counts { get; set; }
        [DataMember] public Guid[]? Ids { get; set; }
        [DataMember] public DateTimeOffset When { get; set; }
        [DataMember] public string? Missing { get; set; }
        [DataMember] public object?[]? Mixed { get; set; }
    }

    private static Catalog Sample()
    {
        var document = new XmlDocument();
        document.LoadXml("<extra xmlns='urn:e' kind='k'><item>1</item><item>two</item></extra>");
        var orders = new List<DataContractTests.Order>();
        for (int i = 0; i < 5; i++)
        {
            var order = DataContractTests.Sample();
            order.Number = i;
            orders.Add(order);
        }

        return new Catalog
        {
            Orders = orders,
            Extra = document.DocumentElement,
            Figure = new Shape { Sides = 5 },
            Counts = Enumerable.Range(-50, 100).ToArray(),
            Ids = [Guid.Empty, new Guid("00112233-4455-6677-8899-aabbccddeeff")],
            When = new DateTimeOffset(2026, 11, 21, 12, 0, 0, TimeSpan.FromHours(2)),
            Missing = null,
            Mixed = [1, "s", 2.5, true, null, new DataContractTests.Customer { Name = "c" }],
        };
    }

    private static byte[] InBoxBytes(object graph, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary, session))
        {
            new DataContractSerializer(graph.GetType()).WriteObject(writer, graph);
        }

        return stream.ToArray();
    }

    [Fact]
    public void ReadObject_reads_in_box_bytes_back_to_the_same_graph()
    {
        byte[] bytes = InBoxBytes(Sample());
        var serializer = new DataContractSerializer(typeof(Catalog));
        var inputs = new Func<XmlDictionaryReader>[]
        {
            () => Nbfx.CreateReader(bytes, null, XmlDictionaryReaderQuotas.Max),
            () => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1), null, XmlDictionaryReaderQuotas.Max),
            () => Nbfx.CreateReader(new MemoryStream(bytes), null, XmlDictionaryReaderQuotas.Max),
        };
        foreach (var open in inputs)
        {
            Catalog back;
            using (XmlDictionaryReader reader = open())
            {
                back = (Catalog)serializer.ReadObject(reader)!;
            }

            Assert.Equal(Convert.ToHexString(bytes), Convert.ToHexString(InBoxBytes(back)));
            Assert.Same(back.Orders![0].Buyer, back.Orders[0].SameBuyer);
            Assert.Equal(5, back.Figure!.Sides);
            Assert.Equal("urn:e", back.Extra!.NamespaceURI);
        }
    }

    [Fact]
    public void Our_writer_and_reader_round_trip_with_the_SoapDictionary_and_a_session()
    {
        var writerSession = new ReaderHarness.RecordingWriterSession();
        var output = new ArrayBufferWriter<byte>();
        var serializer = new DataContractSerializer(typeof(Catalog));
        using (XmlDictionaryWriter writer = Nbfx.CreateWriter(output, Nbfx.SoapDictionary, writerSession))
        {
            serializer.WriteObject(writer, Sample());
        }

        byte[] bytes = output.WrittenSpan.ToArray();
        Assert.Equal(Convert.ToHexString(InBoxBytes(Sample(), Nbfx.SoapDictionary, new XmlBinaryWriterSession())), Convert.ToHexString(bytes));

        using XmlDictionaryReader reader = Nbfx.CreateReader(bytes, Nbfx.SoapDictionary, XmlDictionaryReaderQuotas.Max, writerSession.ToReaderSession());
        var back = (Catalog)serializer.ReadObject(reader)!;
        Assert.Equal(Convert.ToHexString(InBoxBytes(Sample())), Convert.ToHexString(InBoxBytes(back)));
    }

    [Fact]
    public void Default_quotas_reject_what_the_in_box_defaults_reject()
    {
        var big = new Catalog { Counts = new int[20_000] };
        byte[] bytes = InBoxBytes(big);
        var serializer = new DataContractSerializer(typeof(Catalog));
        Assert.ThrowsAny<Exception>(() => serializer.ReadObject(XmlDictionaryReader.CreateBinaryReader(bytes, new XmlDictionaryReaderQuotas())));
        var e = Assert.ThrowsAny<Exception>(() => serializer.ReadObject(Nbfx.CreateReader(bytes)));
        Assert.Contains("MaxArrayLength", e.ToString());
    }
}
