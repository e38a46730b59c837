using System.Buffers;
using System.Runtime.Serialization;
using System.Text;
using System.Xml;

namespace Spanwire.Cli.Tests;

public sealed class NbfxCommandTests
{
    [DataContract(Namespace = "http://schemas.datacontract.org/2004/07/Shop")]
    public sealed class Order
    {
        [DataMember] public int Id { get; set; }
        [DataMember] public string? Name { get; set; }
        [DataMember] public double Price { get; set; }
        [DataMember] public DateTime Placed { get; set; }
        [DataMember] public Guid Key { get; set; }
        [DataMember] public int[]? Counts { get; set; }
        [DataMember] public byte[]? Blob { get; set; }
        [DataMember] public string? Nothing { get; set; }
    }

    private static byte[] SoapMessage()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream, SoapDictionary()))
        {
            new DataContractSerializer(typeof(Order)).WriteObject(writer, new Order
            {
                Id = 7,
                Name = "Ada <&> 中文",
                Price = 2.5,
                Placed = new DateTime(2026, 11, 21, 0, 0, 0, DateTimeKind.Utc),
                Key = Guid.Parse("00112233-4455-6677-8899-aabbccddeeff"),
                Counts = [1, 2, 3],
                Blob = [1, 2, 3],
            });
        }

        return stream.ToArray();
    }

    /// <summary>The SOAP dictionary's first strings are enough for these tests' ids to line up with the tool's.</summary>
    private static XmlDictionary SoapDictionary()
    {
        var dictionary = new XmlDictionary();
        foreach (string s in new[] { "mustUnderstand", "Envelope", "http://www.w3.org/2003/05/soap-envelope", "http://www.w3.org/2005/08/addressing", "Header", "Action", "To", "Body" })
        {
            dictionary.Add(s);
        }

        return dictionary;
    }

    /// <summary>What the in-box reader and XmlWriter print for the same bytes.</summary>
    private static string InBoxXml(byte[] bytes, IXmlDictionary? dictionary, XmlBinaryReaderSession? session = null, int offset = 0)
    {
        var text = new StringWriter();
        using (XmlWriter writer = XmlWriter.Create(text, new XmlWriterSettings { Indent = true, OmitXmlDeclaration = true }))
        {
            writer.WriteNode(XmlDictionaryReader.CreateBinaryReader(bytes, offset, bytes.Length - offset, dictionary, XmlDictionaryReaderQuotas.Max, session), true);
        }

        return text + Environment.NewLine;
    }

    [Fact]
    public void Decode_prints_what_the_in_box_reader_reads()
    {
        byte[] message = SoapMessage();
        var result = CliRunner.Run(message, "nbfx", "decode");
        Expect.Equal(0, result.ExitCode, result.StdErr);
        Assert.Equal(InBoxXml(message, SoapDictionary()), result.StdOut);
        Assert.Contains("<Name>Ada &lt;&amp;&gt; 中文</Name>", result.StdOut);
    }

    /// <summary>
    /// A document is read from standard input as it is printed: a long one prints what the in-box reader reads; one
    /// found malformed after the first MiB of output has printed that much, then gives its one error line and exit 2.
    /// </summary>
    [Fact]
    public void Decode_streams_a_long_document_and_reports_late_damage_in_one_line()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            writer.WriteStartElement("items");
            for (int i = 0; i < 60_000; i++)
            {
                writer.WriteStartElement("item");
                writer.WriteAttributeString("n", i.ToString(System.Globalization.CultureInfo.InvariantCulture));
                writer.WriteString($"value {i} é中");
                writer.WriteEndElement();
            }

            writer.WriteEndElement();
        }

        byte[] document = stream.ToArray();
        var whole = CliRunner.Run(document, "nbfx", "decode", "--dictionary", "none");
        Expect.Equal(0, whole.ExitCode, whole.StdErr);
        Assert.True(whole.StdOut == InBoxXml(document, null), "the long document prints as the in-box reader reads it");

        byte[] damaged = (byte[])document.Clone();
        damaged[^40] = 0xFF; // a record near the end that is none
        var late = CliRunner.Run(damaged, "nbfx", "decode", "--dictionary", "none");
        Expect.Equal(2, late.ExitCode, late.StdErr);
        Assert.Single(late.ErrorLines);
        Assert.StartsWith("spanwire nbfx: error: -: malformed binary XML at byte offset", late.StdErr);
        Assert.True(late.StdOut.Length > 1 << 20, $"the output before the damage is printed: {late.StdOut.Length} chars");
        Assert.StartsWith(late.StdOut[..1000], whole.StdOut, StringComparison.Ordinal);
    }

    [Fact]
    public void Decode_shows_progress_on_standard_error_only_when_asked_for()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            writer.WriteStartElement("items");
            for (int i = 0; i < 20_000; i++)
            {
                writer.WriteElementString("item", $"value {i}");
            }

            writer.WriteEndElement();
        }

        byte[] document = stream.ToArray();
        var quiet = CliRunner.Run(document, "nbfx", "decode", "--dictionary", "none");
        var shown = CliRunner.Run(document, "nbfx", "decode", "--dictionary", "none", "--progress");

        Expect.Equal(0, shown.ExitCode, shown.StdErr);
        Assert.Equal("", quiet.StdErr);
        Assert.Equal(quiet.StdOut, shown.StdOut);
        Assert.Contains("nbfx decode", shown.StdErr, StringComparison.Ordinal);
        Assert.EndsWith("\r", shown.StdErr, StringComparison.Ordinal);
    }

    [Fact]
    public void Dump_lists_every_record_the_in_box_writer_wrote_with_its_offset_type_dictionary_id_and_value()
    {
        XmlDictionary dictionary = SoapDictionary(); // the first strings of the SOAP dictionary, with their ids
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary))
        {
            dictionary.TryLookup("Envelope", out XmlDictionaryString? envelope);
            dictionary.TryLookup("http://www.w3.org/2003/05/soap-envelope", out XmlDictionaryString? soap);
            writer.WriteStartElement("s", envelope!, soap!);
            writer.WriteAttributeString("id", "7");
            writer.WriteStartElement("n", "");
            writer.WriteValue(42);
            writer.WriteEndElement();
            writer.WriteComment("c");
            writer.WriteEndElement();
        }

        byte[] document = stream.ToArray();
        var result = CliRunner.Run(document, "nbfx", "dump");

        Expect.Equal(0, result.ExitCode, result.StdErr);
        Expect.SameLines(
        [
            "00000000  PrefixDictionaryElementS (0x56)  s:Envelope #2", // Envelope is the dictionary's second string: key 1, id 2
            "00000002    ShortAttribute (0x04)  id = Chars \"7\"", // attributes before declarations, as the in-box writer orders them
            "00000009    DictionaryXmlnsAttribute (0x0B)  xmlns:s = Dictionary #4 \"http://www.w3.org/2003/05/soap-envelope\"",
            "0000000D    ShortElement (0x40)  n",
            "00000010      Int8TextWithEndElement (0x89)  Int8 \"42\"", // the end of n is in the text record
            "00000012    Comment (0x02)  Chars \"c\"",
            "00000015  EndElement (0x01)",
        ], result.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries), "the records of " + Convert.ToHexString(document));
    }

    [Fact]
    public void Dump_prints_the_records_before_a_malformed_one_then_one_line_with_its_offset()
    {
        byte[] damaged = [0x40, 0x01, (byte)'a', 0x99, 0xFF]; // an element, then a text record longer than the input
        var result = CliRunner.Run(damaged, "nbfx", "dump");

        Expect.Equal(2, result.ExitCode, result.StdErr);
        Assert.Equal("00000000  ShortElement (0x40)  a", result.StdOut.Trim());
        Assert.Contains("at byte offset 3", Assert.Single(result.ErrorLines), StringComparison.Ordinal);
    }

    [Fact]
    public void Lenient_encode_writes_an_undeclared_prefix_which_the_in_box_reader_refuses()
    {
        byte[] xml = Encoding.UTF8.GetBytes("<a:b xmlns:c=\"urn:c\" c:x=\"1\"><a:c/></a:b>");
        var strict = CliRunner.Run(xml, "nbfx", "encode", "--dictionary", "none");
        byte[] lenient = RunBinary(xml, "nbfx", "encode", "--dictionary", "none", "--lenient");

        Expect.Equal(2, strict.ExitCode, strict.StdErr);
        Assert.Contains("undeclared prefix", Assert.Single(strict.ErrorLines), StringComparison.Ordinal);
        // PrefixElementA b; an xmlns for c only (none for a); PrefixAttributeC x = OneText; PrefixElementA c; two ends.
        Expect.Equal("5E0162" + "090163057572 6E3A63".Replace(" ", "", StringComparison.Ordinal) + "28017882" + "5E0163" + "01" + "01",
            Convert.ToHexString(lenient), "the records of the lenient document");
        using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(lenient, XmlDictionaryReaderQuotas.Max);
        Assert.Throws<XmlException>(() =>
        {
            while (inBox.Read())
            {
            }
        });
    }

    [Theory]
    [InlineData("5", "4001729808616263 01")] // the text says 8 bytes where 3 stand
    [InlineData("-1", "4001729802616263 01")] // the text says 2 bytes: its last byte is read as a record
    [InlineData("256", "4001729803616263 01")] // the one-byte field wraps around
    public void Lenient_encode_writes_a_wrong_length_where_a_processing_instruction_asks_and_the_in_box_reader_refuses_it(string delta, string expectedHex)
    {
        byte[] xml = Encoding.UTF8.GetBytes($"<r><?nbfx-length {delta}?>abc</r>");
        byte[] bytes = RunBinary(xml, "nbfx", "encode", "--lenient");

        Expect.Equal(expectedHex.Replace(" ", "", StringComparison.Ordinal), Convert.ToHexString(bytes), $"<?nbfx-length {delta}?>");
        if (delta != "256")
        {
            using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
            Assert.ThrowsAny<Exception>(() =>
            {
                while (inBox.Read())
                {
                }
            });
        }
    }

    [Fact]
    public void Decode_then_encode_then_decode_is_stable()
    {
        var first = CliRunner.Run(SoapMessage(), "nbfx", "decode");
        Expect.Equal(0, first.ExitCode, first.StdErr);
        foreach (string dictionary in new[] { "soap", "none" })
        {
            string path = Path.GetTempFileName();
            try
            {
                File.WriteAllText(path, first.StdOut);
                var encoded = RunBinary(path, "nbfx", "encode", "--dictionary", dictionary);
                var again = CliRunner.Run(encoded, "nbfx", "decode", "--dictionary", dictionary);
                Expect.Equal(0, again.ExitCode, again.StdErr);
                Assert.Equal(first.StdOut, again.StdOut);
                // The in-box reader reads what encode wrote.
                Assert.Equal(first.StdOut, InBoxXml(encoded, dictionary == "soap" ? Spanwire.BinaryXml.Nbfx.SoapDictionary : null));
            }
            finally
            {
                File.Delete(path);
            }
        }
    }

    [Fact]
    public void Decode_reads_a_session_table_before_the_document()
    {
        var session = new Spanwire.BinaryXml.NbfxWriterSession();
        var dictionary = new XmlDictionary();
        var body = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(body, null, session))
        {
            writer.WriteStartElement(dictionary.Add("Order"), dictionary.Add("urn:shop"));
            writer.WriteString("x");
            writer.WriteEndElement();
        }

        var framed = new System.Buffers.ArrayBufferWriter<byte>();
        Spanwire.BinaryXml.NbfxSessionTable.Write(framed, session.TakeNewStrings());
        int table = framed.WrittenCount;
        framed.Write(body.ToArray());
        byte[] input = framed.WrittenSpan.ToArray();

        var readerSession = new XmlBinaryReaderSession();
        readerSession.Add(0, "Order");
        readerSession.Add(1, "urn:shop");
        var result = CliRunner.Run(input, "nbfx", "decode", "--session", "--dictionary", "none");
        Expect.Equal(0, result.ExitCode, result.StdErr);
        Assert.Equal(InBoxXml(input, null, readerSession, table), result.StdOut);
    }

    [Theory]
    [InlineData("40 03 64 6F", "byte offset 1")]
    [InlineData("40 01 61 95 00 00 1D 00 00 00 00 00 00 00 00 00 00 00 00 00 01", "byte offset 4")]
    [InlineData("40 01 61 AB FE 07 01", "byte offset 4")]
    public void A_malformed_document_is_one_line_with_its_offset(string hex, string where)
    {
        var result = CliRunner.Run(Convert.FromHexString(hex.Replace(" ", "")), "nbfx", "decode");
        Assert.Equal(2, result.ExitCode);
        Assert.Single(result.ErrorLines);
        Assert.Contains(where, result.StdErr);
        Assert.StartsWith("spanwire nbfx: error: -: malformed binary XML at byte offset", result.StdErr);
        Assert.DoesNotContain("   at ", result.StdErr);
    }

    [Fact]
    public void Bad_arguments_and_bad_xml_are_one_line_each()
    {
        var badOption = CliRunner.Run(SoapMessage(), "nbfx", "decode", "--dictionary", "wcf");
        Assert.Equal(2, badOption.ExitCode);
        Assert.Contains("--dictionary takes 'soap' or 'none'", Assert.Single(badOption.ErrorLines));

        var badXml = CliRunner.Run(Encoding.UTF8.GetBytes("<a><b></a>"), "nbfx", "encode");
        Assert.Equal(2, badXml.ExitCode);
        Assert.Contains("invalid XML", Assert.Single(badXml.ErrorLines));

        var empty = CliRunner.Run([], "nbfx", "decode");
        Assert.Equal(2, empty.ExitCode);
        Assert.Single(empty.ErrorLines);
    }

    private static byte[] RunBinary(byte[] input, params string[] arguments)
    {
        string path = Path.GetTempFileName();
        File.WriteAllBytes(path, input);
        try
        {
            return RunBinary(path, arguments);
        }
        finally
        {
            File.Delete(path);
        }
    }

    private static byte[] RunBinary(string path, params string[] arguments)
    {
        var start = new System.Diagnostics.ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "Spanwire.Cli.dll"));
        foreach (string a in arguments) start.ArgumentList.Add(a);
        start.ArgumentList.Add(path);
        using var process = System.Diagnostics.Process.Start(start)!;
        var output = new MemoryStream();
        Task<string> error = process.StandardError.ReadToEndAsync();
        process.StandardOutput.BaseStream.CopyTo(output);
        process.WaitForExit();
        Expect.Equal(0, process.ExitCode, error.Result);
        return output.ToArray();
    }
}
