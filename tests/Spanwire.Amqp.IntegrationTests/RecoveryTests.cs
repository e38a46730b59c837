using System.Buffers.Binary;
using System.Collections.Concurrent;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// Automatic recovery: a lost connection reconnects, declares its topology again, reopens its channels with their QoS
/// and confirm mode and registers its consumers again, so user code goes on with the same objects.
/// </summary>
public partial class RecoveryTests(PrivateNode node) : IClassFixture<PrivateNode>
{

    [BrokerFact]
    public async Task Broker_closes_every_connection_topology_channels_and_consumers_come_back_the_publisher_and_consumer_go_on()
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(node.Uri);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(200);
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        connection.RecoverySucceeded += (_, _) => recovered.TrySetResult();

        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        string exchange = Broker.Name("recovery");
        await channel.ExchangeDeclareAsync(exchange, "direct", cancellationToken: TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token); // server-named, gone with the link
        await channel.QueueBindAsync(queue.Name, exchange, "k", cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        await channel.QosAsync(prefetchCount: 10, TestTimeout.Token);
        AmqpConsumer consumer = await channel.ConsumeAsync(queue.Name, cancellationToken: TestTimeout.Token);
        var received = new BlockingCollection<int>();
        Task consuming = Task.Run(async () =>
        {
            await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(TestTimeout.Token))
            {
                received.Add(BinaryPrimitives.ReadInt32BigEndian(delivery.Body.Span));
                await channel.AckAsync(delivery.DeliveryTag);
            }
        });

        await channel.PublishConfirmedAsync(exchange, "k", default, Number(1), cancellationToken: TestTimeout.Token);
        Expect.Equal(1, Take(received), "before the broker closed the connection");

        await node.CtlAsync("close_all_connections \"recovery test\"");
        await recovered.Task.WaitAsync(TimeSpan.FromSeconds(10));

        Assert.NotEqual(queue.Name, consumer.Queue); // declared again under a new server-chosen name, the consumer with it
        await channel.PublishConfirmedAsync(exchange, "k", default, Number(2), cancellationToken: TestTimeout.Token);
        Expect.Equal(2, Take(received), "after recovery, through the recovered exchange, binding, queue and consumer");
        Assert.False(consuming.IsCompleted);
    }

    [BrokerFact]
    public async Task Node_killed_and_restarted_pending_confirms_fault_clearly_client_recovers_after_the_restart_no_call_hangs()
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(node.Uri);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(200);
        options.Heartbeat = 2;
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var failedAttempts = 0;
        connection.RecoverySucceeded += (_, _) => recovered.TrySetResult();
        connection.RecoveryFailed += (_, _) => Interlocked.Increment(ref failedAttempts);
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        string queue = Broker.Name("durable");
        await channel.QueueDeclareAsync(queue, durable: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);

        Task<Exception?> publishing = Task.Run<Exception?>(async () =>
        {
            try
            {
                for (int i = 0; ; i++)
                {
                    await channel.PublishConfirmedAsync("", queue, new BasicProperties { DeliveryMode = 2 }, Number(i));
                }
            }
            catch (Exception ex)
            {
                return ex;
            }
        });
        await Task.Delay(300);
        await node.KillAsync();

        Exception? publishError = await publishing.WaitAsync(TimeSpan.FromSeconds(15));
        Assert.True(publishError is AmqpConnectionClosedException, publishError?.ToString());
        Assert.False(connection.IsOpen);
        await node.StartAsync();
        await recovered.Task.WaitAsync(TimeSpan.FromSeconds(30));

        Assert.True(failedAttempts > 0, "attempts while the node was down fail and are reported");
        await channel.PublishConfirmedAsync("", queue, new BasicProperties { DeliveryMode = 2 }, Number(-1), cancellationToken: TestTimeout.Token);
        await channel.QueueDeleteAsync(queue, cancellationToken: TestTimeout.Token);
    }

    private static byte[] Number(int value)
    {
        var body = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(body, value);
        return body;
    }

    private static int Take(BlockingCollection<int> received) =>
        received.TryTake(out int value, TimeSpan.FromSeconds(10)) ? value : throw new TimeoutException("no delivery within 10 s");
}
