namespace Spanwire.Cli;

/// <summary>
/// Reads one verb's arguments in a single pass: options that take a value as <c>--name value</c> or
/// <c>--name=value</c>, flags as <c>--name</c>, positionals (a lone <c>-</c> is one: standard input), and <c>--</c>
/// to end options. An option the verb does not declare is an error.
/// </summary>
internal sealed class ArgumentReader
{
    private readonly string _command;
    private readonly List<string> _positionals = [];
    private readonly List<(string Name, string? Value)> _options = [];

    /// <param name="command">The verb, for messages.</param>
    /// <param name="arguments">The arguments after the verb.</param>
    /// <param name="valueOptions">The options that take a value.</param>
    /// <param name="flags">The options that take none.</param>
    public ArgumentReader(string command, IReadOnlyList<string> arguments, string[] valueOptions, string[] flags)
    {
        _command = command;
        bool optionsEnded = false;
        for (int i = 0; i < arguments.Count; i++)
        {
            string argument = arguments[i];
            if (optionsEnded || argument == "-" || !argument.StartsWith('-'))
            {
                _positionals.Add(argument);
                continue;
            }

            if (argument == "--")
            {
                optionsEnded = true;
                continue;
            }

            int equals = argument.IndexOf('=', StringComparison.Ordinal);
            string name = equals > 0 ? argument[..equals] : argument;
            string? value = equals > 0 ? argument[(equals + 1)..] : null;
            if (!valueOptions.Contains(name) && !flags.Contains(name))
            {
                throw new CliException($"unknown option '{name}' (see 'spanwire {command} --help')");
            }

            if (value is null && valueOptions.Contains(name))
            {
                if (i + 1 >= arguments.Count)
                {
                    throw new CliException($"{name} needs a value");
                }

                value = arguments[++i];
            }

            _options.Add((name, value));
        }
    }

    /// <summary>Whether a flag is present; claims it.</summary>
    public bool Flag(params string[] names)
    {
        int index = _options.FindIndex(o => names.Contains(o.Name));
        if (index < 0)
        {
            return false;
        }

        if (_options[index].Value is not null)
        {
            throw new CliException($"{_options[index].Name} takes no value");
        }

        _options.RemoveAt(index);
        return true;
    }

    /// <summary>An option's value, or null when it is absent; claims it.</summary>
    public string? Option(string name)
    {
        int index = _options.FindIndex(o => o.Name == name);
        if (index < 0)
        {
            return null;
        }

        string? value = _options[index].Value;
        _options.RemoveAt(index);
        if (_options.Exists(o => o.Name == name))
        {
            throw new CliException($"{name} is given more than once");
        }

        return value ?? throw new CliException($"{name} needs a value");
    }

    /// <summary>An option's value; a clear error when it is absent.</summary>
    public string RequiredOption(string name) =>
        Option(name) ?? throw new CliException($"{name} is required (see 'spanwire {_command} --help')");

    /// <summary>The positional arguments.</summary>
    public IReadOnlyList<string> Positionals => _positionals;

    /// <summary>The first positional argument (usually the input file), or null when there is none.</summary>
    public string? FirstPositional => _positionals.Count > 0 ? _positionals[0] : null;

    /// <summary>Fails on more positionals than <paramref name="maxPositionals"/>.</summary>
    public void Finish(int maxPositionals)
    {
        if (_positionals.Count > maxPositionals)
        {
            throw new CliException($"unexpected argument '{_positionals[maxPositionals]}' (see 'spanwire {_command} --help')");
        }
    }
}
