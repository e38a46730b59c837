using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using Spanwire.Buffers;
using Spanwire.Json;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire json format [--indent N | --minify] [--relaxed] [--lossy] [--progress] [FILE|-]</c>: reads with Utf8JsonReader, writes with SpanwireJsonWriter.</summary>
internal sealed class JsonFormatCommand : ICommand
{
    public string Name => "json format";

    public string Summary => "re-indent or minify a JSON document (comments and number text kept)";

    public string[] ValueOptions => ["--indent"];

    public string[] Flags => ["--minify", "--relaxed", "--lossy", Progress.Flag];

    public string Help => $"""
        usage: spanwire json format [--indent N | --minify] [--relaxed] [--lossy] [--progress] [FILE|-]

        Reads one JSON document from FILE (standard input for '-' or no FILE) and writes it to standard output,
        indented (2 spaces unless --indent says otherwise) or minified. Strings are escaped as System.Text.Json's
        default encoder does, or with --relaxed as its UnsafeRelaxedJsonEscaping encoder does. Numbers keep their
        text; /* */ and // comments are kept as /* */ comments. A UTF-8 byte order mark at the start is skipped.
        A malformed document, or a string that is not valid UTF-8, gives one line with its position, exit code 2.

        options:
          --indent N     indent by N spaces (0 to 127; default 2)
          --minify       no whitespace at all
          --relaxed      leave HTML-sensitive characters (< > & ' +) and non-ASCII characters of the Basic
                         Multilingual Plane unescaped; control characters, quotes, backslashes, and characters
                         beyond U+FFFF (emoji) are still escaped (as \uXXXX, in surrogate pairs)
          --lossy        write invalid UTF-8 in strings and comments as U+FFFD instead of refusing the document
        {Progress.HelpLine(17)}
          --help, -h     show this help
          --version      show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        string? indent = arguments.Option("--indent");
        bool minify = arguments.Flag("--minify");
        bool relaxed = arguments.Flag("--relaxed");
        bool lossy = arguments.Flag("--lossy");
        arguments.Finish(maxPositionals: 1);
        if (minify && indent is not null)
        {
            throw new CliException("--indent and --minify cannot be used together");
        }

        int indentSize = 2;
        if (indent is not null && (!int.TryParse(indent, out indentSize) || indentSize is < 0 or > 127))
        {
            throw new CliException($"--indent takes a number from 0 to 127; got '{indent}'");
        }

        var options = new JsonWriterOptions
        {
            Indented = !minify,
            IndentSize = minify ? 2 : indentSize,
            Encoder = relaxed ? JavaScriptEncoder.UnsafeRelaxedJsonEscaping : null,
            SkipValidation = true, // the reader has validated the structure
        };

        string inputName = arguments.FirstPositional ?? "-";
        using var input = new PooledStream();
        using (Stream source = Input.Open(arguments.FirstPositional))
        using (Progress reading = Progress.Start("json format: reading", source.CanSeek ? source.Length : 0, arguments))
        {
            Input.CopyTo(source, input, reading);
        }

        using var output = new PooledBufferWriter();
        try
        {
            using Progress formatting = Progress.Start("json format", input.Length, arguments);
            Format(WithoutByteOrderMark(input.GetReadOnlySequence()), output, options, lossy, formatting);
        }
        catch (InvalidUtf8Exception ex)
        {
            throw new CliException($"{inputName}: invalid UTF-8 at byte {ex.Offset + 1}, in a {ex.Token} (--lossy writes U+FFFD for it)");
        }
        catch (JsonException ex) when (ex.LineNumber is null)
        {
            throw new CliException($"{inputName}: invalid JSON: {ex.Message}");
        }
        catch (JsonException ex)
        {
            long line = (ex.LineNumber ?? 0) + 1;
            long column = (ex.BytePositionInLine ?? 0) + 1;
            throw new CliException($"{inputName}: invalid JSON at line {line}, byte {column}: {FirstSentence(ex.Message)}");
        }

        using Stream stdout = Console.OpenStandardOutput();
        output.CopyTo(stdout);
        stdout.Write("\n"u8);
        return ExitCodes.Success;
    }

    /// <summary>The document without a UTF-8 byte order mark (EF BB BF), as Windows editors save.</summary>
    private static ReadOnlySequence<byte> WithoutByteOrderMark(ReadOnlySequence<byte> json)
    {
        if (json.Length < 3)
        {
            return json;
        }

        Span<byte> start = stackalloc byte[3];
        json.Slice(0, 3).CopyTo(start);
        return start.SequenceEqual("\uFEFF"u8) ? json.Slice(3) : json;
    }

    /// <summary>
    /// Copies one JSON document token by token from the reader to a SpanwireJsonWriter. Strings, property names and
    /// comments must be valid UTF-8 (the reader does not check), unless <paramref name="lossy"/>: then the writer
    /// replaces what is not with U+FFFD.
    /// </summary>
    /// <exception cref="InvalidUtf8Exception">A token holds invalid UTF-8 and <paramref name="lossy"/> is false.</exception>
    internal static void Format(ReadOnlySequence<byte> json, IBufferWriter<byte> output, JsonWriterOptions options, bool lossy = false, Progress? progress = null)
    {
        var reader = new Utf8JsonReader(json, new JsonReaderOptions { CommentHandling = JsonCommentHandling.Allow, MaxDepth = 1000 });
        using var writer = new SpanwireJsonWriter(output, options);
        byte[] scratch = ArrayPool<byte>.Shared.Rent(1024);
        try
        {
            int tokens = 0;
            while (reader.Read())
            {
                if ((++tokens & 0xFFF) == 0)
                {
                    progress?.Report(reader.BytesConsumed);
                }

                if (!lossy && reader.TokenType is JsonTokenType.PropertyName or JsonTokenType.String)
                {
                    // Before unescaping, so the offset is the input's; a comment is checked where it is written.
                    ThrowIfInvalidUtf8(ref reader, Raw(ref reader, ref scratch));
                }

                switch (reader.TokenType)
                {
                    case JsonTokenType.StartObject: writer.WriteStartObject(); break;
                    case JsonTokenType.EndObject: writer.WriteEndObject(); break;
                    case JsonTokenType.StartArray: writer.WriteStartArray(); break;
                    case JsonTokenType.EndArray: writer.WriteEndArray(); break;
                    case JsonTokenType.PropertyName: writer.WritePropertyName(Unescaped(ref reader, ref scratch)); break;
                    case JsonTokenType.String: writer.WriteStringValue(Unescaped(ref reader, ref scratch)); break;
                    case JsonTokenType.Number: writer.WriteNumberValue(Raw(ref reader, ref scratch)); break;
                    case JsonTokenType.True: writer.WriteBooleanValue(true); break;
                    case JsonTokenType.False: writer.WriteBooleanValue(false); break;
                    case JsonTokenType.Null: writer.WriteNullValue(); break;
                    case JsonTokenType.Comment: WriteComment(writer, ref reader, Raw(ref reader, ref scratch), lossy); break;
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(scratch);
        }
    }

    /// <summary>
    /// A comment's text: refused when it is not valid UTF-8, unless <paramref name="lossy"/>, which writes the invalid
    /// bytes as U+FFFD (the writer itself would refuse them).
    /// </summary>
    private static void WriteComment(SpanwireJsonWriter writer, ref Utf8JsonReader reader, scoped ReadOnlySpan<byte> text, bool lossy)
    {
        if (System.Text.Unicode.Utf8.IsValid(text))
        {
            writer.WriteCommentValue(text);
            return;
        }

        if (!lossy)
        {
            ThrowIfInvalidUtf8(ref reader, text);
        }

        writer.WriteCommentValue(System.Text.Encoding.UTF8.GetString(text));
    }

    /// <summary>Throws <see cref="InvalidUtf8Exception"/> when <paramref name="text"/>, the token's text as it stands in the input, is not valid UTF-8.</summary>
    private static void ThrowIfInvalidUtf8(ref Utf8JsonReader reader, scoped ReadOnlySpan<byte> text)
    {
        if (System.Text.Unicode.Utf8.IsValid(text))
        {
            return;
        }

        int bad = 0;
        while (System.Text.Rune.DecodeFromUtf8(text[bad..], out _, out int consumed) == OperationStatus.Done)
        {
            bad += consumed;
        }

        // The value starts one byte after its token (past the opening quote, or the comment's two-byte opener).
        long offset = reader.TokenStartIndex + (reader.TokenType == JsonTokenType.Comment ? 2 : 1) + bad;
        string token = reader.TokenType switch
        {
            JsonTokenType.PropertyName => "property name",
            JsonTokenType.Comment => "comment",
            _ => "string",
        };
        throw new InvalidUtf8Exception(offset, token);
    }

    /// <summary>A string token's value, unescaped, as UTF-8.</summary>
    private static ReadOnlySpan<byte> Unescaped(ref Utf8JsonReader reader, ref byte[] scratch)
    {
        if (!reader.ValueIsEscaped && !reader.HasValueSequence)
        {
            return reader.ValueSpan;
        }

        int max = reader.HasValueSequence ? (int)reader.ValueSequence.Length : reader.ValueSpan.Length;
        Fit(ref scratch, max);
        try
        {
            int n = reader.CopyString(scratch);
            return scratch.AsSpan(0, n);
        }
        catch (InvalidOperationException ex)
        {
            // Well-formed JSON whose escapes are not text: a lone surrogate such as "\ud800".
            throw new JsonException($"{FirstSentence(ex.Message)} (the string at byte {reader.TokenStartIndex + 1})", ex);
        }
    }

    /// <summary>A token's text as it stands in the input.</summary>
    private static ReadOnlySpan<byte> Raw(ref Utf8JsonReader reader, ref byte[] scratch)
    {
        if (!reader.HasValueSequence)
        {
            return reader.ValueSpan;
        }

        ReadOnlySequence<byte> value = reader.ValueSequence;
        Fit(ref scratch, (int)value.Length);
        value.CopyTo(scratch);
        return scratch.AsSpan(0, (int)value.Length);
    }

    private static void Fit(ref byte[] scratch, int length)
    {
        if (scratch.Length < length)
        {
            ArrayPool<byte>.Shared.Return(scratch);
            scratch = ArrayPool<byte>.Shared.Rent(length);
        }
    }

    private static string FirstSentence(string message)
    {
        int end = message.IndexOf(". ", StringComparison.Ordinal);
        return (end > 0 ? message[..end] : message.TrimEnd('.')).Replace('\n', ' ');
    }

    /// <summary>Invalid UTF-8 in a token, at an offset from the start of the input.</summary>
    internal sealed class InvalidUtf8Exception(long offset, string token) : Exception($"invalid UTF-8 at byte {offset} in a {token}")
    {
        public long Offset { get; } = offset;

        public string Token { get; } = token;
    }
}
