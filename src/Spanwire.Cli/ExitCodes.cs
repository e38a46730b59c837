namespace Spanwire.Cli;

/// <summary>The tool's exit codes.</summary>
internal static class ExitCodes
{
    /// <summary>Done; for verify, the signature matches.</summary>
    public const int Success = 0;

    /// <summary>A check came out negative: verify's signature does not match.</summary>
    public const int Mismatch = 1;

    /// <summary>Bad arguments, a missing or unreadable file, malformed input.</summary>
    public const int BadInput = 2;

    /// <summary>A fault in the tool itself (a bug): still one line, never a stack trace.</summary>
    public const int InternalError = 70;
}
