using System.Buffers;
using System.Xml;

namespace Spanwire.BinaryXml.Tests;

/// <summary>Records read from known bytes: the format's examples and every record kind, whole and as 1-byte segments.</summary>
public class ReaderByteVectorTests
{
    public static TheoryData<string, string, string> Documents => new()
    {
        { "<doc></doc> (the specification's first example)", "40 03 64 6F 63 01", "StartElement 0 :doc\nEndElement 0\n" },
        { "Int16 0x1234 with end element", "40 01 61 8B 34 12", "StartElement 0 :a\nText 1 Int16 4660\nEndElement 0\n" },
        { "Int64 0x0102030412345678", "40 01 61 8F 78 56 34 12 04 03 02 01", "StartElement 0 :a\nText 1 Int64 72623860011521656\nEndElement 0\n" },
        { "Int8 0xF0 is −16", "40 01 61 89 F0", "StartElement 0 :a\nText 1 Int8 -16\nEndElement 0\n" },
        { "Int32 0xF2345678", "40 01 61 8D 78 56 34 F2", "StartElement 0 :a\nText 1 Int32 -231451016\nEndElement 0\n" },
        { "float 1.23456788f", "40 01 61 91 52 06 9E 3F", "StartElement 0 :a\nText 1 Float 1.2345679\nEndElement 0\n" },
        { "double 1/3", "40 01 61 93 55 55 55 55 55 55 D5 3F", "StartElement 0 :a\nText 1 Double 0.3333333333333333\nEndElement 0\n" },
        { "decimal: negative, scale 27", "40 01 61 95 00 00 1B 80 04 03 02 01 23 22 21 20 13 12 11 10", "StartElement 0 :a\nText 1 Decimal -0.311917103504725683411690019\nEndElement 0\n" },
        { "DateTime 9999-12-31T23:59:59.9999999", "40 01 61 97 FF 3F 37 F4 75 28 CA 2B", "StartElement 0 :a\nText 1 DateTime 9999-12-31T23:59:59.9999999\nEndElement 0\n" },
        { "TimeSpan −PT5M44S", "40 01 61 AF 00 C4 F5 32 FF FF FF FF", "StartElement 0 :a\nText 1 TimeSpan -PT5M44S\nEndElement 0\n" },
        { "UInt64 max", "40 01 61 B3 FF FF FF FF FF FF FF FF", "StartElement 0 :a\nText 1 UInt64 18446744073709551615\nEndElement 0\n" },
        { "Guid in TryWriteBytes order", "40 01 61 B1 33 22 11 00 55 44 77 66 88 99 AA BB CC DD EE FF", "StartElement 0 :a\nText 1 Guid 00112233-4455-6677-8899-aabbccddeeff\nEndElement 0\n" },
        { "UniqueId shows as urn:uuid", "40 01 61 AD 33 22 11 00 55 44 77 66 88 99 AA BB CC DD EE FF", "StartElement 0 :a\nText 1 UniqueId urn:uuid:00112233-4455-6677-8899-aabbccddeeff\nEndElement 0\n" },
        { "Zero, One, True, False, Empty, Bool: no or one byte payload", "40 01 61 80 82 86 84 A8 B4 01 01", "StartElement 0 :a\nText 1 Zero 0\nText 1 One 1\nText 1 True true\nText 1 False false\nText 1 Empty \nText 1 Bool true\nEndElement 0\n" },
        { "Chars8 UTF-8", "40 01 61 99 05 68 C3 A9 6C 6F", "StartElement 0 :a\nText 1 Chars hélo\nEndElement 0\n" },
        { "Chars16 and Chars32 lengths", "40 01 61 9A 02 00 68 69 9D 01 00 00 00 21", "StartElement 0 :a\nText 1 Chars hi\nText 1 Chars !\nEndElement 0\n" },
        { "UnicodeChars8 UTF-16LE", "40 01 61 B7 04 41 00 42 00", "StartElement 0 :a\nText 1 UnicodeChars AB\nEndElement 0\n" },
        { "Bytes8 shows as base64", "40 01 61 9F 03 01 02 03", "StartElement 0 :a\nText 1 Bytes AQID\nEndElement 0\n" },
        { "a list of two Int8 items ended with end element", "40 01 61 A4 88 01 88 02 A7", "StartElement 0 :a\nText 1 StartList \nText 1 Int8 1\nText 1 Int8 2\nText 1 EndList \nEndElement 0\n" },
        { "comment outside the root", "02 02 68 69 40 01 61 01", "Comment 0 Chars hi\nStartElement 0 :a\nEndElement 0\n" },
        { "prefix letter element with an xmlns declaration", "5E 01 78 09 01 61 05 75 72 6E 3A 78 01", "StartElement 0 a:x\nNamespaceDeclaration 1 a: = Chars urn:x\nEndElement 0\n" },
        { "Element with a prefix name and a default xmlns", "41 02 70 31 01 78 08 03 75 3A 79 01", "StartElement 0 p1:x\nNamespaceDeclaration 1 : = Chars u:y\nEndElement 0\n" },
        { "ShortAttribute and PrefixAttribute b", "40 01 61 04 01 62 82 27 01 63 98 01 7A 01", "StartElement 0 :a\nAttribute 1 :b = One 1\nAttribute 1 b:c = Chars z\nEndElement 0\n" },
        { "Attribute with a prefix name and a list value", "40 01 61 05 01 70 01 71 A4 88 05 A6 01", "StartElement 0 :a\nAttribute 1 p:q = StartList \nText 2 Int8 5\nText 2 EndList \nEndElement 0\n" },
        { "dictionary element, attribute, xmlns and text (SOAP ids)", "42 02 06 08 A8 0A 04 AB 08", "StartElement 0 :Envelope\nAttribute 1 :Header = Empty \nNamespaceDeclaration 1 : = Dictionary http://www.w3.org/2003/05/soap-envelope\nText 1 Dictionary Header\nEndElement 0\n" },
        { "DictionaryElement and PrefixDictionaryElement s, DictionaryXmlns s, PrefixDictionaryAttribute a", "43 01 70 02 01 56 02 0B 01 73 04 0C 00 A8 01", "StartElement 0 p:Envelope\nEndElement 0\nStartElement 0 s:Envelope\nNamespaceDeclaration 1 s: = Dictionary http://www.w3.org/2003/05/soap-envelope\nAttribute 1 a:mustUnderstand = Empty \nEndElement 0\n" },
        { "DictionaryAttribute with a prefix name", "40 01 61 07 01 70 0A A8 01", "StartElement 0 :a\nAttribute 1 p:Action = Empty \nEndElement 0\n" },
        { "QNameDictionary: prefix letter b and Envelope", "40 01 61 BD 01 02", "StartElement 0 :a\nText 1 QNameDictionary b:Envelope\nEndElement 0\n" },
        { "array of Int16 {13107, −30584, −8739} (the in-box tests' example)", "03 40 03 61 72 72 01 8B 03 33 33 88 88 DD DD", "StartElement 0 :arr array\nArray 0 Int16 x3 [13107,-30584,-8739]\n" },
        { "array with an attribute, then more content", "40 01 72 03 40 01 61 04 01 6E 80 01 B5 02 01 00 01", "StartElement 0 :r\nStartElement 1 :a array\nAttribute 2 :n = Zero 0\nArray 1 Bool x2 [True,False]\nEndElement 0\n" },
        { "an array whose element has a list attribute: the list ends before the values (the in-box reader reads it)", "03 40 01 61 04 01 62 A4 88 05 88 06 A6 01 8D 01 07 00 00 00", "StartElement 0 :a array\nAttribute 1 :b = StartList \nText 2 Int8 5\nText 2 Int8 6\nText 2 EndList \nArray 0 Int32 x1 [7]\n" },
        { "names of 8 and 16 ASCII bytes: checked by two overlapping loads", "40 08 61 62 63 64 65 66 67 68 04 10 " + string.Join(" ", Enumerable.Repeat("79", 16)) + " 80 01", "StartElement 0 :abcdefgh\nAttribute 1 :" + new string('y', 16) + " = Zero 0\nEndElement 0\n" },
        { "a name of 17 bytes: past the short check", "40 11 " + string.Join(" ", Enumerable.Repeat("7A", 17)) + " 01", "StartElement 0 :" + new string('z', 17) + "\nEndElement 0\n" },
        { "non-ASCII names of 2, 9 and 20 bytes", "40 02 C3 A9 04 09 C3 A9 61 61 61 61 61 61 61 80 04 14 E4 B8 AD " + string.Join(" ", Enumerable.Repeat("62", 17)) + " 82 01", "StartElement 0 :é\nAttribute 1 :éaaaaaaa = Zero 0\nAttribute 1 :中" + new string('b', 17) + " = One 1\nEndElement 0\n" },
        { "names of 33 and 64 ASCII bytes (a namespace URI's length): checked by four overlapping 16-byte loads", "40 21 " + string.Join(" ", Enumerable.Repeat("61", 33)) + " 04 40 " + string.Join(" ", Enumerable.Repeat("62", 64)) + " 80 01", "StartElement 0 :" + new string('a', 33) + "\nAttribute 1 :" + new string('b', 64) + " = Zero 0\nEndElement 0\n" },
        { "a name of 65 bytes: past the vector check", "40 41 " + string.Join(" ", Enumerable.Repeat("63", 65)) + " 01", "StartElement 0 :" + new string('c', 65) + "\nEndElement 0\n" },
        { "a 40-byte name whose only non-ASCII character is in the bytes the middle loads share", "40 28 " + string.Join(" ", Enumerable.Repeat("64", 19)) + " C3 A9 " + string.Join(" ", Enumerable.Repeat("64", 19)) + " 01", "StartElement 0 :" + new string('d', 19) + "é" + new string('d', 19) + "\nEndElement 0\n" },
        { "MB31 name length of two bytes (128)", "40 80 01 " + string.Join(" ", Enumerable.Repeat("78", 128)) + " 01", "StartElement 0 :" + new string('x', 128) + "\nEndElement 0\n" },
    };

