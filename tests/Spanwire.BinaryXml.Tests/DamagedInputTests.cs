using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Documents the in-box writer wrote, then damaged. Cut short: the drop-in reader gives the nodes the in-box reader gives before
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
            Outcome expected = ReadValues(() => XmlDictionaryReader.CreateBinaryReader(damaged, 0, damaged.Length, dictionary, XmlDictionaryReaderQuotas.Max, session));
            Outcome whole = ReadValues(() => Nbfx.CreateReader(damaged, dictionary, XmlDictionaryReaderQuotas.Max, session));
            Outcome split = ReadValues(() => Nbfx.CreateReader(ReaderHarness.Split(damaged, 1 + i % 3), dictionary, XmlDictionaryReaderQuotas.Max, session));
            string context = $"seed {Seed}, document {i} cut to {cut} of {bytes.Length} bytes: {Convert.ToHexString(damaged)}";
            Expect.Equal((whole.Nodes, whole.Error), (split.Nodes, split.Error), context + $" ({1 + i % 3}-byte segments against one array)");
            StreamedAsInBox(damaged, 1 + i % 5, dictionary, session, context);
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

    /// <summary>
    /// Documents with one byte replaced, read node by node with every value asked for: the drop-in reader does what the
    /// in-box reader does, or refuses the input earlier for one of the checks it makes on purpose when a record is read
    /// (UTF-8 names, decimal flags, DateTime ticks, an array past the end; see the README).
    /// </summary>
    [Fact]
    public void Documents_with_a_byte_replaced_read_as_the_in_box_reader_reads_them_or_are_refused_earlier_on_purpose()
    {
        const int Seed = 20261128;
        var random = new Random(Seed);
        int compared = 0, same = 0;
        foreach ((int i, byte[] bytes, IXmlDictionary? dictionary, XmlBinaryReaderSession? session) in ReaderHarness.InBoxDocuments(Seed, LongRuns.Scale(1_000)))
        {
            byte[] damaged = (byte[])bytes.Clone();
            int at = random.Next(damaged.Length);
            damaged[at] = (byte)random.Next(256);
            Outcome expected = ReadValues(() => XmlDictionaryReader.CreateBinaryReader(damaged, 0, damaged.Length, dictionary, XmlDictionaryReaderQuotas.Max, session));
            Outcome whole = ReadValues(() => Nbfx.CreateReader(damaged, dictionary, XmlDictionaryReaderQuotas.Max, session));
            Outcome split = ReadValues(() => Nbfx.CreateReader(ReaderHarness.Split(damaged, 1 + i % 3), dictionary, XmlDictionaryReaderQuotas.Max, session));
            string context = $"seed {Seed}, document {i}, byte {at} set to 0x{damaged[at]:X2}";
            Expect.Equal((whole.Nodes, whole.Error), (split.Nodes, split.Error), context + " (segments against one array)");
            StreamedAsInBox(damaged, 1 + i % 5, dictionary, session, context);
            if ((whole.Nodes, whole.Error) == (expected.Nodes, expected.Error))
            {
                same++;
            }
            else
            {
                bool onPurpose = whole.Error is not null && whole.Nodes <= expected.Nodes && s_checksMadeOnPurpose.Any(whole.Message.Contains);
                Assert.True(onPurpose, $"{context}: in-box {expected.Nodes} nodes then {expected.Error ?? "the end"}, ours {whole.Nodes} then {whole.Error ?? "the end"}: {whole.Message}");
            }

            compared++;
        }

        Assert.True(compared > 800, $"only {compared} documents compared");
        Assert.True(same > compared * 3 / 4, $"only {same} of {compared} read alike");
    }

    /// <summary>
    /// A stream's length is not known until it ends, so a record that claims more bytes than are left is refused where
    /// the bytes run out, not where the claim is read: the control is the in-box reader over the same stream.
    /// </summary>
    private static void StreamedAsInBox(byte[] damaged, int size, IXmlDictionary? dictionary, XmlBinaryReaderSession? session, string context)
    {
        Outcome expected = ReadValues(() => XmlDictionaryReader.CreateBinaryReader(ReaderHarness.Trickle(damaged, size), dictionary, XmlDictionaryReaderQuotas.Max, session));
        Outcome streamed = ReadValues(() => Nbfx.CreateReader(ReaderHarness.Trickle(damaged, size), dictionary, XmlDictionaryReaderQuotas.Max, session));
        if ((streamed.Nodes, streamed.Error) != (expected.Nodes, expected.Error))
        {
            bool onPurpose = streamed.Error is not null && streamed.Nodes <= expected.Nodes && s_checksMadeOnPurpose.Any(streamed.Message.Contains);
            Assert.True(onPurpose, $"{context}, a stream read {size} bytes at a time: in-box {expected.Nodes} nodes then {expected.Error ?? "the end"}, ours {streamed.Nodes} then {streamed.Error ?? "the end"}: {streamed.Message}");
        }
    }

    private static readonly string[] s_checksMadeOnPurpose =
        ["not valid UTF-8", "a decimal with an invalid scale or flags", "a DateTime out of range", "runs past the end of the input",
            "a text record with end element outside any element", "an element has an empty name"];

    /// <summary>How many Reads succeeded, with every value asked for, and the exception that ended the reading, if any.</summary>
    private static Outcome ReadValues(Func<XmlReader> open)
    {
        int nodes = 0;
        try
        {
            using XmlReader reader = open();
            while (reader.Read())
            {
                nodes++;
                _ = reader.Value;
                if (reader.MoveToFirstAttribute())
                {
                    do
                    {
                        _ = reader.Value;
                    }
                    while (reader.MoveToNextAttribute());
                    reader.MoveToElement();
                }
            }

            return new Outcome(nodes, null, "");
        }
        catch (XmlException e)
        {
            return new Outcome(nodes, nameof(XmlException), e.Message);
        }
    }
}

