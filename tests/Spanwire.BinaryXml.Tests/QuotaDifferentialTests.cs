using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Random in-box documents read under small quotas (depth, names, strings, arrays, bytes per read, each drawn per document) and walked
/// asking every node's names and value: the drop-in reader gives what the in-box reader gives, and refuses the
/// document at the same step for the same limit, from one array and from segments.
/// </summary>
public class QuotaDifferentialTests
{
    [Fact]
    public void Random_documents_under_small_quotas_read_like_the_in_box_reader()
    {
        const int Seed = 20261127;
        var random = new Random(Seed);
        int compared = 0, refused = 0;
        foreach ((int i, byte[] bytes, IXmlDictionary? dictionary, XmlBinaryReaderSession? session) in ReaderHarness.InBoxDocuments(Seed, LongRuns.Scale(1_000)))
        {
            var quotas = new XmlDictionaryReaderQuotas
            {
                MaxDepth = random.Next(1, 8),
                MaxNameTableCharCount = random.Next(1, 200),
                MaxStringContentLength = random.Next(1, 64),
                MaxArrayLength = random.Next(1, 64),
                MaxBytesPerRead = random.Next(4) == 0 ? random.Next(16, 400) : int.MaxValue, // bounds a start tag's attributes
            };
            string context = $"seed {Seed}, document {i}, MaxDepth {quotas.MaxDepth}, MaxNameTableCharCount {quotas.MaxNameTableCharCount}, "
                + $"MaxStringContentLength {quotas.MaxStringContentLength}, MaxArrayLength {quotas.MaxArrayLength}, MaxBytesPerRead {quotas.MaxBytesPerRead}";
            List<string> expected = Walk(() => XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, dictionary, quotas, session));
            Expect.SameLines(expected, Walk(() => Nbfx.CreateReader(bytes, dictionary, quotas, session)), context + ", one array");
            Expect.SameLines(expected, Walk(() => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1 + i % 5), dictionary, quotas, session)), context + ", segments");
            refused += expected[^1].StartsWith("error", StringComparison.Ordinal) ? 1 : 0;
            compared++;
        }

        Assert.True(compared > 800, $"only {compared} documents compared");
        Assert.True(refused > compared / 10 && refused < compared * 9 / 10, $"{refused} of {compared} refused: the quotas should refuse some and pass some");
    }

    /// <summary>
    /// MaxBytesPerRead bounds the attributes of a start tag (from the first attribute record to the end of the last) in
    /// input given whole, at the limit and either side of it, as in-box; from a stream the in-box reader applies it to
    /// its buffer instead, and a start tag of any size is read.
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    [InlineData(40)]
    public void MaxBytesPerRead_bounds_a_start_tag_as_in_box(int attributes)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            writer.WriteStartElement("r");
            writer.WriteStartElement("a");
            for (int i = 0; i < attributes; i++)
            {
                writer.WriteAttributeString("n" + i, "value " + i);
            }

            writer.WriteString("text");
            writer.WriteEndElement();
            writer.WriteEndElement();
        }

        byte[] bytes = stream.ToArray();
        int size = (13 * Math.Min(attributes, 10)) + (15 * Math.Max(0, attributes - 10)); // each: 04, the name (length, "n", i), 98, length, "value i"
        var refused = new List<bool>();
        foreach (int limit in new[] { size - 1, size, size + 1 })
        {
            var quotas = new XmlDictionaryReaderQuotas { MaxBytesPerRead = limit };
            string context = $"{attributes} attributes, MaxBytesPerRead {limit}";
            List<string> expected = Walk(() => XmlDictionaryReader.CreateBinaryReader(bytes, quotas));
            Expect.SameLines(expected, Walk(() => Nbfx.CreateReader(bytes, null, quotas)), context + ", one array");
            Expect.SameLines(expected, Walk(() => Nbfx.CreateReader(ReaderHarness.Split(bytes, 2), null, quotas)), context + ", segments");
            Expect.SameLines(Walk(() => XmlDictionaryReader.CreateBinaryReader(new MemoryStream(bytes), quotas)), Walk(() => Nbfx.CreateReader(new MemoryStream(bytes), null, quotas)), context + ", a stream");
            refused.Add(expected[^1].StartsWith("error", StringComparison.Ordinal));
        }

        Expect.Equal("True False False", string.Join(" ", refused), $"{attributes} attributes of {size} bytes: refused one byte under the limit only");
    }

    /// <summary>Every node with its names and value (as ReaderHarness.Nodes shows them), then how the reading ended.</summary>
    private static List<string> Walk(Func<XmlDictionaryReader> open)
    {
        var lines = new List<string>();
        try
        {
            using XmlDictionaryReader reader = open();
            while (reader.Read())
            {
                lines.Add($"{reader.NodeType}|{reader.Depth}|{reader.Prefix}|{reader.LocalName}|{reader.NamespaceURI}|{reader.Value}");
                if (reader.NodeType == XmlNodeType.Element && reader.MoveToFirstAttribute())
                {
                    do
                    {
                        lines.Add($"  @{reader.Prefix}|{reader.LocalName}|{reader.NamespaceURI}|{reader.Value}");
                    }
                    while (reader.MoveToNextAttribute());
                    reader.MoveToElement();
                }
            }

            lines.Add("end");
        }
        catch (XmlException e)
        {
            lines.Add($"error: {Cause(e.Message)}");
        }

        return lines;
    }

    /// <summary>Which limit the message names (the two readers word their messages differently), or "malformed".</summary>
    private static string Cause(string message) =>
        message.Contains("nametable", StringComparison.OrdinalIgnoreCase) || message.Contains("MaxNameTableCharCount", StringComparison.Ordinal) ? "MaxNameTableCharCount"
        : message.Contains("depth", StringComparison.OrdinalIgnoreCase) ? "MaxDepth"
        : message.Contains("string content length", StringComparison.Ordinal) || message.Contains("MaxStringContentLength", StringComparison.Ordinal) ? "MaxStringContentLength"
        : message.Contains("array length", StringComparison.Ordinal) || message.Contains("MaxArrayLength", StringComparison.Ordinal) ? "MaxArrayLength"
        : "malformed";
}
