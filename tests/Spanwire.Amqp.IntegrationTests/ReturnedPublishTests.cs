using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// Awaited mandatory publishes in confirm mode, some unroutable: the broker returns those before it acks them, and
/// each must fault with the return where RabbitMQ.Client (publisher confirmation tracking on, the control, against
/// the same broker in the same test) faults with a PublishException whose IsReturn is true; the routed ones succeed
/// on both.
/// </summary>
public class ReturnedPublishTests
{
    [BrokerFact]
    public async Task Mandatory_publishes_awaited_unroutable_ones_fault_with_the_return_routable_ones_succeed_as_with_RabbitMQ_Client()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        string queue = (await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token)).Name;
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        string[] keys = [.. Enumerable.Range(0, 40).Select(i => i % 3 == 1 ? Broker.Name("nowhere") : queue)];

        // All in flight at once, so returns and acks interleave.
        Task<string>[] spanwire = [.. keys.Select(async key =>
        {
            try
            {
                await channel.PublishConfirmedAsync("", key, new Protocol.BasicProperties { MessageId = "m" }, new byte[] { 1, 2 }, mandatory: true, TestTimeout.Token);
                return "acked";
            }
            catch (AmqpPublishReturnedException ex)
            {
                return $"returned {ex.ReplyCode} {ex.ReplyText} to {ex.Returned.RoutingKey == key}";
            }
        })];

        var factory = new ConnectionFactory { Uri = new Uri(Broker.Uri) };
        await using IConnection control = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel controlChannel = await control.CreateChannelAsync(new CreateChannelOptions(publisherConfirmationsEnabled: true,
            publisherConfirmationTrackingEnabled: true), TestTimeout.Token);
        Task<string>[] expected = [.. keys.Select(async key =>
        {
            try
            {
                await controlChannel.BasicPublishAsync("", key, mandatory: true, new BasicProperties { MessageId = "m" }, new byte[] { 1, 2 }, TestTimeout.Token);
                return "acked";
            }
            catch (PublishReturnException ex)
            {
                return $"returned {ex.ReplyCode} {ex.ReplyText} to {ex.RoutingKey == key}";
            }
        })];

        string[] outcomes = await Task.WhenAll(spanwire);
        string[] controlOutcomes = await Task.WhenAll(expected);
        Expect.SameLines(controlOutcomes, outcomes, "each publish's outcome, RabbitMQ.Client's first");
        Assert.Contains("returned 312 NO_ROUTE to True", outcomes);
        Expect.Equal(0L, channel.UnconfirmedCount, "publishes still awaiting confirms");
    }

    [BrokerFact]
    public async Task A_return_raises_Returned_with_the_sequence_number_header_a_non_mandatory_unroutable_publish_just_succeeds()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        AmqpReturnedMessage? seen = null;
        channel.Returned += (_, r) =>
        {
            Thread.Sleep(200); // a slow handler: the returned publish must not fault before its handlers have run
            seen = r;
        };
        string nowhere = Broker.Name("nowhere");

        await channel.PublishConfirmedAsync("", nowhere, default, new byte[] { 1 }, mandatory: false, TestTimeout.Token); // nothing checks routing
        Assert.Null(seen);
        ulong seq = channel.NextPublishSequenceNumber;
        await Assert.ThrowsAsync<AmqpPublishReturnedException>(async () =>
            await channel.PublishConfirmedAsync("", nowhere, default, new byte[] { 2 }, mandatory: true, TestTimeout.Token));

        Assert.NotNull(seen);
        Assert.True(seen!.Properties.Headers!.Value.Reader.TryGetValue(AmqpChannel.PublishSequenceNumberHeader, out Protocol.FieldValue value));
        Expect.Equal((long)seq, value.GetInt64(), "the header names the publish's sequence number");
    }
}
