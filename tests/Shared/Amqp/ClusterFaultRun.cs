using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using Spanwire.Amqp.Client;
using SpanwireProperties = Spanwire.Amqp.Protocol.BasicProperties;

namespace Spanwire.Amqp;

/// <summary>
/// One run of node faults on a three-node cluster, the same for any client: publishers with confirms (each message
/// published again until confirmed: at-least-once) and acknowledging consumers on a quorum queue, while the node
/// holding the most clients is killed (kill -9) or stopped by turns and started again. Afterwards: how many confirmed
/// messages never arrived (must be 0), duplicates, and per fault how long the clients on the dead node took to be open
/// on another. Used by the integration tests (Spanwire, asserted) and the fault benchmark (Spanwire and
/// RabbitMQ.Client 7 side by side).
/// </summary>
internal static class ClusterFaultRun
{
    public static async Task<FaultResult> RunAsync(IFaultClientFactory factory, ClusterControl cluster, int publishers, int consumers, int faults,
        TextWriter? log = null)
    {
        string queue = $"spanwire.faults.{factory.Name.Replace(' ', '-')}.{Guid.NewGuid():N}";
        var ledger = new FaultLedger();
        var clients = new List<IFaultClient>();
        using var stop = new CancellationTokenSource();
        await factory.DeclareQuorumQueueAsync(cluster.Uri, queue).ConfigureAwait(false);
        for (int i = 0; i < consumers; i++)
        {
            clients.Add(await factory.StartConsumerAsync(cluster.Uri, queue, ledger).ConfigureAwait(false));
        }

        for (int i = 0; i < publishers; i++)
        {
            clients.Add(await factory.StartPublisherAsync(cluster.Uri, queue, i, ledger, stop.Token).ConfigureAwait(false));
        }

        var rows = new List<FaultRow>();
        await Task.Delay(2000).ConfigureAwait(false);
        for (int round = 0; round < faults; round++)
        {
            // Clients leave a dead node and do not come back to it: the next fault hits the node holding the most.
            string fault = round % 2 == 0 ? "kill -9" : "stop";
            int node = new[] { 1, 2, 3 }.OrderByDescending(n => clients.Count(c => c.IsOpen && c.Port == cluster.Port(n))).ThenBy(n => (n + round) % 3).First();
            IFaultClient[] onNode = [.. clients.Where(c => c.IsOpen && c.Port == cluster.Port(node))];
            log?.WriteLine($"{factory.Name}: {fault} n{node} ({onNode.Length} clients on it)");
            var watch = Stopwatch.StartNew();
            await (fault == "stop" ? cluster.StopAsync(node) : cluster.KillAsync(node)).ConfigureAwait(false);
            while (onNode.Any(c => !c.IsOpen || c.Port == cluster.Port(node)) && watch.Elapsed < TimeSpan.FromSeconds(60))
            {
                await Task.Delay(50).ConfigureAwait(false);
            }

            bool recovered = onNode.All(c => c.IsOpen && c.Port != cluster.Port(node));
            rows.Add(new FaultRow(fault, node, onNode.Length, onNode.Length == 0 ? null : recovered ? watch.Elapsed : null, recovered, ledger.Confirmed.Count));
            await cluster.StartAsync(node).ConfigureAwait(false);
            await Task.Delay(1500).ConfigureAwait(false);
        }

        stop.Cancel();
        var drain = Stopwatch.StartNew();
        while (ledger.Confirmed.Keys.Any(id => !ledger.Received.ContainsKey(id)) && drain.Elapsed < TimeSpan.FromSeconds(60))
        {
            await Task.Delay(200).ConfigureAwait(false);
        }

        long[] lost = [.. ledger.Confirmed.Keys.Where(id => !ledger.Received.ContainsKey(id)).Order()];
        var result = new FaultResult(factory.Name, rows, ledger.Confirmed.Count, lost.Length, ledger.Received.Values.Sum(n => n - 1L))
        {
            LostDetail = string.Join("; ", lost.Take(5).Select(id => Describe(id, ledger))),
        };
        foreach (IFaultClient client in clients)
        {
            using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(30));
            await client.DisposeAsync().AsTask().WaitAsync(limit.Token).ConfigureAwait(false);
        }

