using BenchmarkDotNet.Loggers;

namespace Spanwire.Benchmarks;

/// <summary>Writes BenchmarkDotNet's whole log to a file and only one line per benchmark case to the console.</summary>
internal sealed class ProgressLogger(TextWriter file) : ILogger
{
    private const string CaseMarker = "// Benchmark: ";

    public string Id => nameof(ProgressLogger);

    public int Priority => 0;

    public void Write(LogKind logKind, string text) => file.Write(text);

    public void WriteLine() => file.WriteLine();

    public void WriteLine(LogKind logKind, string text)
    {
        file.WriteLine(text);
        if (text.StartsWith(CaseMarker, StringComparison.Ordinal))
        {
            Console.WriteLine("  " + text[CaseMarker.Length..]);
        }
    }

    public void Flush() => file.Flush();
}
