using System.Globalization;
using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Typed reads through the drop-in reader (ReadElementContentAs*, ReadContentAs*, ReadArray) against the in-box
/// reader on the same in-box bytes: the same value (bit for bit for floating point) or an error in both, and the
/// same node afterwards; a value that does not convert is an XmlException in both. Each value is read from a record that ends its element (the typed fast path) and from one
/// followed by a comment (read through the text), whole and in 1-byte segments.
/// </summary>
public class TypedReadTests
{
    private static readonly object[] s_values =
    [
        0, 1, -1, 127, 128, -129, short.MinValue, 40_000, int.MaxValue, int.MinValue,
        (long)int.MaxValue + 1, long.MaxValue, long.MinValue, (ulong)int.MaxValue, (ulong)long.MaxValue + 1, ulong.MaxValue,
        0.1f, -0f, float.NaN, float.PositiveInfinity, float.Epsilon, float.MaxValue, 3f, 16_777_217f,
        0.1, -0.0, double.NaN, double.NegativeInfinity, 1e300, -1e-300, 3.0, 2.5, (double)float.MaxValue * 2, 1e10,
        0m, 1.5m, -0.0001m, decimal.MaxValue, decimal.MinValue, 3m,
        true, false,
        new DateTime(2026, 11, 21, 12, 30, 0, DateTimeKind.Utc), new DateTime(2026, 11, 21, 12, 30, 0, DateTimeKind.Unspecified),
        DateTime.MinValue, DateTime.MaxValue,
        TimeSpan.Zero, TimeSpan.FromTicks(1), TimeSpan.MinValue, TimeSpan.MaxValue,
        Guid.Empty, new Guid("00112233-4455-6677-8899-aabbccddeeff"),
        new UniqueId(new Guid("00112233-4455-6677-8899-aabbccddeeff")), new UniqueId("urn:not-a-guid"),
        "", "0", "1", "12", "-7", " 5 ", "true", "1e5", "abc", "2026-11-21T12:30:00Z", "00:00:01",
        "00112233-4455-6677-8899-aabbccddeeff", "urn:uuid:00112233-4455-6677-8899-aabbccddeeff", "日本語", "NaN", "INF",
        // Longer than 85 characters: the in-box writer does not fold the end element into the text record.
        new string('d', 86), new string('ü', 100), " " + new string('7', 90) + " ",
        // Chars16Text, folded and not (the drop-ins here have the default quotas: 8,192 characters of string content).
        new string('x', 300), new string('y', 8_000),
    ];

    private static readonly (string Name, Func<XmlDictionaryReader, object> Read)[] s_elementReads =
    [
        ("Int", r => r.ReadElementContentAsInt()),
        ("Long", r => r.ReadElementContentAsLong()),
        ("Float", r => BitConverter.SingleToInt32Bits(r.ReadElementContentAsFloat())),
        ("Double", r => BitConverter.DoubleToInt64Bits(r.ReadElementContentAsDouble())),
        ("Decimal", r => r.ReadElementContentAsDecimal().ToString(CultureInfo.InvariantCulture)),
        ("Boolean", r => r.ReadElementContentAsBoolean()),
        ("DateTime", r => r.ReadElementContentAsDateTime() is var d ? $"{d.Ticks} {d.Kind}" : ""),
        ("TimeSpan", r => r.ReadElementContentAsTimeSpan()),
        ("Guid", r => r.ReadElementContentAsGuid()),
        ("UniqueId", r => r.ReadElementContentAsUniqueId().ToString()),
        ("String", r => r.ReadElementContentAsString()),
    ];

    private static readonly (string Name, Func<XmlDictionaryReader, object> Read)[] s_contentReads =
    [
        ("Int", r => r.ReadContentAsInt()),
        ("Long", r => r.ReadContentAsLong()),
        ("Float", r => BitConverter.SingleToInt32Bits(r.ReadContentAsFloat())),
        ("Double", r => BitConverter.DoubleToInt64Bits(r.ReadContentAsDouble())),
        ("Decimal", r => r.ReadContentAsDecimal().ToString(CultureInfo.InvariantCulture)),
        ("Boolean", r => r.ReadContentAsBoolean()),
        ("DateTime", r => r.ReadContentAsDateTime() is var d ? $"{d.Ticks} {d.Kind}" : ""),
        ("TimeSpan", r => r.ReadContentAsTimeSpan()),
        ("Guid", r => r.ReadContentAsGuid()),
        ("UniqueId", r => r.ReadContentAsUniqueId().ToString()),
        ("String", r => r.ReadContentAsString()),
    ];