    [Theory]
    [MemberData(nameof(Documents))]
    public void Reads_the_records(string why, string hex, string tokens)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        var whole = new NbfxReader(bytes, Nbfx.SoapDictionary);
        Expect.Equal(tokens, ReaderHarness.Tokens(ref whole), why);
        var split = new NbfxReader(ReaderHarness.Split(bytes, 1), Nbfx.SoapDictionary);
        Expect.Equal(tokens, ReaderHarness.Tokens(ref split), why + " (1-byte segments)");
        split.Dispose();
    }

    public static TheoryData<string, string, long, string> Malformed => new()
    {
        { "a name longer than the input", "40 03 64 6F", 1, "runs past the end" },
        { "an end element with nothing open", "01", 0, "no open element" },
        { "the input ends inside an element", "40 01 61", 3, "ends inside an open element" },
        { "a fifth MB31 byte with high bits set", "42 80 80 80 80 10", 1, "invalid MB31" },
        { "an attribute value that is not a text", "40 01 61 04 01 62 01", 6, "not a valid attribute value" },
        { "an attribute record after content", "40 01 61 80 04 01 62 80 01", 4, "outside a start tag" },
        { "a Chars32 length past the end", "40 01 61 9D FF FF FF 7F", 3, "runs past the end" },
        { "a negative Chars32 length", "40 01 61 9D FF FF FF FF", 4, "negative" },
        { "UTF-16 text with an odd length", "40 01 61 B7 03 41 00 42", 4, "odd byte length" },
        { "a dictionary id past the static dictionary", "40 01 61 AB FE 07", 4, "not in the static dictionary" },
        { "a session id with no session", "42 01 01", 1, "not in the session" },
        { "an array with no items", "03 40 01 61 01 8D 00", 6, "no items" },
        { "array values past the end", "03 40 01 61 01 8D 05 01 00 00 00", 7, "runs past the end" },
        { "Int8 is not an array type", "03 40 01 61 01 89 01 05", 5, "not an array value type" },
        { "an array of arrays", "03 03 40 01 61", 1, "must start with an element" },
        { "byte 0x00 is no record", "00", 0, "not a valid record" },
        { "a decimal with scale 29", "40 01 61 95 00 00 1D 00 00 00 00 00 00 00 00 00 00 00 00 00", 4, "invalid scale" },
        { "a decimal with a flag bit outside sign and scale", "40 01 61 95 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", 4, "invalid scale" },
        { "a DateTime one tick past DateTime.MaxValue", "40 01 61 96 00 40 37 F4 75 28 CA 2B", 4, "out of range" },
        { "an empty element name", "40 00 01", 0, "empty name" },
        { "a name that is not UTF-8", "40 01 FF 01", 1, "not valid UTF-8" },
        { "a 12-byte name with one byte that is not UTF-8", "40 0C 61 61 61 61 61 61 61 61 61 61 61 FF 01", 1, "not valid UTF-8" },
        { "a 48-byte name whose last byte is not UTF-8", "40 30 " + string.Join(" ", Enumerable.Repeat("61", 47)) + " FF 01", 1, "not valid UTF-8" },
        { "a 64-byte name whose first byte is not UTF-8", "40 40 FF " + string.Join(" ", Enumerable.Repeat("61", 63)) + " 01", 1, "not valid UTF-8" },
        { "a 5-byte name ending in a cut-off UTF-8 sequence, followed by more records", "40 05 61 61 61 61 C3 40 01 61 01 01", 1, "not valid UTF-8" },
        { "a list in a list", "40 01 61 A4 A4", 4, "not a valid list item" },
        { "a QName prefix letter past z", "40 01 61 BD 1A 02", 4, "past 'z'" },
        { "a prefix declared with the empty namespace (xmlns:p=\"\", as in-box)", "40 01 61 09 01 70 00 01", 3, "empty namespace" },
        { "text with end element outside any element", "81", 0, "outside any element" },
    };

    [Theory]
    [MemberData(nameof(Malformed))]
    public void Rejects_malformed_input_with_its_offset(string why, string hex, long offset, string message)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        foreach (bool split in new[] { false, true })
        {
            var e = Assert.Throws<NbfxFormatException>(() =>
            {
                var reader = split ? new NbfxReader(ReaderHarness.Split(bytes, 1), Nbfx.SoapDictionary) : new NbfxReader(bytes, Nbfx.SoapDictionary);
                try
                {
                    while (reader.Read()) { }
                }
                finally
                {
                    reader.Dispose();
                }
            });
            Expect.Equal(e.Offset, offset, $"{why}{(split ? " (1-byte segments)" : "")}: offset {e.Offset}, expected {offset}: {e.Message}");
            Assert.Contains(message, e.Message);
            Assert.Contains($"byte offset {offset}", e.Message);
        }
    }

    /// <summary>
    /// Text that is not UTF-8 is counted without the decoder's replacement (which allocates for every bad sequence):
    /// over the string quota it is refused with only the exception allocated, and GetCharCount refuses it as
    /// GetString does.
    /// </summary>
    [Fact]
    public void Text_that_is_not_Utf8_is_counted_without_allocating()
    {
        byte[] Text(int length, byte record, int lengthSize)
        {
            var bytes = new List<byte> { 0x40, 0x01, 0x61, record };
            for (int i = 0; i < lengthSize; i++) bytes.Add((byte)(length >> (8 * i)));
            bytes.AddRange(Enumerable.Repeat((byte)0xFF, length));
            bytes.Add(0x01);
            return bytes.ToArray();
        }

        // 10,000 bad bytes in a Chars16 record: over the default MaxStringContentLength (8,192 chars).
        byte[] overQuota = Text(10_000, 0x9A, 2);
        for (int round = 0; round < 2; round++) // the second round counts: the first pays for first use
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            var e = Assert.Throws<NbfxFormatException>(() =>
            {
                var reader = new NbfxReader(overQuota, null, null, new XmlDictionaryReaderQuotas());
                try { while (reader.Read()) { } } finally { reader.Dispose(); }
            });
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.Contains("MaxStringContentLength", e.Message);
            Assert.True(round == 0 || allocated < 8_192, $"refusing the text allocated {allocated} bytes");
        }

        byte[] small = Text(200, 0x98, 1);
        for (int round = 0; round < 2; round++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            var e = Assert.Throws<NbfxFormatException>(() =>
            {
                var reader = new NbfxReader(small);
                try { while (reader.Read()) { if (reader.TokenType == NbfxTokenType.Text) reader.GetCharCount(); } } finally { reader.Dispose(); }
            });
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.Contains("not valid UTF-8", e.Message);
            Assert.True(round == 0 || allocated < 8_192, $"counting the text allocated {allocated} bytes");
        }
    }

    /// <summary>
    /// UTF-16 text (UnicodeChars) with a lone surrogate is malformed when its value is read, as the in-box reader has
    /// it; a whole pair is text. Checked through NbfxReader.GetString and through the drop-in, against the in-box reader.
    /// </summary>
    [Theory]
    [InlineData("a lone low surrogate as element text", "40 01 61 B7 02 00 DE", 5, false)]
    [InlineData("a lone high surrogate ending element text", "40 01 61 B7 04 41 00 00 D8", 5, false)]
    [InlineData("a low surrogate before a high one", "40 01 61 B7 04 00 DC 00 D8", 5, false)]
    [InlineData("a lone low surrogate as an attribute value", "40 01 61 04 01 78 B6 02 00 DE 01", 8, false)]
    [InlineData("a whole pair (U+1F600)", "40 01 61 B7 04 3D D8 00 DE", 5, true)]
    public void UTF16_text_with_a_lone_surrogate_is_rejected_when_read(string why, string hex, long payloadOffset, bool valid)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        string? Records()
        {
            var reader = new NbfxReader(bytes);
            try
            {
                string? text = null;
                while (reader.Read())
                {
                    if (reader.TokenType is NbfxTokenType.Text or NbfxTokenType.Attribute) text = reader.GetString();
                }

                return text;
            }
            finally
            {
                reader.Dispose();
            }
        }

        static string ReadAll(XmlReader reader)
        {
            var text = new System.Text.StringBuilder();
            while (reader.Read())
            {
                text.Append(reader.Value);
                for (int i = 0; i < reader.AttributeCount; i++) text.Append(reader.GetAttribute(i));
            }

            return text.ToString();
        }

        using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
        using XmlDictionaryReader dropIn = Nbfx.CreateReader(bytes);
        if (valid)
        {
            Assert.Equal("\U0001F600", Records());
            Assert.Equal(ReadAll(inBox), ReadAll(dropIn));
            return;
        }

        Assert.Throws<XmlException>(() => ReadAll(inBox));
        foreach (Func<object?> read in new Func<object?>[] { Records, () => ReadAll(dropIn) })
        {
            var e = Assert.Throws<NbfxFormatException>(read);
            Assert.True(e.Offset == payloadOffset && e.Message.Contains("lone surrogate"), $"{why}: {e.Message}");
        }
    }

    /// <summary>
    /// An in-box defect not copied: on the value node of an attribute given by an EmptyText record, in-box MoveToContent
    /// weighs a length the record does not have, left over from the value its attribute slot held last (here the
    /// root's attribute). Ours passes the empty value over, as in-box does when the slot held nothing before; the
    /// in-box reader runs beside it to show the difference is the one documented.
    /// </summary>
    [Theory]
    [InlineData("the slot held nothing before", "400172 400165 040161A8 990178 01", "Text  2", "Text  2")]
    [InlineData("the slot held an Int64", "400172 0401618E0102030405060708 400165 040161A8 990178 01", "Text a 3", "Text  2")]
    [InlineData("the slot held two characters", "400172 04016198027676 400165 040161A8 990178 01", "Text a 3", "Text  2")]
    public void MoveToContent_passes_over_an_empty_attribute_value_whatever_its_slot_held_before(string why, string hex, string inBoxNode, string ourNode)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        static string MoveToContentFromValue(XmlReader reader)
        {
            reader.Read();
            reader.Read();
            reader.MoveToAttribute("a");
            reader.ReadAttributeValue();
            reader.MoveToContent();
            return $"{reader.NodeType} {reader.Name} {reader.Depth}";
        }

        using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
        using XmlDictionaryReader dropIn = Nbfx.CreateReader(bytes);
        Assert.True(MoveToContentFromValue(inBox) == inBoxNode, $"{why}: the in-box defect changed; in-box is now on {MoveToContentFromValue(XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max))}");
        Assert.Equal(ourNode, MoveToContentFromValue(dropIn));
    }

    /// <summary>
    /// ReadOuterXml does not read a text's Value: it copies the text's characters to an XmlWriter in chunks, and
    /// the writer refuses a high surrogate before a character that is not a low one. The in-box reader lets that
    /// ArgumentException through; so does the drop-in.
    /// </summary>
    [Theory]
    [InlineData("a high surrogate before a letter, in element text", "40 01 61 40 01 6C B7 04 57 DB 5C D5 01")]
    [InlineData("the same after a whole pair", "40 01 61 40 01 6C B7 08 3D D8 00 DE 57 DB 5C D5 01")]
    public void ReadOuterXml_of_UTF16_text_with_a_lone_high_surrogate_throws_the_writers_exception_as_in_box(string why, string hex)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        static Exception? Outer(XmlReader reader)
        {
            reader.MoveToContent();
            return Record.Exception(() => reader.ReadOuterXml());
        }

        using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
        using XmlDictionaryReader dropIn = Nbfx.CreateReader(bytes);
        Exception? expected = Outer(inBox), actual = Outer(dropIn);
        Assert.True(expected?.GetType() == actual?.GetType(), $"{why}: in-box threw {expected?.GetType().Name ?? "nothing"}, ours {actual?.GetType().Name ?? "nothing"}");
        Assert.IsType<ArgumentException>(actual);
    }

    /// <summary>
    /// UTF-8 text (Chars8) as strings through the drop-in, against the in-box reader: short ASCII is widened as it is,
    /// anything else decoded strictly, on both sides of the 128-byte limit of the ASCII path.
    /// </summary>
    [Theory]
    [InlineData("short ASCII text", "616263", true)]
    [InlineData("ASCII text of 128 bytes, the longest widened as it is", "61*128", true)]
    [InlineData("ASCII text of 129 bytes, decoded", "61*129", true)]
    [InlineData("short text with a two-byte char", "6162C3A9", true)]
    [InlineData("short text ending in a cut-off sequence", "6162C3", false)]
    [InlineData("short text with a byte that is never UTF-8", "61FF62", false)]
    [InlineData("ASCII text of 127 bytes and a byte that is never UTF-8", "61*127FF", false)]
    public void UTF8_text_reads_as_the_in_box_reader_reads_it(string why, string hex, bool valid)
    {
        // "61*128" is 128 bytes of 61; what follows the count is more hex.
        byte[] payload = hex.Contains('*', StringComparison.Ordinal)
            ? [.. Enumerable.Repeat(Convert.FromHexString(hex[..2])[0], int.Parse(hex[3..6], System.Globalization.CultureInfo.InvariantCulture)), .. Convert.FromHexString(hex[6..])]
            : Convert.FromHexString(hex);
        byte[] bytes = [0x40, 0x01, (byte)'a', 0x99, (byte)payload.Length, .. payload]; // <a>text</a>, Chars8 with end element
        string? Read(XmlDictionaryReader reader)
        {
            reader.MoveToContent();
            return reader.ReadElementContentAsString();
        }

        using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
        using XmlDictionaryReader dropIn = Nbfx.CreateReader(bytes, null, XmlDictionaryReaderQuotas.Max);
        if (valid)
        {
            Expect.Equal(Read(inBox), Read(dropIn), why);
            return;
        }

        Assert.Throws<XmlException>(() => Read(inBox));
        var e = Assert.Throws<NbfxFormatException>(() => Read(dropIn));
        Assert.True(e.Message.Contains("not valid UTF-8", StringComparison.Ordinal) && e.Offset == 5, $"{why}: {e.Message} at {e.Offset}");
    }

    /// <summary>
    /// xml:lang and xml:space are in scope from their element to its end element, against the in-box reader: any
    /// xml:lang value counts (the empty one too), xml:space only as "preserve" or "default" (anything else leaves the
    /// outer value).
    /// </summary>
    [Theory]
    [InlineData("xml:space preserve, then an unknown value inside", "400170 0503786D6C057370616365 98087072657365727665 400163 0503786D6C057370616365 9805626F677573 01 01")]
    [InlineData("xml:lang en, then the empty language inside", "400170 0503786D6C046C616E67 9802656E 400163 0503786D6C046C616E67 A8 01 01")]
    [InlineData("xml:space preserve, then default inside, then a sibling", "400170 0503786D6C057370616365 98087072657365727665 400163 0503786D6C057370616365 980764656661756C74 01 400164 01 01")]
    [InlineData("xml:lang as an Int8 record", "400161 0503786D6C046C616E67 8805 01")]
    [InlineData("xml:space with a leading space", "400161 0503786D6C057370616365 9809207072657365727665 01")]
    public void XmlLang_and_XmlSpace_are_in_scope_as_in_box(string why, string hex)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        static string Walk(XmlReader reader)
        {
            var seen = new System.Text.StringBuilder($"start '{reader.XmlLang}'/{reader.XmlSpace}; ");
            while (reader.Read())
            {
                seen.Append($"{reader.NodeType} {reader.LocalName} '{reader.XmlLang}'/{reader.XmlSpace}; ");
                for (int i = 0; i < reader.AttributeCount; i++)
                {
                    reader.MoveToAttribute(i);
                    seen.Append($"@{reader.Name} '{reader.XmlLang}'/{reader.XmlSpace}; ");
                }

                reader.MoveToElement();
            }

            return seen.Append($"end '{reader.XmlLang}'/{reader.XmlSpace}").ToString();
        }

        using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
        using XmlDictionaryReader dropIn = Nbfx.CreateReader(bytes);
        Expect.Equal(Walk(inBox), Walk(dropIn), why);
    }

    [Theory]
    [InlineData("an element name", "40 05 61 62 63 64 65 01", 1)]
    [InlineData("an attribute name", "40 01 61 04 05 61 62 63 64 65 80 01", 4)]
    [InlineData("a prefix", "41 05 70 70 70 70 70 01 61 01", 1)]
    public void Names_over_the_name_quota_are_rejected(string what, string hex, long offset)
    {
        byte[] bytes = Convert.FromHexString(hex.Replace(" ", ""));
        var quotas = new XmlDictionaryReaderQuotas { MaxNameTableCharCount = 4 };
        var e = Assert.Throws<NbfxFormatException>(() => { var r = new NbfxReader(bytes, null, null, quotas); while (r.Read()) { } });
        Expect.Equal(offset, e.Offset, what);
        Assert.Contains("MaxNameTableCharCount", e.Message);
        // Four chars are within it.
        byte[] within = Convert.FromHexString("40046162636404047070707080 01".Replace(" ", ""));
        var ok = new NbfxReader(within, null, null, quotas);
        while (ok.Read()) { }
    }

    [Fact]
    public void MaxDepth_is_the_in_box_default()
    {
        byte[] deep = Enumerable.Repeat(new byte[] { 0x40, 0x01, 0x61 }, 33).SelectMany(b => b).ToArray();
        var e = Assert.Throws<NbfxFormatException>(() => { var r = new NbfxReader(deep); while (r.Read()) { } });
        Assert.Equal(96, e.Offset);
        Assert.Contains("MaxDepth", e.Message);
    }

    [Fact]
    public void String_and_array_quotas_are_the_in_box_defaults()
    {
        var writer = new ArrayBufferWriter<byte>();
        using (var w = Nbfx.CreateWriter(writer))
        {
            w.WriteStartElement("a");
            w.WriteString(new string('x', 8193));
            w.WriteEndElement();
        }

        var e = Assert.Throws<NbfxFormatException>(() => { var r = new NbfxReader(writer.WrittenSpan); while (r.Read()) { } });
        Assert.Contains("MaxStringContentLength", e.Message);
        // 8192 chars of 3-byte UTF-8 are within the quota: it counts chars, not bytes.
        writer.Clear();
        using (var w = Nbfx.CreateWriter(writer))
        {
            w.WriteStartElement("a");
            w.WriteString(new string('中', 8192));
            w.WriteEndElement();
        }

        var ok = new NbfxReader(writer.WrittenSpan);
        while (ok.Read()) { }

        writer.Clear();
        using (var w = Nbfx.CreateWriter(writer))
        {
            w.WriteArray(null, "a", null, new int[16385], 0, 16385);
        }

        e = Assert.Throws<NbfxFormatException>(() => { var r = new NbfxReader(writer.WrittenSpan); while (r.Read()) { } });
        Assert.Contains("MaxArrayLength", e.Message);
    }

    [Fact]
    public void Typed_getters_read_values_without_strings()
    {
        byte[] bytes = Convert.FromHexString("400161" + "8A3412" + "92050000000000F03F" + "98023432" + "01");
        var reader = new NbfxReader(bytes);
        Assert.True(reader.Read() && reader.LocalNameEquals("a"u8));
        Assert.True(reader.Read());
        Assert.Equal(0x1234, reader.GetInt32());
        Assert.Equal(0x1234L, reader.GetInt64());
        Assert.Equal(0x1234, reader.GetDouble());
        Assert.True(reader.Read());
        Assert.Equal(1.0000000000000011, reader.GetDouble());
        Assert.True(reader.Read());
        Span<char> chars = stackalloc char[4];
        Assert.Equal(2, reader.CopyString(chars));
        Assert.Equal("42", chars[..2].ToString());
        Assert.Throws<InvalidOperationException>(() => { var r = new NbfxReader(bytes); r.Read(); r.Read(); r.Read(); r.Read(); return r.GetInt32(); });
    }
}
