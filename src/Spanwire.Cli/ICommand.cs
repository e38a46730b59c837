namespace Spanwire.Cli;

/// <summary>One verb of the tool.</summary>
internal interface ICommand
{
    /// <summary>The verb as typed, e.g. "sign".</summary>
    string Name { get; }

    /// <summary>One line for the command list.</summary>
    string Summary { get; }

    /// <summary>The options of this verb that take a value (the rest are flags).</summary>
    string[] ValueOptions { get; }

    /// <summary>The options of this verb that take no value (--help and --version are handled for every verb).</summary>
    string[] Flags => [];

    /// <summary>The full help text, starting with the usage line.</summary>
    string Help { get; }

    /// <summary>Runs the verb with its arguments (the verb itself removed) and returns the exit code.</summary>
    int Run(ArgumentReader arguments);
}
