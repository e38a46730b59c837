using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// The drop-in reader driven the way a caller drives an XmlReader, not only by Read: over random in-box documents,
/// a seeded walk applies the same random call (Read, MoveToContent, Skip, the content and attribute moves, inner and
/// outer XML, base64 content drained, the start and end element reads, typed content, arrays) to the in-box reader
/// and to ours, and after every call compares the result and the whole visible state. A call that throws must throw
/// on both (an XmlException on both, or the same exception type); after an XmlException the walk of that document
/// stops, after another it goes on while both readers are on the same node.
/// </summary>
public class ReaderWalkTests
{
    private const int Seed = 20261122;

    [Fact]
    public void Random_call_sequences_give_the_in_box_results() =>
        Walk(Seed, 10_000, (random, _) => random.Next(Operations.Length), minCalls: 20_000);

    /// <summary>
    /// The same walk where half the calls hand a text's value out in small pieces (ReadValueChunk, or ReadContentAsBase64
    /// with a small buffer) and the next call is any other: what was handed out is gone from the node for every read
    /// after it, and bytes decoded past the buffer wait for the next content read, as in-box.
    /// </summary>
    [Fact]
    public void Reads_after_ReadValueChunk_in_pieces_give_the_in_box_results()
    {
        int[] chunkOps = Enumerable.Range(0, Operations.Length)
            .Where(i => Operations[i].Name.StartsWith("ReadValueChunk", StringComparison.Ordinal) || Operations[i].Name.StartsWith("ReadContentAsBase64(", StringComparison.Ordinal)
                || Operations[i].Name.StartsWith("ReadValueAsBase64(", StringComparison.Ordinal))
            .ToArray();
        Walk(Seed + 1, LongRuns.Scale(4_000), (random, onText) => onText && random.Next(2) == 0 ? chunkOps[random.Next(chunkOps.Length)] : random.Next(Operations.Length), minCalls: 8_000);
    }

