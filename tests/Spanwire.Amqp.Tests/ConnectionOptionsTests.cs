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
    [InlineData("http://guest:s3cret@broker/")]                     // not amqp or amqps
    [InlineData("amqps://guest:s3cret@broker/?auth_mechanism=kerberos")] // an unknown mechanism
    [InlineData("amqp://guest:s3cret@broker/a/b")]                  // an unescaped / in the vhost
    [InlineData("amqp://guest:s3cret@broker/?heartbeat=x")]         // not a number
    [InlineData("amqp://guest:s3cret@broker/?colour=blue")]         // an unknown parameter
    public void Parse_errors_never_show_the_password(string uri)
    {
        FormatException error = Assert.Throws<FormatException>(() => AmqpConnectionOptions.Parse(uri));
        Assert.DoesNotContain("s3cret", error.Message, StringComparison.Ordinal);
        Assert.Contains("guest:***@broker", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("amqp://h/", 5672, false, null)]                                   // plain, its default port
    [InlineData("amqps://h/", 5671, true, "h")]                                    // TLS, its default port, the host checked
    [InlineData("amqps://h:5999/", 5999, true, "h")]
    [InlineData("amqps://10.0.0.5/?server_name_indication=broker.example.com", 5671, true, "broker.example.com")]
    public void Amqps_turns_on_tls_with_the_host_as_the_name_the_certificate_must_carry(string uri, int port, bool tls, string? targetHost)
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(uri);
        Expect.Equal(port, options.Port, uri);
        Expect.Equal(tls, options.Tls is not null, uri);
        Expect.Equal(targetHost, options.Tls?.TargetHost, uri);
    }

    [Theory]
    [InlineData("amqps://h/?auth_mechanism=external", AmqpAuthMechanism.External)]
    [InlineData("amqps://h/?auth_mechanism=EXTERNAL", AmqpAuthMechanism.External)]
    [InlineData("amqp://h/?auth_mechanism=plain", AmqpAuthMechanism.Plain)]
    [InlineData("amqp://h/", AmqpAuthMechanism.Plain)]
    public void Auth_mechanism_comes_from_the_query(string uri, AmqpAuthMechanism expected) =>
        Expect.Equal(expected, AmqpConnectionOptions.Parse(uri).AuthMechanism, uri);

    [Theory]
    [InlineData("amqp://u:p@n1:5673,n2,n3:5675/v", "n1:5673 n2:5672 n3:5675")]   // a cluster: unlisted ports are the scheme's
    [InlineData("amqps://n1,n2/", "n1:5671 n2:5671")]
    [InlineData("amqp://n1,[::1]:5674/", "n1:5672 [::1]:5674")]
    [InlineData("amqp://only/", "")]                                             // one host: Host and Port, no list
    public void Several_hosts_in_a_uri_become_the_endpoint_list(string uri, string expected)
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(uri);
        Expect.Equal(expected, string.Join(' ', options.Endpoints), uri);
        Expect.Equal("v", AmqpConnectionOptions.Parse("amqp://u:p@a,b/v").VirtualHost, "the vhost after a host list");
        Expect.Equal("p", AmqpConnectionOptions.Parse("amqp://u:p@a,b/v").Password, "the password before a host list");
    }

    [Fact]
    public void Recovery_is_on_by_default_as_in_RabbitMQ_Client()
    {
        var options = new AmqpConnectionOptions();
        Assert.True(options.AutomaticRecovery);
        Assert.True(options.TopologyRecovery);
        Expect.Equal(TimeSpan.FromSeconds(5), options.RecoveryInterval, "RabbitMQ.Client's NetworkRecoveryInterval");
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
