using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// The drop-in reader answers name questions (IsStartElement, IsLocalName, IsNamespaceUri, IndexOfLocalName) from
/// the record's bytes without making strings. Walked in step with the in-box reader over random documents, it gives
/// the same answer to every question, asked before any name is made a string, for the right name and near misses
/// (a char more, a char less, one changed, a non-ASCII one); and the names it then hands out are its name table's atoms.
/// </summary>
public class NameQueryTests
{
    [Fact]
    public void Name_questions_are_answered_as_in_box_over_random_documents()
    {
        const int Seed = 20261121;
        int compared = 0;
        foreach ((int i, byte[] bytes, IXmlDictionary? dictionary, XmlBinaryReaderSession? session) in ReaderHarness.InBoxDocuments(Seed, 1_500))
        {
            (XmlDictionaryReader expected, XmlDictionaryReader actual) = ReaderPair(i, bytes, dictionary, session);
            using XmlDictionaryReader disposeExpected = expected, disposeActual = actual;
            compared += CompareInStepUnlessRejected(expected, actual, $"seed {Seed}, document {i}");
        }

        Assert.True(compared > 1_000, $"only {compared} documents compared");
    }

    /// <summary>
    /// One reader of each kind given document after document through SetInput (as WCF pools them), each document with
    /// its own dictionary and session or none: the same answers, and names that are the reused name table's atoms, from
    /// the first document to the last (the drop-in remembers dictionary names between documents).
    /// </summary>
    [Fact]
    public void Name_questions_are_answered_as_in_box_by_readers_reused_across_documents()
    {
        const int Seed = 20261125;
        var expected = (IXmlBinaryReaderInitializer)XmlDictionaryReader.CreateBinaryReader([0x40, 0x01, 0x61, 0x01], XmlDictionaryReaderQuotas.Max);
        var actual = (IXmlBinaryReaderInitializer)Nbfx.CreateReader([0x40, 0x01, 0x61, 0x01]);
        int compared = 0;
        foreach ((int i, byte[] bytes, IXmlDictionary? dictionary, XmlBinaryReaderSession? session) in ReaderHarness.InBoxDocuments(Seed, 600))
        {
            expected.SetInput(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session, null);
            actual.SetInput(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session, null);
            compared += CompareInStepUnlessRejected((XmlDictionaryReader)expected, (XmlDictionaryReader)actual, $"seed {Seed}, document {i} (reused readers)");
        }

        Assert.True(compared > 400, $"only {compared} documents compared");
    }

    /// <summary>
    /// TryGetLocalNameAsDictionaryString, TryGetNamespaceUriAsDictionaryString and TryGetValueAsDictionaryString (what
    /// XmlDictionaryWriter.WriteNode asks to copy names as dictionary strings), XmlLang and XmlSpace answer as in-box
    /// on every node, on every attribute and on each attribute's value node, over random documents with and without a dictionary and session;
    /// and a whole document copied through WriteNode from either reader gives the same bytes.
    /// </summary>
    [Fact]
    public void Dictionary_string_queries_are_answered_as_in_box_over_random_documents()
    {
        const int Seed = 20261124;
        int compared = 0;
        foreach ((int i, byte[] bytes, IXmlDictionary? dictionary, XmlBinaryReaderSession? session) in ReaderHarness.InBoxDocuments(Seed, 1_500))
        {
            (XmlDictionaryReader expected, XmlDictionaryReader actual) = ReaderPair(i, bytes, dictionary, session);
            using XmlDictionaryReader disposeExpected = expected, disposeActual = actual;
            string what = $"seed {Seed}, document {i}";
            try
            {
                CompareQueries(expected, actual, $"{what}, before the first node");
                int node = 0;
                while (expected.Read())
                {
                    Assert.True(actual.Read(), $"{what}: ours ended before node {node}");
                    string at = $"{what}, node {node} ({expected.NodeType} {expected.Name})";
                    CompareQueries(expected, actual, at);
                    for (int a = 0; a < expected.AttributeCount; a++)
                    {
                        expected.MoveToAttribute(a);
                        actual.MoveToAttribute(a);
                        CompareQueries(expected, actual, $"{at}, attribute {a} ({expected.Name})");
                        if (expected.ReadAttributeValue() && actual.ReadAttributeValue())
                        {
                            CompareQueries(expected, actual, $"{at}, attribute {a}'s value");
                        }
                    }

                    expected.MoveToElement();
                    actual.MoveToElement();
                    node++;
                }

                Assert.False(actual.Read(), $"{what}: ours has more nodes than {node}");
                CompareQueries(expected, actual, $"{what}, at the end");
                compared++;
            }
            catch (XmlException) when (compared >= 0)
            {
                // The in-box reader rejects a few in-box documents (a prefix declared twice); the differential test covers those.
            }

            Expect.Equal(Copy(XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session), dictionary),
                Copy(Nbfx.CreateReader(bytes, dictionary, XmlDictionaryReaderQuotas.Max, session), dictionary), $"{what}: WriteNode copies");
        }

