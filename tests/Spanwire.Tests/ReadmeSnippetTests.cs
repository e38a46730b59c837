using System.Collections.Immutable;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace Spanwire;

/// <summary>
/// Every C# block of README.md, of each package's README and of each package's reference page (docs/packages) compiles against the libraries as they are: a user who
/// copies one gets the names, overloads and namespaces it shows. A block is compiled as the body of an async method
/// whose parameters are the values the README leaves to the reader (the order to write, the key, the output stream…)
/// and whose usings are the ones the block shows (a block that shows none is read with those of the block before it).
/// </summary>
public partial class ReadmeSnippetTests
{
    /// <summary>
    /// The values the snippets take as given, as parameters of each block's method. They are made by
    /// <c>Givens.Create</c> in the compiled snippets, with values a block's check can hold the incumbent to.
    /// </summary>
    private static readonly string[] s_given =
    [
        "Order order", "System.IO.Stream networkStream", "Serializer serializer", "byte[] key", "object envelope", "object value",
        "System.IO.Stream output", "System.IO.Stream stream", "System.Buffers.ArrayBufferWriter<byte> bufferWriter",
        "System.Xml.XmlBinaryWriterSession session", "byte[] bytes", "System.Xml.XmlDictionaryReaderQuotas quotas",
        "System.Xml.XmlBinaryReaderSession readerSession", "System.Buffers.ReadOnlySequence<byte> sequence",
        "System.ReadOnlyMemory<byte> body", "System.Threading.CancellationToken ct", "HostBuilder builder", "Logger logger", "int sum",
    ];

    public static TheoryData<string> Readmes() => [.. ReadmeNames()];

    private static IEnumerable<string> ReadmeNames() => ReadmePaths().Select(p => Path.GetRelativePath(RepositoryRoot, p));

    [Theory]
    [MemberData(nameof(Readmes))]
    public void README_code_compiles_against_the_libraries(string readme)
    {
        List<string> blocks = Blocks(readme);
        if (blocks.Count == 0)
        {
            return; // the tool's README shows shell commands only
        }

        _ = Compile(readme, blocks, checks: null);
    }

    private static List<string> Blocks(string readme) =>
        [.. CodeBlock().Matches(File.ReadAllText(Path.Combine(RepositoryRoot, readme))).Select(m => m.Groups[1].Value)];

    /// <summary>
    /// Compiles the blocks of one page, each as the body of <c>Block{n}.Run</c> (n from 1) with the given values as
    /// parameters and, where <paramref name="checks"/> has one for it, its check after it; returns the assembly's bytes.
    /// </summary>
    private static byte[] Compile(string readme, List<string> blocks, Func<string, string>? checks)
    {
        // What a new project's implicit usings give every file (dotnet new console, ImplicitUsings on).
        const string ImplicitUsings = "global using System; global using System.Collections.Generic; global using System.IO; global using System.Linq; global using System.Net.Http; global using System.Threading; global using System.Threading.Tasks;";
        var sources = new List<string> { ImplicitUsings + "\n" + GivenTypes };
        string usings = "";
        for (int i = 0; i < blocks.Count; i++)
        {
            string[] lines = blocks[i].Split('\n');
            string[] own = [.. lines.Where(IsUsingDirective)];
            if (own.Length > 0)
            {
                usings = string.Join('\n', own);
            }

            string code = string.Join('\n', lines.Where(l => !IsUsingDirective(l)));
            string check = checks?.Invoke(blocks[i]) ?? "";
            sources.Add($$"""
                {{usings}}
                public static class Block{{i + 1}}
                {
                    public static async System.Threading.Tasks.Task Run({{string.Join(", ", s_given)}})
                    {
                        await Body();

                        // A local function: the block may declare a name the given values use (its own stream, say).
                        async System.Threading.Tasks.Task Body()
                        {
                {{code}}
                {{check}}
                        }
                    }

                    private static void Handle(byte[] delivery) => Givens.Handled(delivery);
                }
                """);
        }

        var trees = sources.Select(source => CSharpSyntaxTree.ParseText(source, new CSharpParseOptions(LanguageVersion.Latest))).ToList();
        CSharpCompilation compilation = CSharpCompilation.Create(
            "ReadmeSnippets" + Guid.NewGuid().ToString("N"),
            trees,
            s_references.Value,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));
        using var image = new MemoryStream();
        var result = compilation.Emit(image);
        var errors = result.Diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        Assert.True(errors.Count == 0,
            $"{readme}: {errors.Count} compile errors in its code blocks:{Environment.NewLine}"
            + string.Join(Environment.NewLine, errors.Take(10).Select(e => "  " + Describe(e, trees))));
        return image.ToArray();
    }

    private static bool IsUsingDirective(string line) =>
        line.StartsWith("using ", StringComparison.Ordinal) && !line.StartsWith("using var ", StringComparison.Ordinal)
        && !line.Contains('(', StringComparison.Ordinal) && line.Split("//")[0].TrimEnd().EndsWith(';');

    /// <summary>The error, the block it is in (1 is the first) and the line of code it points at.</summary>
    private static string Describe(Diagnostic error, List<SyntaxTree> trees)
    {
        SyntaxTree? tree = error.Location.SourceTree;
        int block = tree is null ? -1 : trees.IndexOf(tree);
        string line = tree is null ? "" : tree.GetText().Lines[error.Location.GetLineSpan().StartLinePosition.Line].ToString().Trim();
        return $"block {block}: {error.GetMessage(System.Globalization.CultureInfo.InvariantCulture)} at: {line}";
    }

    private static readonly Lazy<ImmutableArray<MetadataReference>> s_references = new(() =>
    {
        // The runtime's own assemblies, then the libraries and their dependencies beside this test.
        var paths = ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator).ToList();
        paths.AddRange(Directory.GetFiles(AppContext.BaseDirectory, "Spanwire*.dll"));
        paths.AddRange(Directory.GetFiles(AppContext.BaseDirectory, "System.ServiceModel.*.dll"));
        paths.AddRange(Directory.GetFiles(AppContext.BaseDirectory, "RabbitMQ.Client.dll"));
        paths.AddRange(Directory.GetFiles(AppContext.BaseDirectory, "System.Threading.RateLimiting.dll"));
        paths.AddRange(Directory.GetFiles(AppContext.BaseDirectory, "Microsoft.Extensions.*.dll"));
        paths.AddRange(Directory.GetFiles(AppContext.BaseDirectory, "OpenTelemetry*.dll"));
        return [.. paths.DistinctBy(Path.GetFileName).Select(p => (MetadataReference)MetadataReference.CreateFromFile(p))];
    });

    private static IEnumerable<string> ReadmePaths() =>
        new[] { Path.Combine(RepositoryRoot, "README.md") }
            .Concat(Directory.GetDirectories(Path.Combine(RepositoryRoot, "src"))
                .Select(d => Path.Combine(d, "README.md"))
                .Where(File.Exists)
                .Order(StringComparer.Ordinal))
            .Concat(Directory.GetFiles(Path.Combine(RepositoryRoot, "docs", "packages"), "*.md").Order(StringComparer.Ordinal));

    private static string RepositoryRoot { get; } = FindRoot();

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Spanwire.slnx")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException($"no Spanwire.slnx above {AppContext.BaseDirectory}");
    }

    [GeneratedRegex("```csharp\\n(.*?)```", RegexOptions.Singleline)]
    private static partial Regex CodeBlock();
}
