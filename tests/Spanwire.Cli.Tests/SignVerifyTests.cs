using System.Security.Cryptography;
using System.Text;

namespace Spanwire.Cli.Tests;

public sealed class SignVerifyTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("spanwire-cli-").FullName;
    private readonly string _keyFile;
    private readonly string _dataFile;
    private readonly byte[] _key = Encoding.ASCII.GetBytes("this is the super secure key oh my aren't you impressed");
    private readonly byte[] _data;

    public SignVerifyTests()
    {
        _keyFile = Path.Combine(_dir, "key");
        _dataFile = Path.Combine(_dir, "data.bin");
        _data = new byte[300_000]; // several read chunks
        new Random(5).NextBytes(_data);
        File.WriteAllBytes(_keyFile, _key);
        File.WriteAllBytes(_dataFile, _data);
    }

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    private string Expected => Convert.ToHexStringLower(HMACSHA256.HashData(_key, _data));

    /// <summary>A failure must be one plain line on stderr, never a stack trace.</summary>
    private static void AssertOneLineError(CliRunner.Result result, int exitCode, string containing)
    {
        Assert.Equal(exitCode, result.ExitCode);
        Assert.Single(result.ErrorLines);
        Assert.Contains(containing, result.StdErr, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", result.StdErr, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception", result.StdErr, StringComparison.Ordinal);
    }

    [Fact]
    public void Sign_prints_the_lowercase_hex_HMAC_of_a_file()
    {
        var result = CliRunner.Run("sign", "--key-file", _keyFile, _dataFile);
        Assert.Equal(0, result.ExitCode);
        Assert.Equal(Expected + "\n", result.StdOut);
        Assert.Equal("", result.StdErr);
    }

    [Fact]
    public void Sign_reads_standard_input_for_a_dash_or_no_file()
    {
        Assert.Equal(Expected, CliRunner.Run(_data, "sign", "--key-file", _keyFile, "-").StdOut.Trim());
        Assert.Equal(Expected, CliRunner.Run(_data, "sign", $"--key-file={_keyFile}").StdOut.Trim());
    }

    [Fact]
    public void Sign_then_verify_round_trips_and_a_changed_file_does_not_verify()
    {
        string signature = CliRunner.Run("sign", "--key-file", _keyFile, _dataFile).StdOut.Trim();
        var match = CliRunner.Run("verify", "--key-file", _keyFile, "--signature", signature, _dataFile);
        Assert.Equal(0, match.ExitCode);
        var upper = CliRunner.Run("verify", "--key-file", _keyFile, "--signature", signature.ToUpperInvariant(), _dataFile);
        Assert.Equal(0, upper.ExitCode);

        byte[] changed = (byte[])_data.Clone();
        changed[12345] ^= 0x10;
        var mismatch = CliRunner.Run(changed, "verify", "--key-file", _keyFile, "--signature", signature);
        AssertOneLineError(mismatch, 1, "does not match");
    }

    [Fact]
    public void A_missing_input_file_is_one_line_and_exit_2() =>
        AssertOneLineError(CliRunner.Run("sign", "--key-file", _keyFile, Path.Combine(_dir, "nope")), 2, "no such file");

    [Fact]
    public void A_missing_key_file_is_one_line_and_exit_2() =>
        AssertOneLineError(CliRunner.Run("verify", "--key-file", Path.Combine(_dir, "nokey"), "--signature", Expected, _dataFile), 2, "key file");

    [Theory]
    [InlineData("abc")] // too short
    [InlineData("zz3ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")] // not hex
    [InlineData("")] // empty
    public void A_bad_hex_signature_is_one_line_and_exit_2(string hex) =>
        AssertOneLineError(CliRunner.Run("verify", "--key-file", _keyFile, "--signature", hex, _dataFile), 2, "--signature");

    [Theory]
    [InlineData("sign", "--frobnicate")]
    [InlineData("verify", "--key")]
    public void An_unknown_option_is_one_line_and_exit_2(string verb, string option) =>
        AssertOneLineError(CliRunner.Run(verb, "--key-file", _keyFile, option, _dataFile), 2, $"unknown option '{option}'");

    [Fact]
    public void An_unknown_command_a_missing_value_and_a_missing_option_are_one_line_and_exit_2()
    {
        AssertOneLineError(CliRunner.Run("frobnicate"), 2, "unknown command");
        AssertOneLineError(CliRunner.Run("sign", "--key-file"), 2, "needs a value");
        AssertOneLineError(CliRunner.Run("verify", "--key-file", _keyFile, _dataFile), 2, "--signature is required");
        AssertOneLineError(CliRunner.Run("sign", "--key-file", _keyFile, _dataFile, _dataFile), 2, "unexpected argument");
        AssertOneLineError(CliRunner.Run("sign", "--key-file", _keyFile, _dir), 2, "is a directory");
    }

    [Fact]
    public void No_arguments_prints_usage_on_stderr_and_exits_2()
    {
        var result = CliRunner.Run();
        Assert.Equal(2, result.ExitCode);
        Assert.Contains("usage: spanwire", result.StdErr, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--help")]
    [InlineData("sign", "--help")]
    [InlineData("verify", "--help")]
    [InlineData("sign", "-h")]
    public void Help_works_on_every_verb(params string[] arguments)
    {
        var result = CliRunner.Run(arguments);
        Assert.Equal(0, result.ExitCode);
        Assert.StartsWith("usage: spanwire", result.StdOut, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--version")]
    [InlineData("sign", "--version")]
    [InlineData("verify", "--version")]
    public void Version_works_on_every_verb(params string[] arguments)
    {
        var result = CliRunner.Run(arguments);
        Assert.Equal(0, result.ExitCode);
        Assert.Matches(@"^spanwire \d+\.\d+\.\d+", result.StdOut);
    }
}
