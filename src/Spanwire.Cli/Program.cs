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
    ];

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

        string verb = args[0];
        if (verb is "--help" or "-h" or "help")
        {
            Console.Out.Write(Usage());
            return ExitCodes.Success;
        }

        if (verb == "--version")
        {
            Console.Out.WriteLine(Version());
            return ExitCodes.Success;
        }

        // A command is one word ("sign") or a group and a verb ("json format").
        string? grouped = args.Length > 1 ? $"{verb} {args[1]}" : null;
        ICommand? command = Array.Find(s_commands, c => c.Name == grouped) ?? Array.Find(s_commands, c => c.Name == verb);
        if (command is null)
        {
            string[] inGroup = s_commands.Where(c => c.Name.StartsWith(verb + " ", StringComparison.Ordinal)).Select(c => c.Name[(verb.Length + 1)..]).ToArray();
            if (inGroup.Length > 0 && args.Length > 1 && args[1] is "--help" or "-h")
            {
                Console.Out.Write(Usage(verb));
                return ExitCodes.Success;
            }

            throw new CliException(verb.StartsWith('-') ? $"unknown option '{verb}' (see 'spanwire --help')"
                : inGroup.Length > 0 ? $"'{verb}' needs one of: {string.Join(", ", inGroup)} (see 'spanwire --help')"
                : $"unknown command '{verb}' (see 'spanwire --help')");
        }

        string[] rest = args[(command.Name.Count(c => c == ' ') + 1)..];
        if (rest.Contains("--help") || rest.Contains("-h"))
        {
            Console.Out.WriteLine(command.Help);
            return ExitCodes.Success;
        }

        if (rest.Contains("--version"))
        {
            Console.Out.WriteLine(Version());
            return ExitCodes.Success;
        }

        var reader = new ArgumentReader(command.Name, rest, command.ValueOptions, command.Flags);
        return command.Run(reader);
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
