using System.Security.Authentication;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>amqps:// against a node with a TLS listener: trust, server names, client certificates and EXTERNAL login, refusals.</summary>
public class TlsTests(TlsNode node) : IClassFixture<TlsNode>
{
    [BrokerFact]
    public async Task Amqps_trusting_the_test_CA_publishes_and_reads_back_over_TLS()
    {
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(node.Options(), TestTimeout.Token);
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        byte[] body = new byte[300_000]; // several TLS records and AMQP frames
        Random.Shared.NextBytes(body);
        await channel.PublishConfirmedAsync("", queue.Name, default, body, cancellationToken: TestTimeout.Token);

        AmqpDelivery? delivery = await channel.GetAsync(queue.Name, autoAck: true, TestTimeout.Token);
        Assert.NotNull(delivery);
        Assert.Equal(body, delivery.Body.ToArray());
    }

    [BrokerFact]
    public async Task Amqps_with_the_machines_default_trust_refuses_the_test_server_certificate()
    {
        // The test CA is in no trust store of the machine: the default check must refuse the broker.
        AuthenticationException error = await Assert.ThrowsAsync<AuthenticationException>(() => AmqpConnection.ConnectAsync(node.TlsUri, TestTimeout.Token));
        Assert.Contains("localhost", error.Message, StringComparison.Ordinal);
    }

    [BrokerFact]
    public async Task Amqps_server_name_that_the_certificate_does_not_carry_is_refused()
    {
        AmqpConnectionOptions options = node.Options();
        options.Tls!.TargetHost = "broker.example.com";
        await Assert.ThrowsAsync<AuthenticationException>(() => AmqpConnection.ConnectAsync(options, TestTimeout.Token));
    }

    [BrokerFact]
    public async Task External_with_the_client_certificate_logs_in_as_its_user()
    {
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(node.Options("client", AmqpAuthMechanism.External), TestTimeout.Token);
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        Assert.StartsWith("amq.gen-", queue.Name, StringComparison.Ordinal);
    }

    [BrokerFact]
    public async Task External_for_a_user_the_broker_does_not_know_is_refused_with_403()
    {
        AmqpConnectionClosedException error = await Assert.ThrowsAsync<AmqpConnectionClosedException>(() =>
            AmqpConnection.ConnectAsync(node.Options("unknown-user", AmqpAuthMechanism.External), TestTimeout.Token));
        Expect.Equal(AmqpReplyCode.AccessRefused, error.ReplyCode, error.Message);
    }

    [BrokerFact]
    public async Task External_with_a_certificate_from_an_untrusted_CA_never_gets_a_connection()
    {
        // The broker checks client certificates (verify_peer): one from another CA ends the TLS session, in the TLS
        // handshake or, with TLS 1.3, at the first read after it; either way an AuthenticationException with the alert.
        AuthenticationException error = await Assert.ThrowsAsync<AuthenticationException>(() =>
            AmqpConnection.ConnectAsync(node.Options("stranger", AmqpAuthMechanism.External), TestTimeout.Token));
        Assert.Contains("unknown ca", error.Message, StringComparison.OrdinalIgnoreCase);
    }

    [BrokerFact]
    public async Task External_without_TLS_the_broker_does_not_offer_it_and_the_error_says_so()
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(node.PlainUri + "?auth_mechanism=external");
        AmqpConnectionClosedException error = await Assert.ThrowsAsync<AmqpConnectionClosedException>(() => AmqpConnection.ConnectAsync(options, TestTimeout.Token));
        Assert.Contains("does not offer EXTERNAL", error.Message, StringComparison.Ordinal);
    }
}
