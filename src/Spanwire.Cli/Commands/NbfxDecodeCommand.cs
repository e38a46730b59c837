using System.Text;
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
        strings give the odd dictionary ids. The document is read as it is printed, in memory that does not grow with
        it. A malformed document gives one line with the byte offset, exit code 2 (after the first MiB of output, what
        came before it has been printed).

        options:
        {NbfxOptions.DictionaryHelp}
        {NbfxOptions.SessionHelp}
        {Progress.HelpLine(19)}
          --help, -h       show this help
          --version        show the version
        """;

    /// <summary>Output held back until this many characters: a short document that turns out malformed prints nothing.</summary>
    private const int HeldChars = 1 << 20;

    public int Run(ArgumentReader arguments)
    {
        IXmlDictionary? dictionary = NbfxOptions.Dictionary(arguments);
        bool withSession = arguments.Flag("--session");
        arguments.Finish(maxPositionals: 1);
        string inputName = arguments.FirstPositional ?? "-";
        using Stream source = Input.Open(arguments.FirstPositional);
        using Progress reading = Progress.Start("nbfx decode", source.CanSeek ? source.Length : 0, arguments);
        // The document is read as it is printed, so memory holds a window of it, never the whole.
        var input = new CountingStream(source, reading);
        using var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false), 1 << 16);
        var output = new HeldWriter(stdout, HeldChars);
        long tableLength = 0;
        try
        {
            XmlBinaryReaderSession? session = withSession ? NbfxOptions.ReadSession(input) : null;
            tableLength = input.Count;
            var settings = new XmlWriterSettings { Indent = true, OmitXmlDeclaration = true, ConformanceLevel = ConformanceLevel.Auto, CloseOutput = false };
            using (XmlDictionaryReader reader = BinaryXml.Nbfx.CreateReader(input, dictionary, XmlDictionaryReaderQuotas.Max, session))
            using (XmlWriter writer = XmlWriter.Create(output, settings))
            {
                writer.WriteNode(reader, defattr: true);
            }

            if (input.Count == tableLength)
            {
                throw new CliException($"{inputName}: no binary XML document{(withSession ? " after the session table" : "")}");
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
        catch (IOException ex)
        {
            throw new CliException($"cannot read '{inputName}': {ex.Message.TrimEnd('.')}");
        }

        output.Release();
        stdout.WriteLine();
        return ExitCodes.Success;
    }

    /// <summary>A read-only view of the input that counts the bytes read and reports them as progress.</summary>
    private sealed class CountingStream(Stream inner, Progress progress) : Stream
    {
        public long Count { get; private set; }

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => Count;
            set => throw new NotSupportedException();
        }

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            int read = inner.Read(buffer);
            Count += read;
            progress.Report(Count);
            return read;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }

    /// <summary>
    /// Holds what is written until <paramref name="limit"/> characters, then writes through: a malformed document
    /// found early prints nothing but the error; one found late has printed its first part.
    /// </summary>
    private sealed class HeldWriter(TextWriter inner, int limit) : TextWriter
    {
        private StringBuilder? _held = new();

        public override Encoding Encoding => inner.Encoding;

        public override void Write(char value)
        {
            if (_held is null)
            {
                inner.Write(value);
            }
            else
            {
                _held.Append(value);
                ReleaseOverLimit();
            }
        }

        public override void Write(char[] buffer, int index, int count) => Write(buffer.AsSpan(index, count));

        public override void Write(string? value) => Write(value.AsSpan());

        public override void Write(ReadOnlySpan<char> buffer)
        {
            if (_held is null)
            {
                inner.Write(buffer);
            }
            else
            {
                _held.Append(buffer);
                ReleaseOverLimit();
            }
        }

        /// <summary>Writes what is held, and everything after it straight through.</summary>
        public void Release()
        {
            if (_held is not null)
            {
                foreach (ReadOnlyMemory<char> chunk in _held.GetChunks())
                {
                    inner.Write(chunk.Span);
                }

                _held = null;
            }
        }

        private void ReleaseOverLimit()
        {
            if (_held!.Length >= limit)
            {
                Release();
            }
        }
    }
}
