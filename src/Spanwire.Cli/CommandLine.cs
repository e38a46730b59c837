using System.CommandLine;
using System.CommandLine.Parsing;

namespace Spanwire.Cli;

/// <summary>
/// The tool's grammar on System.CommandLine: one command per verb (grouped verbs under their group), each verb's
/// value options and flags, its positionals, and <c>--help</c>/<c>-h</c> and <c>--version</c> everywhere. Parsing is
/// System.CommandLine's (<c>--name value</c>, <c>--name=value</c>, <c>--</c> ending options, the <c>[suggest]</c>
/// directive for shell completion); what the tool prints stays its own: each verb's help text, and one line per error.
/// </summary>
internal sealed class CommandLine
{
    private readonly RootCommand _root = new("spanwire: one verb (or verb group) per job");
    private readonly Option<bool> _help = new("--help", "-h") { Recursive = true, Arity = ArgumentArity.Zero };
    private readonly Option<bool> _version = new("--version") { Recursive = true, Arity = ArgumentArity.Zero };
    private readonly Dictionary<Command, Verb> _verbs = [];
    private readonly Dictionary<Command, string> _groups = [];

    public CommandLine(IEnumerable<ICommand> commands)
    {
        _root.Options.Clear(); // the tool prints its own help and version
        _root.Options.Add(_help);
        _root.Options.Add(_version);
        foreach (ICommand command in commands)
        {
            string[] words = command.Name.Split(' ');
            Command parent = _root;
            if (words.Length == 2)
            {
                parent = _root.Subcommands.FirstOrDefault(c => c.Name == words[0]) ?? AddGroup(words[0]);
            }

            var verb = new Verb(command, new Command(words[^1], command.Summary));
            foreach (string name in command.ValueOptions)
            {
                var option = new Option<string>(name);
                verb.Values[name] = option;
                verb.Command.Options.Add(option);
            }

            foreach (string name in command.Flags)
            {
                var option = new Option<bool>(name) { Arity = ArgumentArity.Zero };
                verb.Flags[name] = option;
                verb.Command.Options.Add(option);
            }

            verb.Command.Arguments.Add(verb.Positionals);
            parent.Subcommands.Add(verb.Command);
            _verbs[verb.Command] = verb;
        }
    }

    /// <summary>What the arguments ask for.</summary>
    public Request Parse(string[] args)
    {
        ParseResult result = _root.Parse(args, new ParserConfiguration { ResponseFileTokenReplacer = null });
        Command command = result.CommandResult.Command;
        Verb? verb = _verbs.GetValueOrDefault(command); // none for a group or the root
        string? group = _groups.TryGetValue(command, out string? name) ? name : null;
        bool help = result.GetValue(_help);
        bool version = result.GetValue(_version);
        if (help || version)
        {
            return new Request(verb?.Definition, group, help, version, null, null);
        }

        if (verb is null && group is not null && result.UnmatchedTokens.Count == 0)
        {
            return new Request(null, group, false, false, null, null); // a group without its verb
        }

        if (result.Errors.Count > 0)
        {
            return new Request(verb?.Definition, group, false, false, null, Describe(result, verb, group));
        }

        if (verb is null)
        {
            return new Request(null, group, false, false, null, null);
        }

        // System.CommandLine hands an unknown --option to the positionals; only after -- is such a token one.
        if (UnknownOption(result, verb) is { } unknown)
        {
            return new Request(verb.Definition, group, false, false, null,
                $"unknown option '{unknown.Split('=', 2)[0]}' (see 'spanwire {verb.Definition.Name} --help')");
        }

        var values = new Dictionary<string, string>();
        foreach ((string optionName, Option<string> option) in verb.Values)
        {
            if (result.GetResult(option) is { } found && !found.Implicit)
            {
                values[optionName] = result.GetValue(option) ?? "";
            }
        }

        HashSet<string> flags = [.. verb.Flags.Where(f => result.GetValue(f.Value)).Select(f => f.Key)];
        string[] positionals = result.GetValue(verb.Positionals) ?? [];
        return new Request(verb.Definition, group, false, false, new ArgumentReader(verb.Definition.Name, positionals, values, flags), null);
    }

    /// <summary>Runs System.CommandLine's own directives (<c>[suggest]</c> for shell completion).</summary>
    public int InvokeDirective(string[] args) => _root.Parse(args).Invoke();

    private Command AddGroup(string name)
    {
        var group = new Command(name);
        _root.Subcommands.Add(group);
        _groups[group] = name;
        return group;
    }

    /// <summary>The first parse error as one line, in the tool's words.</summary>
    private string Describe(ParseResult result, Verb? verb, string? group)
    {
        string where = verb is not null ? $"spanwire {verb.Definition.Name} --help" : "spanwire --help";
        if (result.UnmatchedTokens.Count > 0)
        {
            string token = result.UnmatchedTokens[0];
            if (token.StartsWith('-') && token != "-")
            {
                string name = token.Split('=', 2)[0];
                return verb is not null && verb.Flags.ContainsKey(name)
                    ? $"{name} takes no value"
                    : $"unknown option '{name}' (see '{where}')";
            }

            if (verb is not null)
            {
                return $"unexpected argument '{token}' (see '{where}')";
            }

            return group is not null
                ? $"'{group}' has no command '{token}'; it has: {string.Join(", ", Subcommands(group))} (see 'spanwire --help')"
                : $"unknown command '{token}' (see 'spanwire --help')";
        }

        ParseError error = result.Errors[0];
        if (error.SymbolResult is OptionResult option)
        {
            string optionName = option.Option.Name;
            return option.Tokens.Count == 0 ? $"{optionName} needs a value" : $"{optionName} is given more than once";
        }

        return $"{error.Message.TrimEnd('.')} (see '{where}')";
    }

    private static string? UnknownOption(ParseResult result, Verb verb)
    {
        if (result.GetResult(verb.Positionals) is not { } positionals)
        {
            return null;
        }

        int doubleDash = -1;
        for (int i = 0; i < result.Tokens.Count; i++)
        {
            if (result.Tokens[i].Type == TokenType.DoubleDash)
            {
                doubleDash = i;
                break;
            }
        }

        foreach (Token token in positionals.Tokens)
        {
            int at = -1;
            for (int i = 0; i < result.Tokens.Count; i++)
            {
                if (ReferenceEquals(result.Tokens[i], token))
                {
                    at = i;
                    break;
                }
            }

            if ((doubleDash < 0 || at < doubleDash) && token.Value.Length > 1 && token.Value[0] == '-')
            {
                return token.Value;
            }
        }

        return null;
    }

    private IEnumerable<string> Subcommands(string group) =>
        _root.Subcommands.First(c => c.Name == group).Subcommands.Select(c => c.Name);

    /// <summary>A parsed command line: a verb's arguments, or help, version or an error for the verb or group named.</summary>
    public sealed record Request(ICommand? Command, string? Group, bool Help, bool Version, ArgumentReader? Arguments, string? Error);

    private sealed class Verb(ICommand definition, Command command)
    {
        public ICommand Definition { get; } = definition;

        public Command Command { get; } = command;

        public Dictionary<string, Option<string>> Values { get; } = [];

        public Dictionary<string, Option<bool>> Flags { get; } = [];

        public Argument<string[]> Positionals { get; } = new("arguments") { Arity = ArgumentArity.ZeroOrMore };
    }
}
