using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Random call sequences, valid or not, on the in-box binary writer (the control) and on ours: every call must throw
/// the same exception type or none, every Flush must have put out the same bytes, and the closed documents must be
/// the same. Unlike <see cref="RandomDocuments"/>, the calls come in any order: text before the root, a second root,
/// attributes after content, comments with "--", xml:space values, qualified names for undeclared namespaces,
/// arrays and values of every kind as objects.
/// </summary>
public sealed class WriterWalkTests
{
    private static readonly string?[] s_prefixes = [null, "", "a", "p", "xml", "xmlns"];
    private static readonly string?[] s_namespaces = [null, "", "urn:a", "urn:u", "http://www.w3.org/XML/1998/namespace", "http://www.w3.org/2000/xmlns/"];
    private static readonly string[] s_names = ["r", "Key", "space", "lang", "xmlns", "v1", "é"];

    internal static int Walks => LongRuns.Scale(3_000);

    [Fact]
    public void Random_calls_throw_and_write_as_the_in_box_writer_does()
    {
        var dictionary = new XmlDictionary();
        XmlDictionaryString[] strings = [.. new[] { "Envelope", "urn:a", "", "Key", "p" }.Select(dictionary.Add)];
        long accepted = 0;
        for (int seed = 0; seed < Walks; seed++)
        {
            var random = new Random(seed);
            var calls = new List<(string What, Action<XmlDictionaryWriter> Call)>();
            if (random.Next(4) != 0)
            {
                calls.Add(("StartElement(, r, urn:a)", w => w.WriteStartElement(null, "r", "urn:a"))); // most walks get past the root
            }

            int length = random.Next(1, 40);
            for (int i = 0; i < length; i++)
            {
                calls.Add(NextCall(random, strings));
            }

            string? difference = Compare(calls, random.Next(3) == 0 ? dictionary : null, out int run);
            Assert.True(difference is null, $"seed {seed}: {difference}");
            accepted += run;
        }

        // Most calls of a walk are valid where they stand; a walk ends at the first call both writers refuse.
        Assert.True(accepted >= Walks * 4L, $"only {accepted} calls accepted in {Walks} walks");
    }

    /// <summary>Runs the calls on both writers; null when they agree, else what differs.</summary>
    internal static string? Compare(List<(string What, Action<XmlDictionaryWriter> Call)> calls, IXmlDictionary? dictionary, out int accepted)
    {
        accepted = 0;
        var expectedStream = new MemoryStream();
        var actualStream = new MemoryStream();
        XmlDictionaryWriter expected = XmlDictionaryWriter.CreateBinaryWriter(expectedStream, dictionary, null, ownsStream: false);
        XmlDictionaryWriter actual = Nbfx.CreateWriter(actualStream, dictionary, null, ownsStream: false);
        string Trace(int i) => string.Join(", ", calls.Take(i + 1).Select(c => c.What));
        for (int i = 0; i < calls.Count; i++)
        {
            Exception? e = Record.Exception(() => calls[i].Call(expected));
            Exception? a = Record.Exception(() => calls[i].Call(actual));
            if (e?.GetType() != a?.GetType())
            {
                return $"call {i} {calls[i].What}: in-box {Name(e)}, ours {Name(a)}; calls: {Trace(i)}";
            }

            if (e is not null)
            {
                // Both refused. The writers follow the same steps, so they are left in the same state: go on.
                continue;
            }

            accepted++;

            if (calls[i].What == "Flush" && !expectedStream.ToArray().AsSpan().SequenceEqual(actualStream.ToArray()))
            {
                return $"after Flush at call {i}: in-box {Convert.ToHexString(expectedStream.ToArray())}, ours {Convert.ToHexString(actualStream.ToArray())}; calls: {Trace(i)}";
            }

            if (expected.WriteState != actual.WriteState)
            {
                return $"after call {i} {calls[i].What}: WriteState {expected.WriteState} vs {actual.WriteState}; calls: {Trace(i)}";
            }
        }

        Exception? ec = Record.Exception(expected.Close);
        Exception? ac = Record.Exception(actual.Close);
        if (ec?.GetType() != ac?.GetType())
        {
            return $"Close: in-box {Name(ec)}, ours {Name(ac)}; calls: {Trace(calls.Count - 1)}";
        }

        if (ec is null && !expectedStream.ToArray().AsSpan().SequenceEqual(actualStream.ToArray()))
        {
            return $"closed: in-box {Convert.ToHexString(expectedStream.ToArray())}, ours {Convert.ToHexString(actualStream.ToArray())}; calls: {Trace(calls.Count - 1)}";
        }

        return null;
    }

