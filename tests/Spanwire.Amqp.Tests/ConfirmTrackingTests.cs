using System.Collections.Concurrent;
using System.Threading.RateLimiting;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// Confirm mode's controls, on a broker that acks when the test says: the bound on publishes awaiting confirms, the
/// sequence numbers and the ack and nack events for code that tracks confirms itself.
/// </summary>
public class ConfirmTrackingTests
{
    [Fact]
    public async Task A_limit_of_two_the_third_publish_waits_for_a_confirm_before_it_is_sent()
    {
        await using var broker = new AutoBroker();
        var release = new SemaphoreSlim(0);
        broker.BeforeAnswer = (_, r) => r.Method == AmqpMethods.BasicPublish ? release.WaitAsync() : Task.CompletedTask;
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        using var limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions { PermitLimit = 2, QueueLimit = 100 });
        await channel.EnableConfirmsAsync(limiter);

        Task[] publishes = [.. Enumerable.Range(0, 3).Select(i => channel.PublishConfirmedAsync("", "q", default, new byte[] { (byte)i }).AsTask())];
        await broker.WaitForAsync(r => r.Method == AmqpMethods.BasicPublish && broker.Methods.Count(m => m.Method == AmqpMethods.BasicPublish) == 2, "two publishes");
        await Task.Delay(100);

        Expect.Equal(2, broker.Methods.Count(m => m.Method == AmqpMethods.BasicPublish), "publishes sent while two await confirms");
        Expect.Equal(2L, channel.UnconfirmedCount, "awaiting confirms");
        release.Release(); // the broker acks the first
        await publishes[0].WaitAsync(TimeSpan.FromSeconds(10));
        await broker.WaitForAsync(r => broker.Methods.Count(m => m.Method == AmqpMethods.BasicPublish) == 3, "the third publish, once the first is confirmed");
        release.Release(2);
        await Task.WhenAll(publishes).WaitAsync(TimeSpan.FromSeconds(10));
        Expect.Equal(2, limiter.GetStatistics()!.CurrentAvailablePermits, "every lease given back");
    }

    [Fact]
    public async Task A_waiting_publish_can_be_cancelled_and_a_lost_link_gives_every_lease_back()
    {
        await using var broker = new AutoBroker();
        broker.BeforeAnswer = (_, r) => r.Method == AmqpMethods.BasicPublish ? Task.Delay(Timeout.Infinite) : Task.CompletedTask;
        AmqpConnectionOptions options = broker.Options();
        options.AutomaticRecovery = false;
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options);
        AmqpChannel channel = await connection.OpenChannelAsync();
        using var limiter = new ConcurrencyLimiter(new ConcurrencyLimiterOptions { PermitLimit = 1, QueueLimit = 100 });
        await channel.EnableConfirmsAsync(limiter);
        Task first = channel.PublishConfirmedAsync("", "q", default, new byte[1]).AsTask();
        await broker.WaitForAsync(r => r.Method == AmqpMethods.BasicPublish, "the first publish");
        using var cancel = new CancellationTokenSource();
        Task second = channel.PublishConfirmedAsync("", "q", default, new byte[1], cancellationToken: cancel.Token).AsTask();

        cancel.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => second.WaitAsync(TimeSpan.FromSeconds(10)));
        broker.Current.Drop();
        await Assert.ThrowsAsync<AmqpConnectionClosedException>(() => first.WaitAsync(TimeSpan.FromSeconds(10)));

        Expect.Equal(1, limiter.GetStatistics()!.CurrentAvailablePermits, "the lease of the publish the lost link took");
        Expect.Equal(1, broker.Methods.Count(m => m.Method == AmqpMethods.BasicPublish), "the cancelled publish was never sent");
    }

    [Fact]
    public async Task Sequence_numbers_count_from_1_when_confirms_are_on_and_every_ack_is_raised_with_its_tag()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        var acked = new ConcurrentQueue<AmqpConfirm>();
        channel.Acked += (_, confirm) => acked.Enqueue(confirm);

        Expect.Equal(0UL, channel.NextPublishSequenceNumber, "before confirm mode, as RabbitMQ.Client");
        await channel.EnableConfirmsAsync();
        Expect.Equal(1UL, channel.NextPublishSequenceNumber, "in confirm mode, before the first publish");
        for (int i = 0; i < 3; i++)
        {
            await channel.PublishAsync("", "q", new byte[1]);
        }

        Expect.Equal(4UL, channel.NextPublishSequenceNumber, "after three publishes");
        await channel.WaitForConfirmsAsync().WaitAsync(TimeSpan.FromSeconds(10));
        Expect.Equal("1 False,2 False,3 False", string.Join(",", acked.Select(a => $"{a.DeliveryTag} {a.Multiple}")), "the acks raised");
    }
}
