using System.Xml;
using BenchmarkDotNet.Attributes;
using Spanwire.BinaryXml;

namespace Spanwire.Benchmarks.BinaryXml;

/// <summary>
/// Reading every node of a 1 MB document of mixed records (elements with attributes and namespaces, strings in
/// several alphabets, numbers, dates, GUIDs, base64, arrays), written by the in-box writer: the in-box reader
/// (baseline), NbfxReader over the bytes, the drop-in XmlDictionaryReader, and the floor under any drop-in over the same
/// record step (<see cref="NodeFloorReader"/>). Values are not turned into strings.
/// </summary>
[MemoryDiagnoser]
public class NbfxReadBenchmarks
{
    private byte[] _document = null!;
    private readonly XmlDictionaryReaderQuotas _quotas = XmlDictionaryReaderQuotas.Max;

    [GlobalSetup]
    public void Setup() => _document = MixedDocument(1 << 20);

    /// <summary>A document of about <paramref name="size"/> bytes, the same on every run.</summary>
    public static byte[] MixedDocument(int size)
    {
        var stream = new MemoryStream();
        var random = new Random(42);
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            writer.WriteStartElement("Orders", "urn:shop");
            writer.WriteXmlnsAttribute("i", "http://www.w3.org/2001/XMLSchema-instance");
            for (int i = 0; stream.Length < size; i++)
            {
                writer.WriteStartElement("Order", "urn:shop");
                writer.WriteAttributeString("id", i.ToString());
                writer.WriteElementString("Name", "urn:shop", i % 3 == 0 ? "Ada Lovelace" : i % 3 == 1 ? "Grüße aus Köln" : "注文の品物");
                writer.WriteStartElement("Quantity", "urn:shop"); writer.WriteValue(random.Next(1000)); writer.WriteEndElement();
                writer.WriteStartElement("Price", "urn:shop"); writer.WriteValue(random.NextDouble() * 100); writer.WriteEndElement();
                writer.WriteStartElement("Total", "urn:shop"); writer.WriteValue((decimal)random.Next(100000) / 100); writer.WriteEndElement();
                writer.WriteStartElement("Placed", "urn:shop"); writer.WriteValue(new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddMinutes(i)); writer.WriteEndElement();
                writer.WriteStartElement("Key", "urn:shop"); writer.WriteValue(new Guid(i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)); writer.WriteEndElement();
                writer.WriteStartElement("Note", "urn:shop"); writer.WriteString(new string('n', 40 + i % 60)); writer.WriteEndElement();
                if (i % 4 == 0)
                {
                    writer.WriteStartElement("Blob", "urn:shop"); writer.WriteBase64(new byte[48], 0, 48); writer.WriteEndElement();
                    writer.WriteArray(null, "Lines", "urn:shop", new int[] { 1, 2, 3, 4, 5, 6, 7, 8 }, 0, 8);
                }

                writer.WriteEndElement();
            }

            writer.WriteEndElement();
        }

        return stream.ToArray();
    }

    [Benchmark(Baseline = true)]
    public int InBox()
    {
        using XmlDictionaryReader reader = XmlDictionaryReader.CreateBinaryReader(_document, _quotas);
        int nodes = 0;
        while (reader.Read())
        {
            nodes++;
        }

        return nodes;
    }

    [Benchmark]
    public int NbfxReader()
    {
        var reader = new NbfxReader(_document, null, null, _quotas);
        int tokens = 0;
        while (reader.Read())
        {
            tokens++;
        }

        return tokens;
    }

    [Benchmark]
    public int DropIn()
    {
        using XmlDictionaryReader reader = Spanwire.BinaryXml.Nbfx.CreateReader(_document, null, _quotas);
        int nodes = 0;
        while (reader.Read())
        {
            nodes++;
        }

        return nodes;
    }

    /// <summary>
    /// The floor under <see cref="DropIn"/>: the same record step behind one virtual Read per node, with only the node
    /// type, depth and element stack kept (<see cref="NodeFloorReader"/>). It hands out the same nodes.
    /// </summary>
    [Benchmark]
    public int NodeFloor()
    {
        using XmlReader reader = new NodeFloorReader(_document, _quotas);
        int nodes = 0;
        while (reader.Read())
        {
            nodes++;
        }

        return nodes;
    }
}
