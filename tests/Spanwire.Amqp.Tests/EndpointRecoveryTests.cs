using System.Collections.Concurrent;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

/// <summary>Recovery against fake brokers: the lost socket, a dead endpoint in a list, a refused connect. No RabbitMQ needed.</summary>
public class EndpointRecoveryTests
{
    [Fact]
    public async Task Fake_broker_drops_the_socket_client_reconnects_reopens_its_channel_events_in_order_then_publishes_on_it()
    {
        await using var fake = new FakeBroker();
        AmqpConnectionOptions options = fake.Options(recover: true);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(100);
        Task<AmqpConnection> connecting = AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        await fake.AcceptAsync(TestTimeout.Token);
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
        AmqpChannel channel = await fake.OpenChannelAsync(connection, TestTimeout.Token);

        fake.Drop();
        await fake.AcceptAsync(TestTimeout.Token); // the client comes back
        byte[] reopen = await fake.ReceiveFrameAsync(TestTimeout.Token);
        Expect.Equal(AmqpMethods.ChannelOpen, AmqpMethodReader.Parse(reopen.AsSpan(7, reopen.Length - 8)).Method, "the first frame after the handshake");
        Expect.Equal(1, (reopen[1] << 8) | reopen[2], "the same channel number");
        Assert.False(channel.IsOpen);
        await Assert.ThrowsAsync<AmqpConnectionClosedException>(async () => await channel.PublishAsync("", "q", new byte[1]));
        await fake.SendMethodAsync(AmqpMethods.ChannelOpenOk, 4, (ref AmqpMethodWriter a) => a.WriteLongString(""u8), channel: 1);
        await recovered.Task.WaitAsync(TestTimeout.Token);

        Assert.True(connection.IsOpen);
        Assert.True(channel.IsOpen);
        Expect.Equal("lost,started 1,succeeded 1", string.Join(',', events), "the events");
        await channel.PublishAsync("", "q", new byte[] { 42 }, TestTimeout.Token);
        byte[] publish = await fake.ReceiveFrameAsync(TestTimeout.Token);
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
        Task<AmqpConnection> connecting = AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        await first.AcceptAsync(TestTimeout.Token);
        await using AmqpConnection connection = await connecting;
        var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        connection.RecoverySucceeded += (_, _) => recovered.TrySetResult();
        Expect.Equal(first.Port, connection.Endpoint.Port, "connected to the first");

        first.StopListening();
        first.Drop();
        await second.AcceptAsync(TestTimeout.Token);
        await recovered.Task.WaitAsync(TestTimeout.Token);

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
                using var accepting = CancellationTokenSource.CreateLinkedTokenSource(TestTimeout.Token);
                Task<AmqpConnection> connecting = AmqpConnection.ConnectAsync(options, TestTimeout.Token);
                Task[] accepts = [.. fakes.Select(f => f.AcceptAsync(accepting.Token))];
                Task accepted = await Task.WhenAny(accepts);
                await using AmqpConnection connection = await connecting;
                FakeBroker dead = fakes[Array.IndexOf(accepts, accepted)];
                var firstAttempt = new TaskCompletionSource<AmqpEndpoint>(TaskCreationOptions.RunContinuationsAsynchronously);
                connection.RecoveryStarted += (_, e) => firstAttempt.TrySetResult(e.Endpoint);

                int deadPort = dead.Port;
                dead.StopListening();
                dead.Drop();
                AmqpEndpoint tried = await firstAttempt.Task.WaitAsync(TestTimeout.Token);
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
        Task<AmqpConnection> connecting = AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        await live.AcceptAsync(TestTimeout.Token);
        await using AmqpConnection connection = await connecting;
        Expect.Equal(live.Port, connection.Endpoint.Port, "the endpoint that answered");
    }
}
