using System.Buffers;
using System.Runtime.Serialization;
using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>DataContractSerializer through the drop-in writer writes the in-box writer's bytes.</summary>
public class DataContractTests
{
    [DataContract(Namespace = "urn:shop")]
    public enum Status { [EnumMember] Open, [EnumMember] Shipped }

    [DataContract(Namespace = "urn:shop", IsReference = true)]
    public sealed class Customer
    {
        [DataMember] public string? Name { get; set; }
        [DataMember] public Guid Id { get; set; }
    }

    [DataContract(Namespace = "urn:shop")]
    [KnownType(typeof(Customer))]
    public sealed class Order
    {
        [DataMember] public int Number { get; set; }
        [DataMember] public long Big { get; set; }
        [DataMember] public double Price { get; set; }
        [DataMember] public float Ratio { get; set; }
        [DataMember] public decimal Total { get; set; }
        [DataMember] public bool Paid { get; set; }
        [DataMember] public DateTime Placed { get; set; }
        [DataMember] public TimeSpan Window { get; set; }
        [DataMember] public byte[]? Blob { get; set; }
        [DataMember] public string? Note { get; set; }
        [DataMember] public Status State { get; set; }
        [DataMember] public Customer? Buyer { get; set; }
        [DataMember] public Customer? SameBuyer { get; set; }
        [DataMember] public List<int>? Quantities { get; set; }
        [DataMember] public double[]? Weights { get; set; }
        [DataMember] public Dictionary<string, int>? Stock { get; set; }
        [DataMember] public List<string?>? Tags { get; set; }
        [DataMember] public object? Anything { get; set; }
        [DataMember] public char Grade { get; set; }
        [DataMember] public byte Small { get; set; }
        [DataMember] public ushort Port { get; set; }
        [DataMember] public ulong Huge { get; set; }
        [DataMember] public Uri? Link { get; set; }
    }

    internal static Order Sample()
    {
        var buyer = new Customer { Name = "Ada", Id = new Guid("00112233-4455-6677-8899-aabbccddeeff") };
        return new Order
        {
            Number = 42,
            Big = long.MinValue,
            Price = 1.0 / 3,
            Ratio = 0.5f,
            Total = 1234.5678m,
            Paid = true,
            Placed = new DateTime(2026, 11, 21, 10, 0, 0, DateTimeKind.Utc),
            Window = TimeSpan.FromMinutes(90),
            Blob = [1, 2, 3, 4, 5],
            Note = new string('n', 300) + "中文",
            State = Status.Shipped,
            Buyer = buyer,
            SameBuyer = buyer,
            Quantities = [1, 2, 3],
            Weights = [1.5, 2.5],
            Stock = new() { ["a"] = 1, ["b"] = 2 },
            Tags = ["x", null, ""],
            Anything = buyer,
            Grade = 'A',
            Small = 200,
            Port = 8080,
            Huge = ulong.MaxValue,
            Link = new Uri("http://example.org/"),
        };
    }

    [Fact]
    public void WriteObject_matches_the_in_box_writer()
    {
        var serializer = new DataContractSerializer(typeof(Order));
        var expected = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(expected))
        {
            serializer.WriteObject(writer, Sample());
        }

        var actual = new ArrayBufferWriter<byte>();
        using (XmlDictionaryWriter writer = Nbfx.CreateWriter(actual))
        {
            serializer.WriteObject(writer, Sample());
        }

        Assert.Equal(Convert.ToHexString(expected.ToArray()), Convert.ToHexString(actual.WrittenSpan));

        // And the in-box reader reads ours back.
        Order back = (Order)serializer.ReadObject(XmlDictionaryReader.CreateBinaryReader(actual.WrittenSpan.ToArray(), XmlDictionaryReaderQuotas.Max))!;
        Assert.Equal(Sample().Note, back.Note);
        Assert.Same(back.Buyer, back.SameBuyer);
    }

    [Fact]
    public void WriteObject_through_a_stream_matches_the_in_box_writer()
    {
        var serializer = new DataContractSerializer(typeof(List<Order>));
        var graph = Enumerable.Range(0, 20).Select(_ => Sample()).ToList();
        var expected = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(expected, Nbfx.SoapDictionary, new XmlBinaryWriterSession()))
        {
            serializer.WriteObject(writer, graph);
        }

        var actual = new MemoryStream();
        using (XmlDictionaryWriter writer = Nbfx.CreateWriter(actual, Nbfx.SoapDictionary, new XmlBinaryWriterSession(), ownsStream: false))
        {
            serializer.WriteObject(writer, graph);
        }

        Assert.Equal(Convert.ToHexString(expected.ToArray()), Convert.ToHexString(actual.ToArray()));
    }
}