        return result;
    }

    /// <summary>
    /// A lost message by its publisher and sequence, with what that publisher had confirmed and the consumers had
    /// received around it: whether the loss sits at a fault (a gap in what was received) or alone.
    /// </summary>
    private static string Describe(long id, FaultLedger ledger)
    {
        long publisher = id >> 40, sequence = id & ((1L << 40) - 1);
        long confirmedUpTo = ledger.Confirmed.Keys.Where(k => k >> 40 == publisher).Max() & ((1L << 40) - 1);
        bool previous = ledger.Received.ContainsKey(id - 1), next = ledger.Received.ContainsKey(id + 1);
        return string.Create(CultureInfo.InvariantCulture,
            $"publisher {publisher} message {sequence} (it confirmed up to {confirmedUpTo}; message {sequence - 1} {(previous ? "received" : "not received")}, {sequence + 1} {(next ? "received" : "not received")})");
    }

    /// <summary>The results of several clients as one markdown table, clients side by side per fault.</summary>
    public static string Render(IReadOnlyList<FaultResult> results)
    {
        var text = new StringBuilder();
        text.Append("| Fault | Node |");
        foreach (FaultResult r in results)
        {
            text.Append(CultureInfo.InvariantCulture, $" {r.Client}: clients on it | {r.Client}: recovered in |");
        }

        text.AppendLine().Append("|---|---|").AppendLine(string.Concat(Enumerable.Repeat("---:|---:|", results.Count)));
        for (int i = 0; i < results.Max(r => r.Faults.Count); i++)
        {
            FaultRow first = results[0].Faults[i];
            text.Append(CultureInfo.InvariantCulture, $"| {first.Fault} | n{first.Node} (#{i + 1}) |");
            foreach (FaultResult r in results)
            {
                FaultRow row = r.Faults[i];
                string recovery = row.ClientsOnNode == 0 ? "-" : row.Recovered ? $"{row.Recovery!.Value.TotalSeconds:0.0} s" : "not within 60 s";
                text.Append(CultureInfo.InvariantCulture, $" {row.ClientsOnNode} | {recovery} |");
            }

            text.AppendLine();
        }

        text.AppendLine();
        foreach (FaultResult r in results)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"- {r.Client}: {r.Confirmed} confirmed, {r.Lost} confirmed lost, {r.Duplicates} duplicates.");
            if (r.Lost > 0)
            {
                text.AppendLine(CultureInfo.InvariantCulture, $"  - lost: {r.LostDetail}");
            }
        }

        return text.ToString();
    }
}

/// <summary>What the publishers had confirmed and what the consumers received, by message id.</summary>
internal sealed class FaultLedger
{
    public ConcurrentDictionary<long, bool> Confirmed { get; } = new();

    public ConcurrentDictionary<long, int> Received { get; } = new();

    public void Receive(ReadOnlySpan<byte> body) => Received.AddOrUpdate(BinaryPrimitives.ReadInt64BigEndian(body), 1, static (_, n) => n + 1);
}

internal sealed record FaultRow(string Fault, int Node, int ClientsOnNode, TimeSpan? Recovery, bool Recovered, int ConfirmedSoFar);

internal sealed record FaultResult(string Client, IReadOnlyList<FaultRow> Faults, long Confirmed, long Lost, long Duplicates)
{
    /// <summary>The first lost messages, each by publisher and sequence with what surrounds it.</summary>
    public string LostDetail { get; init; } = "";
}

/// <summary>One connection of a fault run: a publisher or a consumer.</summary>
internal interface IFaultClient : IAsyncDisposable
{
    bool IsOpen { get; }

