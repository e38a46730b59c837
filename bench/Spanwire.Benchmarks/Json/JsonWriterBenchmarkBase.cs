using System.Buffers;
using System.Text.Json;
using BenchmarkDotNet.Attributes;

namespace Spanwire.Benchmarks.Json;

/// <summary>
/// What the .NET performance repository's Utf8JsonWriter benchmarks share: one reused ArrayBufferWriter cleared
/// each time, a new writer each time, and the parameters Formatted × SkipValidation (Formatted in the full job only).
/// </summary>
[MemoryDiagnoser]
public abstract class JsonWriterBenchmarkBase
{
    protected ArrayBufferWriter<byte> Output { get; } = new();

    /// <summary>
    /// Indented output, in the full job only: the quick job keeps to minimized output, with and without validation,
    /// to stay short (indentation is the same fill in both writers).
    /// </summary>
    public static IEnumerable<bool> FormattedValues => Environment.GetEnvironmentVariable("SPANWIRE_BENCH_FULL") == "1"
        ? [false, true]
        : [false];

    [ParamsSource(nameof(FormattedValues))]
    public bool Formatted { get; set; }

    [Params(false, true)]
    public bool SkipValidation { get; set; }

    protected JsonWriterOptions Options => new() { Indented = Formatted, SkipValidation = SkipValidation };

    protected Utf8JsonWriter NewUtf8JsonWriter()
    {
        Output.Clear();
        return new Utf8JsonWriter(Output, Options);
    }

    protected Spanwire.Json.SpanwireJsonWriter NewJsonWriter()
    {
        Output.Clear();
        return new Spanwire.Json.SpanwireJsonWriter(Output, Options);
    }
}