        Assert.True(compared > 1_000, $"only {compared} documents compared");
    }

    /// <summary>The in-box reader and the drop-in over one document; every fifth drop-in reads it in 1-byte segments.</summary>
    private static (XmlDictionaryReader Expected, XmlDictionaryReader Actual) ReaderPair(int i, byte[] bytes, IXmlDictionary? dictionary, XmlBinaryReaderSession? session) =>
        (XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session),
         i % 5 == 0
             ? Nbfx.CreateReader(ReaderHarness.Split(bytes, 1), dictionary, XmlDictionaryReaderQuotas.Max, session)
             : Nbfx.CreateReader(bytes, dictionary, XmlDictionaryReaderQuotas.Max, session));

    private static void CompareQueries(XmlDictionaryReader expected, XmlDictionaryReader actual, string at)
    {
        Expect.Equal(Show(expected.TryGetLocalNameAsDictionaryString(out XmlDictionaryString? e), e), Show(actual.TryGetLocalNameAsDictionaryString(out XmlDictionaryString? a), a), $"{at}: TryGetLocalNameAsDictionaryString");
        Expect.Equal(Show(expected.TryGetNamespaceUriAsDictionaryString(out e), e), Show(actual.TryGetNamespaceUriAsDictionaryString(out a), a), $"{at}: TryGetNamespaceUriAsDictionaryString");
        Expect.Equal(Show(expected.TryGetValueAsDictionaryString(out e), e), Show(actual.TryGetValueAsDictionaryString(out a), a), $"{at}: TryGetValueAsDictionaryString");
        Expect.Equal(expected.XmlLang, actual.XmlLang, $"{at}: XmlLang");
        Expect.Equal(expected.XmlSpace, actual.XmlSpace, $"{at}: XmlSpace");
    }

    private static string Show(bool found, XmlDictionaryString? value) =>
        !found ? "false" : value is null ? "true, null" : ReferenceEquals(value, XmlDictionaryString.Empty) ? "true, Empty" : $"true, \"{value.Value}\" (key {value.Key})";

    /// <summary>The document copied node by node through an in-box binary writer with the same dictionary, as hex (or the exception's type).</summary>
    private static string Copy(XmlDictionaryReader reader, IXmlDictionary? dictionary)
    {
        try
        {
            using (reader)
            {
                var output = new MemoryStream();
                using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(output, dictionary))
                {
                    reader.MoveToContent();
                    while (!reader.EOF)
                    {
                        writer.WriteNode(reader, defattr: true);
                    }
                }

                return Convert.ToHexString(output.ToArray());
            }
        }
        catch (Exception e) when (e is XmlException or ArgumentException or InvalidOperationException)
        {
            // A refusal (by the reader, or by the writer of what it was handed) is compared by its type.
            return e is NbfxFormatException ? typeof(XmlException).Name : e.GetType().Name;
        }
    }

    /// <summary>
    /// The name table answers as a NameTable does: the constant names (xml, xmlns and their namespaces) are the
    /// reader's own strings without anything added first, the empty name is string.Empty, and other names are
    /// absent until added, then atoms.
    /// </summary>
    [Fact]
    public void The_name_table_behaves_as_a_name_table()
    {
        var bytes = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(bytes))
        {
            writer.WriteStartElement("p", "doc", "urn:a");
            writer.WriteAttributeString("xml", "lang", null, "en");
            writer.WriteEndElement();
        }

        using XmlDictionaryReader reader = Nbfx.CreateReader(bytes.ToArray());
        XmlNameTable names = reader.NameTable;
        Assert.Same(string.Empty, names.Get(""));
        Assert.Same(string.Empty, names.Add([], 0, 0));
        Assert.Null(names.Get("urn:a"));
        Assert.Null(names.Get("lang".ToCharArray(), 0, 4));

        Assert.True(reader.Read());
        Assert.True(reader.MoveToAttribute("lang", "http://www.w3.org/XML/1998/namespace"));
        Assert.Same(reader.Prefix, names.Get(new string("xml".AsSpan())));
        Assert.Same(reader.Prefix, names.Add("_xml_".ToCharArray(), 1, 3));
        Assert.Same(reader.NamespaceURI, names.Add(new string("http://www.w3.org/XML/1998/namespace".AsSpan())));
        Assert.True(reader.MoveToAttribute("xmlns:p"));
        Assert.Same(reader.Prefix, names.Get("xmlns"));
        Assert.Same(reader.NamespaceURI, names.Get("http://www.w3.org/2000/xmlns/"));

        string added = names.Add(new string("urn:b".AsSpan()));
        Assert.Same(added, names.Get("urn:b"));
        Assert.Same(added, names.Add("urn:b".ToCharArray(), 0, 5));
    }

    /// <summary>1 when the documents were compared in step; 0 when a reader rejected the document.</summary>
    private static int CompareInStepUnlessRejected(XmlDictionaryReader expected, XmlDictionaryReader actual, string what)
    {
        try
        {
            CompareInStep(expected, actual, what);
            return 1;
        }
        catch (XmlException)
        {
            // The in-box reader rejects a few in-box documents (a prefix declared twice); the differential test covers those.
            return 0;
        }
    }

    private static void CompareInStep(XmlDictionaryReader expected, XmlDictionaryReader actual, string what)
    {
        var strings = new XmlDictionary();
        int node = 0;
        while (expected.Read())
        {
            Assert.True(actual.Read(), $"{what}: ours ended before node {node}");
            string at = $"{what}, node {node++} ({expected.NodeType} {expected.Name})";
            if (expected.NodeType is XmlNodeType.Element or XmlNodeType.EndElement)
            {
                AskAboutNames(expected, actual, strings, at, questions: true);
                if (expected.NodeType == XmlNodeType.Element && expected.MoveToFirstAttribute())
                {
                    Assert.True(actual.MoveToFirstAttribute(), at);
                    do
                    {
                        AskAboutNames(expected, actual, strings, $"{at} @{expected.Name}", questions: true);
                        actual.MoveToNextAttribute();
                    }
                    while (expected.MoveToNextAttribute());
                    expected.MoveToElement();
                    actual.MoveToElement();
                }
            }
        }

        Assert.False(actual.Read(), $"{what}: ours has nodes after the in-box reader's last");
    }

    /// <summary>Asks both readers the same questions, then checks ours hands out atoms.</summary>
    private static void AskAboutNames(XmlDictionaryReader expected, XmlDictionaryReader actual, XmlDictionary strings, string at, bool questions)
    {
        string localName = expected.LocalName, ns = expected.NamespaceURI;
        if (questions)
        {
            Ask(expected, actual, strings, at, localName, ns);
        }

        Assert.Equal(expected.LocalName, actual.LocalName);
        Assert.Equal(expected.NamespaceURI, actual.NamespaceURI);
        Assert.Equal(expected.Prefix, actual.Prefix);
        foreach (string name in new[] { actual.LocalName, actual.NamespaceURI, actual.Prefix })
        {
            Assert.True(name.Length == 0 || ReferenceEquals(actual.NameTable.Get(name), name), $"{at}: '{name}' is not the name table's atom");
        }
    }

    private static void Ask(XmlDictionaryReader expected, XmlDictionaryReader actual, XmlDictionary strings, string at, string localName, string ns)
    {
        string[] names = Candidates(localName);
        string[] namespaces = [ns, ns + "/", ns.Length > 0 ? ns[..^1] : "x", ""];
        foreach (string n in namespaces)
        {
            XmlDictionaryString nsString = strings.Add(n);
            // Twice with the same XmlDictionaryString: the second answer may come from the first.
            for (int again = 0; again < 2; again++)
            {
                Expect.Equal(expected.IsNamespaceUri(nsString), actual.IsNamespaceUri(nsString), $"{at}: IsNamespaceUri('{n}')");
                Expect.Equal(expected.IsNamespaceUri(n), actual.IsNamespaceUri(n), $"{at}: IsNamespaceUri(string '{n}')");
            }

            XmlDictionaryString[] nameStrings = names.Select(strings.Add).ToArray();
            Expect.Equal(expected.IndexOfLocalName(nameStrings, nsString), actual.IndexOfLocalName(nameStrings, nsString), $"{at}: IndexOfLocalName in '{n}'");
            if (expected.NodeType == XmlNodeType.Element)
            {
                foreach (string l in names)
                {
                    Expect.Equal(expected.IsStartElement(strings.Add(l), nsString), actual.IsStartElement(strings.Add(l), nsString), $"{at}: IsStartElement('{l}', '{n}')");
                    Expect.Equal(expected.IsStartElement(l, n), actual.IsStartElement(l, n), $"{at}: IsStartElement(string '{l}', '{n}')");
                }
            }
        }

        foreach (string l in names)
        {
            Expect.Equal(expected.IsLocalName(strings.Add(l)), actual.IsLocalName(strings.Add(l)), $"{at}: IsLocalName('{l}')");
            Expect.Equal(expected.IsLocalName(l), actual.IsLocalName(l), $"{at}: IsLocalName(string '{l}')");
        }

    }

    private static string[] Candidates(string name)
    {
        var candidates = new List<string> { new string(name.AsSpan()), name + "x", "é" + name, "" };
        if (name.Length > 0)
        {
            candidates.Add(name[..^1]);
            candidates.Add((name[0] == 'x' ? 'y' : 'x') + name[1..]);
            candidates.Add("é" + name[1..]);
        }

        return candidates.ToArray();
    }
}