    /// <summary>The port of the node the connection is on now.</summary>
    int Port { get; }

    /// <summary>What the connection last went through (its losses, recovery attempts, close), for a failure's message.</summary>
    string History => "";
}

/// <summary>A client library driven through a fault run.</summary>
internal interface IFaultClientFactory
{
    string Name { get; }

    Task DeclareQuorumQueueAsync(string uri, string queue);

    Task<IFaultClient> StartPublisherAsync(string uri, string queue, int publisher, FaultLedger ledger, CancellationToken stop);

    Task<IFaultClient> StartConsumerAsync(string uri, string queue, FaultLedger ledger);
}

/// <summary>A cluster started by scripts/rabbitmq.sh in a folder of its own.</summary>
internal sealed class ClusterControl(string folder)
{
    public string Uri { get; private set; } = "";

    public static async Task<ClusterControl> StartAsync()
    {
        var cluster = new ClusterControl(Directory.CreateTempSubdirectory("spanwire-cluster-").FullName);
        try
        {
            cluster.Uri = (await NodeScript.RunAsync($"cluster {cluster._folder}", TimeSpan.FromSeconds(300)).ConfigureAwait(false)).Trim();
            return cluster;
        }
        catch (Exception)
        {
            await cluster.DisposeAsync().ConfigureAwait(false); // the nodes that did start
            throw;
        }
    }

    private readonly string _folder = folder;

    public int Port(int node) => int.Parse(File.ReadAllText(Path.Combine(_folder, $"n{node}", "port")).Trim(), CultureInfo.InvariantCulture);

    public Task StopAsync(int node) => NodeScript.RunAsync($"stop {_folder}/n{node}", TimeSpan.FromSeconds(90));

    public Task KillAsync(int node) => NodeScript.RunAsync($"kill {_folder}/n{node}", TimeSpan.FromSeconds(30));

    public Task StartAsync(int node) => NodeScript.RunAsync($"start {_folder}/n{node}", TimeSpan.FromSeconds(120));

    public async Task DisposeAsync()
    {
        await NodeScript.RunAsync($"cluster-stop {_folder}", TimeSpan.FromSeconds(120), check: false).ConfigureAwait(false);
        Directory.Delete(_folder, recursive: true);
    }
}

/// <summary>Spanwire's client in a fault run: recovery on, endpoints shuffled.</summary>
internal sealed class SpanwireFaultClients : IFaultClientFactory
{
    public string Name => "Spanwire";

    public async Task DeclareQuorumQueueAsync(string uri, string queue)
    {
        await using AmqpConnection connection = await ConnectAsync(uri).ConfigureAwait(false);
        AmqpChannel channel = await connection.OpenChannelAsync().ConfigureAwait(false);
        await channel.QueueDeclareAsync(queue, durable: true,
            arguments: Protocol.FieldTable.FromDictionary(new Dictionary<string, object?> { ["x-queue-type"] = "quorum" })).ConfigureAwait(false);
    }

