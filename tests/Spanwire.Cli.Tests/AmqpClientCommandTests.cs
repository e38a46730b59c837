using System.Text;
using Spanwire.Amqp.Client;

namespace Spanwire.Cli.Tests;

/// <summary>
/// amqp publish and amqp consume against the broker scripts/test.sh starts (SPANWIRE_AMQP_URI). Without one these
/// fail and say so; they are not skipped.
/// </summary>
public sealed class AmqpClientCommandTests
{
    private static string BrokerUri => Environment.GetEnvironmentVariable("SPANWIRE_AMQP_URI") is { Length: > 0 } uri
        ? uri
        : throw new InvalidOperationException("No broker: SPANWIRE_AMQP_URI is not set; scripts/test.sh starts a private RabbitMQ node and sets it.");

    private static async Task<string> DeclareQueueAsync()
    {
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(BrokerUri);
        AmqpChannel channel = await connection.OpenChannelAsync();
        string name = $"spanwire.cli.{Guid.NewGuid():N}";
        await channel.QueueDeclareAsync(name, autoDelete: false);
        return name;
    }

    [Fact]
    public async Task Publish_SendsEachLine_Consume_WritesEachBodyOnItsOwnLine()
    {
        string queue = await DeclareQueueAsync();
        var published = CliRunner.Run(Encoding.UTF8.GetBytes("first\nsecond line\r\nthird"), "amqp", "publish", BrokerUri, "--routing-key", queue);
        Assert.Equal(0, published.ExitCode);
        Assert.Equal(["spanwire amqp publish: 3 messages published and confirmed"], published.ErrorLines);

        var consumed = CliRunner.Run("amqp", "consume", BrokerUri, "--queue", queue, "--count", "3");
        Assert.Equal(0, consumed.ExitCode);
        Assert.Equal("first\nsecond line\nthird\n", consumed.StdOut);
        Assert.Equal(["spanwire amqp consume: 3 messages consumed"], consumed.ErrorLines);
    }

    [Fact]
    public async Task Whole_SendsOneMessage_LengthPrefixed_KeepsItsLineFeeds()
    {
        string queue = await DeclareQueueAsync();
        var published = CliRunner.Run(Encoding.UTF8.GetBytes("a\nb\n"), "amqp", "publish", BrokerUri, "--exchange", "", "--routing-key", queue, "--whole");
        Assert.Equal(0, published.ExitCode);

        var consumed = CliRunner.Run("amqp", "consume", BrokerUri, "--queue", queue, "--count", "1", "--length-prefixed");
        Assert.Equal(0, consumed.ExitCode);
        Assert.Equal("\0\0\0\u0004a\nb\n", consumed.StdOut);
    }

    [Theory]
    [InlineData("a missing queue is the broker's 404, in one line", "consume", "--queue", "spanwire.cli.absent", "404 NOT_FOUND")]
    [InlineData("--count must be positive", "consume", "--queue", "q", "--count 0")]
    public void Errors_AreOneLine_ExitCode2(string why, string verb, string option, string value, string containing)
    {
        string[] args = containing.StartsWith("--", StringComparison.Ordinal)
            ? ["amqp", verb, BrokerUri, option, value, .. containing.Split(' ')]
            : ["amqp", verb, BrokerUri, option, value];
        var result = CliRunner.Run(args);
        Expect.Equal(2, result.ExitCode, why);
        Assert.Single(result.ErrorLines);
        Assert.Contains(containing.StartsWith("--", StringComparison.Ordinal) ? "--count" : containing, result.StdErr);
    }

    [Fact]
    public void AnUnreachableBroker_IsOneLine()
    {
        var result = CliRunner.Run([], "amqp", "publish", "amqp://guest:guest@127.0.0.1:1/", "--whole");
        Assert.Equal(2, result.ExitCode);
        // One line; the runtime's socket message follows, with the endpoint it tried: "Connection refused
        // [::ffff:127.0.0.1]:1" on a dual-stack socket, "Connection refused 127.0.0.1:1" where there is no IPv6.
        string line = Assert.Single(result.ErrorLines);
        Assert.StartsWith("spanwire amqp: error: cannot connect to the broker: Connection refused", line);
        Assert.Contains("127.0.0.1", line);
    }
}
