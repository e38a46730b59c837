using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.Tests;

/// <summary>URIs read as RabbitMQ.Client reads them, and no message ever shows the password.</summary>
public sealed class ConnectionOptionsTests
{
    [Theory]
    [InlineData("amqp://guest:s3cret@broker:5673/prod", "amqp://guest:***@broker:5673/prod")]     // user and password
    [InlineData("amqp://u:p%40ss@h/", "amqp://u:***@h/")]                                          // an escaped @ in the password
    [InlineData("amqp://u:p:q@h?heartbeat=5", "amqp://u:***@h?heartbeat=5")]                       // a colon in the password
    [InlineData("amqp://guest@broker/", "amqp://guest@broker/")]                                   // no password
    [InlineData("amqp://broker:5672/", "amqp://broker:5672/")]                                     // a port is not a password
    [InlineData("not a uri", "not a uri")]
    public void Redact_replaces_only_the_password(string uri, string expected) =>
        Expect.Equal(expected, AmqpConnectionOptions.Redact(uri), uri);

    [Theory]
    [InlineData("amqps://guest:s3cret@broker/")]                    // not amqp
    [InlineData("amqp://guest:s3cret@broker/a/b")]                  // an unescaped / in the vhost
    [InlineData("amqp://guest:s3cret@broker/?heartbeat=x")]         // not a number
    [InlineData("amqp://guest:s3cret@broker/?colour=blue")]         // an unknown parameter
    public void Parse_errors_never_show_the_password(string uri)
    {
        FormatException error = Assert.Throws<FormatException>(() => AmqpConnectionOptions.Parse(uri));
        Assert.DoesNotContain("s3cret", error.Message, StringComparison.Ordinal);
        Assert.Contains("guest:***@broker", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ContinuationTimeout_defaults_to_20_seconds_as_RabbitMQ_Client_and_refuses_zero()
    {
        var options = new AmqpConnectionOptions();
        Expect.Equal(TimeSpan.FromSeconds(20), options.ContinuationTimeout, "default");
        options.ContinuationTimeout = System.Threading.Timeout.InfiniteTimeSpan;
        Assert.Throws<ArgumentOutOfRangeException>(() => options.ContinuationTimeout = TimeSpan.Zero);
    }
}
