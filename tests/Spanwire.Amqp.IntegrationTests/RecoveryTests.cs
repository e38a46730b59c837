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
    [Fact]
    public async Task Fake_broker_drops_the_socket_client_reconnects_reopens_its_channel_events_in_order_then_publishes_on_it()
    {
        await using var fake = new FakeBroker();
        AmqpConnectionOptions options = fake.Options(recover: true);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(100);
        Task<AmqpConnection> connecting = AmqpConnection.ConnectAsync(options, Timeout.Token);
        await fake.AcceptAsync(Timeout.Token);
        await using AmqpConnection connection = await connecting;
        var events = new ConcurrentQueue<string>();
        var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        connection.ConnectionLost += (_, e) => events.Enqueue("lost");
        connection.RecoveryStarted += (_, e) => events.Enqueue($"started {e.Attempt}");
        connection.RecoverySucceeded += (_, e) =>
        {
            events.Enqueue($"succeeded {e.Attempt}");
            recovered.TrySetResult();
        };
        AmqpChannel channel = await fake.OpenChannelAsync(connection, Timeout.Token);

        fake.Drop();
        await fake.AcceptAsync(Timeout.Token); // the client comes back
        byte[] reopen = await fake.ReceiveFrameAsync(Timeout.Token);
        Expect.Equal(AmqpMethods.ChannelOpen, AmqpMethodReader.Parse(reopen.AsSpan(7, reopen.Length - 8)).Method, "the first frame after the handshake");
        Expect.Equal(1, (reopen[1] << 8) | reopen[2], "the same channel number");
        Assert.False(channel.IsOpen);
        await Assert.ThrowsAsync<AmqpConnectionClosedException>(async () => await channel.PublishAsync("", "q", new byte[1]));
        await fake.SendMethodAsync(AmqpMethods.ChannelOpenOk, 4, (ref AmqpMethodWriter a) => a.WriteLongString(""u8), channel: 1);
        await recovered.Task.WaitAsync(Timeout.Token);

        Assert.True(connection.IsOpen);
        Assert.True(channel.IsOpen);
        Expect.Equal("lost,started 1,succeeded 1", string.Join(',', events), "the events");
        await channel.PublishAsync("", "q", new byte[] { 42 }, Timeout.Token);
        byte[] publish = await fake.ReceiveFrameAsync(Timeout.Token);
        Expect.Equal(AmqpMethods.BasicPublish, AmqpMethodReader.Parse(publish.AsSpan(7, publish.Length - 8)).Method, "after recovery");
    }

    [Fact]
    public async Task Two_endpoints_the_first_dies_recovery_moves_to_the_second()
    {
        await using var first = new FakeBroker();
        await using var second = new FakeBroker();
        AmqpConnectionOptions options = first.Options(recover: true);
        options.Endpoints.Add(new AmqpEndpoint("127.0.0.1", first.Port));
        options.Endpoints.Add(new AmqpEndpoint("127.0.0.1", second.Port));
        options.RecoveryInterval = TimeSpan.FromMilliseconds(100);
        Task<AmqpConnection> connecting = AmqpConnection.ConnectAsync(options, Timeout.Token);
        await first.AcceptAsync(Timeout.Token);
        await using AmqpConnection connection = await connecting;
        var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        connection.RecoverySucceeded += (_, _) => recovered.TrySetResult();
        Expect.Equal(first.Port, connection.Endpoint.Port, "connected to the first");

        first.StopListening();
        first.Drop();
        await second.AcceptAsync(Timeout.Token);
        await recovered.Task.WaitAsync(Timeout.Token);

        Expect.Equal(second.Port, connection.Endpoint.Port, "recovered on the second");
    }

    [Fact]
    public async Task Shuffled_endpoints_recovery_never_retries_the_dead_one_first()
    {
        // Ten connections, each to three endpoints in a random order: the first attempt after a loss goes to another
        // endpoint than the one just lost, every time.
        for (int run = 0; run < 10; run++)
        {
            FakeBroker[] fakes = [new(), new(), new()];
            try
            {
                AmqpConnectionOptions options = fakes[0].Options(recover: true);
                foreach (FakeBroker fake in fakes)
                {
                    options.Endpoints.Add(new AmqpEndpoint("127.0.0.1", fake.Port));
                }

                options.ShuffleEndpoints = true;
                options.RecoveryInterval = TimeSpan.FromMilliseconds(50);
                using var accepting = CancellationTokenSource.CreateLinkedTokenSource(Timeout.Token);
                Task<AmqpConnection> connecting = AmqpConnection.ConnectAsync(options, Timeout.Token);
                Task[] accepts = [.. fakes.Select(f => f.AcceptAsync(accepting.Token))];
                Task accepted = await Task.WhenAny(accepts);
                await using AmqpConnection connection = await connecting;
                FakeBroker dead = fakes[Array.IndexOf(accepts, accepted)];
                var firstAttempt = new TaskCompletionSource<AmqpEndpoint>(TaskCreationOptions.RunContinuationsAsynchronously);
                connection.RecoveryStarted += (_, e) => firstAttempt.TrySetResult(e.Endpoint);

                int deadPort = dead.Port;
                dead.StopListening();
                dead.Drop();
                AmqpEndpoint tried = await firstAttempt.Task.WaitAsync(Timeout.Token);
                Assert.True(tried.Port != deadPort, $"run {run}: the first attempt went back to the endpoint just lost ({tried})");
                await connection.CloseAsync();
                accepting.Cancel();
            }
            finally
            {
                foreach (FakeBroker fake in fakes)
                {
                    await fake.DisposeAsync();
                }
            }
        }
    }

    [Fact]
    public async Task First_endpoint_refuses_connect_tries_the_next()
    {
        await using var live = new FakeBroker();
        var options = AmqpConnectionOptions.Parse($"amqp://guest:guest@127.0.0.1:1,127.0.0.1:{live.Port}/");
        options.AutomaticRecovery = false;
        Task<AmqpConnection> connecting = AmqpConnection.ConnectAsync(options, Timeout.Token);
        await live.AcceptAsync(Timeout.Token);
        await using AmqpConnection connection = await connecting;
        Expect.Equal(live.Port, connection.Endpoint.Port, "the endpoint that answered");
    }

    [Fact]
    public async Task Broker_closes_every_connection_topology_channels_and_consumers_come_back_the_publisher_and_consumer_go_on()
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(node.Uri);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(200);
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options, Timeout.Token);
        var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        connection.RecoverySucceeded += (_, _) => recovered.TrySetResult();

        AmqpChannel channel = await connection.OpenChannelAsync(Timeout.Token);
        string exchange = Broker.Name("recovery");
        await channel.ExchangeDeclareAsync(exchange, "direct", cancellationToken: Timeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: Timeout.Token); // server-named, gone with the link
        await channel.QueueBindAsync(queue.Name, exchange, "k", cancellationToken: Timeout.Token);
        await channel.EnableConfirmsAsync(Timeout.Token);
        await channel.QosAsync(prefetchCount: 10, Timeout.Token);
        AmqpConsumer consumer = await channel.ConsumeAsync(queue.Name, cancellationToken: Timeout.Token);
        var received = new BlockingCollection<int>();
        Task consuming = Task.Run(async () =>
        {
            await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(Timeout.Token))
            {
                received.Add(BinaryPrimitives.ReadInt32BigEndian(delivery.Body.Span));
                await channel.AckAsync(delivery.DeliveryTag);
            }
        });

        await channel.PublishConfirmedAsync(exchange, "k", default, Number(1), cancellationToken: Timeout.Token);
        Expect.Equal(1, Take(received), "before the broker closed the connection");

        await node.CtlAsync("close_all_connections \"recovery test\"");
        await recovered.Task.WaitAsync(TimeSpan.FromSeconds(10));

        Assert.NotEqual(queue.Name, consumer.Queue); // declared again under a new server-chosen name, the consumer with it
        await channel.PublishConfirmedAsync(exchange, "k", default, Number(2), cancellationToken: Timeout.Token);
        Expect.Equal(2, Take(received), "after recovery, through the recovered exchange, binding, queue and consumer");
        Assert.False(consuming.IsCompleted);
    }

    [Fact]
    public async Task Node_killed_and_restarted_pending_confirms_fault_clearly_client_recovers_after_the_restart_no_call_hangs()
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(node.Uri);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(200);
        options.Heartbeat = 2;
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options, Timeout.Token);
        var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var failedAttempts = 0;
        connection.RecoverySucceeded += (_, _) => recovered.TrySetResult();
        connection.RecoveryFailed += (_, _) => Interlocked.Increment(ref failedAttempts);
        AmqpChannel channel = await connection.OpenChannelAsync(Timeout.Token);
        string queue = Broker.Name("durable");
        await channel.QueueDeclareAsync(queue, durable: true, cancellationToken: Timeout.Token);
        await channel.EnableConfirmsAsync(Timeout.Token);

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
        await channel.PublishConfirmedAsync("", queue, new BasicProperties { DeliveryMode = 2 }, Number(-1), cancellationToken: Timeout.Token);
        await channel.QueueDeleteAsync(queue, cancellationToken: Timeout.Token);
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
