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

    [Fact]
    public void A_byte_order_mark_is_skipped_as_JsonDocument_skips_it_in_a_stream()
    {
        byte[] withMark = [0xEF, 0xBB, 0xBF, .. Encoding.UTF8.GetBytes(Document)];
        var result = CliRunner.Run(withMark, "json", "format");
        var expected = new MemoryStream();
        using (var writer = new Utf8JsonWriter(expected, new JsonWriterOptions { Indented = true }))
        {
            JsonDocument.Parse(new MemoryStream(withMark)).RootElement.WriteTo(writer); // the incumbent skips the mark when it reads a stream
        }

        Expect.Equal(0, result.ExitCode, result.StdErr);
        Assert.Equal(Encoding.UTF8.GetString(expected.ToArray()) + "\n", result.StdOut);
    }

    [Theory]
    [InlineData(new byte[] { (byte)'{', (byte)'"', (byte)'a', (byte)'"', (byte)':', (byte)'"', (byte)'x', 0xFF, (byte)'"', (byte)'}' }, "byte 8, in a string")] // a byte no UTF-8 sequence starts with
    [InlineData(new byte[] { (byte)'{', (byte)'"', (byte)'a', 0xC3, (byte)'"', (byte)':', (byte)'1', (byte)'}' }, "byte 4, in a property name")] // a sequence cut short
    [InlineData(new byte[] { (byte)'[', (byte)'/', (byte)'*', 0xED, 0xA0, 0x80, (byte)'*', (byte)'/', (byte)'1', (byte)']' }, "byte 4, in a comment")] // an encoded surrogate
    [InlineData(new byte[] { (byte)'"', 0xC0, 0xAF, (byte)'"' }, "byte 2, in a string")] // an overlong form of '/'
    public void Invalid_UTF8_is_refused_with_its_offset_and_exit_2_unless_lossy(byte[] json, string where)
    {
        var refused = CliRunner.Run(json, "json", "format");
        var lossy = CliRunner.Run(json, "json", "format", "--lossy");

        Expect.Equal(2, refused.ExitCode, refused.StdErr);
        string line = Assert.Single(refused.ErrorLines);
        Assert.Contains("invalid UTF-8 at " + where, line, StringComparison.Ordinal);
        Assert.Empty(refused.StdOut);
        Expect.Equal(0, lossy.ExitCode, lossy.StdErr);
        Assert.True(lossy.StdOut.Contains("\\uFFFD", StringComparison.Ordinal) || lossy.StdOut.Contains('\uFFFD'), lossy.StdOut); // escaped in a string, as is in a comment
    }

    [Fact]
    public void Relaxed_escaping_is_what_UnsafeRelaxedJsonEscaping_does_as_the_help_says()
    {
        const string Text = "{\"a\":\"\U0001F600 \u00e9 < & + ' \\u0001\"}";
        var expected = new MemoryStream();
        using (var writer = new Utf8JsonWriter(expected, new JsonWriterOptions { Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            JsonDocument.Parse(Text).RootElement.WriteTo(writer);
        }

        string output = Format(Text, "--minify", "--relaxed");
        Assert.Equal(Encoding.UTF8.GetString(expected.ToArray()) + "\n", output);
        Assert.Contains("\\uD83D\\uDE00", output, StringComparison.Ordinal); // beyond U+FFFF: escaped, as the help says
        Assert.Contains("é < & + '", output, StringComparison.Ordinal);
        string help = CliRunner.Run("json", "format", "--help").StdOut;
        Assert.Contains("beyond U+FFFF (emoji) are still escaped", help, StringComparison.Ordinal);
    }

    [Fact]
    public void Progress_goes_to_standard_error_only_when_asked_for_and_the_line_is_cleared()
    {
        string big = "[" + string.Join(",", Enumerable.Range(0, 200_000).Select(i => $"{{\"id\":{i},\"text\":\"item {i}\"}}")) + "]";
        var quiet = CliRunner.Run(Encoding.UTF8.GetBytes(big), "json", "format", "--minify");
        var shown = CliRunner.Run(Encoding.UTF8.GetBytes(big), "json", "format", "--minify", "--progress");

        Expect.Equal(0, shown.ExitCode, shown.StdErr);
        Assert.Equal("", quiet.StdErr); // not a terminal, not asked
        Assert.Equal(quiet.StdOut, shown.StdOut);
        Assert.Contains("json format", shown.StdErr, StringComparison.Ordinal);
        Assert.EndsWith("\r", shown.StdErr, StringComparison.Ordinal); // cleared: the terminal's line is left empty
    }
}
