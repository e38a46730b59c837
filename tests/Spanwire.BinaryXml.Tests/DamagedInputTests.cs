using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Documents the in-box writer wrote, then cut short: the drop-in reader gives the nodes the in-box reader gives before
/// it refuses the input, and refuses it at the same Read, whether the input is one array or segments. A reader that
/// looked further ahead than in-box would refuse a node early; one that looked less far would hand out a node in-box
/// refuses. The one difference on purpose: an array record whose items run past the end is refused at its header,
/// where in-box hands out the items that are there first (the README's "checks every length against the input").
/// </summary>
public class DamagedInputTests
{
    [Fact]
    public void Cut_documents_are_refused_at_the_node_the_in_box_reader_refuses()
    {
        const int Seed = 20261126;
        var random = new Random(Seed);
        int compared = 0, refusedAtArrayHeader = 0;
        foreach ((int i, byte[] bytes, IXmlDictionary? dictionary, XmlBinaryReaderSession? session) in ReaderHarness.InBoxDocuments(Seed, LongRuns.Scale(400)))
        {
            int cut = random.Next(1, bytes.Length);
            byte[] damaged = bytes[..cut];
            Outcome expected = ReadUntilRefused(() => XmlDictionaryReader.CreateBinaryReader(damaged, 0, damaged.Length, dictionary, XmlDictionaryReaderQuotas.Max, session));
            Outcome whole = ReadUntilRefused(() => Nbfx.CreateReader(damaged, dictionary, XmlDictionaryReaderQuotas.Max, session));
            Outcome split = ReadUntilRefused(() => Nbfx.CreateReader(ReaderHarness.Split(damaged, 1 + i % 3), dictionary, XmlDictionaryReaderQuotas.Max, session));
            string context = $"seed {Seed}, document {i} cut to {cut} of {bytes.Length} bytes: {Convert.ToHexString(damaged)}";
            Expect.Equal((whole.Nodes, whole.Error), (split.Nodes, split.Error), context + $" ({1 + i % 3}-byte segments against one array)");
            if (whole.Message.Contains("an array of", StringComparison.Ordinal) && whole.Message.Contains("runs past the end", StringComparison.Ordinal)
                && whole.Nodes < expected.Nodes && expected.Error is not null)
            {
                refusedAtArrayHeader++;
            }
            else
            {
                Expect.Equal((expected.Nodes, expected.Error), (whole.Nodes, whole.Error), $"{context}; ours: {whole.Message}");
            }
            compared++;
        }
        Assert.True(compared > 300, $"only {compared} documents compared");
        Assert.True(refusedAtArrayHeader < compared / 5, $"{refusedAtArrayHeader} of {compared} refused at an array header");
    }

    private readonly record struct Outcome(int Nodes, string? Error, string Message);

    /// <summary>How many Reads succeeded, and the kind of exception that ended the reading, if any.</summary>
    private static Outcome ReadUntilRefused(Func<XmlReader> open)
    {
        int nodes = 0;
        try
        {
            using XmlReader reader = open();
            while (reader.Read())
            {
                nodes++;
            }
            return new Outcome(nodes, null, "");
        }
        catch (XmlException e)
        {
            return new Outcome(nodes, nameof(XmlException), e.Message);
        }
    }
}
