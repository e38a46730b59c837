using Spanwire.Signing;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire verify --key-file F --signature HEX [FILE|-]</c>: exit 0 on a match, 1 otherwise.</summary>
internal sealed class VerifyCommand : ICommand
{
    public string Name => "verify";

    public string Summary => "check a file against an HMAC-SHA256 signature (exit 0 match, 1 mismatch)";

    public string[] ValueOptions => ["--key-file", "--signature"];

    public string Help => """
        usage: spanwire verify --key-file KEYFILE --signature HEX [FILE|-]

        Computes the HMAC-SHA256 of FILE (standard input for '-' or no FILE) with the raw bytes of KEYFILE as the
        key and compares it, in fixed time, with HEX (64 hex characters, either case).
        Exit code 0 when they match, 1 when they do not, 2 for bad arguments or unreadable files.

        options:
          --key-file KEYFILE   the file whose bytes are the key (required)
          --signature HEX      the expected signature, 64 hex characters (required)
          --help, -h           show this help
          --version            show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        string keyFile = arguments.RequiredOption("--key-file");
        string signatureHex = arguments.RequiredOption("--signature");
        arguments.Finish(maxPositionals: 1);

        Span<byte> expected = stackalloc byte[HmacSha256Signer.SignatureSize];
        if (!HmacSha256Signer.TryParseHexSignature(signatureHex.Trim(), expected))
        {
            throw new CliException(
                $"--signature must be {HmacSha256Signer.HexLength} hex characters; got {signatureHex.Length} characters '{Shorten(signatureHex)}'");
        }

        using HmacSha256Signer signer = SignCommand.SignInput(keyFile, arguments.FirstPositional);
        if (signer.Verify(expected))
        {
            Console.Out.WriteLine("OK");
            return ExitCodes.Success;
        }

        Console.Error.WriteLine("spanwire verify: signature does not match");
        return ExitCodes.Mismatch;
    }

    private static string Shorten(string s) => s.Length <= 80 ? s : s[..77] + "...";
}