    private static (string, Action<XmlDictionaryWriter>) NextCall(Random random, XmlDictionaryString[] strings)
    {
        string? prefix = s_prefixes[random.Next(s_prefixes.Length)];
        string? ns = s_namespaces[random.Next(s_namespaces.Length)];
        string name = s_names[random.Next(s_names.Length)];
        XmlDictionaryString dName = strings[random.Next(strings.Length)];
        XmlDictionaryString? dNs = random.Next(3) == 0 ? null : strings[random.Next(strings.Length)];
        byte[] bytes = new byte[random.Next(4) == 0 ? random.Next(0, 700) : random.Next(0, 8)];
        random.NextBytes(bytes);
        string[] texts = ["x", "", " ", "1", "0", "a--b", "ab-", "preserve", "default", "bogus", "é\uD83D\uDE00"];
        string text = texts[random.Next(texts.Length)];
        int pick = random.Next(61);
        if (pick >= 51)
        {
            // Calls that are valid in most states, so walks go deep.
            return (pick % 5) switch
            {
                0 => ("StartElement(, Item, )", w => w.WriteStartElement("Item")),
                1 => ("EndElement", w => w.WriteEndElement()),
                2 => ($"String({text})", w => w.WriteString(text)),
                3 => ("Value(int 7)", w => w.WriteValue(7)),
                _ => ($"AttributeString(, v1, , {text})", w => w.WriteAttributeString("v1", text)),
            };
        }

        switch (pick)
        {
            case 0: case 1: case 2: return ($"StartElement({prefix}, {name}, {ns})", w => w.WriteStartElement(prefix, name, ns));
            case 3: return ($"StartElement({prefix}, d:{dName.Value}, d:{dNs?.Value})", w => w.WriteStartElement(prefix, dName, dNs));
            case 4: case 5: return ("EndElement", w => w.WriteEndElement());
            case 6: return ("FullEndElement", w => w.WriteFullEndElement());
            case 7: case 8: return ($"StartAttribute({prefix}, {name}, {ns})", w => w.WriteStartAttribute(prefix, name, ns));
            case 9: return ($"StartAttribute({prefix}, d:{dName.Value}, d:{dNs?.Value})", w => w.WriteStartAttribute(prefix, dName, dNs));
            case 10: return ("EndAttribute", w => w.WriteEndAttribute());
            case 11: case 12: return ($"String({text})", w => w.WriteString(text));
            case 13: return ($"String(d:{dName.Value})", w => w.WriteString(dName));
            case 14: return ($"Comment({text})", w => w.WriteComment(text));
            case 15: return ($"XmlnsAttribute({prefix}, {ns})", w => w.WriteXmlnsAttribute(prefix, ns ?? ""));
            case 16: return ($"QualifiedName({name}, {ns})", w => w.WriteQualifiedName(name, ns));
            case 17: return ($"QualifiedName(d:{dName.Value}, d:{dNs?.Value})", w => w.WriteQualifiedName(dName, dNs));
            case 18:
                {
                    int split = random.Next(bytes.Length + 1);
                    return ($"Base64({Convert.ToHexString(bytes)} split {split})", w => { w.WriteBase64(bytes, 0, split); w.WriteBase64(bytes, split, bytes.Length - split); });
                }

            case 19: return ("StartDocument", w => w.WriteStartDocument());
            case 20: return ("EndDocument", w => w.WriteEndDocument());
            case 21: return ("Flush", w => w.Flush());
            case 22:
                {
                    object value = random.Next(9) switch
                    {
                        0 => (object)new byte[] { 1, 200 },
                        1 => new object[] { 1, "a", 2.5 },
                        2 => new int[] { 3, 4 },
                        3 => XmlDictionaryString.Empty,
                        4 => dName,
                        5 => (byte)7,
                        6 => 12.5m,
                        7 => new UniqueId(new Guid(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)),
                        _ => TimeSpan.FromMinutes(90),
                    };
                    return ($"Value(object {value.GetType().Name})", w => w.WriteValue(value));
                }

            case 23: return ("Value(int 5)", w => w.WriteValue(5));
            case 24: return ("Value(double 1.5)", w => w.WriteValue(1.5));
            case 25: return ("Value(Guid)", w => w.WriteValue(new Guid(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)));
            case 26:
                {
                    // Arrays of every staging kind, from empty to past the in-box writer's 512-byte buffer.
                    int count = random.Next(4) == 0 ? random.Next(0, 4) : random.Next(0, 70);
                    return random.Next(4) switch
                    {
                        0 => ($"Array({prefix}, {name}, {ns}, {count} ints)", w => w.WriteArray(prefix, name, ns, new int[count], 0, count)),
                        1 => ($"Array({prefix}, {name}, {ns}, {count} Guids)", w => w.WriteArray(prefix, name, ns, new Guid[count], 0, count)),
                        2 => ($"Array({prefix}, {name}, {ns}, {count} DateTimes)", w => w.WriteArray(prefix, name, ns, new DateTime[count], 0, count)),
                        _ => ($"Array({prefix}, {name}, {ns}, {count} decimals)", w => w.WriteArray(prefix, name, ns, new decimal[count], 0, count)),
                    };
                }

            case 27: return ($"Chars({text})", w => w.WriteChars(text.ToCharArray(), 0, text.Length));
            case 28: return ($"Whitespace({text})", w => w.WriteWhitespace(text));
            case 29: return ($"CData({text})", w => w.WriteCData(text));
            case 30: return ($"Raw({text})", w => w.WriteRaw(text));
            case 31: return ($"CharEntity", w => w.WriteCharEntity('c'));
            case 32: return ($"AttributeString({prefix}, {name}, {ns}, {text})", w => w.WriteAttributeString(prefix, name, ns, text));
            case 34:
                {
                    int split = random.Next(bytes.Length + 1);
                    return ($"BinHex({Convert.ToHexString(bytes)} split {split})", w => { w.WriteBinHex(bytes, 0, split); w.WriteBinHex(bytes, split, bytes.Length - split); });
                }

            case 35: return ("SurrogateCharEntity", w => w.WriteSurrogateCharEntity('\uDE00', '\uD83D'));
            case 36:
                {
                    (string What, Action<XmlDictionaryWriter> Call) value = random.Next(9) switch
                    {
                        0 => ("Value(bool)", w => w.WriteValue(true)),
                        1 => ("Value(long)", w => w.WriteValue(long.MinValue)),
                        2 => ("Value(float)", w => w.WriteValue(float.NaN)),
                        3 => ("Value(DateTime)", w => w.WriteValue(new DateTime(2026, 11, 28, 1, 2, 3, DateTimeKind.Local))),
                        4 => ("Value(DateTimeOffset)", w => w.WriteValue(new DateTimeOffset(2026, 11, 28, 1, 2, 3, TimeSpan.FromHours(2)))),
                        5 => ("Value(TimeSpan)", w => w.WriteValue(TimeSpan.FromTicks(-7))),
                        6 => ("Value(UniqueId text)", w => w.WriteValue(new UniqueId("urn:not-a-guid"))),
                        7 => ($"Value(string {text})", w => w.WriteValue(text)),
                        _ => ("Value(decimal)", w => w.WriteValue(-0.5m)),
                    };
                    return value;
                }

            case 37: return ($"ProcessingInstruction({name}, {text})", w => w.WriteProcessingInstruction(name, text));
            case 38: return ("ProcessingInstruction(xml)", w => w.WriteProcessingInstruction("xml", "version=\"1.0\""));
            case 39: return ($"DocType", w => w.WriteDocType("r", null, null, null));
            case 40: return ($"EntityRef({name})", w => w.WriteEntityRef(name));
            case 41: return ($"Name({name})", w => w.WriteName(name));
            case 42: return ($"NmToken({text})", w => w.WriteNmToken(text));
            case 43: return ($"Raw(chars {text})", w => w.WriteRaw(text.ToCharArray(), 0, text.Length));
            case 44:
                {
                    int count = random.Next(0, 70);
                    return random.Next(6) switch
                    {
                        0 => ($"Array({count} bools)", w => w.WriteArray(prefix, name, ns, new bool[count], 0, count)),
                        1 => ($"Array({count} shorts)", w => w.WriteArray(prefix, name, ns, new short[count], 0, count)),
                        2 => ($"Array({count} longs)", w => w.WriteArray(prefix, name, ns, new long[count], 0, count)),
                        3 => ($"Array({count} floats)", w => w.WriteArray(prefix, name, ns, new float[count], 0, count)),
                        4 => ($"Array({count} doubles)", w => w.WriteArray(prefix, name, ns, new double[count], 0, count)),
                        _ => ($"Array({count} TimeSpans)", w => w.WriteArray(prefix, name, ns, new TimeSpan[count], 0, count)),
                    };
                }

            case 45: return ($"StartElement({name}, {ns})", w => w.WriteStartElement(name, ns));
            // What the writer answers, written out so that the bytes compare it.
            case 46: return ($"String(LookupPrefix({ns}))", w => w.WriteString(w.LookupPrefix(ns ?? "") ?? "null"));
            case 47: return ("String(XmlLang, XmlSpace, WriteState)", w => w.WriteString($"{w.XmlLang}|{w.XmlSpace}|{w.WriteState}"));
            case 48: return ("Node(reader)", w => { using XmlDictionaryReader r = NodeSource(); w.WriteNode(r, defattr: true); });
            case 49: return ($"XmlAttribute(d:{dName.Value})", w => w.WriteXmlAttribute(dName, dName));
            case 50: return ($"ElementString(d:{dName.Value}, d:{dNs?.Value}, {text})", w => w.WriteElementString(dName, dNs, text));
            default: return ($"ElementString({prefix}, {name}, {ns}, {text})", w => w.WriteElementString(prefix, name, ns, text));
        }
    }

    private static readonly byte[] s_nodeSource = MakeNodeSource();

    private static byte[] MakeNodeSource()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("p", "copy", "urn:c");
            w.WriteAttributeString("id", "7");
            w.WriteComment("c");
            w.WriteElementString("t", "text");
            w.WriteStartElement("b");
            w.WriteBase64(new byte[] { 1, 2, 3, 4, 5 }, 0, 5);
            w.WriteEndElement();
            w.WriteStartElement("n");
            w.WriteValue(42L);
            w.WriteEndElement();
            w.WriteArray(null, "i", null, new[] { 1, 2 }, 0, 2);
            w.WriteEndElement();
        }

        return stream.ToArray();
    }

    /// <summary>An in-box reader over a small document for WriteNode to copy: the same input for both writers.</summary>
    private static XmlDictionaryReader NodeSource() => XmlDictionaryReader.CreateBinaryReader(s_nodeSource, XmlDictionaryReaderQuotas.Max);

    private static string Name(Exception? e) => e is null ? "nothing" : $"{e.GetType().Name} ({e.Message})";
}
