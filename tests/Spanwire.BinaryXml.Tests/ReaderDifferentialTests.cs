using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Documents written by the in-box writer, read by the in-box reader and by ours (whole, and as 1-byte segments):
/// the same nodes, names, namespaces and values; also from the middle of a larger array. The raw reader gives the
/// same tokens whole and split.
/// </summary>
public class ReaderDifferentialTests
{
    [Fact]
    public void Ten_thousand_random_documents_read_like_the_in_box_reader()
    {
        const int Seed = 20261122;
        int compared = 0, rejected = 0;
        foreach ((int i, byte[] bytes, IXmlDictionary? dictionary, XmlBinaryReaderSession? session) in ReaderHarness.InBoxDocuments(Seed, 10_000))
        {
            var expected = ReaderHarness.TryNodes(() => XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session));
            var actual = ReaderHarness.TryNodes(() => Nbfx.CreateReader(bytes, dictionary, XmlDictionaryReaderQuotas.Max, session));
            if (expected.Error is not null)
            {
                // The in-box writer wrote something its reader rejects (a prefix declared twice on one element): ours rejects it too.
                Assert.True(actual.Error is not null, $"seed {Seed}, document {i}: the in-box reader threw {expected.Error}, ours read it");
                rejected++;
                continue;
            }

            AssertSameNodes(expected.Nodes!, actual, $"seed {Seed}, document {i}");
            if (i % 4 == 0)
            {
                var split = ReaderHarness.TryNodes(() => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1), dictionary, XmlDictionaryReaderQuotas.Max, session));
                AssertSameNodes(expected.Nodes!, split, $"seed {Seed}, document {i} in 1-byte segments");
                var streamed = ReaderHarness.TryNodes(() => Nbfx.CreateReader(ReaderHarness.Trickle(bytes, 1 + i % 3), dictionary, XmlDictionaryReaderQuotas.Max, session));
                AssertSameNodes(expected.Nodes!, streamed, $"seed {Seed}, document {i} from a stream read {1 + i % 3} bytes at a time");

                // Read in place from the middle of a larger array: names and values are indexed from its offset.
                byte[] framed = [.. new byte[] { 0x40, 0x01 }, .. bytes, 0x01, 0x01];
                var inPlace = ReaderHarness.TryNodes(() => Nbfx.CreateReader(framed.AsMemory(2, bytes.Length), dictionary, XmlDictionaryReaderQuotas.Max, session));
                AssertSameNodes(expected.Nodes!, inPlace, $"seed {Seed}, document {i} at offset 2 of a larger array");

                var whole = new NbfxReader(bytes, dictionary, session, XmlDictionaryReaderQuotas.Max);
                string tokens = ReaderHarness.Tokens(ref whole, readArrays: i % 8 == 0);
                var pieces = new NbfxReader(ReaderHarness.Split(bytes, 1 + i % 3), dictionary, session, XmlDictionaryReaderQuotas.Max);
                Assert.Equal(tokens, ReaderHarness.Tokens(ref pieces, readArrays: i % 8 == 0));
                pieces.Dispose();
            }

            compared++;
        }

        Assert.True(compared > 8_000, $"only {compared} documents compared");
    }

    [Theory]
    [InlineData("a list in an attribute, then another attribute", "40 01 61 04 01 62 A4 88 05 98 02 68 69 A6 04 01 63 82 98 01 7A 01")]
    [InlineData("lists in two attributes and in content", "40 01 61 04 01 62 A4 88 05 A6 04 01 63 A4 86 98 03 61 62 63 A6 A4 88 07 88 08 A6 01")]
    [InlineData("a list in an attribute of an array's element", "03 40 01 61 04 01 62 A4 88 05 88 06 A6 01 8D 02 07 00 00 00 08 00 00 00")]
    public void Lists_read_like_the_in_box_reader(string why, string hex)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        var expected = ReaderHarness.TryNodes(() => XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max));
        Assert.True(expected.Error is null, $"{why}: the in-box reader threw {expected.Error}");
        AssertSameNodes(expected.Nodes!, ReaderHarness.TryNodes(() => Nbfx.CreateReader(bytes)), why);
        foreach (int size in new[] { 1, 2, 3 })
        {
            AssertSameNodes(expected.Nodes!, ReaderHarness.TryNodes(() => Nbfx.CreateReader(ReaderHarness.Split(bytes, size))), $"{why} ({size}-byte segments)");
            AssertSameNodes(expected.Nodes!, ReaderHarness.TryNodes(() => Nbfx.CreateReader(ReaderHarness.Trickle(bytes, size))), $"{why} (a stream read {size} bytes at a time)");
        }
    }

    internal static void AssertSameNodes(List<string> expected, (List<string>? Nodes, Type? Error) actual, string what)
    {
        Assert.True(actual.Error is null, $"{what}: ours threw {actual.Error}");
        for (int n = 0; n < Math.Min(expected.Count, actual.Nodes!.Count); n++)
        {
            if (expected[n] != actual.Nodes[n])
            {
                Assert.Fail($"{what}, node {n}:\n in-box {Clip(expected[n])}\n ours   {Clip(actual.Nodes[n])}");
            }
        }

        Expect.Equal(expected.Count, actual.Nodes.Count, $"{what}: {expected.Count} nodes in-box, {actual.Nodes.Count} ours");
    }

    private static string Clip(string s) => s.Length > 300 ? s[..300] + "…" : s;
}
