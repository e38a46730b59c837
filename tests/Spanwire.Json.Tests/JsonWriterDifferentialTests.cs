using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace Spanwire.Json.Tests;

/// <summary>
/// The same seeded random calls on Utf8JsonWriter and on SpanwireJsonWriter, under every option combination, give the same
/// bytes, the same running byte count after every call, and the same exception type at the same call.
/// </summary>
public sealed class JsonWriterDifferentialTests
{
    private static readonly int s_documents = LongRuns.Scale(10_000);

    /// <summary>Total sizes of the fixed outputs: none, tiny, the writer's first request and either side of it, roomy.</summary>
    private static readonly int[] s_capacities = [0, 1, 16, 255, 256, 257, 300, 1000, 5000, 70_000];

    /// <summary>
    /// Every combination that changes output: encoder (none, Default, relaxed) × validation on/off × formatting
    /// (minimized, or indented with each indent character, size 0/1/2/4 and new line); MaxDepth default and 5 when minimized.
    /// </summary>
    public static List<JsonWriterOptions> Combinations()
    {
        var all = new List<JsonWriterOptions>();
        foreach (JavaScriptEncoder? encoder in new[] { null, JavaScriptEncoder.Default, JavaScriptEncoder.UnsafeRelaxedJsonEscaping })
        {
            foreach (bool skip in new[] { false, true })
            {
                all.Add(new JsonWriterOptions { Encoder = encoder, SkipValidation = skip });
                all.Add(new JsonWriterOptions { Encoder = encoder, SkipValidation = skip, MaxDepth = 5 });
                foreach (char indentCharacter in new[] { ' ', '\t' })
                {
                    foreach (int indentSize in new[] { 0, 1, 2, 4 })
                    {
                        foreach (string newLine in new[] { "\n", "\r\n" })
                        {
                            all.Add(new JsonWriterOptions
                            {
                                Encoder = encoder,
                                SkipValidation = skip,
                                Indented = true,
                                IndentCharacter = indentCharacter,
                                IndentSize = indentSize,
                                NewLine = newLine,
                            });
                        }
                    }
                }
            }
        }

        // Encoders of the caller's own: the writer escapes through the encoder itself, not a table of its own.
        foreach (JavaScriptEncoder encoder in s_customEncoders)
        {
            foreach (bool skip in new[] { false, true })
            {
                all.Add(new JsonWriterOptions { Encoder = encoder, SkipValidation = skip });
                all.Add(new JsonWriterOptions { Encoder = encoder, SkipValidation = skip, Indented = true });
            }
        }

        return all;
    }

    private static readonly JavaScriptEncoder[] s_customEncoders =
    [
        JavaScriptEncoder.Create(System.Text.Unicode.UnicodeRanges.All),
        JavaScriptEncoder.Create(System.Text.Unicode.UnicodeRanges.BasicLatin, System.Text.Unicode.UnicodeRanges.Cyrillic),
    ];

    [Fact]
    public void Random_documents_under_every_option_combination_match_Utf8JsonWriter()
    {
        List<JsonWriterOptions> combinations = Combinations();
        Assert.Equal((6 * 18) + 8, combinations.Count);
        int failures = 0;
        string? first = null;
        Parallel.For(0, s_documents, new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount }, seed =>
        {
            List<JsonOp> ops = RandomJson.Document(seed);
            var kind = (OutputKind)(seed % 4);
            int capacity = s_capacities[seed / 4 % s_capacities.Length];
            for (int c = 0; c < combinations.Count; c++)
            {
                string? difference = Compare(ops, combinations[c], kind, capacity) ??
                    (c % 9 == seed % 9 ? CompareOnStreams(ops, combinations[c]) : null); // streams on a ninth of the combinations
                if (difference is not null && Interlocked.Increment(ref failures) == 1)
                {
                    first = $"seed {seed}, options #{c} ({Describe(combinations[c])}), output {kind}" +
                        (kind == OutputKind.Fixed ? $" of {capacity} bytes" : "") + $": {difference}";
                }
            }
        });

