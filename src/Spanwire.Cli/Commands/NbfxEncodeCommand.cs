using System.Buffers;
using System.Globalization;
using System.Xml;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire nbfx encode [--dictionary soap|none] [--lenient] [FILE|-]</c>: XML text to binary XML.</summary>
internal sealed class NbfxEncodeCommand : ICommand
{
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";

    public string Name => "nbfx encode";

    public string Summary => "write an XML document as .NET Binary XML (MC-NBFX)";

    public string[] ValueOptions => ["--dictionary"];

    public string[] Flags => ["--lenient"];

    public string Help => $"""
        usage: spanwire nbfx encode [--dictionary soap|none] [--lenient] [FILE|-]

        Reads one XML document from FILE (standard input for '-' or no FILE) and writes it to standard output as
        binary XML, with the bytes the in-box XmlDictionaryWriter writes for the same nodes. Names and namespaces
        found in the dictionary are written as dictionary ids. Whitespace between elements, processing instructions
        and the XML declaration are dropped; text is written as text. decode, then encode, then decode gives the
        same XML. Malformed XML gives one line with its line and position, exit code 2.

        With --lenient it writes records as the text names them, including what .NET would refuse to write or
        read, for testing a service's parser: prefixes with no namespace declaration (the text is read without
        namespace checks), xmlns attributes as given, and, on request, wrong lengths: a processing instruction
        <?nbfx-length N?> before a text node makes that text record's length field N more than its bytes (N may
        be negative). The text is then flushed as its own record (never merged with the end of its element).

        options:
        {NbfxOptions.DictionaryHelp}
          --lenient        write what the in-box writer would refuse (see above)
          --help, -h       show this help
          --version        show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        IXmlDictionary? dictionary = NbfxOptions.Dictionary(arguments);
        bool lenient = arguments.Flag("--lenient");
        arguments.Finish(maxPositionals: 1);
        string inputName = arguments.FirstPositional ?? "-";
        byte[] input = NbfxOptions.ReadAll(arguments.FirstPositional);
        if (lenient)
        {
            return WriteLenient(input, inputName, dictionary);
        }

        var output = new ArrayBufferWriter<byte>();
        var settings = new XmlReaderSettings
        {
            DtdProcessing = DtdProcessing.Prohibit,
            XmlResolver = null,
            IgnoreWhitespace = true,
            IgnoreProcessingInstructions = true,
        };
        var names = new Names(dictionary);
        try
        {
            using XmlReader reader = XmlReader.Create(new MemoryStream(input), settings);
            using XmlDictionaryWriter writer = BinaryXml.Nbfx.CreateWriter(output, dictionary);
            Copy(reader, new DropInSink(writer, names));
        }
        catch (XmlException ex)
        {
            throw new CliException($"{inputName}: invalid XML: {ex.Message.TrimEnd('.')}");
        }
        catch (ArgumentException ex)
        {
            throw new CliException($"{inputName}: cannot be written as binary XML: {ex.Message.TrimEnd('.')}");
        }

        using Stream stdout = Console.OpenStandardOutput();
        stdout.Write(output.WrittenSpan);
        return ExitCodes.Success;
    }

    /// <summary>--lenient: the text read without namespace checks, written by the record layer as it is named.</summary>
    private static int WriteLenient(byte[] input, string inputName, IXmlDictionary? dictionary)
    {
        var output = new ArrayBufferWriter<byte>();
        var lengths = new List<(int Offset, int Delta)>();
        try
        {
#pragma warning disable CA5366 // DTDs are prohibited below; XmlTextReader is the reader that can leave namespaces unchecked
            using var reader = new XmlTextReader(new MemoryStream(input))
            {
                Namespaces = false,
                DtdProcessing = DtdProcessing.Prohibit,
                XmlResolver = null,
                WhitespaceHandling = WhitespaceHandling.Significant,
            };
#pragma warning restore CA5366
            var writer = new BinaryXml.NbfxWriter(output, dictionary);
            Copy(reader, new LenientSink(writer, output, lengths));
            writer.Flush();
        }
        catch (XmlException ex)
        {
            throw new CliException($"{inputName}: invalid XML: {ex.Message.TrimEnd('.')}");
        }

        byte[] bytes = output.WrittenSpan.ToArray();
        foreach ((int offset, int delta) in lengths)
        {
            ChangeLength(bytes, offset, delta, inputName);
        }

        using Stream stdout = Console.OpenStandardOutput();
        stdout.Write(bytes);
        return ExitCodes.Success;
    }

    private static (string? Prefix, string LocalName) Split(string name)
    {
        int colon = name.IndexOf(':', StringComparison.Ordinal);
        return colon < 0 ? (null, name) : (name[..colon], name[(colon + 1)..]);
    }

    /// <summary>Adds <paramref name="delta"/> to the length field of the text record at <paramref name="offset"/> (wrapping in the field's width).</summary>
    private static void ChangeLength(byte[] bytes, int offset, int delta, string inputName)
    {
        byte record = (byte)(bytes[offset] & ~1); // the same text record with or without end element
        int width = record switch
        {
            BinaryXml.NbfxRecord.Chars8Text or BinaryXml.NbfxRecord.Bytes8Text or BinaryXml.NbfxRecord.UnicodeChars8Text => 1,
            BinaryXml.NbfxRecord.Chars16Text or BinaryXml.NbfxRecord.Bytes16Text or BinaryXml.NbfxRecord.UnicodeChars16Text => 2,
            BinaryXml.NbfxRecord.Chars32Text or BinaryXml.NbfxRecord.Bytes32Text or BinaryXml.NbfxRecord.UnicodeChars32Text => 4,
            _ => throw new CliException($"{inputName}: the text after <?nbfx-length?> was written as a record with no length field (0x{bytes[offset]:X2}); give it some text"),
        };
        Span<byte> field = bytes.AsSpan(offset + 1, width);
        uint length = width switch
        {
            1 => field[0],
            2 => System.Buffers.Binary.BinaryPrimitives.ReadUInt16LittleEndian(field),
            _ => System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(field),
        };
        uint changed = unchecked(length + (uint)delta);
        switch (width)
        {
            case 1:
                field[0] = (byte)changed;
                break;
            case 2:
                System.Buffers.Binary.BinaryPrimitives.WriteUInt16LittleEndian(field, (ushort)changed);
                break;
            default:
                System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(field, changed);
                break;
        }
    }

    /// <summary>Walks the XML text's nodes into <paramref name="sink"/>, the same walk for both kinds of encoding.</summary>
    private static void Copy(XmlReader reader, INodeSink sink)
    {
        while (reader.Read())
        {
            switch (reader.NodeType)
            {
                case XmlNodeType.Element:
                    bool empty = reader.IsEmptyElement;
                    sink.StartElement(reader);
                    while (reader.MoveToNextAttribute())
                    {
                        sink.Attribute(reader);
                    }

                    reader.MoveToElement();
                    if (empty)
                    {
                        sink.EndElement();
                    }

                    break;
                case XmlNodeType.EndElement:
                    sink.EndElement();
                    break;
                case XmlNodeType.Text:
                case XmlNodeType.CDATA:
                case XmlNodeType.SignificantWhitespace:
                    sink.Text(reader.Value);
                    break;
                case XmlNodeType.Comment:
                    sink.Comment(reader.Value);
                    break;
                case XmlNodeType.ProcessingInstruction:
                    sink.Instruction(reader);
                    break;
            }
        }
    }

    /// <summary>Where <see cref="Copy"/> puts each node.</summary>
    private interface INodeSink
    {
        void StartElement(XmlReader element);

        void Attribute(XmlReader attribute);

        void EndElement();

        void Text(string text);

        void Comment(string text);

        void Instruction(XmlReader instruction);
    }

    /// <summary>The drop-in writer, with the in-box writer's rules: names through the dictionary where it has them.</summary>
    private sealed class DropInSink(XmlDictionaryWriter writer, Names names) : INodeSink
    {
        public void StartElement(XmlReader element) =>
            writer.WriteStartElement(NullIfEmpty(element.Prefix), names[element.LocalName], names[element.NamespaceURI]);

        public void Attribute(XmlReader attribute)
        {
            if (attribute.NamespaceURI == XmlnsNamespace)
            {
                writer.WriteXmlnsAttribute(attribute.Prefix.Length == 0 ? "" : attribute.LocalName, names[attribute.Value]);
                return;
            }

            writer.WriteStartAttribute(NullIfEmpty(attribute.Prefix), names[attribute.LocalName], names[attribute.NamespaceURI]);
            writer.WriteString(attribute.Value);
            writer.WriteEndAttribute();
        }

        public void EndElement() => writer.WriteEndElement();

        public void Text(string text) => writer.WriteString(text);

        public void Comment(string text) => writer.WriteComment(text);

        public void Instruction(XmlReader instruction)
        {
            // Dropped, as the help says.
        }
    }

    /// <summary>--lenient: the record layer, names as the text spells them, and the wrong lengths asked for.</summary>
    private sealed class LenientSink(BinaryXml.NbfxWriter writer, ArrayBufferWriter<byte> output, List<(int Offset, int Delta)> lengths) : INodeSink
    {
        private int? _delta;

        public void StartElement(XmlReader element)
        {
            (string? prefix, string localName) = Split(element.Name);
            writer.WriteStartElement(prefix, localName);
        }

        public void Attribute(XmlReader attribute)
        {
            string name = attribute.Name;
            if (name == "xmlns" || name.StartsWith("xmlns:", StringComparison.Ordinal))
            {
                writer.WriteXmlnsAttribute(name.Length > 6 ? name[6..] : null, attribute.Value);
                return;
            }

            (string? prefix, string localName) = Split(name);
            writer.WriteStartAttribute(prefix, localName);
            writer.WriteString(attribute.Value);
            writer.WriteEndAttribute();
        }

        public void EndElement() => writer.WriteEndElement();

        public void Text(string text)
        {
            if (_delta is not { } change)
            {
                writer.WriteString(text);
                return;
            }

            // A record of its own, so that its length field is where ChangeLength looks.
            writer.Flush();
            lengths.Add((output.WrittenCount, change));
            writer.WriteString(text);
            writer.Flush();
            _delta = null;
        }

        public void Comment(string text) => writer.WriteComment(text);

        public void Instruction(XmlReader instruction)
        {
            if (instruction.Name == "nbfx-length")
            {
                _delta = int.TryParse(instruction.Value.Trim(), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out int n)
                    ? n
                    : throw new CliException($"<?nbfx-length {instruction.Value.Trim()}?> takes a whole number of bytes (line {((IXmlLineInfo)instruction).LineNumber})");
            }
        }
    }

    private static string? NullIfEmpty(string s) => s.Length == 0 ? null : s;

    /// <summary>Dictionary strings for names: the dictionary's own where it has the string, else a string of no dictionary the writer knows.</summary>
    private sealed class Names(IXmlDictionary? dictionary)
    {
        private readonly XmlDictionary _others = new();

        public XmlDictionaryString this[string value] =>
            dictionary is not null && dictionary.TryLookup(value, out XmlDictionaryString? known) ? known
            : _others.TryLookup(value, out XmlDictionaryString? other) ? other : _others.Add(value);
    }
}