    public async Task<IFaultClient> StartPublisherAsync(string uri, string queue, int publisher, FaultLedger ledger, CancellationToken stop)
    {
        AmqpConnection connection = await ConnectAsync(uri).ConfigureAwait(false);
        AmqpChannel channel = await connection.OpenChannelAsync().ConfigureAwait(false);
        await channel.EnableConfirmsAsync().ConfigureAwait(false);
        Task loop = Task.Run(async () =>
        {
            var body = new byte[8];
            for (long seq = 0; !stop.IsCancellationRequested; seq++)
            {
                long id = ((long)publisher << 40) | seq;
                BinaryPrimitives.WriteInt64BigEndian(body, id);
                while (!stop.IsCancellationRequested)
                {
                    try
                    {
                        using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(30)); // a call that hangs fails the run
                        await channel.PublishConfirmedAsync("", queue, new SpanwireProperties { DeliveryMode = 2 }, body, cancellationToken: limit.Token)
                            .AsTask().WaitAsync(limit.Token).ConfigureAwait(false);
                        ledger.Confirmed[id] = true;
                        break;
                    }
                    catch (Exception ex) when (ex is AmqpClosedException or AmqpPublishNackedException)
                    {
                        await Task.Delay(100).ConfigureAwait(false); // recovering: publish it again
                    }
                }

                await Task.Delay(10).ConfigureAwait(false);
            }
        });
        return new Client(connection, loop);
    }

    public async Task<IFaultClient> StartConsumerAsync(string uri, string queue, FaultLedger ledger)
    {
        AmqpConnection connection = await ConnectAsync(uri).ConfigureAwait(false);
        AmqpChannel channel = await connection.OpenChannelAsync().ConfigureAwait(false);
        await channel.QosAsync(prefetchCount: 200).ConfigureAwait(false);
        AmqpConsumer consumer = await channel.ConsumeAsync(queue).ConfigureAwait(false);
        Task loop = Task.Run(async () =>
        {
            await foreach (AmqpDelivery delivery in consumer.ReadAllAsync().ConfigureAwait(false))
            {
                ledger.Receive(delivery.Body.Span);
                try
                {
                    await channel.AckAsync(delivery.DeliveryTag).ConfigureAwait(false);
                }
                catch (AmqpClosedException)
                {
                    // Lost with the link: the broker delivers it again.
                }
            }
        });
        return new Client(connection, loop);
    }

    private static Task<AmqpConnection> ConnectAsync(string uri)
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(uri);
        options.ShuffleEndpoints = true;
        options.RecoveryInterval = TimeSpan.FromMilliseconds(500);
        options.ConnectTimeout = TimeSpan.FromSeconds(5);
        options.ContinuationTimeout = TimeSpan.FromSeconds(15);
        return AmqpConnection.ConnectAsync(options);
    }

    private sealed class Client : IFaultClient
    {
        private readonly AmqpConnection _connection;
        private readonly Task _loop;
        private readonly System.Collections.Concurrent.ConcurrentQueue<string> _events = new();

        public Client(AmqpConnection connection, Task loop)
        {
            _connection = connection;
            _loop = loop;
            connection.ConnectionLost += (_, why) => Note($"lost: {why.Message}");
            connection.RecoveryFailed += (_, e) => Note($"recovery attempt {e.Attempt} failed: {e.Error?.GetType().Name}: {e.Error?.Message}");
            connection.RecoverySucceeded += (_, e) => Note($"recovered on attempt {e.Attempt}");
            connection.Closed += (_, why) => Note($"closed: {why.GetType().Name}: {why.Message}");
        }

        public bool IsOpen => _connection.IsOpen;

        public int Port => _connection.Endpoint.Port;

        public string History => $"open {_connection.IsOpen}; " + string.Join("; ", _events);

        private void Note(string what)
        {
            _events.Enqueue($"{DateTime.UtcNow:HH:mm:ss.fff} {what}");
            while (_events.Count > 6 && _events.TryDequeue(out _))
            {
            }
        }

        public async ValueTask DisposeAsync()
        {
            await _connection.CloseAsync().ConfigureAwait(false);
            try
            {
                await _loop.ConfigureAwait(false);
            }
            catch (AmqpClosedException)
            {
                // The consumer ends with its connection.
            }
        }
    }
}

/// <summary>RabbitMQ.Client 7 in a fault run: automatic and topology recovery on, publisher confirmation tracking.</summary>
internal sealed class RabbitMqClientFaultClients : IFaultClientFactory
{
    public string Name => "RabbitMQ.Client";

    public async Task DeclareQuorumQueueAsync(string uri, string queue)
    {
        await using IConnection connection = await ConnectAsync(uri).ConfigureAwait(false);
        await using IChannel channel = await connection.CreateChannelAsync().ConfigureAwait(false);
        await channel.QueueDeclareAsync(queue, durable: true, exclusive: false, autoDelete: false,
            arguments: new Dictionary<string, object?> { ["x-queue-type"] = "quorum" }).ConfigureAwait(false);
    }

