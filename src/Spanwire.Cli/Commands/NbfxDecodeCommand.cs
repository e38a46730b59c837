using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire nbfx decode [--dictionary soap|none] [--session] [--progress] [FILE|-]</c>: binary XML to indented XML text.</summary>
internal sealed class NbfxDecodeCommand : ICommand
{
    public string Name => "nbfx decode";

    public string Summary => "print a .NET Binary XML document (MC-NBFX) as indented XML";

    public string[] ValueOptions => ["--dictionary"];

    public string[] Flags => ["--session", Progress.Flag];

    public string Help => $"""
        usage: spanwire nbfx decode [--dictionary soap|none] [--session] [--progress] [FILE|-]

        Reads one binary XML document from FILE (standard input for '-' or no FILE) and prints it as indented XML.
        Typed values (numbers, dates, GUIDs, base64) print as the in-box XmlDictionaryReader shows them. With
        --session the document is preceded by an MC-NBFSE string table (application/soap+msbinsession1), whose
        strings give the odd dictionary ids. A malformed document gives one line with the byte offset, exit code 2.

        options:
        {NbfxOptions.DictionaryHelp}
        {NbfxOptions.SessionHelp}
        {Progress.HelpLine(19)}
          --help, -h       show this help
          --version        show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        IXmlDictionary? dictionary = NbfxOptions.Dictionary(arguments);
        bool withSession = arguments.Flag("--session");
        arguments.Finish(maxPositionals: 1);
        string inputName = arguments.FirstPositional ?? "-";
        byte[] input;
        using (Progress reading = Progress.Start("nbfx decode: reading", 0, arguments))
        {
            input = NbfxOptions.ReadAll(arguments.FirstPositional, reading);
        }

        var output = new StringWriter();
        using Progress decoding = Progress.Start("nbfx decode: XML written", 0, arguments);
        int tableLength = 0;
        try
        {
            XmlBinaryReaderSession? session = NbfxOptions.ReadSession(input, withSession, out tableLength, out _);

            if (input.Length == tableLength)
            {
                throw new CliException($"{inputName}: no binary XML document{(withSession ? " after the session table" : "")}");
            }

            var settings = new XmlWriterSettings { Indent = true, OmitXmlDeclaration = true, ConformanceLevel = ConformanceLevel.Auto };
            using XmlDictionaryReader reader = BinaryXml.Nbfx.CreateReader(input.AsMemory(tableLength), dictionary, XmlDictionaryReaderQuotas.Max, session);
            using (XmlWriter writer = XmlWriter.Create(new CountingWriter(output, decoding), settings))
            {
                writer.WriteNode(reader, defattr: true);
            }
        }
        catch (NbfxFormatException ex)
        {
            // Offsets in the document are counted from its start; report them in the file.
            long offset = ex.Offset + tableLength;
            throw new CliException($"{inputName}: malformed binary XML at byte offset {offset}: {ex.Reason}");
        }
        catch (ArgumentException ex)
        {
            throw new CliException($"{inputName}: the document cannot be printed as XML: {ex.Message.TrimEnd('.')}");
        }
        catch (XmlException ex)
        {
            throw new CliException($"{inputName}: malformed binary XML: {ex.Message.TrimEnd('.')}");
        }

        Console.Out.Write(output.ToString());
        Console.Out.WriteLine();
        return ExitCodes.Success;
    }

    /// <summary>Forwards to another writer, reporting the characters written so far as progress.</summary>
    private sealed class CountingWriter(TextWriter inner, Progress progress) : TextWriter
    {
        private long _written;

        public override System.Text.Encoding Encoding => inner.Encoding;

        public override void Write(char value)
        {
            inner.Write(value);
            _written++;
        }

        public override void Write(char[] buffer, int index, int count)
        {
            inner.Write(buffer, index, count);
            Count(count);
        }

        public override void Write(ReadOnlySpan<char> buffer)
        {
            inner.Write(buffer);
            Count(buffer.Length);
        }

        public override void Write(string? value)
        {
            inner.Write(value);
            Count(value?.Length ?? 0);
        }

        private void Count(int count)
        {
            _written += count;
            progress.Report(_written);
        }
    }
}
