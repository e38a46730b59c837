using System.Diagnostics;

namespace Spanwire.Amqp;

/// <summary>Runs scripts/rabbitmq.sh, found above the running binaries (tests and benchmarks alike).</summary>
internal static class NodeScript
{
    public static string Path { get; } = Find();

    public static async Task<string> RunAsync(string arguments, TimeSpan limit, bool check = true)
    {
        var start = new ProcessStartInfo("bash", $"{Path} {arguments}") { RedirectStandardOutput = true, RedirectStandardError = true };
        using Process process = Process.Start(start)!;
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(limit);
        await process.WaitForExitAsync(timeout.Token);
        if (check && process.ExitCode != 0)
        {
            throw new InvalidOperationException($"rabbitmq.sh {arguments} failed: {(await error).Trim()}");
        }

        return await output;
    }

    /// <summary>Writes a report of a test or benchmark run to the repository's artifacts folder (never committed).</summary>
    public static async Task WriteArtifactAsync(string fileName, string text)
    {
        string artifacts = System.IO.Path.Combine(System.IO.Path.GetDirectoryName(System.IO.Path.GetDirectoryName(Path))!, "artifacts");
        Directory.CreateDirectory(artifacts);
        await File.WriteAllTextAsync(System.IO.Path.Combine(artifacts, fileName), text).ConfigureAwait(false);
    }

    private static string Find()
    {
        for (DirectoryInfo? dir = new(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            string candidate = System.IO.Path.Combine(dir.FullName, "scripts", "rabbitmq.sh");
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        throw new InvalidOperationException("scripts/rabbitmq.sh was not found above the test binaries; the tests and the fault benchmark start their own nodes with it.");
    }
}
