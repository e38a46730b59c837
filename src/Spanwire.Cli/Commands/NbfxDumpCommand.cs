using System.Globalization;
using System.Reflection;
using System.Text;
using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire nbfx dump [--dictionary soap|none] [--session] [FILE|-]</c>: every record with its offset, type, dictionary id and value.</summary>
internal sealed class NbfxDumpCommand : ICommand
{
    // Record type byte to the format's name, from NbfxRecord's constants (the A..Z ranges spelled out).
    private static readonly string[] s_recordNames = RecordNames();

    public string Name => "nbfx dump";

    public string Summary => "list the records of a .NET Binary XML document with their byte offsets";

    public string[] ValueOptions => ["--dictionary"];

    public string[] Flags => ["--session"];

    public string Help => $"""
        usage: spanwire nbfx dump [--dictionary soap|none] [--session] [FILE|-]

        Reads one binary XML document from FILE (standard input for '-' or no FILE) and prints one line per record,
        in document order, for debugging what a service sent or received:

          OFFSET  RECORD (0xTYPE)  NAME or VALUE

        OFFSET is the record's first byte in the file (hexadecimal), RECORD its MC-NBFX type, and a name or value
        taken from a dictionary shows its id as #N (even ids: the static dictionary, odd: the session). Text
        records show their value type and value; a text record with end element closes its element on the same
        line. Lines are indented by element depth. A malformed record ends the listing with one line on stderr
        naming its offset, exit code 2; the records before it are printed.

        options:
        {NbfxOptions.DictionaryHelp}
        {NbfxOptions.SessionHelp}
          --help, -h       show this help
          --version        show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        IXmlDictionary? dictionary = NbfxOptions.Dictionary(arguments);
        bool withSession = arguments.Flag("--session");
        arguments.Finish(maxPositionals: 1);
        string inputName = arguments.FirstPositional ?? "-";
        byte[] input = NbfxOptions.ReadAll(arguments.FirstPositional);
        int tableLength = 0;
        TextWriter output = Console.Out;
        try
        {
            XmlBinaryReaderSession? session = NbfxOptions.ReadSession(input, withSession, out tableLength, out int strings);
            if (session is not null)
            {
                output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{0:X8}  session string table ({tableLength} bytes, {strings} strings)"));
            }

            Dump(input.AsSpan(tableLength), tableLength, dictionary, session, output);
        }
        catch (NbfxFormatException ex)
        {
            output.Flush();
            throw new CliException($"{inputName}: malformed binary XML at byte offset {ex.Offset + tableLength}: {ex.Reason}");
        }

        return ExitCodes.Success;
    }

    /// <summary>Writes one line per record of <paramref name="document"/>, offsets counted from <paramref name="start"/>.</summary>
    internal static void Dump(ReadOnlySpan<byte> document, long start, IXmlDictionary? dictionary, XmlBinaryReaderSession? session, TextWriter output)
    {
        var reader = new NbfxReader(document, dictionary, session, XmlDictionaryReaderQuotas.Max);
        try
        {
            var line = new StringBuilder();
            long textOffset = -1;
            int open = 0; // elements open: an element's records are indented one step more than it
            while (reader.Read())
            {
                long offset = start + reader.TokenStartOffset;
                NbfxTokenType token = reader.TokenType;
                if (token == NbfxTokenType.EndElement)
                {
                    open = Math.Max(0, open - 1);
                    if (offset == textOffset)
                    {
                        continue; // the end of a text record with end element: said on the text's line
                    }
                }

                line.Clear();
                line.Append(CultureInfo.InvariantCulture, $"{offset:X8}  ").Append(' ', 2 * open);
                byte record = reader.RecordType;
                line.Append(CultureInfo.InvariantCulture, $"{s_recordNames[record]} (0x{record:X2})");
                switch (token)
                {
                    case NbfxTokenType.StartElement:
                        line.Append("  ").Append(QualifiedName(ref reader, session));
                        open++;
                        break;
                    case NbfxTokenType.Attribute:
                        line.Append("  ").Append(QualifiedName(ref reader, session)).Append(" = ").Append(Value(ref reader, session));
                        break;
                    case NbfxTokenType.NamespaceDeclaration:
                        string prefix = reader.GetPrefix();
                        line.Append(prefix.Length > 0 ? "  xmlns:" + prefix : "  xmlns").Append(" = ").Append(Value(ref reader, session));
                        break;
                    case NbfxTokenType.Text:
                    case NbfxTokenType.Comment:
                        line.Append("  ").Append(Value(ref reader, session));
                        textOffset = offset;
                        break;
                }

                output.WriteLine(line.ToString());
            }
        }
        finally
        {
            reader.Dispose();
        }
    }

    private static string QualifiedName(ref NbfxReader reader, XmlBinaryReaderSession? session)
    {
        string prefix = reader.GetPrefix();
        string name = reader.GetLocalName();
        return (prefix.Length > 0 ? prefix + ":" : "") + name + Id(reader.LocalNameDictionaryString, session);
    }

    private static string Value(ref NbfxReader reader, XmlBinaryReaderSession? session)
    {
        string key = Id(reader.ValueDictionaryString, session);
        string text = reader.GetString();
        string shown = text.Length > 200 ? text[..200] + $"... ({text.Length} characters)" : text;
        return $"{reader.ValueType}{key} \"{Escape(shown)}\"";
    }

    /// <summary>The id as it stands in the record: a static dictionary string's key times two, a session string's plus one.</summary>
    private static string Id(XmlDictionaryString? fromDictionary, XmlBinaryReaderSession? session) => fromDictionary is null
        ? ""
        : string.Create(CultureInfo.InvariantCulture, $" #{(2 * fromDictionary.Key) + (session is not null && ReferenceEquals(fromDictionary.Dictionary, session) ? 1 : 0)}");

    private static string Escape(string text)
    {
        var escaped = new StringBuilder(text.Length);
        foreach (char c in text)
        {
            _ = c switch
            {
                '"' => escaped.Append("\\\""),
                '\\' => escaped.Append("\\\\"),
                < ' ' => escaped.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:X4}"),
                _ => escaped.Append(c),
            };
        }

        return escaped.ToString();
    }

    private static string[] RecordNames()
    {
        var names = new string[256];
        Array.Fill(names, "Unknown");
        foreach (FieldInfo field in typeof(NbfxRecord).GetFields(BindingFlags.Public | BindingFlags.Static).Where(f => f.IsLiteral && f.FieldType == typeof(byte)))
        {
            byte value = (byte)field.GetRawConstantValue()!;
            string name = field.Name;
            if (name.EndsWith('A') && typeof(NbfxRecord).GetField(name[..^1] + "Z") is { } last)
            {
                for (int b = value; b <= (byte)last.GetRawConstantValue()!; b++)
                {
                    names[b] = name[..^1] + (char)('A' + b - value);
                }
            }
            else if (name != "MaxText" && !name.EndsWith('Z'))
            {
                names[value] = name;
                if (NbfxRecord.IsText(value))
                {
                    names[value + 1] = name + "WithEndElement";
                }
            }
        }

        return names;
    }
}
