using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Random in-box documents read under small quotas (depth, names, strings, arrays, each drawn per document) and walked
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
            };
            string context = $"seed {Seed}, document {i}, MaxDepth {quotas.MaxDepth}, MaxNameTableCharCount {quotas.MaxNameTableCharCount}, "
                + $"MaxStringContentLength {quotas.MaxStringContentLength}, MaxArrayLength {quotas.MaxArrayLength}";
            List<string> expected = Walk(() => XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, dictionary, quotas, session));
            Expect.SameLines(expected, Walk(() => Nbfx.CreateReader(bytes, dictionary, quotas, session)), context + ", one array");
            Expect.SameLines(expected, Walk(() => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1 + i % 5), dictionary, quotas, session)), context + ", segments");
            refused += expected[^1].StartsWith("error", StringComparison.Ordinal) ? 1 : 0;
            compared++;
        }

        Assert.True(compared > 800, $"only {compared} documents compared");
        Assert.True(refused > compared / 10 && refused < compared * 9 / 10, $"{refused} of {compared} refused: the quotas should refuse some and pass some");
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
