using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using Spanwire.Buffers;
using Spanwire.Json;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire json format [--indent N | --minify] [--relaxed] [FILE|-]</c>: reads with Utf8JsonReader, writes with SpanwireJsonWriter.</summary>
internal sealed class JsonFormatCommand : ICommand
{
    public string Name => "json format";

    public string Summary => "re-indent or minify a JSON document (comments and number text kept)";

    public string[] ValueOptions => ["--indent"];

    public string[] Flags => ["--minify", "--relaxed"];

    public string Help => """
        usage: spanwire json format [--indent N | --minify] [--relaxed] [FILE|-]

        Reads one JSON document from FILE (standard input for '-' or no FILE) and writes it to standard output,
        indented (2 spaces unless --indent says otherwise) or minified. Strings are escaped as System.Text.Json's
        default encoder does, or only as JSON requires with --relaxed. Numbers keep their text; /* */ and //
        comments are kept as /* */ comments. A malformed document gives one line with its line and byte position.

        options:
          --indent N     indent by N spaces (0 to 127; default 2)
          --minify       no whitespace at all
          --relaxed      escape only what JSON requires (not HTML-sensitive or non-ASCII characters)
          --help, -h     show this help
          --version      show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        string? indent = arguments.Option("--indent");
        bool minify = arguments.Flag("--minify");
        bool relaxed = arguments.Flag("--relaxed");
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
        {
            source.CopyTo(input);
        }

        using var output = new PooledBufferWriter();
        try
        {
            Format(input.GetReadOnlySequence(), output, options);
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

    /// <summary>Copies one JSON document token by token from the reader to a SpanwireJsonWriter.</summary>
    internal static void Format(ReadOnlySequence<byte> json, IBufferWriter<byte> output, JsonWriterOptions options)
    {
        var reader = new Utf8JsonReader(json, new JsonReaderOptions { CommentHandling = JsonCommentHandling.Allow, MaxDepth = 1000 });
        using var writer = new SpanwireJsonWriter(output, options);
        byte[] scratch = ArrayPool<byte>.Shared.Rent(1024);
        try
        {
            while (reader.Read())
            {
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
                    case JsonTokenType.Comment: writer.WriteCommentValue(Raw(ref reader, ref scratch)); break;
                }
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(scratch);
        }
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
}