    public async Task<IFaultClient> StartPublisherAsync(string uri, string queue, int publisher, FaultLedger ledger, CancellationToken stop)
    {
        IConnection connection = await ConnectAsync(uri).ConfigureAwait(false);
        IChannel channel = await connection.CreateChannelAsync(new CreateChannelOptions(publisherConfirmationsEnabled: true,
            publisherConfirmationTrackingEnabled: true)).ConfigureAwait(false);
        Task loop = Task.Run(async () =>
        {
            var properties = new RabbitMQ.Client.BasicProperties { DeliveryMode = DeliveryModes.Persistent };
            for (long seq = 0; !stop.IsCancellationRequested; seq++)
            {
                long id = ((long)publisher << 40) | seq;
                var body = new byte[8];
                BinaryPrimitives.WriteInt64BigEndian(body, id);
                while (!stop.IsCancellationRequested)
                {
                    try
                    {
                        using var limit = new CancellationTokenSource(TimeSpan.FromSeconds(30));
                        await channel.BasicPublishAsync("", queue, mandatory: false, properties, body, limit.Token).AsTask().WaitAsync(limit.Token)
                            .ConfigureAwait(false);
                        ledger.Confirmed[id] = true;
                        break;
                    }
                    catch (Exception) when (!stop.IsCancellationRequested)
                    {
                        await Task.Delay(100).ConfigureAwait(false); // recovering: publish it again
                    }
                }

                await Task.Delay(10).ConfigureAwait(false);
            }
        });
        return new Client(connection, channel, loop);
    }

    public async Task<IFaultClient> StartConsumerAsync(string uri, string queue, FaultLedger ledger)
    {
        IConnection connection = await ConnectAsync(uri).ConfigureAwait(false);
        IChannel channel = await connection.CreateChannelAsync().ConfigureAwait(false);
        await channel.BasicQosAsync(0, 200, false).ConfigureAwait(false);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += async (_, delivery) =>
        {
            ledger.Receive(delivery.Body.Span);
            try
            {
                await channel.BasicAckAsync(delivery.DeliveryTag, multiple: false).ConfigureAwait(false);
            }
            catch (Exception)
            {
                // Lost with the connection: the broker delivers it again.
            }
        };
        await channel.BasicConsumeAsync(queue, autoAck: false, consumer).ConfigureAwait(false);
        return new Client(connection, channel, Task.CompletedTask);
    }

    private static Task<IConnection> ConnectAsync(string uri)
    {
        AmqpConnectionOptions parsed = AmqpConnectionOptions.Parse(uri);
        var factory = new ConnectionFactory
        {
            UserName = parsed.UserName,
            Password = parsed.Password,
            AutomaticRecoveryEnabled = true,
            TopologyRecoveryEnabled = true,
            NetworkRecoveryInterval = TimeSpan.FromMilliseconds(500),
            RequestedConnectionTimeout = TimeSpan.FromSeconds(5),
        };
        AmqpTcpEndpoint[] endpoints = [.. parsed.Endpoints.Select(e => new AmqpTcpEndpoint(e.Host, e.Port))];
        Random.Shared.Shuffle(endpoints);
        return factory.CreateConnectionAsync(endpoints);
    }

    private sealed class Client(IConnection connection, IChannel channel, Task loop) : IFaultClient
    {
        public bool IsOpen => connection.IsOpen;

        public int Port => connection.Endpoint.Port;

        public async ValueTask DisposeAsync()
        {
            await loop.ConfigureAwait(false);
            try
            {
                await channel.CloseAsync().ConfigureAwait(false);
            }
            catch (Exception)
            {
                // Closed already.
            }

            await connection.CloseAsync().ConfigureAwait(false);
            connection.Dispose();
        }
    }
}
