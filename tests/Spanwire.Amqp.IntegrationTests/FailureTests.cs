using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>Errors stay where they belong: a channel error closes one channel, a connection fault ends every pending call promptly.</summary>
public class FailureTests
{
    [BrokerFact]
    public async Task Precondition_failure_faults_that_call_closes_that_channel_connection_goes_on()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpChannel bystander = await connection.OpenChannelAsync(TestTimeout.Token);
        string queue = Broker.Name("q");
        await channel.QueueDeclareAsync(queue, autoDelete: true, cancellationToken: TestTimeout.Token);

        AmqpChannelClosedException error = await Assert.ThrowsAsync<AmqpChannelClosedException>(() =>
            channel.QueueDeclareAsync(queue, durable: true, autoDelete: true, cancellationToken: TestTimeout.Token));
        Assert.Equal(AmqpReplyCode.PreconditionFailed, error.ReplyCode);
        Assert.Contains("PRECONDITION_FAILED", error.ReplyText);
        Assert.Equal((50, 10), (error.ClassId, error.MethodId)); // queue.declare
        Assert.False(channel.IsOpen);
        await Assert.ThrowsAsync<AmqpChannelClosedException>(() => channel.QueuePurgeAsync(queue, TestTimeout.Token));

        Assert.True(connection.IsOpen);
        Assert.True(bystander.IsOpen);
        Assert.Equal(0u, (await bystander.QueueDeclareAsync(queue, autoDelete: true, cancellationToken: TestTimeout.Token)).MessageCount);
        AmqpChannel fresh = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpChannelClosedException missing = await Assert.ThrowsAsync<AmqpChannelClosedException>(() =>
            fresh.QueueDeclareAsync(Broker.Name("absent"), passive: true, cancellationToken: TestTimeout.Token));
        Assert.Equal(AmqpReplyCode.NotFound, missing.ReplyCode);
        await bystander.QueueDeleteAsync(queue, cancellationToken: TestTimeout.Token);
    }

    [BrokerFact]
    public async Task Closes_and_disposes_at_once_on_one_channel_send_one_close_and_the_connection_goes_on()
    {
        // A second channel.close, or any request, sent after the broker's close-ok would reach a channel the broker has
        // closed, and the broker answers that by closing the connection (504, expected 'channel.open').
        await using AmqpConnection connection = await Broker.ConnectAsync();
        for (int round = 0; round < 20; round++)
        {
            AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
            Task declare = channel.QueueDeclareAsync(Broker.Name("q"), exclusive: true, cancellationToken: TestTimeout.Token);
            Task[] ends =
            [
                channel.CloseAsync(TestTimeout.Token), channel.DisposeAsync().AsTask(),
                Task.Run(() => channel.CloseAsync(TestTimeout.Token)), Task.Run(async () => await channel.DisposeAsync()),
            ];
            await Task.WhenAll(ends).WaitAsync(TestTimeout.Token);
            Exception? declared = await Record.ExceptionAsync(() => declare);
            Assert.True(declared is null or AmqpChannelClosedException, $"round {round}: the declare beside the closes ended with {declared}");
            Assert.False(channel.IsOpen, $"round {round}: the channel is still open");
            Assert.True(connection.IsOpen, $"round {round}: the connection closed: {connection.CloseReason}");
        }

        AmqpChannel after = await connection.OpenChannelAsync(TestTimeout.Token);
        await after.QueueDeclareAsync(Broker.Name("q"), exclusive: true, cancellationToken: TestTimeout.Token);
        Assert.True(connection.IsOpen);
    }

    [BrokerFact]
    public async Task Publishes_and_acks_racing_a_close_are_sent_before_it_or_refused_and_the_connection_goes_on()
    {
        // A frame sent on a channel after its channel.close reaches a channel the broker has closed by then, and the
        // broker answers that by closing the connection.
        await using AmqpConnection connection = await Broker.ConnectAsync();
        for (int round = 0; round < 10; round++)
        {
            AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
            if (round % 2 == 0)
            {
                await channel.EnableConfirmsAsync(TestTimeout.Token);
            }

            AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
            var deliveries = new List<ulong>();
            for (int i = 0; i < 50; i++)
            {
                await channel.PublishAsync("", queue.Name, new byte[] { (byte)i }, TestTimeout.Token);
            }

            while (deliveries.Count < 50 && await channel.GetAsync(queue.Name, cancellationToken: TestTimeout.Token) is { } delivery)
            {
                deliveries.Add(delivery.DeliveryTag);
            }

            var refused = new System.Collections.Concurrent.ConcurrentBag<Exception>();
            async Task Racing(Func<int, ValueTask> step)
            {
                for (int i = 0; i < 50; i++)
                {
                    try
                    {
                        await step(i);
                    }
                    catch (AmqpClosedException e)
                    {
                        refused.Add(e);
                        return;
                    }
                }
            }

            Task[] racing =
            [
                Task.Run(() => Racing(i => channel.PublishAsync("", queue.Name, new byte[] { 1 }, TestTimeout.Token))),
                Task.Run(() => Racing(i => channel.PublishAsync("", queue.Name, new byte[] { 2 }, TestTimeout.Token))),
                Task.Run(() => Racing(i => channel.AckAsync(deliveries[i], cancellationToken: TestTimeout.Token))),
            ];
            await Task.Yield();
            await channel.CloseAsync(TestTimeout.Token);
            await Task.WhenAll(racing).WaitAsync(TestTimeout.Token);
            Assert.All(refused, e => Assert.IsType<AmqpChannelClosedException>(e));
            await Task.Delay(50); // a connection.close the broker sent would be here by now
            Assert.True(connection.IsOpen, $"round {round}: the connection closed: {connection.CloseReason}");
        }
    }

    [BrokerFact]
    public async Task Heartbeat_1s_idle_5s_connection_stays_up()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync(o => o.Heartbeat = 1);
        Assert.Equal((ushort)1, connection.Heartbeat);
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        await Task.Delay(TimeSpan.FromSeconds(5));
        Assert.True(connection.IsOpen, connection.CloseReason?.Message);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        Assert.Equal(0u, queue.MessageCount);
    }

    [BrokerFact]
    public async Task Wrong_password_is_refused_with_403()
    {
        AmqpConnectionOptions options = Broker.Options(o => o.Password = "not-the-password");
        AmqpConnectionClosedException error = await Assert.ThrowsAsync<AmqpConnectionClosedException>(() =>
            AmqpConnection.ConnectAsync(options, TestTimeout.Token));
        Assert.Equal(AmqpReplyCode.AccessRefused, error.ReplyCode);
    }
}
