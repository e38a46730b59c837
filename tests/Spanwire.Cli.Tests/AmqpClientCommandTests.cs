using System.Text;
using Spanwire.Amqp.Client;

namespace Spanwire.Cli.Tests;

/// <summary>
/// amqp publish and amqp consume against the broker scripts/test.sh starts (SPANWIRE_AMQP_URI); see
/// <see cref="BrokerTests"/> for when they run.
/// </summary>
[Trait("Category", BrokerTests.Trait)]
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

    [BrokerFact]
    public async Task Publish_sends_each_line_consume_writes_each_body_on_its_own_line()
    {
        string queue = await DeclareQueueAsync();
        var published = CliRunner.Run(Encoding.UTF8.GetBytes("first\nsecond line\r\nthird"), "amqp", "publish", BrokerUri, "--routing-key", queue);
        Assert.Equal(0, published.ExitCode);
        Assert.Equal(["spanwire amqp publish: 3 messages published and confirmed by the broker; routing was not checked (--mandatory has unroutable messages returned)"],
            published.ErrorLines);

        var consumed = CliRunner.Run("amqp", "consume", BrokerUri, "--queue", queue, "--count", "3");
        Assert.Equal(0, consumed.ExitCode);
        Assert.Equal("first\nsecond line\nthird\n", consumed.StdOut);
        Assert.Equal(["spanwire amqp consume: 3 messages consumed"], consumed.ErrorLines);
    }

    [BrokerFact]
    public async Task Whole_sends_one_message_length_prefixed_keeps_its_line_feeds()
    {
        string queue = await DeclareQueueAsync();
        var published = CliRunner.Run(Encoding.UTF8.GetBytes("a\nb\n"), "amqp", "publish", BrokerUri, "--exchange", "", "--routing-key", queue, "--whole");
        Assert.Equal(0, published.ExitCode);

        var consumed = CliRunner.Run("amqp", "consume", BrokerUri, "--queue", queue, "--count", "1", "--length-prefixed");
        Assert.Equal(0, consumed.ExitCode);
        Assert.Equal("\0\0\0\u0004a\nb\n", consumed.StdOut);
    }

    [BrokerTheory]
    [InlineData("a missing queue is the broker's 404, in one line", "consume", "--queue", "spanwire.cli.absent", "404 NOT_FOUND")]
    [InlineData("--count must be positive", "consume", "--queue", "q", "--count 0")]
    public void Errors_are_one_line_exit_code_2(string why, string verb, string option, string value, string containing)
    {
        string[] args = containing.StartsWith("--", StringComparison.Ordinal)
            ? ["amqp", verb, BrokerUri, option, value, .. containing.Split(' ')]
            : ["amqp", verb, BrokerUri, option, value];
        var result = CliRunner.Run(args);
        Expect.Equal(2, result.ExitCode, why);
        Assert.Single(result.ErrorLines);
        Assert.Contains(containing.StartsWith("--", StringComparison.Ordinal) ? "--count" : containing, result.StdErr);
    }

    [BrokerFact]
    public async Task Declare_queue_exchange_binding_then_mandatory_publish_routed_exits_0_unroutable_exits_1()
    {
        string name = $"spanwire.cli.{Guid.NewGuid():N}";
        var queue = CliRunner.Run("amqp", "declare", "queue", BrokerUri, name, "--durable");
        Assert.Equal(0, queue.ExitCode);
        Assert.Equal(name + "\n", queue.StdOut);
        Assert.Equal([$"spanwire amqp declare: queue '{name}' declared (0 messages, 0 consumers)"], queue.ErrorLines);

        var exchange = CliRunner.Run("amqp", "declare", "exchange", BrokerUri, name, "--type", "topic");
        Assert.Equal(0, exchange.ExitCode);
        var binding = CliRunner.Run("amqp", "declare", "binding", BrokerUri, name, name, "--routing-key", "orders.#");
        Assert.Equal(0, binding.ExitCode);

        var routed = CliRunner.Run(Encoding.UTF8.GetBytes("a\nb"), "amqp", "publish", BrokerUri, "--exchange", name, "--routing-key", "orders.eu", "--mandatory");
        Expect.Equal(0, routed.ExitCode, routed.StdErr);
        Assert.Equal(["spanwire amqp publish: 2 messages published, routed and confirmed"], routed.ErrorLines);
        var unroutable = CliRunner.Run(Encoding.UTF8.GetBytes("c\nd\ne"), "amqp", "publish", BrokerUri, "--exchange", name, "--routing-key", "invoices.eu", "--mandatory");
        Expect.Equal(1, unroutable.ExitCode, unroutable.StdErr);
        string summary = Assert.Single(unroutable.ErrorLines);
        Assert.StartsWith("spanwire amqp publish: 3 of 3 messages returned unroutable", summary);

        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(BrokerUri);
        AmqpChannel channel = await connection.OpenChannelAsync();
        Expect.Equal(2u, (await channel.QueueDeclareAsync(name, passive: true)).MessageCount, "only the routed messages are queued");
        await channel.QueueDeleteAsync(name);
        await channel.ExchangeDeleteAsync(name);
    }

    [BrokerTheory]
    [InlineData("an exchange needs a name", "exchange", "", "an exchange takes one NAME")]
    [InlineData("a binding needs both ends", "binding", "q", "a binding takes QUEUE and EXCHANGE")]
    [InlineData("only three kinds", "policy", "p", "cannot declare 'policy'")]
    public void Declare_mistakes_are_one_line_exit_code_2(string why, string kind, string name, string containing)
    {
        string[] args = name.Length > 0 ? ["amqp", "declare", kind, BrokerUri, name] : ["amqp", "declare", kind, BrokerUri];
        var result = CliRunner.Run(args);
        Expect.Equal(2, result.ExitCode, why);
        Assert.Contains(containing, Assert.Single(result.ErrorLines));
    }

    [BrokerFact]
    public async Task Consume_on_sigterm_acknowledges_what_it_wrote_prints_its_summary_exits_0()
    {
        string queue = await DeclareQueueAsync();
        Assert.Equal(0, CliRunner.Run(Encoding.UTF8.GetBytes("one\ntwo\nthree"), "amqp", "publish", BrokerUri, "--routing-key", queue).ExitCode);

        using CliRunner.Running consume = CliRunner.Start(null, "amqp", "consume", BrokerUri, "--queue", queue);
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(BrokerUri);
        AmqpChannel channel = await connection.OpenChannelAsync();
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while ((await channel.QueueDeclareAsync(queue, passive: true)).MessageCount > 0 && DateTime.UtcNow < deadline)
        {
            await Task.Delay(50); // until the three are delivered (ready count 0; not yet acknowledged)
        }

        consume.Terminate();
        var result = consume.WaitForExit();

        Expect.Equal(0, result.ExitCode, result.StdErr);
        Assert.Equal("one\ntwo\nthree\n", result.StdOut);
        Assert.Equal(["spanwire amqp consume: 3 messages consumed"], result.ErrorLines);
        await Task.Delay(200);
        AmqpQueueInfo after = await channel.QueueDeclareAsync(queue, passive: true);
        Expect.Equal(0u, after.MessageCount, "nothing requeued: the three were acknowledged before the exit");
    }

    [BrokerFact]
    public void Uri_password_never_appears_in_an_error()
    {
        var result = CliRunner.Run([], "amqp", "publish", "amqp://guest:s3cret@127.0.0.1:1/?heartbeat=x", "--whole");
        Assert.Equal(2, result.ExitCode);
        Assert.DoesNotContain("s3cret", result.StdErr, StringComparison.Ordinal);
        Assert.Contains("guest:***@", Assert.Single(result.ErrorLines), StringComparison.Ordinal);
    }

    [BrokerFact]
    public void An_unreachable_broker_is_one_line()
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
