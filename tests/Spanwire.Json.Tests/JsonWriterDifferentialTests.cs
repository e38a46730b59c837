using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace Spanwire.Json.Tests;

/// <summary>
/// The same seeded random calls on Utf8JsonWriter and on JsonWriter, under every option combination, give the same
/// bytes, the same running byte count after every call, and the same exception type at the same call.
/// </summary>
public sealed class JsonWriterDifferentialTests
{
    private const int Documents = 10_000;

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

        return all;
    }

    [Fact]
    public void Random_documents_under_every_option_combination_match_Utf8JsonWriter()
    {
        List<JsonWriterOptions> combinations = Combinations();
        Assert.Equal(6 * 18, combinations.Count);
        int failures = 0;
        string? first = null;
        Parallel.For(0, Documents, new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount }, seed =>
        {
            List<JsonOp> ops = RandomJson.Document(seed);
            for (int c = 0; c < combinations.Count; c++)
            {
                string? difference = Compare(ops, combinations[c]);
                if (difference is not null && Interlocked.Increment(ref failures) == 1)
                {
                    first = $"seed {seed}, options #{c} ({Describe(combinations[c])}): {difference}";
                }
            }
        });

        Assert.True(failures == 0, $"{failures} documents differ; first: {first}");
    }

    internal static string Describe(JsonWriterOptions o) =>
        $"encoder {(o.Encoder is null ? "none" : o.Encoder == JavaScriptEncoder.UnsafeRelaxedJsonEscaping ? "relaxed" : "Default")}, " +
        $"skip {o.SkipValidation}, maxDepth {o.MaxDepth}, indented {o.Indented}" +
        (o.Indented ? $" '{(o.IndentCharacter == '\t' ? "\\t" : " ")}'x{o.IndentSize} {(o.NewLine == "\n" ? "LF" : "CRLF")}" : "");

    /// <summary>Runs the calls on both writers; null when they agree, else what differs.</summary>
    internal static string? Compare(List<JsonOp> ops, JsonWriterOptions options)
    {
        var expectedOutput = new ArrayBufferWriter<byte>();
        var actualOutput = new ArrayBufferWriter<byte>();
        using var expected = new Utf8JsonWriter(expectedOutput, options);
        using var actual = new JsonWriter(actualOutput, options);
        for (int i = 0; i < ops.Count; i++)
        {
            Exception? e = Run(() => ops[i].OnIncumbent(expected));
            Exception? a = Run(() => ops[i].OnSpanwire(actual));
            if (e?.GetType() != a?.GetType() && !IsKnownIncumbentDefect(ops[i], e, a))
            {
                return $"call {i} {ops[i]}: Utf8JsonWriter {Name(e)}, JsonWriter {Name(a)}; calls: {string.Join(", ", ops.Take(i + 1))}";
            }

            if (e is not null)
            {
                return null; // both refused the same call; what follows an exception is unspecified
            }

            long e1 = expected.BytesCommitted + expected.BytesPending;
            long a1 = actual.BytesCommitted + actual.BytesPending;
            if (e1 != a1 || expected.CurrentDepth != actual.CurrentDepth)
            {
                expected.Flush();
                actual.Flush();
                return $"after call {i} {ops[i]}: {e1} vs {a1} bytes, depth {expected.CurrentDepth} vs {actual.CurrentDepth}\n" +
                    $"  Utf8JsonWriter: {Show(expectedOutput.WrittenSpan)}\n  JsonWriter:     {Show(actualOutput.WrittenSpan)}\n  calls: {string.Join(", ", ops.Take(i + 1))}";
            }
        }

        expected.Flush();
        actual.Flush();
        if (!expectedOutput.WrittenSpan.SequenceEqual(actualOutput.WrittenSpan))
        {
            return $"bytes differ\n  Utf8JsonWriter: {Show(expectedOutput.WrittenSpan)}\n  JsonWriter:     {Show(actualOutput.WrittenSpan)}\n  calls: {string.Join(", ", ops)}";
        }

        return null;
    }

    /// <summary>
    /// Utf8JsonWriter throws IndexOutOfRangeException for a UTF-16 comment with invalid UTF-16 (it indexes the
    /// chars with a byte count while building its ArgumentException). JsonWriter throws the ArgumentException.
    /// </summary>
    private static bool IsKnownIncumbentDefect(JsonOp op, Exception? incumbent, Exception? spanwire) =>
        op.Description.StartsWith("Comment(\"", StringComparison.Ordinal) &&
        incumbent is IndexOutOfRangeException && spanwire is ArgumentException;

    private static Exception? Run(Action action)
    {
        try
        {
            action();
            return null;
        }
        catch (Exception ex)
        {
            return ex;
        }
    }

    private static string Name(Exception? e) => e is null ? "no exception" : $"{e.GetType().Name} ({e.Message})";

    private static string Show(ReadOnlySpan<byte> bytes)
    {
        string text = System.Text.Encoding.UTF8.GetString(bytes).Replace("\r", "\\r", StringComparison.Ordinal).Replace("\n", "\\n", StringComparison.Ordinal);
        return text.Length > 600 ? text[..600] + "..." : text;
    }
}
