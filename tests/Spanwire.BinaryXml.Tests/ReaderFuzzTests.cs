using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Mutated documents: the readers raise only NbfxFormatException (XmlException from the drop-in), never hang, and
/// allocate no more than the input's size accounts for. SPANWIRE_LONG_TESTS=N runs N times 20,000 inputs.
/// </summary>
public class ReaderFuzzTests
{
    private const int Seed = 20261123;

    [Fact]
    public void Mutated_inputs_raise_only_format_exceptions()
    {
        int count = LongRuns.Scale(20_000);
        var (corpus, dictionary, session) = Corpus();
        var random = new Random(Seed);
        int rejected = 0;
        foreach (byte[] document in corpus)
        {
            // Warm up, so that first-use costs (JIT, static data) are not counted against one input.
            Raw(document, dictionary, session, XmlDictionaryReaderQuotas.Max, "warm-up");
            try
            {
                using XmlReader reader = Nbfx.CreateReader(document, dictionary, XmlDictionaryReaderQuotas.Max, session);
                Walk(reader);
            }
            catch (XmlException) { }
        }

        for (int i = 0; i < count; i++)
        {
            byte[] input = Mutate(corpus[random.Next(corpus.Count)], random);
            XmlDictionaryReaderQuotas quotas = i % 2 == 0 ? new XmlDictionaryReaderQuotas() : XmlDictionaryReaderQuotas.Max;
            string what = $"seed {Seed}, input {i}: {Convert.ToHexString(input.AsSpan(0, Math.Min(input.Length, 64)))}";

            long before = GC.GetAllocatedBytesForCurrentThread();
            bool ok = Raw(input, dictionary, session, quotas, what);
            long rawAllocated = GC.GetAllocatedBytesForCurrentThread() - before;
            // Only the exception (and its message) allocates: a walk over a span allocates nothing itself.
            Assert.True(rawAllocated < 8_192, $"{what}: the raw reader allocated {rawAllocated} bytes for {input.Length}");
            if (!ok) rejected++;

            if (i % 10 == 0)
            {
                var split = new NbfxReader(ReaderHarness.Split(input, 1 + i % 5), dictionary, session, quotas);
                try { while (split.Read()) { } }
                catch (NbfxFormatException) { }
                finally { split.Dispose(); }
            }

            before = GC.GetAllocatedBytesForCurrentThread();
            try
            {
                using XmlDictionaryReader reader = Nbfx.CreateReader(input, dictionary, quotas, session);
                switch (i % 3)
                {
                    case 0: Walk(reader); break;
                    case 1: WalkTyped(reader, i); break;
                    default: WalkRandomCalls(reader, random); break;
                }
            }
            catch (XmlException) { }
            // XmlReader's own refusal of a content read on the wrong node (an element with child elements, say).
            catch (InvalidOperationException e) when (i % 3 == 1 && e.TargetSite?.Module.Assembly.GetName().Name == "System.Private.Xml") { }
            // A call made where it does not belong (ending an element when none is open, say), in the random walk.
            catch (InvalidOperationException) when (i % 3 == 2) { }
            // ReadOuterXml's writer refusing UTF-16 text with a lone high surrogate, as in-box (ReaderByteVectorTests).
            catch (ArgumentException e) when (i % 3 == 2 && e.TargetSite?.DeclaringType?.FullName == "System.Xml.XmlTextEncoder") { }
            catch (Exception e)
            {
                Assert.Fail($"{what}: the drop-in threw {e.GetType().Name}: {e.Message} {e.StackTrace}");
            }

            long dropInAllocated = GC.GetAllocatedBytesForCurrentThread() - before;
            // Strings for every name and value (UTF-16 doubles text, base64 and number text grow it) plus fixed overheads.
            Assert.True(dropInAllocated < 64L * input.Length + 256_000, $"{what}: the drop-in allocated {dropInAllocated} bytes for {input.Length}");
        }

        Assert.True(rejected > count / 4, $"only {rejected} of {count} inputs were rejected: the mutations are too gentle");
    }

    /// <summary>Reads every node's value and every attribute.</summary>
    private static void Walk(XmlReader reader)
    {
        while (reader.Read())
        {
            _ = reader.Value;
            for (int a = 0; a < reader.AttributeCount; a++)
            {
                _ = reader.GetAttribute(a);
            }
        }
    }

    /// <summary>Up to 200 of the calls <see cref="ReaderWalkTests"/> makes, in a random order, and the state after each.</summary>
    private static void WalkRandomCalls(XmlDictionaryReader reader, Random random)
    {
        for (int step = 0; step < 200 && !reader.EOF; step++)
        {
            _ = ReaderWalkTests.Operations[random.Next(ReaderWalkTests.Operations.Length)].Call(reader);
            // Each member is asked for, but not joined into a string: what this loop allocates itself is not the reader's.
            if (reader.NodeType != XmlNodeType.None)
            {
                _ = reader.Name;
                _ = reader.Depth;
                _ = reader.ValueType;
                _ = reader.HasValue ? reader.Value : "";
            }
        }
    }

