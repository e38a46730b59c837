namespace Spanwire.Cli;

/// <summary>Bad arguments or bad input: reported as one line on stderr with exit code 2.</summary>
internal sealed class CliException(string message) : Exception(message);