    public static TheoryData<int, bool> Cases()
    {
        var data = new TheoryData<int, bool>();
        for (int i = 0; i < s_values.Length; i++)
        {
            data.Add(i, false);
            data.Add(i, true);
        }

        return data;
    }

    /// <summary>&lt;r&gt;&lt;v&gt;value&lt;/v&gt;&lt;n/&gt;&lt;/r&gt;; with <paramref name="comment"/>, a comment after the value.</summary>
    private static byte[] Document(object value, bool comment)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            writer.WriteStartElement("r");
            writer.WriteStartElement("v");
            switch (value)
            {
                case string s: writer.WriteString(s); break;
                case Guid g: writer.WriteValue(g); break;
                case TimeSpan t: writer.WriteValue(t); break;
                case UniqueId u: writer.WriteValue(u); break;
                case ulong u: writer.WriteValue((object)u); break;
                default: writer.WriteValue(value); break;
            }

            if (comment)
            {
                writer.WriteComment("c");
            }

            writer.WriteEndElement();
            writer.WriteStartElement("n");
            writer.WriteEndElement();
            writer.WriteEndElement();
        }

        return stream.ToArray();
    }

    private static IEnumerable<(string Input, Func<XmlDictionaryReader> Open)> DropIns(byte[] bytes)
    {
        yield return ("whole", () => Nbfx.CreateReader(bytes));
        yield return ("1-byte segments", () => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1)));
    }

    private static string Outcome(XmlDictionaryReader reader, Func<XmlDictionaryReader, object> read, bool content)
    {
        try
        {
            reader.MoveToContent();
            reader.ReadStartElement("r");
            if (content)
            {
                reader.ReadStartElement("v");
            }

            string value = Convert.ToString(read(reader), CultureInfo.InvariantCulture)!;
            return $"{value} then {reader.NodeType} {reader.LocalName}";
        }
        catch (Exception e)
        {
            return $"error: {(e is XmlException ? nameof(XmlException) : e.GetType().Name)}"; // NbfxFormatException is an XmlException
        }
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Element_content_reads_match_in_box(int index, bool comment)
    {
        byte[] bytes = Document(s_values[index], comment);
        foreach ((string name, Func<XmlDictionaryReader, object> read) in s_elementReads)
        {
            string expected = Outcome(XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max), read, content: false);
            foreach ((string input, Func<XmlDictionaryReader> open) in DropIns(bytes))
            {
                Expect.Equal(expected, Outcome(open(), read, content: false), $"{s_values[index]} ({s_values[index].GetType().Name}) ReadElementContentAs{name}, {input}");
            }
        }
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void Content_reads_match_in_box(int index, bool comment)
    {
        byte[] bytes = Document(s_values[index], comment);
        foreach ((string name, Func<XmlDictionaryReader, object> read) in s_contentReads)
        {
            string expected = Outcome(XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max), read, content: true);
            foreach ((string input, Func<XmlDictionaryReader> open) in DropIns(bytes))
            {
                Expect.Equal(expected, Outcome(open(), read, content: true), $"{s_values[index]} ({s_values[index].GetType().Name}) ReadContentAs{name}, {input}");
            }
        }
    }

    // Arrays: one array record per type, read in chunks of several sizes, then the node after it.

    private static byte[] ArrayDocument<T>(T[] items, Action<XmlDictionaryWriter, T[]> write)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            writer.WriteStartElement("r");
            write(writer, items);
            writer.WriteStartElement("n");
            writer.WriteEndElement();
            writer.WriteEndElement();
        }

        return stream.ToArray();
    }

    private delegate int ArrayRead<T>(XmlDictionaryReader reader, string localName, string ns, T[] array, int offset, int count);

    private static string ReadInChunks<T>(XmlDictionaryReader reader, ArrayRead<T> read, int total, int chunk, string name)
    {
        try
        {
            reader.MoveToContent();
            reader.ReadStartElement("r");
            var items = new T[total + 2];
            var counts = new List<int>();
            int at = 1, n;
            while ((n = read(reader, name, "", items, at, Math.Min(chunk, items.Length - at))) > 0)
            {
                counts.Add(n);
                at += n;
            }

            return $"{string.Join(",", counts)}: {string.Join(" ", items.Select(i => Convert.ToString(i is float f ? BitConverter.SingleToInt32Bits(f) : i is double d ? BitConverter.DoubleToInt64Bits(d) : i is DateTime t ? $"{t.Ticks}{t.Kind}" : i, CultureInfo.InvariantCulture)))} then {reader.NodeType} {reader.LocalName}";
        }
        catch (XmlException)
        {
            return "error";
        }
    }

    private static void CheckArray<T>(T[] items, ArrayRead<T> read, Action<XmlDictionaryWriter, T[]> write)
    {
        byte[] bytes = ArrayDocument(items, write);
        foreach (int chunk in new[] { 1, 3, items.Length, items.Length + 5 })
        {
            foreach (string name in new[] { "a", "other" })
            {
                string expected = ReadInChunks(XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max), read, items.Length, chunk, name);
                foreach ((string input, Func<XmlDictionaryReader> open) in DropIns(bytes))
                {
                    Expect.Equal(expected, ReadInChunks(open(), read, items.Length, chunk, name), $"{typeof(T).Name}[{items.Length}] in chunks of {chunk} as '{name}', {input}:\n{expected}");
                }
            }
        }
    }

    [Fact]
    public void Arrays_read_into_the_callers_array_as_in_box()
    {
        CheckArray([true, false, true], (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
        CheckArray([(short)1, short.MinValue, short.MaxValue, (short)-1], (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
        CheckArray(Enumerable.Range(-3, 20).Append(int.MinValue).ToArray(), (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
        CheckArray([long.MinValue, 0L, long.MaxValue], (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
        CheckArray([0.1f, float.NaN, -0f, float.PositiveInfinity], (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
        CheckArray([0.1, double.NaN, -0.0, 1e300, 2.5], (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
        CheckArray([decimal.MinValue, 1.5m, -0.0001m, decimal.MaxValue], (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
        CheckArray([DateTime.MinValue, new DateTime(2026, 11, 21, 0, 0, 0, DateTimeKind.Utc), new DateTime(2026, 1, 1), DateTime.MaxValue],
            (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
        CheckArray([Guid.Empty, new Guid("00112233-4455-6677-8899-aabbccddeeff")], (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
        CheckArray([TimeSpan.MinValue, TimeSpan.Zero, TimeSpan.MaxValue], (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
    }

    [Fact]
    public void Arrays_read_through_dictionary_strings_as_in_box()
    {
        var dictionary = new XmlDictionary();
        XmlDictionaryString a = dictionary.Add("a"), empty = dictionary.Add("");
        CheckArray(Enumerable.Range(0, 40).ToArray(), (r, l, n, arr, o, c) => r.ReadArray(l == "a" ? a : new XmlDictionary().Add(l), empty, arr, o, c),
            (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
    }

    [Fact]
    public void An_array_of_one_type_read_as_another_goes_element_by_element()
    {
        int[] items = [1, 2, 300];
        CheckArray(items.Select(i => (long)i).ToArray(), (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", items, 0, items.Length));
        CheckArray(items.Select(i => (double)i).ToArray(), (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c), (w, v) => w.WriteArray(null, "a", "", items, 0, items.Length));
    }

    [Fact]
    public void Array_shape_is_reported_as_in_box()
    {
        byte[] bytes = ArrayDocument([1L, 2L, 3L], (w, v) => w.WriteArray(null, "a", "", v, 0, v.Length));
        foreach ((string input, Func<XmlDictionaryReader> open) in DropIns(bytes))
        {
            using XmlDictionaryReader reader = open();
            reader.ReadStartElement("r");
            Assert.True(reader.IsStartArray(out Type? type), input);
            Assert.Equal(typeof(long), type);
            Assert.True(reader.TryGetArrayLength(out int count));
            Assert.Equal(3, count);
            Assert.Equal(1, reader.ReadArray("a", "", new long[1], 0, 1));
            Assert.True(reader.TryGetArrayLength(out count));
            Assert.Equal(2, count);
        }
    }

    /// <summary>
    /// The records an element's whole content is read from directly (the fixed-size records, short UTF-8 text) at
    /// their edges, through every typed element read, in &lt;r&gt;&lt;v&gt;record&lt;/v&gt;&lt;n/&gt;&lt;/r&gt;: the same value or error as in-box, and the same node after.
    /// </summary>
    [Theory]
    [InlineData("zero with end element", "81", int.MaxValue)]
    [InlineData("one with end element", "83", int.MaxValue)]
    [InlineData("Int8 -128", "89 80", int.MaxValue)]
    [InlineData("Int16 -32768", "8B 00 80", int.MaxValue)]
    [InlineData("Int32 max", "8D FF FF FF 7F", int.MaxValue)]
    [InlineData("Int32 min", "8D 00 00 00 80", int.MaxValue)]
    [InlineData("Int64 that fits an int", "8F 05 00 00 00 00 00 00 00", int.MaxValue)]
    [InlineData("empty text", "A9", int.MaxValue)]
    [InlineData("Chars8 ASCII", "99 03 61 62 63", int.MaxValue)]
    [InlineData("Chars8 with a two-byte char", "99 02 C3 A9", int.MaxValue)]
    [InlineData("Chars8 of digits, read as an int too", "99 02 34 32", int.MaxValue)]
    [InlineData("Chars8 of 255 bytes", "99 FF" + "61*255", int.MaxValue)]
    [InlineData("Chars8 over a MaxStringContentLength of 2", "99 03 61 62 63", 2)]
    [InlineData("Chars8 at a MaxStringContentLength of 3", "99 03 61 62 63", 3)]
    [InlineData("Chars16 ASCII", "9B 03 00 61 62 63", int.MaxValue)]
    [InlineData("Chars8 of a Guid's text over a MaxStringContentLength of 2", "99 24 30 30 31 31 32 32 33 33 2D 34 34 35 35 2D 36 36 37 37 2D 38 38 39 39 2D 61 61 62 62 63 63 64 64 65 65 66 66", 2)]
    [InlineData("Chars8 of digits over a MaxStringContentLength of 1", "99 02 34 32", 1)]
    [InlineData("Chars8 of a time over a MaxStringContentLength of 1", "99 08 30 30 3A 30 30 3A 30 31", 1)]
    [InlineData("false", "85", int.MaxValue)]
    [InlineData("true", "87", int.MaxValue)]
    [InlineData("Bool record 1", "B5 01", int.MaxValue)]
    [InlineData("Int64 past an int", "8F 00 00 00 80 00 00 00 00", int.MaxValue)]
    [InlineData("UInt64 max", "B3 FF FF FF FF FF FF FF FF", int.MaxValue)]
    [InlineData("Float 1.5", "91 00 00 C0 3F", int.MaxValue)]
    [InlineData("Double NaN", "93 00 00 00 00 00 00 F8 7F", int.MaxValue)]
    [InlineData("Decimal 1.5", "95 00 00 01 00 00 00 00 00 0F 00 00 00 00 00 00 00", int.MaxValue)]
    [InlineData("Decimal 1.5 read as a string over a MaxStringContentLength of 2", "95 00 00 01 00 00 00 00 00 0F 00 00 00 00 00 00 00", 2)]
    [InlineData("DateTime UTC", "97 00 80 1E 7C 2E 4F DE 48", int.MaxValue)]
    [InlineData("DateTime one tick past the last", "97 00 40 37 F4 75 28 CA 2B", int.MaxValue)]
    [InlineData("TimeSpan of one tick", "AF 01 00 00 00 00 00 00 00", int.MaxValue)]
    [InlineData("Guid", "B1 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF", int.MaxValue)]
    [InlineData("UniqueId", "AD 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF", int.MaxValue)]
    [InlineData("a dictionary string", "AB 02", int.MaxValue)]
    public void Element_content_read_straight_from_its_record_matches_in_box(string why, string record, int maxStringContentLength)
    {
        string hex = string.Join("", record.Split(' ').Select(part => part.Contains('*')
            ? string.Concat(Enumerable.Repeat(part.Split('*')[0], int.Parse(part.Split('*')[1], CultureInfo.InvariantCulture)))
            : part));
        byte[] bytes = Convert.FromHexString("400172" + "400176" + hex + "40016E01" + "01");
        var quotas = new XmlDictionaryReaderQuotas { MaxStringContentLength = maxStringContentLength };
        foreach ((string name, Func<XmlDictionaryReader, object> read) in s_elementReads)
        {
            string expected = Outcome(XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, Nbfx.SoapDictionary, quotas), read, content: false);
            foreach ((string input, Func<XmlDictionaryReader> open) in new (string, Func<XmlDictionaryReader>)[]
            {
                ("whole", () => Nbfx.CreateReader(bytes, Nbfx.SoapDictionary, quotas)),
                ("1-byte segments", () => Nbfx.CreateReader(ReaderHarness.Split(bytes, 1), Nbfx.SoapDictionary, quotas)),
            })
            {
                Expect.Equal(expected, Outcome(open(), read, content: false), $"{why}: ReadElementContentAs{name}, {input}");
            }
        }
    }

    [Theory]
    [InlineData("Int8 cut off", "400172 400176 89")]
    [InlineData("Int32 cut off", "400172 400176 8D FF FF")]
    [InlineData("Chars8 cut off", "400172 400176 99 05 61 62")]
    [InlineData("the input ends after the start tag", "400172 400176")]
    public void Element_content_cut_off_is_refused_as_in_box(string why, string hex)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        foreach ((string name, Func<XmlDictionaryReader, object> read) in s_elementReads.Where(r => r.Name is "Int" or "String"))
        {
            string expected = Outcome(XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max), read, content: false);
            Expect.Equal(expected, Outcome(Nbfx.CreateReader(bytes), read, content: false), $"{why}: ReadElementContentAs{name}");
        }
    }
}