    /// <summary>Reads elements' content as typed values and arrays, in turn, as DataContractSerializer does.</summary>
    private static void WalkTyped(XmlDictionaryReader reader, int seed)
    {
        int turn = seed;
        var items = new int[8];
        while (reader.Read())
        {
            while (reader.NodeType == XmlNodeType.Element)
            {
                switch (turn++ % 7)
                {
                    case 0: _ = reader.ReadElementContentAsInt(); break;
                    case 1: _ = reader.ReadElementContentAsDouble(); break;
                    case 2: _ = reader.ReadElementContentAsString(); break;
                    case 3: _ = reader.ReadElementContentAsDateTime(); break;
                    case 4: _ = reader.ReadArray(reader.LocalName, reader.NamespaceURI, items, 0, items.Length); break;
                    case 5: _ = reader.ReadArray(reader.LocalName, reader.NamespaceURI, new decimal[3], 0, 3); break;
                    default:
                        if (reader.Read() && reader.NodeType == XmlNodeType.Text) _ = reader.ReadContentAsLong();
                        break;
                }
            }
        }
    }

    /// <summary>Walks every token and value without making strings; false when the input was rejected.</summary>
    private static bool Raw(byte[] input, IXmlDictionary dictionary, XmlBinaryReaderSession session, XmlDictionaryReaderQuotas quotas, string what)
    {
        var reader = new NbfxReader(input, dictionary, session, quotas);
        Span<char> chars = stackalloc char[64];
        Span<long> longs = stackalloc long[4];
        try
        {
            while (reader.Read())
            {
                switch (reader.ValueType)
                {
                    case NbfxValueType.Chars or NbfxValueType.UnicodeChars when reader.TokenType == NbfxTokenType.Text && reader.GetCharCount() <= chars.Length:
                        reader.CopyString(chars);
                        break;
                    case NbfxValueType.Int8 or NbfxValueType.Int16 or NbfxValueType.Int32 or NbfxValueType.Int64:
                        reader.GetInt64();
                        break;
                    case NbfxValueType.Double or NbfxValueType.Float:
                        reader.GetDouble();
                        break;
                }

                if (reader.TokenType == NbfxTokenType.Array && reader.ArrayType == NbfxValueType.Int64)
                {
                    reader.ReadArray(longs);
                }
            }

            return true;
        }
        catch (NbfxFormatException)
        {
            return false;
        }
        catch (Exception e)
        {
            Assert.Fail($"{what}: the raw reader threw {e.GetType().Name}: {e.Message}");
            return false;
        }
    }

    private static (List<byte[]> Corpus, IXmlDictionary Dictionary, XmlBinaryReaderSession Session) Corpus()
    {
        var documents = new RandomDocuments(Seed);
        var corpus = new List<byte[]>();
        var writerSession = new ReaderHarness.RecordingWriterSession();
        while (corpus.Count < 64)
        {
            var (bytes, error) = WriterDifferentialTests.InBox(documents.Next(), documents.Dictionary, writerSession);
            if (error is null && bytes!.Length < 4096) corpus.Add(bytes);
        }

        return (corpus, documents.Dictionary, writerSession.ToReaderSession());
    }

    private static readonly byte[] s_interesting = [0x00, 0x01, 0x03, 0x7F, 0x80, 0xFF, 0x40, 0x9C, 0xA2, 0xBA, 0xA4, 0x8D, 0xAA, 0x43];

    private static byte[] Mutate(byte[] original, Random random)
    {
        var bytes = new List<byte>(original);
        int mutations = 1 + random.Next(4);
        for (int m = 0; m < mutations && bytes.Count > 0; m++)
        {
            int at = random.Next(bytes.Count);
            switch (random.Next(7))
            {
                case 0: bytes[at] ^= (byte)(1 << random.Next(8)); break;
                case 1: bytes[at] = (byte)random.Next(256); break;
                case 2: bytes[at] = s_interesting[random.Next(s_interesting.Length)]; break;
                case 3: bytes.Insert(at, s_interesting[random.Next(s_interesting.Length)]); break;
                case 4: bytes.RemoveRange(at, Math.Min(bytes.Count - at, 1 + random.Next(8))); break;
                case 5: bytes.RemoveRange(at, bytes.Count - at); break; // truncate
                default: // a large length or count
                    for (int k = 0; k < 4 && at + k < bytes.Count; k++) bytes[at + k] = k == 3 ? (byte)0x7F : (byte)0xFF;
                    break;
            }
        }

        return bytes.ToArray();
    }
}
