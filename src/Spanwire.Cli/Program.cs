using System.Reflection;
using Spanwire.Cli.Commands;

namespace Spanwire.Cli;

/// <summary>The <c>spanwire</c> tool: one verb (or verb group) per job; every error is one line on stderr.</summary>
internal static class Program
{
    private static readonly ICommand[] s_commands =
    [
        new SignCommand(),
        new VerifyCommand(),
        new JsonFormatCommand(),
        new AmqpDecodeCommand(),
        new AmqpPublishCommand(),
        new AmqpConsumeCommand(),
        new AmqpDeclareCommand(),
        new NbfxDecodeCommand(),
        new NbfxEncodeCommand(),
        new NbfxDumpCommand(),
    ];

    private static readonly Lazy<CommandLine> s_commandLine = new(() => new CommandLine(s_commands));

    private static int Main(string[] args)
    {
        string verb = args.Length > 0 ? args[0] : "";
        try
        {
            return Run(args);
        }
        catch (CliException ex)
        {
            return Fail(verb, ex.Message);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return Fail(verb, ex.Message.TrimEnd('.'));
        }
        catch (Exception ex)
        {
            // A bug in the tool: still one line, never a stack trace.
            Console.Error.WriteLine($"spanwire: internal error: {ex.GetType().Name}: {ex.Message}");
            return ExitCodes.InternalError;
        }
    }

    private static int Run(string[] args)
    {
        if (args.Length == 0)
        {
            Console.Error.Write(Usage());
            return ExitCodes.BadInput;
        }

        if (args[0] == "help")
        {
            Console.Out.Write(Usage());
            return ExitCodes.Success;
        }

        if (args[0].StartsWith("[suggest", StringComparison.Ordinal))
        {
            return s_commandLine.Value.InvokeDirective(args); // shell completion (dotnet-suggest)
        }

        CommandLine.Request request = s_commandLine.Value.Parse(args);
        if (request.Version)
        {
            Console.Out.WriteLine(Version());
            return ExitCodes.Success;
        }

        if (request.Help)
        {
            Console.Out.Write(request.Command is { } helped ? helped.Help + Environment.NewLine : Usage(request.Group));
            return ExitCodes.Success;
        }

        if (request.Error is { } error)
        {
            throw new CliException(error);
        }

        if (request.Command is null)
        {
            string[] inGroup = [.. s_commands.Where(c => c.Name.StartsWith(request.Group + " ", StringComparison.Ordinal)).Select(c => c.Name[(request.Group!.Length + 1)..])];
            throw new CliException(request.Group is not null
                ? $"'{request.Group}' needs one of: {string.Join(", ", inGroup)} (see 'spanwire --help')"
                : $"unknown command '{args[0]}' (see 'spanwire --help')");
        }

        return request.Command.Run(request.Arguments!);
    }

    private static int Fail(string verb, string message)
    {
        string who = Array.Exists(s_commands, c => c.Name == verb || c.Name.StartsWith(verb + " ", StringComparison.Ordinal)) ? $"spanwire {verb}" : "spanwire";
        Console.Error.WriteLine($"{who}: error: {message}");
        return ExitCodes.BadInput;
    }

    private static string Version()
    {
        string version = typeof(Program).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "0.0.0";
        int plus = version.IndexOf('+', StringComparison.Ordinal);
        return $"spanwire {(plus > 0 ? version[..plus] : version)}";
    }

    /// <summary>The tool's usage, or a group's (<paramref name="group"/>: "json", "amqp", ...).</summary>
    private static string Usage(string? group = null)
    {
        var text = new System.Text.StringBuilder();
        text.AppendLine(group is null ? "usage: spanwire <command> [options]" : $"usage: spanwire {group} <command> [options]");
        text.AppendLine();
        text.AppendLine("commands:");
        foreach (ICommand command in s_commands.Where(c => group is null || c.Name.StartsWith(group + " ", StringComparison.Ordinal)))
        {
            text.AppendLine($"  {command.Name,-12} {command.Summary}");
        }

        text.AppendLine();
        text.AppendLine("Run 'spanwire <command> --help' for a command's options; 'spanwire --version' for the version.");
        return text.ToString();
    }
}