    /// <param name="seed">The seed of the documents and of the calls.</param>
    /// <param name="documents">How many documents to walk.</param>
    /// <param name="pick">The next call's index in <see cref="Operations"/>, given whether the in-box reader is on a text node.</param>
    /// <param name="minCalls">At least this many calls must have been compared.</param>
    private static void Walk(int seed, int documents, Func<Random, bool, int> pick, int minCalls)
    {
        var random = new Random(seed);
        int walks = 0, calls = 0;
        var divergences = new SortedDictionary<string, (int Count, string First)>();
        void Diverged(string op, string message)
        {
            divergences[op] = divergences.TryGetValue(op, out var d) ? (d.Count + 1, d.First) : (1, message);
        }

        foreach ((int i, byte[] bytes, IXmlDictionary? dictionary, XmlBinaryReaderSession? session) in ReaderHarness.InBoxDocuments(seed, documents))
        {
            using XmlDictionaryReader expected = XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session);
            using XmlDictionaryReader actual = (i % 4) switch
            {
                0 => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1), dictionary, XmlDictionaryReaderQuotas.Max, session),
                1 => Nbfx.CreateReader(ReaderHarness.Trickle(bytes, 1 + i % 7), dictionary, XmlDictionaryReaderQuotas.Max, session),
                _ => Nbfx.CreateReader(bytes, dictionary, XmlDictionaryReaderQuotas.Max, session),
            };
            var trail = new List<string>();
            for (int step = 0; step < 400 && !expected.EOF; step++)
            {
                int op = pick(random, expected.NodeType == XmlNodeType.Text);
                (string name, Func<XmlDictionaryReader, string> call) = Operations[op];
                if (i % 4 < 2 && name is "TryGetBase64ContentLength" or "ReadContentAsBase64()")
                {
                    // Answered from the input ahead only when it is given whole, as the in-box reader answers only over
                    // bytes (over a stream it says false, as ours does: StreamInputTests): the control here is over bytes.
                    continue;
                }

                if (WeighsContent(name) && OnAnyAttribute(expected) && expected.NodeType == XmlNodeType.Text
                    && expected.Value.Length == 0 | actual.Value.Length == 0)
                {
                    // On an empty attribute value, the in-box reader's MoveToContent (and the reads that weigh content
                    // through it) depends on what the attribute slot held last: a documented in-box defect, not copied
                    // (ReaderByteVectorTests). Nothing to compare against from here. (Value is asked of both readers,
                    // as the state comparison does, so they stay alike.)
                    break;
                }

                trail.Add(name);
                string at = $"seed {seed}, document {i}, after {string.Join(", ", trail.TakeLast(8))}";
                bool onElementWithAttributes = expected.NodeType == XmlNodeType.Element && expected.AttributeCount > 0;
                (string? expectedResult, Exception? expectedError) = Try(() => call(expected));
                (string? actualResult, Exception? actualError) = Try(() => call(actual));
                calls++;
                if (expectedError is OutOfMemoryException or NullReferenceException or IndexOutOfRangeException
                    || expectedError is ArgumentOutOfRangeException { ParamName: "startIndex" }
                    || name == "MoveToNextAttribute" && onElementWithAttributes && expectedResult == "False")
                {
                    // The in-box reader's own failures, which it has in a few odd states (one of them: after some calls,
                    // refusing to move to the attribute of an element that has one; another: a BinHex read after
                    // ReadValueChunk emptied a value made a string, where its own Substring call throws): nothing to
                    // compare against.
                    break;
                }

                if (expectedError is not null || actualError is not null)
                {
                    if (!SameFailure(expectedError, actualError))
                    {
                        Diverged(name, $"{at}: in-box {Describe(expectedResult, expectedError)}, ours {Describe(actualResult, actualError)}");
                        break;
                    }
                    // Where a failed call leaves a reader is not part of its contract: walk on only while both agree.
                    if (expectedError is XmlException || State(expected, false) != State(actual, false))
                    {
                        break;
                    }

                    continue;
                }

                bool withValue = random.Next(2) == 0;
                (string? expectedState, Exception? stateError) = Try(() => State(expected, withValue));
                if (stateError is not null)
                {
                    // The in-box reader's own defect: after ReadValueChunk has split a UTF-16 surrogate pair, its Value
                    // throws on the rest (a lone low surrogate). Nothing to compare against.
                    break;
                }

                string actualState = State(actual, withValue);
                if (expectedResult != actualResult || expectedState != actualState)
                {
                    Diverged(name, $"{at}: in-box returned '{expectedResult}' and is on {expectedState}; ours returned '{actualResult}' and is on {actualState}");
                    break;
                }
            }

            walks++;
        }

        Expect.Equal(0, divergences.Count, string.Join("\n", divergences.Select(d => $"{d.Key} ({d.Value.Count}): {d.Value.First}")));
        Assert.True(walks > documents * 8 / 10 && calls > minCalls, $"only {walks} walks, {calls} calls");
    }

    /// <summary>The calls the walk makes; the fuzz test makes them on mutated documents too.</summary>
    internal static readonly (string Name, Func<XmlDictionaryReader, string> Call)[] Operations =
    [
        ("Read", r => r.Read().ToString()),
        ("Read", r => r.Read().ToString()),
        ("Read", r => r.Read().ToString()),
        ("Read", r => r.Read().ToString()),
        ("Read", r => r.Read().ToString()),
        ("Read", r => r.Read().ToString()),
        ("MoveToContent", r => r.MoveToContent().ToString()),
        ("IsStartElement", r => r.IsStartElement().ToString()),
        ("Skip", r => { r.Skip(); return ""; }),
        // Content reads not on an attribute or its value: in some of those states the in-box reader appends the value to
        // itself until it runs out of memory (ContentNavigationTests covers the states where it answers).
        ("ReadContentAsString", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsString()),
        ("ReadElementContentAsString", r => r.ReadElementContentAsString()),
        ("ReadString", r => r.ReadString()),
        ("MoveToFirstAttribute", r => r.MoveToFirstAttribute().ToString()),
        ("MoveToNextAttribute", r => r.MoveToNextAttribute().ToString()),
        ("MoveToElement", r => r.MoveToElement().ToString()),
        ("ReadAttributeValue", r => r.ReadAttributeValue().ToString()),
        ("GetAttribute(0)", r => r.AttributeCount > 0 ? r.GetAttribute(0) ?? "null" : "none"),
        ("ReadInnerXml", r => r.ReadInnerXml()),
        ("ReadOuterXml", r => r.ReadOuterXml()),
        // Drained as the XmlReader contract has callers do (until it returns 0), in 7-byte calls, and single calls in
        // pieces, on content and on attributes: one node's bytes per call, the emptied node current until the next
        // call, as in-box.
        ("ReadContentAsBase64(2)", r => BytesPiece(2, r.ReadContentAsBase64)),
        ("ReadContentAsBase64(3)", r => BytesPiece(3, r.ReadContentAsBase64)),
        ("ReadContentAsBase64(7)", r => BytesPiece(7, r.ReadContentAsBase64)),
        ("ReadContentAsBase64 (drained)", r =>
        {
            var all = new List<byte>();
            var buffer = new byte[7];
            for (int n; (n = r.ReadContentAsBase64(buffer, 0, 7)) > 0;)
            {
                all.AddRange(buffer.AsSpan(0, n));
            }

            return Convert.ToHexString(all.ToArray());
        }),
        // The value alone, without moving on: a Bytes value or whole UTF-8 base64 blocks taken where they are (what
        // ReadContentAsBase64 took is gone), other text through ReadValueChunk; 384 is what WriteNode asks for.
        ("ReadValueAsBase64(2)", r => BytesPiece(2, r.ReadValueAsBase64)),
        ("ReadValueAsBase64(3)", r => BytesPiece(3, r.ReadValueAsBase64)),
        ("ReadValueAsBase64(7)", r => BytesPiece(7, r.ReadValueAsBase64)),
        ("ReadValueAsBase64(384)", r => BytesPiece(384, r.ReadValueAsBase64)),
        ("ReadStartElement", r => { r.ReadStartElement(); return ""; }),
        ("ReadEndElement", r => { r.ReadEndElement(); return ""; }),
        ("IsEmptyElement", r => r.IsEmptyElement.ToString()),
        ("ReadContentAsInt", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsInt().ToString()),
        ("ReadContentAsLong", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsLong().ToString()),
        ("ReadContentAsDouble", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsDouble().ToString("R")),
        ("ReadContentAsBoolean", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsBoolean().ToString()),
        ("ReadContentAsDecimal", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsDecimal().ToString()),
        ("ReadContentAsDateTime", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsDateTime().ToString("O")),
        ("ReadContentAsFloat", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsFloat().ToString("R")),
        ("ReadContentAsGuid", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsGuid().ToString()),
        ("ReadContentAsTimeSpan", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsTimeSpan().ToString()),
        ("ReadContentAsUniqueId", r => OnAnyAttribute(r) ? "on an attribute" : r.ReadContentAsUniqueId().ToString()),
        ("ReadContentAsBase64()", r => OnAnyAttribute(r) ? "on an attribute" : Convert.ToHexString(r.ReadContentAsBase64())),
        ("ReadContentAsBinHex(1)", r => BytesPiece(1, r.ReadContentAsBinHex)),
        ("ReadContentAsBinHex(3)", r => BytesPiece(3, r.ReadContentAsBinHex)),
        ("ReadElementContentAsBase64(5)", r => BytesPiece(5, r.ReadElementContentAsBase64)),
        ("ReadElementContentAsBinHex(4)", r => BytesPiece(4, r.ReadElementContentAsBinHex)),
        ("ReadElementContentAsBase64()", r => Convert.ToHexString(r.ReadElementContentAsBase64())),
        ("ReadContentAsBinHex()", r => OnAnyAttribute(r) ? "on an attribute" : Convert.ToHexString(r.ReadContentAsBinHex())),
        ("ReadElementContentAsBinHex()", r => Convert.ToHexString(r.ReadElementContentAsBinHex())),
        ("ReadContentAsChars(3)", r =>
        {
            var chars = new char[3];
            int n = r.ReadContentAsChars(chars, 0, 3);
            return new string(chars, 0, n);
        }),
        ("ReadElementContentAsString(name, ns)", r => r.LocalName.Length == 0 ? "no name" : r.ReadElementContentAsString(r.LocalName, r.NamespaceURI)),
        ("ReadArray(bool)", r => ReadArray<bool>(r, (n, ns, a) => r.ReadArray(n, ns, a, 0, a.Length))),
        ("ReadArray(short)", r => ReadArray<short>(r, (n, ns, a) => r.ReadArray(n, ns, a, 0, a.Length))),
        ("ReadArray(float)", r => ReadArray<float>(r, (n, ns, a) => r.ReadArray(n, ns, a, 0, a.Length))),
        ("ReadArray(decimal)", r => ReadArray<decimal>(r, (n, ns, a) => r.ReadArray(n, ns, a, 0, a.Length))),
        ("ReadArray(TimeSpan)", r => ReadArray<TimeSpan>(r, (n, ns, a) => r.ReadArray(n, ns, a, 0, a.Length))),
        ("ReadInt32Array", r => string.Join(" ", r.ReadInt32Array(r.LocalName, r.NamespaceURI))),
        ("ReadGuidArray", r => string.Join(" ", r.ReadGuidArray(r.LocalName, r.NamespaceURI))),
        ("ReadContentAsString(strings)", r =>
        {
            if (OnAnyAttribute(r))
            {
                return "on an attribute";
            }

            string text = r.ReadContentAsString(["a", "true", "0", r.LocalName], out int index);
            return $"{text} {index}";
        }),
        ("ReadFullStartElement", r => { r.ReadFullStartElement(); return ""; }),
        ("MoveToStartElement", r => { r.MoveToStartElement(); return r.LocalName; }),
        ("IsStartElement(name, ns)", r => r.IsStartElement(r.LocalName, r.NamespaceURI).ToString()),
        ("IsLocalName", r => r.IsLocalName(r.LocalName) + " " + r.IsLocalName("a")),
        ("IsNamespaceUri", r => r.IsNamespaceUri(r.NamespaceURI) + " " + r.IsNamespaceUri("")),
        ("IndexOfLocalName", r => r.IndexOfLocalName(["a", r.LocalName], "").ToString()),
        ("TryGetLocalNameAsDictionaryString", r => r.TryGetLocalNameAsDictionaryString(out XmlDictionaryString? name) ? name.Value : "no"),
        ("TryGetNamespaceUriAsDictionaryString", r => r.TryGetNamespaceUriAsDictionaryString(out XmlDictionaryString? ns) ? ns.Value : "no"),
        ("TryGetValueAsDictionaryString", r => r.TryGetValueAsDictionaryString(out XmlDictionaryString? value) ? value.Value : "no"),
        ("GetAttribute(name, ns)", r => r.AttributeCount > 0 && r.NodeType == XmlNodeType.Element ? r.GetAttribute(Name0(r), "") ?? "null" : "none"),
        ("MoveToAttribute(name, ns)", r => r.AttributeCount > 0 && r.NodeType == XmlNodeType.Element ? r.MoveToAttribute(Name0(r), "").ToString() : "none"),
        ("ReadToFollowing", r => r.ReadToFollowing("a").ToString()),
        ("ReadToDescendant", r => r.ReadToDescendant("a").ToString()),
        ("ReadToNextSibling", r => r.ReadToNextSibling("a").ToString()),
        ("HasAttributes", r => r.HasAttributes.ToString()),
        ("TryGetBase64ContentLength", r => r.TryGetBase64ContentLength(out int length) ? length.ToString() : "no"),
        ("TryGetArrayLength", r => r.TryGetArrayLength(out int length) ? length.ToString() : "no"),
        ("IsStartArray", r => r.IsStartArray(out Type? type) ? type.Name : "no"),
        ("XmlLang", r => r.XmlLang),
        ("XmlSpace", r => r.XmlSpace.ToString()),
        ("MoveToAttribute(0)", r =>
        {
            if (r.AttributeCount == 0)
            {
                return "none";
            }

            r.MoveToAttribute(0);
            return "";
        }),
        ("ReadElementContentAsBoolean", r => r.ReadElementContentAsBoolean().ToString()),
        ("ReadElementContentAsDecimal", r => r.ReadElementContentAsDecimal().ToString()),
        ("ReadElementContentAsFloat", r => r.ReadElementContentAsFloat().ToString("R")),
        ("ReadElementContentAsUniqueId", r => r.ReadElementContentAsUniqueId().ToString()),
        ("ReadElementContentAsInt", r => r.ReadElementContentAsInt().ToString()),
        ("ReadElementContentAsLong", r => r.ReadElementContentAsLong().ToString()),
        ("ReadElementContentAsDouble", r => r.ReadElementContentAsDouble().ToString("R")),
        ("ReadElementContentAsGuid", r => r.ReadElementContentAsGuid().ToString()),
        ("ReadElementContentAsTimeSpan", r => r.ReadElementContentAsTimeSpan().ToString()),
        ("ReadElementContentAsDateTime", r => r.ReadElementContentAsDateTime().ToString("O")),
        ("ReadContentAsObject", r => OnAnyAttribute(r) ? "on an attribute" : Show(r.ReadContentAsObject())),
        ("LookupNamespace(prefix)", r => r.LookupNamespace(r.Prefix) ?? "null"),
        ("GetAttribute(name)", r => r.AttributeCount > 0 && r.NodeType == XmlNodeType.Element ? r.GetAttribute(Name0(r)) ?? "null" : "none"),
        ("MoveToAttribute(name)", r => r.AttributeCount > 0 && r.NodeType == XmlNodeType.Element ? r.MoveToAttribute(Name0(r)).ToString() : "none"),
        ("ValueType", r => r.ValueType.Name),
        ("ReadArray(int)", r => ReadArray<int>(r, (n, ns, a) => r.ReadArray(n, ns, a, 0, a.Length))),
        ("ReadArray(long)", r => ReadArray<long>(r, (n, ns, a) => r.ReadArray(n, ns, a, 0, a.Length))),
        ("ReadArray(double)", r => ReadArray<double>(r, (n, ns, a) => r.ReadArray(n, ns, a, 0, a.Length))),
        ("ReadArray(DateTime)", r => ReadArray<DateTime>(r, (n, ns, a) => r.ReadArray(n, ns, a, 0, a.Length))),
        ("ReadArray(Guid)", r => ReadArray<Guid>(r, (n, ns, a) => r.ReadArray(n, ns, a, 0, a.Length))),
        ("ReadContentAs(ulong)", r => OnAnyAttribute(r) ? "on an attribute" : Show(r.ReadContentAs(typeof(ulong), null))),
        ("ReadContentAs(double)", r => OnAnyAttribute(r) ? "on an attribute" : Show(r.ReadContentAs(typeof(double), null))),
        ("ReadContentAs(float)", r => OnAnyAttribute(r) ? "on an attribute" : Show(r.ReadContentAs(typeof(float), null))),
        ("ReadContentAs(Guid)", r => OnAnyAttribute(r) ? "on an attribute" : Show(r.ReadContentAs(typeof(Guid), null))),
        ("ReadContentAs(UniqueId)", r => OnAnyAttribute(r) ? "on an attribute" : Show(r.ReadContentAs(typeof(UniqueId), null))),
        ("ReadContentAs(object)", r => OnAnyAttribute(r) ? "on an attribute" : Show(r.ReadContentAs(typeof(object), null))),
        ("ReadContentAs(int)", r => OnAnyAttribute(r) ? "on an attribute" : Show(r.ReadContentAs(typeof(int), null))),
        ("ReadContentAs(string)", r => OnAnyAttribute(r) ? "on an attribute" : Show(r.ReadContentAs(typeof(string), null))),
        ("ReadValueChunk(5)", r =>
        {
            if (!r.CanReadValueChunk)
            {
                return "cannot";
            }

            var chars = new char[5];
            int n = r.ReadValueChunk(chars, 0, 5);
            return new string(chars, 0, n);
        }),
        // In pieces, and then every other read: what ReadValueChunk has handed out is gone from the node, as in-box.
        ("ReadValueChunk(1)", r => ValueChunk(r, 1)),
        ("ReadValueChunk(2)", r => ValueChunk(r, 2)),
        ("ReadValueChunk(3)", r => ValueChunk(r, 3)),
        ("ReadValueChunk(2) drained", r =>
        {
            var all = new System.Text.StringBuilder();
            var chars = new char[2];
            for (int i = 0, n; i < 10_000 && (n = r.ReadValueChunk(chars, 0, 2)) > 0; i++)
            {
                all.Append(chars, 0, n).Append('|');
            }

            return all.ToString();
        }),
        ("Value", r => r.Value),
        ("ReadElementString", r => r.ReadElementString()),
    ];

    /// <summary>One call of a read into a buffer of <paramref name="count"/> bytes, what it gave as hex.</summary>
    private static string BytesPiece(int count, Func<byte[], int, int, int> read)
    {
        var buffer = new byte[count];
        int n = read(buffer, 0, count);
        return Convert.ToHexString(buffer, 0, n);
    }

    private static string ValueChunk(XmlReader r, int count)
    {
        var chars = new char[count];
        int n = r.ReadValueChunk(chars, 0, count);
        return new string(chars, 0, n);
    }

    /// <summary>Up to 5 items of the array of elements named as the current one (ReadArray moves to content first).</summary>
    private static string ReadArray<T>(XmlDictionaryReader r, Func<string, string, T[], int> read)
    {
        var items = new T[5];
        int n = read(r.LocalName, r.NamespaceURI, items);
        return n + ": " + string.Join(" ", items.Take(n));
    }

    /// <summary>The qualified name of the element's first attribute (the reader stays on the element).</summary>
    private static string Name0(XmlReader r)
    {
        r.MoveToAttribute(0);
        string name = r.Name;
        r.MoveToElement();
        return name;
    }

    /// <summary>On an attribute, or its value (a text node that, as in-box, has its attribute's name).</summary>
    /// <summary>The calls that weigh the current node as content through MoveToContent.</summary>
    private static bool WeighsContent(string operation) =>
        operation is "MoveToContent" or "IsStartElement" or "ReadStartElement" or "ReadEndElement" or "ReadString"
        || operation.StartsWith("ReadElement", StringComparison.Ordinal) || operation.StartsWith("ReadArray", StringComparison.Ordinal);

    private static bool OnAnyAttribute(XmlReader r) => r.NodeType == XmlNodeType.Attribute || r.NodeType == XmlNodeType.Text && r.LocalName.Length > 0;

    private static string Show(object value) => $"{value.GetType().Name} {(value is byte[] bytes ? Convert.ToHexString(bytes) : value)}";

    /// <summary>Everything a caller can see of the current node.</summary>
    /// <remarks>Reading Value makes the in-box reader keep it as a string, which changes what some calls do next (ValueType,
    /// the typed reads): so the walk asks for it on a coin toss.</remarks>
    private static string State(XmlReader r, bool withValue) =>
        $"{r.NodeType} '{r.Prefix}':'{r.LocalName}' ns '{r.NamespaceURI}' name '{r.Name}' depth {r.Depth} attributes {r.AttributeCount} "
        + $"hasValue {r.HasValue} value '{(withValue && r.HasValue ? r.Value : "")}' eof {r.EOF} state {r.ReadState}";

    private static (string? Result, Exception? Error) Try(Func<string> call)
    {
        try
        {
            return (call(), null);
        }
        catch (Exception ex)
        {
            return (null, ex);
        }
    }

    private static bool SameFailure(Exception? expected, Exception? actual) =>
        expected is not null && actual is not null
        && (expected is XmlException && actual is XmlException || expected.GetType() == actual.GetType());

    private static string Describe(string? result, Exception? error) =>
        error is null ? $"returned '{result}'" : $"threw {error.GetType().Name}: {error.Message}";
}
