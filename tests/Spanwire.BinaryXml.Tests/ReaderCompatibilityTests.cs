using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>
/// Named reads where the drop-in reader once differed from the in-box reader, each run on both readers over the same
/// bytes (the in-box reader is the control): the same result, or an exception of the same family.
/// </summary>
public sealed class ReaderCompatibilityTests
{
    /// <summary>A document of one element holding <paramref name="write"/>'s content, as the in-box writer writes it.</summary>
    private static byte[] Element(Action<XmlDictionaryWriter> write)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("c");
            write(w);
            w.WriteEndElement();
        }

        return stream.ToArray();
    }

    private static string Outcome(byte[] document, Func<XmlDictionaryReader, string> read, bool ours)
    {

        using XmlDictionaryReader reader = ours
            ? Nbfx.CreateReader(document, null, XmlDictionaryReaderQuotas.Max)
            : XmlDictionaryReader.CreateBinaryReader(document, XmlDictionaryReaderQuotas.Max);
        try
        {
            return read(reader);
        }
        catch (XmlException)
        {
            return "XmlException";
        }
        catch (Exception e)
        {
            return e.GetType().Name;
        }
    }

    private static void AssertSame(byte[] document, Func<XmlDictionaryReader, string> read, string why)
    {
        string expected = Outcome(document, read, ours: false);
        string actual = Outcome(document, read, ours: true);
        Expect.Equal(expected, actual, $"{why} over {Convert.ToHexString(document)}: in-box '{expected}', ours '{actual}'");
    }

    private static string Show(object value) => $"{value.GetType().Name} {(value is IFormattable f ? f.ToString(null, System.Globalization.CultureInfo.InvariantCulture) : value)}";

    public static TheoryData<string, byte[]> Records => new()
    {
        { "Guid", Element(w => w.WriteValue(new Guid(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))) },
        { "UniqueId", Element(w => w.WriteValue(new UniqueId(new Guid(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)))) },
        { "Float 1.2345678806304932", [0x40, 0x01, 0x63, 0x91, 0x52, 0x06, 0x9E, 0x3F] }, // FloatText with end element, 1.2345679f
        { "Double", Element(w => w.WriteValue(1.5)) },
        { "Int64 past Int32", Element(w => w.WriteValue(1L << 40)) },
        { "negative Int32", Element(w => w.WriteValue(-5)) },
        { "UInt64 past Int64", Element(w => w.WriteValue((object)ulong.MaxValue)) },
        { "Decimal", Element(w => w.WriteValue(12.5m)) },
        { "DateTime", Element(w => w.WriteValue(new DateTime(2020, 1, 2, 3, 4, 5, DateTimeKind.Utc))) },
        { "TimeSpan", Element(w => w.WriteValue(TimeSpan.FromMinutes(90))) },
        { "Bool", Element(w => w.WriteValue(true)) },
        { "Bytes", Element(w => w.WriteBase64([1, 2, 3], 0, 3)) },
        { "text", Element(w => w.WriteString("12")) },
        { "long text", Element(w => w.WriteString("abc😀def😀ghi")) },
        { "list", Element(w => w.WriteValue(new object[] { 1, 2 })) },
    };

    private static readonly Type[] s_types =
    [
        typeof(Guid), typeof(UniqueId), typeof(object), typeof(double), typeof(float), typeof(ulong), typeof(int), typeof(long),
        typeof(decimal), typeof(bool), typeof(DateTime), typeof(TimeSpan), typeof(string), typeof(byte[]),
    ];

    [Theory]
    [MemberData(nameof(Records))]
    public void ReadContentAs_every_type_on_every_record_kind(string why, byte[] document)
    {
        foreach (Type type in s_types)
        {
            AssertSame(document, r => { r.ReadStartElement(); return Show(r.ReadContentAs(type, null)); }, $"{why} as {type.Name}");
            AssertSame(document, r => { r.ReadStartElement(); return r.ValueType.Name; }, $"{why}: ValueType");
        }
    }

    [Theory]
    [MemberData(nameof(Records))]
    public void ReadValueChunk_in_small_pieces(string why, byte[] document)
    {
        AssertSame(document, r =>
        {
            r.Read();
            r.Read();
            var chars = new char[3];
            string pieces = r.CanReadValueChunk.ToString();
            for (int i = 0, n; i < 20 && (n = r.ReadValueChunk(chars, 0, chars.Length)) > 0; i++)
            {
                pieces += "|" + new string(chars, 0, n);
            }

            return pieces + "|rest " + r.Value;
        }, why);
    }

    /// <summary>
    /// A text of a million characters handed out in 1,024-character pieces (as XmlWriter.WriteNode and ReadOuterXml
    /// read it) costs work in proportion to its length: each piece is decoded from the bytes not yet handed out, with
    /// no copy of the rest. Allocation is the measure here (a copy of the rest per piece would be gigabytes).
    /// </summary>
    [Theory]
    [InlineData("UTF-8", false)]
    [InlineData("UTF-16", true)]
    public void A_long_text_is_handed_out_in_pieces_without_copying_the_rest(string why, bool utf16)
    {
        string text = string.Concat(Enumerable.Repeat("abcé€😀 ", 1_000_000 / 9));
        // The in-box writer writes UTF-8; a UnicodeChars32Text record with end element (0xBB) is made by hand.
        byte[] utf16Bytes = System.Text.Encoding.Unicode.GetBytes(text);
        byte[] document = utf16
            ? [0x40, 0x01, (byte)'c', 0xBB, .. BitConverter.GetBytes(utf16Bytes.Length), .. utf16Bytes]
            : Element(w => w.WriteString(text));
        string Drain(XmlDictionaryReader r, out long allocated)
        {
            r.Read();
            r.Read();
            var chars = new char[1024];
            var all = new System.Text.StringBuilder(text.Length);
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int n; (n = r.ReadValueChunk(chars, 0, chars.Length)) > 0;)
            {
                all.Append(chars, 0, n);
            }

            allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            return all.ToString();
        }

        string expected = Drain(XmlDictionaryReader.CreateBinaryReader(document, XmlDictionaryReaderQuotas.Max), out _);
        using XmlDictionaryReader ours = Nbfx.CreateReader(document, null, XmlDictionaryReaderQuotas.Max);
        string actual = Drain(ours, out long allocated);
        Expect.Equal(expected.Length, actual.Length, $"{why}: characters handed out");
        Assert.True(expected == actual, $"{why}: the characters differ from in-box");
        Assert.True(allocated < 64 << 10, $"{why}: {allocated} bytes allocated handing out {text.Length} characters");
    }

    [Fact]
    public void ReadElementString_passes_over_a_comment()
    {
        AssertSame(Element(w => w.WriteComment("only a comment")), r => r.ReadElementString(), "comment only");
        AssertSame(Element(w => { w.WriteString("a"); w.WriteComment("x"); w.WriteString("b"); }), r => r.ReadElementString(), "text around a comment");
    }

    [Fact]
    public void Two_root_elements_are_refused()
    {
        byte[] twoRoots = [0x40, 0x01, 0x63, 0x01, 0x40, 0x01, 0x63, 0x01];
        AssertSame(twoRoots, r => { while (r.Read()) { } return "read to the end"; }, "two roots");
    }

    [Fact]
    public void A_list_valued_attribute_is_an_object_array_until_read_as_text()
    {
        byte[] document = Element(w =>
        {
            w.WriteStartAttribute("a");
            w.WriteValue(new object[] { 1, "x", 2.5 });
            w.WriteEndAttribute();
        });
        AssertSame(document, r => { r.Read(); r.MoveToFirstAttribute(); return r.ValueType.Name; }, "ValueType");
        AssertSame(document, r => { r.Read(); r.MoveToFirstAttribute(); return r.Value + " " + r.ValueType.Name; }, "after Value");
    }

    [Fact]
    public void One_writer_serves_many_buffer_writers_as_the_in_box_writer_serves_streams()
    {
        // Every third document is abandoned half written (an element and an attribute open): the next output starts a
        // clean document on both writers, with its own dictionary and session.
        var inBoxWriter = (IXmlBinaryWriterInitializer)XmlDictionaryWriter.CreateBinaryWriter(Stream.Null);
        XmlDictionaryWriter ours = Nbfx.CreateWriter(new System.Buffers.ArrayBufferWriter<byte>());
        var initializer = (IXmlBinaryBufferWriterInitializer)ours;
        for (int i = 0; i < 9; i++)
        {
            var expected = new MemoryStream();
            var actual = new System.Buffers.ArrayBufferWriter<byte>(1 + i);
            IXmlDictionary? dictionary = i % 2 == 0 ? Nbfx.SoapDictionary : null;
            bool withSession = i % 4 == 1;
            inBoxWriter.SetOutput(expected, dictionary, withSession ? new XmlBinaryWriterSession() : null, ownsStream: false);
            initializer.SetOutput(actual, dictionary, withSession ? new XmlBinaryWriterSession() : null);
            bool abandoned = i % 3 == 2;
            foreach (var w in new[] { (XmlDictionaryWriter)inBoxWriter, ours })
            {
                var names = new XmlDictionary();
                w.WriteStartElement("s", names.Add("Envelope"), names.Add("http://www.w3.org/2003/05/soap-envelope"));
                w.WriteStartAttribute("n");
                w.WriteValue(i);
                if (abandoned)
                {
                    continue;
                }

                w.WriteEndAttribute();
                w.WriteElementString("text", new string('x', 40 * i));
                w.WriteEndElement();
                w.Flush();
            }

            if (!abandoned)
            {
                Expect.Equal(Convert.ToHexString(expected.ToArray()), Convert.ToHexString(actual.WrittenSpan), $"document {i}");
            }
        }

        Assert.Throws<ArgumentNullException>(() => initializer.SetOutput(null!, null, null));
    }

    [Fact]
    public void One_writer_and_one_reader_serve_many_documents_through_the_initializer_interfaces()
    {
        var inBoxWriter = (IXmlBinaryWriterInitializer)XmlDictionaryWriter.CreateBinaryWriter(Stream.Null);
        var ourWriter = (IXmlBinaryWriterInitializer)Nbfx.CreateWriter(Stream.Null);
        var inBoxReader = (IXmlBinaryReaderInitializer)XmlDictionaryReader.CreateBinaryReader([0x40, 0x01, 0x63, 0x01], XmlDictionaryReaderQuotas.Max);
        var ourReader = (IXmlBinaryReaderInitializer)Nbfx.CreateReader([0x40, 0x01, 0x63, 0x01]);
        for (int i = 0; i < 5; i++)
        {
            var expected = new MemoryStream();
            var actual = new MemoryStream();
            IXmlDictionary? dictionary = i % 2 == 0 ? Nbfx.SoapDictionary : null;
            inBoxWriter.SetOutput(expected, dictionary, null, ownsStream: false);
            ourWriter.SetOutput(actual, dictionary, null, ownsStream: false);
            foreach (var w in new[] { (XmlDictionaryWriter)inBoxWriter, (XmlDictionaryWriter)ourWriter })
            {
                w.WriteStartElement("Envelope", "http://www.w3.org/2003/05/soap-envelope");
                w.WriteElementString("n", i.ToString(System.Globalization.CultureInfo.InvariantCulture));
                w.WriteEndElement();
                w.Flush();
            }

            Assert.Equal(Convert.ToHexString(expected.ToArray()), Convert.ToHexString(actual.ToArray()));

            byte[] document = expected.ToArray();
            int closed = 0;
            inBoxReader.SetInput(document, 0, document.Length, dictionary, XmlDictionaryReaderQuotas.Max, null, _ => closed++);
            ourReader.SetInput(new MemoryStream(document), dictionary, XmlDictionaryReaderQuotas.Max, null, _ => closed++);
            string Walk(XmlDictionaryReader r)
            {
                var nodes = new List<string>();
                while (r.Read())
                {
                    nodes.Add($"{r.NodeType}:{r.LocalName}:{r.NamespaceURI}:{r.Value}");
                }

                r.Close();
                return string.Join(",", nodes);
            }

            Assert.Equal(Walk((XmlDictionaryReader)inBoxReader), Walk((XmlDictionaryReader)ourReader));
            Assert.Equal(2, closed);
        }
    }

    /// <summary>
    /// A reader pooled as WCF pools them: SetInput with a close callback allocates nothing, as in-box, and Close hands
    /// the callback the reader itself.
    /// </summary>
    [Fact]
    public void SetInput_with_a_close_callback_allocates_nothing_and_Close_hands_the_callback_its_reader()
    {
        byte[] document = [0x40, 0x01, 0x63, 0x01];
        foreach (XmlDictionaryReader reader in new[] { XmlDictionaryReader.CreateBinaryReader(document, XmlDictionaryReaderQuotas.Max), Nbfx.CreateReader(document) })
        {
            var initializer = (IXmlBinaryReaderInitializer)reader;
            XmlDictionaryReader? closedWith = null;
            OnXmlDictionaryReaderClose onClose = r => closedWith = r;
            long allocated = 0;
            for (int i = 0; i < 3; i++)
            {
                long before = GC.GetAllocatedBytesForCurrentThread();
                initializer.SetInput(document, 0, document.Length, null, XmlDictionaryReaderQuotas.Max, null, onClose);
                allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                while (reader.Read())
                {
                }

                reader.Close();
                Assert.Same(reader, closedWith);
                closedWith = null;
            }

            Assert.True(allocated == 0, $"{reader.GetType().Name}: SetInput allocated {allocated} bytes on the third document; expected none");
        }
    }

    [Fact]
    public void Content_reads_before_the_first_Read_do_not_read_the_document()
    {
        // Bytes that are not binary XML at all (text XML): nothing is read until Read is called.
        byte[] text = System.Text.Encoding.UTF8.GetBytes("<TestData xmlns=\"urn:t\"><A>1</A></TestData>");
        AssertSame(text, r => Show(r.ReadContentAsObject()), "ReadContentAsObject");
        AssertSame(text, r => r.ReadContentAsString(), "ReadContentAsString");
        AssertSame(text, r => r.NodeType + " " + r.ReadState, "initial state");
    }

    public static TheoryData<string, byte[]> Overflows => new()
    {
        // A record of one type read as a narrower one: in range, out of range, negative for unsigned.
        { "Int64 max", [0x40, 0x01, 0x61, 0x8F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F] },
        { "Int64 min", [0x40, 0x01, 0x61, 0x8F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80] },
        { "UInt64 max", [0x40, 0x01, 0x61, 0xB3, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] },
        { "Int32 -1", [0x40, 0x01, 0x61, 0x8D, 0xFF, 0xFF, 0xFF, 0xFF] },
        { "Double 1e300", Element(w => w.WriteValue(1e300)) },
        { "Decimal max", Element(w => w.WriteValue(decimal.MaxValue)) },
        { "text 99999999999999999999", Element(w => w.WriteString("99999999999999999999")) },
        { "text -1", Element(w => w.WriteString("-1")) },
    };

    [Theory]
    [MemberData(nameof(Overflows))]
    public void ReadContentAs_a_value_that_does_not_fit_fails_as_in_box(string why, byte[] document)
    {
        foreach (Type type in new[] { typeof(int), typeof(long), typeof(ulong), typeof(float), typeof(double), typeof(decimal) })
        {
            AssertSame(document, r => { r.ReadStartElement(); return Show(r.ReadContentAs(type, null)) + " then " + r.NodeType; }, $"{why} as {type.Name}");
        }
    }

    [Fact]
    public void Element_content_longer_than_MaxBytesPerRead_is_read_whole()
    {
        var dictionary = new XmlDictionary();
        XmlDictionaryString name = dictionary.Add("Value");
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary))
        {
            w.WriteElementString(name, XmlDictionaryString.Empty, new string('a', 8176));
        }

        byte[] document = stream.ToArray();
        var quotas = new XmlDictionaryReaderQuotas { MaxBytesPerRead = 4096 };
        string Read(XmlDictionaryReader r)
        {
            r.Read();
            return r.ReadElementContentAsString();
        }

        Assert.Equal(Read(XmlDictionaryReader.CreateBinaryReader(new MemoryStream(document), dictionary, quotas)),
            Read(Nbfx.CreateReader(new MemoryStream(document), dictionary, quotas)));
    }
}