        Expect.Equal(0, failures, $"{failures} documents differ; first: {first}");
    }

    internal static string Describe(JsonWriterOptions o) =>
        $"encoder {(o.Encoder is null ? "none" : o.Encoder == JavaScriptEncoder.UnsafeRelaxedJsonEscaping ? "relaxed" : o.Encoder == JavaScriptEncoder.Default ? "Default" : $"custom #{Array.IndexOf(s_customEncoders, o.Encoder)}")}, " +
        $"skip {o.SkipValidation}, maxDepth {o.MaxDepth}, indented {o.Indented}" +
        (o.Indented ? $" '{(o.IndentCharacter == '\t' ? "\\t" : " ")}'x{o.IndentSize} {(o.NewLine == "\n" ? "LF" : "CRLF")}" : "");

    /// <summary>Runs the calls on both writers into growing outputs; null when they agree, else what differs.</summary>
    internal static string? Compare(List<JsonOp> ops, JsonWriterOptions options) => Compare(ops, options, OutputKind.Growing);

    /// <summary>
    /// Runs the calls on both writers, each into its own <see cref="RecordingOutput"/> of <paramref name="kind"/>; null
    /// when they agree, else what differs. They agree when every call throws the same exception type or none, leaves
    /// the same BytesPending, BytesCommitted and CurrentDepth, and the outputs saw the same GetMemory hints and Advance
    /// counts in the same order and hold the same bytes.
    /// </summary>
    internal static string? Compare(List<JsonOp> ops, JsonWriterOptions options, OutputKind kind, int capacity = 256)
    {
        var expectedOutput = new RecordingOutput(kind, capacity);
        var actualOutput = new RecordingOutput(kind, capacity);
        using var expected = new Utf8JsonWriter(expectedOutput, options);
        using var actual = new SpanwireJsonWriter(actualOutput, options);
        string Context(int i) =>
            $"\n  Utf8JsonWriter: {Show(expectedOutput.WrittenSpan)}\n  SpanwireJsonWriter:     {Show(actualOutput.WrittenSpan)}" +
            $"\n  Utf8JsonWriter output calls: {expectedOutput.Log}\n  SpanwireJsonWriter output calls:     {actualOutput.Log}" +
            $"\n  calls: {string.Join(", ", ops.Take(i + 1))}";

        for (int i = 0; i < ops.Count; i++)
        {
            Exception? e = Record.Exception(() => ops[i].OnIncumbent(expected));
            Exception? a = Record.Exception(() => ops[i].OnSpanwire(actual));
            if (e?.GetType() != a?.GetType() && !IsKnownIncumbentDefect(ops[i], e, a))
            {
                return $"call {i} {ops[i]}: Utf8JsonWriter {Name(e)}, SpanwireJsonWriter {Name(a)}" + Context(i);
            }

            if (e is not null)
            {
                return null; // both refused the same call; what follows an exception is unspecified
            }

            if (expected.BytesPending != actual.BytesPending || expected.BytesCommitted != actual.BytesCommitted ||
                expected.CurrentDepth != actual.CurrentDepth || expectedOutput.Log != actualOutput.Log)
            {
                return $"after call {i} {ops[i]}: pending {expected.BytesPending} vs {actual.BytesPending}, committed " +
                    $"{expected.BytesCommitted} vs {actual.BytesCommitted}, depth {expected.CurrentDepth} vs {actual.CurrentDepth}" + Context(i);
            }
        }

        Exception? ef = Record.Exception(expected.Flush);
        Exception? af = Record.Exception(actual.Flush);
        if (ef?.GetType() != af?.GetType() || expectedOutput.Log != actualOutput.Log ||
            !expectedOutput.WrittenSpan.SequenceEqual(actualOutput.WrittenSpan))
        {
            return $"after the final Flush ({Name(ef)} vs {Name(af)})" + Context(ops.Count - 1);
        }

        return null;
    }

    /// <summary>
    /// As <see cref="Compare(List{JsonOp}, JsonWriterOptions, OutputKind, int)"/> with both writers writing to a
    /// stream: the same BytesPending and BytesCommitted after every call, and the same bytes in the streams after
    /// every call (the stream sees bytes only on Flush) and at the end.
    /// </summary>
    internal static string? CompareOnStreams(List<JsonOp> ops, JsonWriterOptions options)
    {
        var expectedStream = new MemoryStream();
        var actualStream = new MemoryStream();
        using var expected = new Utf8JsonWriter(expectedStream, options);
        using var actual = new SpanwireJsonWriter(actualStream, options);
        for (int i = 0; i < ops.Count; i++)
        {
            Exception? e = Record.Exception(() => ops[i].OnIncumbent(expected));
            Exception? a = Record.Exception(() => ops[i].OnSpanwire(actual));
            if (e?.GetType() != a?.GetType() && !IsKnownIncumbentDefect(ops[i], e, a))
            {
                return $"stream, call {i} {ops[i]}: Utf8JsonWriter {Name(e)}, SpanwireJsonWriter {Name(a)}; calls: {string.Join(", ", ops.Take(i + 1))}";
            }

            if (e is not null)
            {
                return null;
            }

            if (expected.BytesPending != actual.BytesPending || expected.BytesCommitted != actual.BytesCommitted ||
                !expectedStream.ToArray().AsSpan().SequenceEqual(actualStream.ToArray()))
            {
                return $"stream, after call {i} {ops[i]}: pending {expected.BytesPending} vs {actual.BytesPending}, committed " +
                    $"{expected.BytesCommitted} vs {actual.BytesCommitted}\n  Utf8JsonWriter: {Show(expectedStream.ToArray())}\n  SpanwireJsonWriter:     {Show(actualStream.ToArray())}" +
                    $"\n  calls: {string.Join(", ", ops.Take(i + 1))}";
            }
        }

        expected.Flush();
        actual.Flush();
        return expectedStream.ToArray().AsSpan().SequenceEqual(actualStream.ToArray())
            ? null
            : $"stream, after the final Flush\n  Utf8JsonWriter: {Show(expectedStream.ToArray())}\n  SpanwireJsonWriter:     {Show(actualStream.ToArray())}";
    }

    /// <summary>
    /// Utf8JsonWriter throws IndexOutOfRangeException for a UTF-16 comment with invalid UTF-16 (it indexes the
    /// chars with a byte count while building its ArgumentException). SpanwireJsonWriter throws the ArgumentException.
    /// </summary>
    internal static bool IsKnownIncumbentDefect(JsonOp op, Exception? incumbent, Exception? spanwire) =>
        op.Description.StartsWith("Comment(\"", StringComparison.Ordinal) &&
        incumbent is IndexOutOfRangeException && spanwire is ArgumentException;

    private static string Name(Exception? e) => e is null ? "no exception" : $"{e.GetType().Name} ({e.Message})";

    private static string Show(ReadOnlySpan<byte> bytes)
    {
        string text = System.Text.Encoding.UTF8.GetString(bytes).Replace("\r", "\\r", StringComparison.Ordinal).Replace("\n", "\\n", StringComparison.Ordinal);
        return text.Length > 600 ? text[..600] + "..." : text;
    }
}
