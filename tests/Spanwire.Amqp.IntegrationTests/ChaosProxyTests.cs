using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Net;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// Publishers with confirms and an acknowledging consumer through a proxy that resets a connection at random every
/// few hundred milliseconds: every connection recovers by itself, no confirmed message is lost, no call hangs.
/// </summary>
public class ChaosProxyTests
{
    [Fact]
    public async Task ConnectionsCutAtRandom_EveryClientRecovers_NoConfirmedMessageLost_NoCallHangs()
    {
        AmqpConnectionOptions direct = Broker.Options();
        await using var proxy = new ChaosProxy(new IPEndPoint(IPAddress.Loopback, direct.Port));
        string queue = Broker.Name("chaos");
        await using (AmqpConnection setup = await Broker.ConnectAsync())
        {
            AmqpChannel channel = await setup.OpenChannelAsync(Timeout.Token);
            await channel.QueueDeclareAsync(queue, durable: true, cancellationToken: Timeout.Token);
        }

        var confirmed = new ConcurrentDictionary<long, bool>();
        var received = new ConcurrentDictionary<long, int>();
        var connections = new ConcurrentBag<AmqpConnection>();
        using var stop = new CancellationTokenSource();

        async Task<AmqpConnection> ConnectAsync()
        {
            AmqpConnectionOptions options = Broker.Options(o =>
            {
                o.Host = "127.0.0.1";
                o.Port = proxy.Port;
                o.RecoveryInterval = TimeSpan.FromMilliseconds(100);
                o.ContinuationTimeout = TimeSpan.FromSeconds(10);
            });
            AmqpConnection connection = await AmqpConnection.ConnectAsync(options, Timeout.Token);
            connections.Add(connection);
            return connection;
        }

        Task consumer = Task.Run(async () =>
        {
            AmqpConnection connection = await ConnectAsync();
            AmqpChannel channel = await connection.OpenChannelAsync(Timeout.Token);
            await channel.QosAsync(prefetchCount: 100);
            AmqpConsumer consuming = await channel.ConsumeAsync(queue);
            await foreach (AmqpDelivery delivery in consuming.ReadAllAsync(CancellationToken.None))
            {
                received.AddOrUpdate(BinaryPrimitives.ReadInt64BigEndian(delivery.Body.Span), 1, (_, n) => n + 1);
                try
                {
                    await channel.AckAsync(delivery.DeliveryTag);
                }
                catch (AmqpClosedException)
                {
                }
            }
        });

        Task[] publishers = [.. Enumerable.Range(0, 4).Select(p => Task.Run(async () =>
        {
            AmqpConnection connection = await ConnectAsync();
            AmqpChannel channel = await connection.OpenChannelAsync(Timeout.Token);
            await channel.EnableConfirmsAsync(Timeout.Token);
            var body = new byte[8];
            for (long seq = 0; !stop.IsCancellationRequested; seq++)
            {
                long id = ((long)p << 40) | seq;
                BinaryPrimitives.WriteInt64BigEndian(body, id);
                while (!stop.IsCancellationRequested)
                {
                    try
                    {
                        using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(30));
                        await channel.PublishConfirmedAsync("", queue, new BasicProperties { DeliveryMode = 2 }, body, cancellationToken: limit.Token)
                            .AsTask().WaitAsync(limit.Token);
                        confirmed[id] = true;
                        break;
                    }
                    catch (AmqpClosedException)
                    {
                        await Task.Delay(50);
                    }
                }
            }
        }))];

        var random = new Random(20261124);
        for (int i = 0; i < 40; i++)
        {
            await Task.Delay(random.Next(100, 400));
            proxy.CutOne(random);
        }

        stop.Cancel();
        await Task.WhenAll(publishers).WaitAsync(TimeSpan.FromSeconds(60));
        var drain = System.Diagnostics.Stopwatch.StartNew();
        while (confirmed.Keys.Any(id => !received.ContainsKey(id)) && drain.Elapsed < TimeSpan.FromSeconds(30))
        {
            await Task.Delay(100);
        }

        long lost = confirmed.Keys.Count(id => !received.ContainsKey(id));
        long duplicates = received.Values.Sum(n => n - 1L);
        var recoveredWithin = System.Diagnostics.Stopwatch.StartNew();
        while (connections.Any(c => !c.IsOpen) && recoveredWithin.Elapsed < TimeSpan.FromSeconds(10))
        {
            await Task.Delay(50);
        }

        Assert.True(connections.All(c => c.IsOpen), "a connection did not recover within 10 s of the last cut");
        foreach (AmqpConnection connection in connections)
        {
            await connection.CloseAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }

        await consumer.WaitAsync(TimeSpan.FromSeconds(30));
        await using (AmqpConnection cleanup = await Broker.ConnectAsync())
        {
            AmqpChannel channel = await cleanup.OpenChannelAsync(Timeout.Token);
            await channel.QueueDeleteAsync(queue, cancellationToken: Timeout.Token);
        }

        string summary = $"{proxy.Cuts} cuts; confirmed {confirmed.Count}, received {received.Count} distinct, lost {lost}, duplicates {duplicates}";
        string artifacts = Path.Combine(Path.GetDirectoryName(Path.GetDirectoryName(NodeScript.Path))!, "artifacts");
        Directory.CreateDirectory(artifacts);
        await File.WriteAllTextAsync(Path.Combine(artifacts, "chaos-proxy.md"), summary + Environment.NewLine);
        Expect.Equal(0L, lost, summary);
        Assert.True(proxy.Cuts >= 30 && confirmed.Count > 500, summary);
    }
}
