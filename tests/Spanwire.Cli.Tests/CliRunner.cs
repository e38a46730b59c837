using System.Diagnostics;

namespace Spanwire.Cli.Tests;

/// <summary>Runs the real spanwire executable (Spanwire.Cli.dll beside the tests) as a separate process.</summary>
internal static class CliRunner
{
    private static readonly string s_tool = Path.Combine(AppContext.BaseDirectory, "Spanwire.Cli.dll");

    public sealed record Result(int ExitCode, string StdOut, string StdErr)
    {
        /// <summary>Stderr as lines, without the trailing empty one.</summary>
        public string[] ErrorLines => StdErr.Split('\n', StringSplitOptions.RemoveEmptyEntries);
    }

    public static Result Run(byte[]? stdin, params string[] arguments)
    {
        using Running running = Start(stdin, arguments);
        return running.WaitForExit();
    }

    /// <summary>Starts the tool and returns while it runs, for tests that signal it.</summary>
    public static Running Start(byte[]? stdin, params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(s_tool);
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        if (stdin is not null)
        {
            process.StandardInput.BaseStream.Write(stdin);
        }

        process.StandardInput.Close();
        return new Running(process, stdout, stderr, string.Join(' ', arguments));
    }

    /// <summary>A running tool process.</summary>
    public sealed class Running(Process process, Task<string> stdout, Task<string> stderr, string command) : IDisposable
    {
        /// <summary>Sends SIGTERM, as a service manager or <c>docker stop</c> does.</summary>
        public void Terminate()
        {
            using var kill = Process.Start("kill", ["-TERM", process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
            kill.WaitForExit();
        }

        public Result WaitForExit()
        {
            if (!process.WaitForExit(60_000))
            {
                process.Kill(entireProcessTree: true);
                throw new TimeoutException($"spanwire {command} did not finish in 60 s");
            }

            return new Result(process.ExitCode, stdout.Result, stderr.Result);
        }

        public void Dispose()
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
            }

            process.Dispose();
        }
    }

    public static Result Run(params string[] arguments) => Run(null, arguments);
}
