using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Spanwire.Generators;

namespace Spanwire.Tests;

/// <summary>
/// The house rules the build enforces (gen/Spanwire.Generators/TaskAndTryAnalyzer.cs), run on probes: each rule
/// fires on the code it forbids and stays quiet on the code it asks for instead.
/// </summary>
public class HouseRuleTests
{
    public static TheoryData<string, string, string> Probes => new()
    {
        { "Task.Run starts a task nobody owns (and here drops it too)", "System.Threading.Tasks.Task.Run(() => { });", "SPW001,SPW002" },
        { "StartNew too, even kept", "var started = System.Threading.Tasks.Task.Factory.StartNew(() => { }); started.Wait();", "SPW001" },
        { "a task discarded with _", "_ = System.Threading.Tasks.Task.Delay(1);", "SPW002" },
        { "a task dropped as a statement", "System.Threading.Tasks.Task.Delay(1);", "SPW002" },
        { "a ValueTask dropped", "_ = new System.IO.MemoryStream().WriteAsync(default(ReadOnlyMemory<byte>));", "SPW002" },
        { "a Try result dropped", "int.TryParse(\"1\", out int n);", "SPW003" },
        { "a Try result discarded with _", "_ = int.TryParse(\"1\", out int n);", "SPW003" },
        { "a Try result checked", "if (!int.TryParse(\"1\", out int n)) { throw new InvalidOperationException(); }", "" },
        { "a Try result asserted", "bool ok = int.TryParse(\"1\", out int n); System.Diagnostics.Debug.Assert(ok);", "" },
        { "a settled race: TrySetResult's false is an outcome", "new System.Threading.Tasks.TaskCompletionSource().TrySetResult();", "" },
        { "a task kept", "System.Threading.Tasks.Task kept = System.Threading.Tasks.Task.Delay(1); kept.Wait();", "" },
    };

    [Theory]
    [MemberData(nameof(Probes))]
    public async Task Each_rule_fires_on_what_it_forbids_and_only_there(string probe, string statement, string expected)
    {
        string source = $$"""
            using System;
            static class Probe
            {
                static void Run()
                {
                    {{statement}}
                }
            }
            """;
        CSharpCompilation compilation = CSharpCompilation.Create("Probe", [CSharpSyntaxTree.ParseText(source)], s_references.Value,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        ImmutableArray<Diagnostic> found = await compilation.WithAnalyzers([new TaskAndTryAnalyzer()]).GetAnalyzerDiagnosticsAsync();

        Expect.Equal(expected, string.Join(",", found.Select(d => d.Id).Order(StringComparer.Ordinal)), $"{probe}: {statement}");
        Assert.Empty(compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error)); // the probe itself compiles
    }

    private static readonly Lazy<ImmutableArray<MetadataReference>> s_references = new(() =>
    [
        .. ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
            .Select(path => (MetadataReference)MetadataReference.CreateFromFile(path)),
    ]);
}
