using System.Buffers;
using System.Xml;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire nbfx encode [--dictionary soap|none] [FILE|-]</c>: XML text to binary XML.</summary>
internal sealed class NbfxEncodeCommand : ICommand
{
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";

    public string Name => "nbfx encode";

    public string Summary => "write an XML document as .NET Binary XML (MC-NBFX)";

    public string[] ValueOptions => ["--dictionary"];

    public string Help => $"""
        usage: spanwire nbfx encode [--dictionary soap|none] [FILE|-]

        Reads one XML document from FILE (standard input for '-' or no FILE) and writes it to standard output as
        binary XML, with the bytes the in-box XmlDictionaryWriter writes for the same nodes. Names and namespaces
        found in the dictionary are written as dictionary ids. Whitespace between elements, processing instructions
        and the XML declaration are dropped; text is written as text. decode, then encode, then decode gives the
        same XML. Malformed XML gives one line with its line and position, exit code 2.

        options:
        {NbfxOptions.DictionaryHelp}
          --help, -h       show this help
          --version        show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        IXmlDictionary? dictionary = NbfxOptions.Dictionary(arguments);
        arguments.Finish(maxPositionals: 1);
        string inputName = arguments.FirstPositional ?? "-";
        byte[] input = NbfxOptions.ReadAll(arguments.FirstPositional);

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
            Copy(reader, writer, names);
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

    private static void Copy(XmlReader reader, XmlDictionaryWriter writer, Names names)
    {
        while (reader.Read())
        {
            switch (reader.NodeType)
            {
                case XmlNodeType.Element:
                    bool empty = reader.IsEmptyElement;
                    writer.WriteStartElement(NullIfEmpty(reader.Prefix), names[reader.LocalName], names[reader.NamespaceURI]);
                    while (reader.MoveToNextAttribute())
                    {
                        if (reader.NamespaceURI == XmlnsNamespace)
                        {
                            writer.WriteXmlnsAttribute(reader.Prefix.Length == 0 ? "" : reader.LocalName, names[reader.Value]);
                        }
                        else
                        {
                            writer.WriteStartAttribute(NullIfEmpty(reader.Prefix), names[reader.LocalName], names[reader.NamespaceURI]);
                            writer.WriteString(reader.Value);
                            writer.WriteEndAttribute();
                        }
                    }
                    reader.MoveToElement();
                    if (empty)
                    {
                        writer.WriteEndElement();
                    }
                    break;
                case XmlNodeType.EndElement:
                    writer.WriteEndElement();
                    break;
                case XmlNodeType.Text:
                case XmlNodeType.CDATA:
                case XmlNodeType.SignificantWhitespace:
                    writer.WriteString(reader.Value);
                    break;
                case XmlNodeType.Comment:
                    writer.WriteComment(reader.Value);
                    break;
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
