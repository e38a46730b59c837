using System.Diagnostics;
using System.Net;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// Many consumers per channel at prefetch 1, the consuming connection's socket cut while every queue fills up again:
/// the broker delivers to each consumer as soon as recovery registers it again, so an ack that fails while recovery
/// still registers the channel's other consumers leaves that consumer with a full prefetch for good. The same scenario
/// runs through RabbitMQ.Client against the same broker as the control, and both must come out the same: every
/// consumer receives every message, no ack fails.
/// </summary>
[Collection(nameof(ChaosProxyTests))]
public class ConsumerCutTests
{
    private const int Channels = 8;
    private const int ConsumersPerChannel = 25;
    private const int AfterCut = 3;

    [BrokerFact]
    public async Task Two_hundred_consumers_prefetch_1_socket_cut_every_consumer_goes_on_no_ack_fails_as_with_RabbitMQ_Client()
    {
        Outcome control = await RunAsync(new RabbitMqClientConsumers());
        Outcome spanwire = await RunAsync(new SpanwireConsumers());

        Expect.Equal(0, control.Stalled + control.FailedAcks, $"the control, RabbitMQ.Client: {control}");
        Expect.Equal(control.Stalled, spanwire.Stalled, $"consumers that stopped receiving; Spanwire {spanwire}, RabbitMQ.Client {control}");
        Expect.Equal(control.FailedAcks, spanwire.FailedAcks, $"acks that failed; Spanwire {spanwire}, RabbitMQ.Client {control}");
    }

    private static async Task<Outcome> RunAsync(IConsumers client)
    {
        await using var proxy = new ChaosProxy(new IPEndPoint(IPAddress.Loopback, Broker.Options().Port));
        string prefix = Broker.Name("cut");
        string[] queues = [.. Enumerable.Range(0, Channels * ConsumersPerChannel).Select(i => $"{prefix}.{i}")];
        await using AmqpConnection admin = await Broker.ConnectAsync();
        AmqpChannel publisher = await admin.OpenChannelAsync(TestTimeout.Token);
        await publisher.EnableConfirmsAsync(TestTimeout.Token);
        foreach (string queue in queues)
        {
            await publisher.QueueDeclareAsync(queue, cancellationToken: TestTimeout.Token);
        }

        var received = new int[queues.Length];
        int failedAcks = 0;
        await client.StartAsync($"amqp://guest:guest@127.0.0.1:{proxy.Port}/", queues, Channels, i => Interlocked.Increment(ref received[i]),
            () => Interlocked.Increment(ref failedAcks));
        try
        {
            await PublishToEachAsync(publisher, queues, 1);
            await WaitAsync(() => received.All(n => n >= 1), TimeSpan.FromSeconds(30));

            Assert.True(proxy.CutOne(new Random(1)), "a connection to cut");
            await PublishToEachAsync(publisher, queues, AfterCut); // waiting for each consumer as recovery registers it
            await WaitAsync(() => received.All(n => n >= 1 + AfterCut) && client.IsOpen, TimeSpan.FromSeconds(60));
            return new Outcome(received.Count(n => n < 1 + AfterCut), failedAcks, client.IsOpen);
        }
        finally
        {
            await client.DisposeAsync();
            foreach (string queue in queues)
            {
                await publisher.QueueDeleteAsync(queue, cancellationToken: TestTimeout.Token);
            }
        }
    }

    private static async Task PublishToEachAsync(AmqpChannel channel, string[] queues, int count)
    {
        for (int n = 0; n < count; n++)
        {
            foreach (string queue in queues)
            {
                await channel.PublishAsync("", queue, new byte[] { (byte)n }, TestTimeout.Token);
            }
        }

        await channel.WaitForConfirmsAsync(TestTimeout.Token);
    }

    private static async Task WaitAsync(Func<bool> done, TimeSpan limit)
    {
        var clock = Stopwatch.StartNew();
        while (!done() && clock.Elapsed < limit)
        {
            await Task.Delay(50);
        }
    }

    private sealed record Outcome(int Stalled, int FailedAcks, bool Open)
    {
        public override string ToString() => $"{Stalled} consumers stalled, {FailedAcks} acks failed, connection {(Open ? "open" : "not open")}";
    }

    private interface IConsumers : IAsyncDisposable
    {
        bool IsOpen { get; }

        /// <summary>One connection, <paramref name="channels"/> channels at prefetch 1, a consumer per queue that acks each delivery.</summary>
        Task StartAsync(string uri, string[] queues, int channels, Action<int> received, Action ackFailed);
    }

    private sealed class SpanwireConsumers : IConsumers
    {
        private AmqpConnection? _connection;

        public bool IsOpen => _connection?.IsOpen == true;

        public async Task StartAsync(string uri, string[] queues, int channels, Action<int> received, Action ackFailed)
        {
            AmqpConnectionOptions options = AmqpConnectionOptions.Parse(uri);
            options.RecoveryInterval = TimeSpan.FromMilliseconds(100);
            _connection = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
            for (int c = 0; c < channels; c++)
            {
                AmqpChannel channel = await _connection.OpenChannelAsync(TestTimeout.Token);
                await channel.QosAsync(1, TestTimeout.Token);
                for (int i = c; i < queues.Length; i += channels)
                {
                    int index = i;
                    await channel.ConsumeAsync(queues[i], async (delivery, _) =>
                    {
                        received(index);
                        try
                        {
                            await channel.AckAsync(delivery.DeliveryTag);
                        }
                        catch (Exception)
                        {
                            ackFailed();
                        }
                    }, cancellationToken: TestTimeout.Token);
                }
            }
        }

        public async ValueTask DisposeAsync()
        {
            if (_connection is not null)
            {
                await _connection.DisposeAsync();
            }
        }
    }

    private sealed class RabbitMqClientConsumers : IConsumers
    {
        private IConnection? _connection;

        public bool IsOpen => _connection?.IsOpen == true;

        public async Task StartAsync(string uri, string[] queues, int channels, Action<int> received, Action ackFailed)
        {
            var factory = new ConnectionFactory
            {
                Uri = new Uri(uri),
                AutomaticRecoveryEnabled = true,
                TopologyRecoveryEnabled = true,
                NetworkRecoveryInterval = TimeSpan.FromMilliseconds(100),
            };
            _connection = await factory.CreateConnectionAsync(TestTimeout.Token);
            for (int c = 0; c < channels; c++)
            {
                IChannel channel = await _connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
                await channel.BasicQosAsync(0, 1, false, TestTimeout.Token);
                for (int i = c; i < queues.Length; i += channels)
                {
                    int index = i;
                    var consumer = new AsyncEventingBasicConsumer(channel);
                    consumer.ReceivedAsync += async (_, delivery) =>
                    {
                        received(index);
                        try
                        {
                            await channel.BasicAckAsync(delivery.DeliveryTag, multiple: false);
                        }
                        catch (Exception)
                        {
                            ackFailed();
                        }
                    };
                    await channel.BasicConsumeAsync(queues[i], autoAck: false, consumer, TestTimeout.Token);
                }
            }
        }

        public async ValueTask DisposeAsync()
        {
            if (_connection is not null)
            {
                await _connection.CloseAsync();
                _connection.Dispose();
            }
        }
    }
}
