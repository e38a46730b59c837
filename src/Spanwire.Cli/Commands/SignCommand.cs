using System.Buffers;
using Spanwire.Signing;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire sign --key-file F [FILE|-]</c>: prints the HMAC-SHA256 of the input as lowercase hex.</summary>
internal sealed class SignCommand : ICommand
{
    public string Name => "sign";

    public string Summary => "print the HMAC-SHA256 signature of a file as lowercase hex";

    public string[] ValueOptions => ["--key-file"];

    public string Help => """
        usage: spanwire sign --key-file KEYFILE [FILE|-]

        Prints the HMAC-SHA256 of FILE (standard input for '-' or no FILE) as 64 lowercase hex characters.
        The key is the raw bytes of KEYFILE, exactly as stored (a trailing newline is part of the key).

        options:
          --key-file KEYFILE   the file whose bytes are the key (required)
          --help, -h           show this help
          --version            show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        string keyFile = arguments.RequiredOption("--key-file");
        arguments.Finish(maxPositionals: 1);
        using HmacSha256Signer signer = SignInput(keyFile, arguments.FirstPositional);
        Span<char> hex = stackalloc char[HmacSha256Signer.HexLength];
        signer.WriteSignatureHex(hex);
        Console.Out.WriteLine(hex);
        return ExitCodes.Success;
    }

    /// <summary>Reads the key and the whole input into a signer. Shared with verify.</summary>
    internal static HmacSha256Signer SignInput(string keyFile, string? inputPath)
    {
        byte[] key = Input.ReadKeyFile(keyFile);
        HmacSha256Signer signer;
        try
        {
            signer = new HmacSha256Signer(key);
        }
        finally
        {
            Input.Forget(key);
        }

        try
        {
            using Stream input = Input.Open(inputPath);
            byte[] buffer = ArrayPool<byte>.Shared.Rent(64 * 1024);
            try
            {
                int n;
                while ((n = input.Read(buffer)) > 0)
                {
                    signer.Append(buffer.AsSpan(0, n));
                }
            }
            catch (IOException ex)
            {
                throw new CliException($"cannot read '{inputPath ?? "-"}': {ex.Message.TrimEnd('.')}");
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }

            return signer;
        }
        catch
        {
            signer.Dispose();
            throw;
        }
    }
}
