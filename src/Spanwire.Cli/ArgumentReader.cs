namespace Spanwire.Cli;

/// <summary>
/// One verb's arguments as System.CommandLine parsed them (<see cref="CommandLine"/>): its value options, its flags
/// and its positionals (a lone <c>-</c> is one: standard input; everything after <c>--</c> is one).
/// </summary>
/// <param name="command">The verb, for messages.</param>
/// <param name="positionals">The positional arguments in order.</param>
/// <param name="values">The value options given, by name.</param>
/// <param name="flags">The flags given.</param>
internal sealed class ArgumentReader(string command, IReadOnlyList<string> positionals, IReadOnlyDictionary<string, string> values,
    IReadOnlySet<string> flags)
{
    /// <summary>Whether one of the flags is present.</summary>
    public bool Flag(params string[] names) => names.Any(flags.Contains);

    /// <summary>An option's value, or null when it is absent.</summary>
    public string? Option(string name) => values.TryGetValue(name, out string? value) ? value : null;

    /// <summary>An option's value; a clear error when it is absent.</summary>
    public string RequiredOption(string name) =>
        Option(name) ?? throw new CliException($"{name} is required (see 'spanwire {command} --help')");

    /// <summary>The positional arguments.</summary>
    public IReadOnlyList<string> Positionals => positionals;

    /// <summary>The first positional argument (usually the input file), or null when there is none.</summary>
    public string? FirstPositional => positionals.Count > 0 ? positionals[0] : null;

    /// <summary>Fails on more positionals than <paramref name="maxPositionals"/>.</summary>
    public void Finish(int maxPositionals)
    {
        if (positionals.Count > maxPositionals)
        {
            throw new CliException($"unexpected argument '{positionals[maxPositionals]}' (see 'spanwire {command} --help')");
        }
    }
}
