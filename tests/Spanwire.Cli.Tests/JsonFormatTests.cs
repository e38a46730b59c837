using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Spanwire.Cli.Tests;

public sealed class JsonFormatTests
{
    private const string Document = """{"name":"Ada <\u00e9>","born":1815,"big":1e400,"exact":2.50,"tags":["a","b"],"nested":{"x":null,"y":true}}""";

    private static string Format(string json, params string[] options)
    {
        var result = CliRunner.Run(Encoding.UTF8.GetBytes(json), ["json", "format", .. options]);
        Expect.Equal(0, result.ExitCode, result.StdErr);
        return result.StdOut;
    }

    [Fact]
    public void Indented_output_is_what_Utf8JsonWriter_writes_for_the_same_tokens()
    {
        string output = Format(Document);
        var expected = new MemoryStream();
        using (var writer = new Utf8JsonWriter(expected, new JsonWriterOptions { Indented = true }))
        {
            JsonDocument.Parse(Document).RootElement.WriteTo(writer);
        }

        Assert.Equal(Encoding.UTF8.GetString(expected.ToArray()) + "\n", output);
    }

    [Fact]
    public void Minify_and_relaxed_escaping()
    {
        Assert.Equal("""{"name":"Ada <é>","born":1815,"big":1e400,"exact":2.50,"tags":["a","b"],"nested":{"x":null,"y":true}}""" + "\n",
            Format(Document, "--minify", "--relaxed"));
        Assert.Equal("{\n    \"a\": 1\n}\n", Format("""{"a":1}""", "--indent", "4"));
    }

    [Fact]
    public void Formatting_keeps_the_document_and_is_stable()
    {
        string once = Format(Document);
        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(Document), JsonNode.Parse(once)));
        Assert.Equal(once, Format(once));
        Assert.Contains("2.50", once, StringComparison.Ordinal); // number text kept
    }

    [Fact]
    public void Comments_are_kept()
    {
        string output = Format("[1, /* one */ 2 // two\n]", "--minify");
        Assert.Equal("[1/* one */,2/* two*/]\n", output); // a // comment keeps its text, without the line end
    }

    [Theory]
    [InlineData("{\"a\":[1,", "line 1, byte 8")]
    [InlineData("{\n  \"a\": tru\n}", "line 2, byte 11")]
    [InlineData("", "line 1, byte 1")]
    [InlineData("[1] 2", "line 1, byte 5")]
    public void A_malformed_document_is_one_line_with_line_and_byte_and_exit_2(string json, string position)
    {
        var result = CliRunner.Run(Encoding.UTF8.GetBytes(json), "json", "format");
        Assert.Equal(2, result.ExitCode);
        Assert.Single(result.ErrorLines);
        Assert.Contains(position, result.StdErr, StringComparison.Ordinal);
        Assert.Equal("", result.StdOut);
    }

    [Theory]
    [InlineData("--indent", "200")]
    [InlineData("--indent", "x")]
    public void Bad_options_are_one_line_and_exit_2(string option, string value)
    {
        var result = CliRunner.Run(Encoding.UTF8.GetBytes("1"), "json", "format", option, value);
        Assert.Equal(2, result.ExitCode);
        Assert.Single(result.ErrorLines);
    }

    [Fact]
    public void Json_alone_lists_its_verbs()
    {
        var result = CliRunner.Run("json");
        Assert.Equal(2, result.ExitCode);
        Assert.Contains("format", result.StdErr, StringComparison.Ordinal);
        Assert.Equal(0, CliRunner.Run("json", "format", "--help").ExitCode);
        Assert.Equal(0, CliRunner.Run("json", "format", "--version").ExitCode);
    }

    [Theory]
    [InlineData("{\"a\":\"\\ud800\"}")]
    [InlineData("[\"x\\udc00y\"]")]
    [InlineData("{\"\\ud800\":1}")]
    public void A_string_escaping_a_lone_surrogate_is_one_line_and_exit_2(string json)
    {
        // Well-formed JSON that Utf8JsonReader cannot hand over as text: a bad input, not a tool failure.
        var result = CliRunner.Run(Encoding.UTF8.GetBytes(json), "json", "format");
        Assert.Equal(2, result.ExitCode);
        Assert.Empty(result.StdOut);
        string line = Assert.Single(result.StdErr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("spanwire json: error: -: invalid JSON:", line, StringComparison.Ordinal);
        Assert.Contains("byte", line, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("json")]
    [InlineData("amqp")]
    [InlineData("nbfx")]
    public void A_group_with_help_lists_its_commands(string group)
    {
        foreach (string help in new[] { "--help", "-h" })
        {
            var result = CliRunner.Run(group, help);
            Expect.Equal(0, result.ExitCode, result.StdErr);
            Assert.Contains($"usage: spanwire {group} <command>", result.StdOut, StringComparison.Ordinal);
            Assert.Contains($"  {group} ", result.StdOut, StringComparison.Ordinal);
            Assert.Empty(result.StdErr);
        }
    }

    [Fact]
    public void After_a_double_dash_help_is_a_file_name_not_a_request_for_help()
    {
        var result = CliRunner.Run("json", "format", "--", "--help");
        Expect.Equal(2, result.ExitCode, result.StdErr);
        Assert.Contains("cannot read '--help'", Assert.Single(result.ErrorLines), StringComparison.Ordinal);
        Assert.Equal("", result.StdOut);
    }

    [Fact]
    public void Options_take_their_value_after_an_equals_sign_too()
    {
        var result = CliRunner.Run(Encoding.UTF8.GetBytes("{\"a\":1}"), "json", "format", "--indent=2");
        Expect.Equal(0, result.ExitCode, result.StdErr);
        Assert.Equal("{\n  \"a\": 1\n}\n", result.StdOut.Replace("\r\n", "\n"));
    }

    [Fact]
    public void The_suggest_directive_completes_a_verbs_options_for_the_shell()
    {
        var result = CliRunner.Run("[suggest:12]", "json format");
        Expect.Equal(0, result.ExitCode, result.StdErr);
        Assert.Contains("--indent", result.StdOut, StringComparison.Ordinal);
        Assert.Contains("--minify", result.StdOut, StringComparison.Ordinal);
    }
}
