using System.Diagnostics;
using System.Globalization;
using System.Text;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.DropIn;

namespace Spanwire.Benchmarks.Amqp;

/// <summary>
/// Spanwire's client and RabbitMQ.Client side by side on the same broker in the same run: publish without confirms,
/// publish with confirms (a window of 1000 in flight, each publish awaited), consume with a manual ack per message.
/// Measured per message: throughput, this process's CPU time (the broker is another process), bytes allocated.
/// A harness of its own rather than BenchmarkDotNet: one operation is a whole pipeline through a broker, and the
/// numbers that matter (messages/s, CPU per message) are not BenchmarkDotNet columns.
/// </summary>
public static class BrokerThroughput
{
    private const int BodySize = 256;

    /// <summary>RabbitMQ.Client's package version (its informational version without the commit; the assembly version stays 7.0.0 across 7.x).</summary>
    internal static string RabbitMqClientVersion { get; } =
        System.Reflection.CustomAttributeExtensions.GetCustomAttribute<System.Reflection.AssemblyInformationalVersionAttribute>(
            typeof(global::RabbitMQ.Client.IConnection).Assembly)?.InformationalVersion?.Split('+')[0] ?? "?";
    private const int Window = 1000;

    /// <summary>A client's median round in one scenario, with every round's rate and CPU in round order (for the spread).</summary>
    public sealed record Row(string Scenario, string Client, bool Baseline, double MessagesPerSecond, double CpuMicrosPerMessage, double BytesPerMessage,
        IReadOnlyList<double> RoundRates, IReadOnlyList<double> RoundCpus);

    private interface IClient : IAsyncDisposable
    {
        string Name { get; }

        Task DeclareAsync(string queue);

        Task DeleteAsync(string queue);

        Task PublishAsync(string queue, int count, byte[] body);

        Task PublishConfirmedAsync(string queue, int count, byte[] body);

        Task ConsumeAsync(string queue, int count);
    }

    public static async Task<List<Row>> RunAsync(string uri, int messages, int rounds, TextWriter log)
    {
        var body = new byte[BodySize];
        new Random(7).NextBytes(body);
        var samples = new Dictionary<(string Scenario, string Client), List<(double Rate, double Cpu, double Bytes)>>();

        // Spanwire as it runs in production: automatic recovery on (its default) and its counters listened to, as an
        // OpenTelemetry meter provider would. No activity listener: a traced message allocates its spans.
        using var metrics = new System.Diagnostics.Metrics.MeterListener
        {
            InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == AmqpTelemetry.MeterName)
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            },
        };
        long counted = 0;
        metrics.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref counted, value));
        metrics.Start();
        await using IClient rabbit = await InterfaceClient.CreateAsync(new ConnectionFactory { Uri = new Uri(uri) }, "RabbitMQ.Client " + RabbitMqClientVersion);
        await using IClient dropIn = await InterfaceClient.CreateAsync(new SpanwireConnectionFactory { Uri = new Uri(uri) }, "Spanwire.Amqp.DropIn (same IChannel code)");
        await using IClient spanwire = await SpanwireClient.CreateAsync(uri, synchronousContinuations: false);
        await using IClient inline = await SpanwireClient.CreateAsync(uri, synchronousContinuations: true);
        IClient[] clients = [rabbit, dropIn, spanwire, inline];

        // Warm-up: JIT, pools and the broker's queue processes.
        foreach (IClient client in clients)
        {
            await RoundAsync(client, Math.Min(messages, 2000), body, null);
        }

        for (int round = 0; round < rounds; round++)
        {
            foreach (IClient client in round % 2 == 0 ? clients : clients.Reverse())
            {
                log.WriteLine($"broker round {round + 1}/{rounds}: {client.Name}, {messages} messages");
                await RoundAsync(client, messages, body, samples);
            }
        }

        log.WriteLine($"broker: Spanwire's counters recorded {Interlocked.Read(ref counted)} messages");
        return [.. samples.Select(s =>
        {
            var ordered = s.Value.OrderBy(v => v.Rate).ToList();
            (double rate, double cpu, double bytes) = ordered[ordered.Count / 2]; // the median round by throughput
            return new Row(s.Key.Scenario, s.Key.Client, s.Key.Client == rabbit.Name, rate, cpu, bytes,
                [.. s.Value.Select(v => v.Rate)], [.. s.Value.Select(v => v.Cpu)]);
        })];
    }

    /// <summary>
    /// The ratio to the baseline: with several rounds the median of the per-round ratios (each round against the
    /// baseline's same round) and, in brackets, the lowest and highest; with one round the plain ratio.
    /// </summary>
    private static string Ratio(IReadOnlyList<double> values, IReadOnlyList<double> baseline, double median, double baselineMedian)
    {
        if (values.Count < 2 || values.Count != baseline.Count)
        {
            return string.Create(CultureInfo.InvariantCulture, $"{median / baselineMedian:0.00}");
        }

        double[] ratios = [.. values.Select((v, i) => v / baseline[i]).Order()];
        return string.Create(CultureInfo.InvariantCulture, $"{ratios[ratios.Length / 2]:0.00} ({ratios[0]:0.00}–{ratios[^1]:0.00})");
    }

    public static string Render(List<Row> rows, int messages, string uri)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"### AMQP client against RabbitMQ ({messages} messages of {BodySize} B per scenario; broker {new Uri(uri).Host}:{new Uri(uri).Port})");
        text.AppendLine();
        text.AppendLine("| Scenario | Client | msg/s | Ratio (msg/s) | client CPU µs/msg | Ratio (CPU) | Allocated B/msg |");
        text.AppendLine("|---|---|---:|---:|---:|---:|---:|");
        foreach (IGrouping<string, Row> scenario in rows.GroupBy(r => r.Scenario))
        {
            Row baseline = scenario.Single(r => r.Baseline);
            foreach (Row row in scenario.OrderByDescending(r => r.Baseline))
            {
                string rate = row.Baseline ? "1.00" : Ratio(row.RoundRates, baseline.RoundRates, row.MessagesPerSecond, baseline.MessagesPerSecond);
                string cpu = row.Baseline ? "1.00" : Ratio(row.RoundCpus, baseline.RoundCpus, row.CpuMicrosPerMessage, baseline.CpuMicrosPerMessage);
                text.AppendLine(CultureInfo.InvariantCulture,
                    $"| {row.Scenario} | {row.Client}{(row.Baseline ? " *" : "")} | {row.MessagesPerSecond:N0} | {rate} | {row.CpuMicrosPerMessage:0.00} | {cpu} | {row.BytesPerMessage:0.#} |");
            }
        }

        text.AppendLine();
        text.AppendLine("\\* baseline. Ratio (msg/s) above 1 is faster than the baseline; Ratio (CPU) below 1 costs less CPU per message. With several rounds each ratio is the median of the per-round ratios (a round against the baseline's same round), the lowest and highest in brackets; msg/s and µs/msg are the median round's.");
        text.AppendLine("\"Spanwire, AllowSynchronousContinuations\" is the opt-in connection option: awaited confirms and deliveries resume on the connection's reader thread instead of through the thread pool.");
        text.AppendLine("Both clients run with automatic recovery on (their default); Spanwire's counters (AmqpTelemetry.MeterName) are listened to throughout, as a metrics exporter would. No tracing listener: a traced publish allocates its span and re-encodes its headers.");
        return text.ToString();
    }

    private static async Task RoundAsync(IClient client, int messages, byte[] body, Dictionary<(string, string), List<(double, double, double)>>? samples)
    {
        string plain = $"spanwire.bench.{Guid.NewGuid():N}";
        string confirmed = $"spanwire.bench.{Guid.NewGuid():N}";
        await client.DeclareAsync(plain);
        await client.DeclareAsync(confirmed);
        try
        {
            Record(samples, "Publish, no confirms", client.Name, messages, await MeasureAsync(() => client.PublishAsync(plain, messages, body)));
            Record(samples, $"Publish, confirms (window {Window})", client.Name, messages, await MeasureAsync(() => client.PublishConfirmedAsync(confirmed, messages, body)));
            Record(samples, "Consume, manual ack each", client.Name, messages, await MeasureAsync(() => client.ConsumeAsync(confirmed, messages)));
        }
        finally
        {
            await client.DeleteAsync(plain);
            await client.DeleteAsync(confirmed);
        }
    }

    private static void Record(Dictionary<(string, string), List<(double, double, double)>>? samples, string scenario, string client, int messages,
        (TimeSpan Wall, TimeSpan Cpu, long Bytes) measured)
    {
        if (samples is null)
        {
            return;
        }

        if (!samples.TryGetValue((scenario, client), out List<(double, double, double)>? list))
        {
            samples[(scenario, client)] = list = [];
        }

        list.Add((messages / measured.Wall.TotalSeconds, measured.Cpu.TotalMicroseconds / messages, (double)measured.Bytes / messages));
    }

    private static async Task<(TimeSpan Wall, TimeSpan Cpu, long Bytes)> MeasureAsync(Func<Task> action)
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        using Process self = Process.GetCurrentProcess();
        TimeSpan cpu0 = self.TotalProcessorTime;
        long bytes0 = GC.GetTotalAllocatedBytes(precise: true);
        var watch = Stopwatch.StartNew();
        await action();
        watch.Stop();
        long bytes = GC.GetTotalAllocatedBytes(precise: true) - bytes0;
        self.Refresh();
        return (watch.Elapsed, self.TotalProcessorTime - cpu0, bytes);
    }

    /// <summary>Starts <paramref name="count"/> publishes <see cref="Window"/> at a time, awaiting each window's confirms.</summary>
    private static async Task InWindowsAsync(int count, Func<ValueTask> publish)
    {
        var window = new ValueTask[Window];
        for (int sent = 0; sent < count;)
        {
            int n = Math.Min(Window, count - sent);
            for (int i = 0; i < n; i++)
            {
                window[i] = publish();
            }

            for (int i = 0; i < n; i++)
            {
                await window[i];
            }

            sent += n;
        }
    }

    private sealed class SpanwireClient : IClient
    {
        private readonly AmqpConnection _connection;
        private readonly AmqpChannel _channel;
        private readonly AmqpChannel _confirming;

        private SpanwireClient(AmqpConnection connection, AmqpChannel channel, AmqpChannel confirming, string name)
        {
            _connection = connection;
            _channel = channel;
            _confirming = confirming;
            Name = name;
        }

        public string Name { get; }

        /// <param name="uri">The broker.</param>
        /// <param name="synchronousContinuations">
        /// The opt-in <see cref="AmqpConnectionOptions.AllowSynchronousContinuations"/>: awaited confirms and deliveries
        /// resume on the reader thread instead of through a thread-pool work item. Reported as its own row.
        /// </param>
        public static async Task<IClient> CreateAsync(string uri, bool synchronousContinuations)
        {
            AmqpConnectionOptions options = AmqpConnectionOptions.Parse(uri);
            options.AllowSynchronousContinuations = synchronousContinuations;
            AmqpConnection connection = await AmqpConnection.ConnectAsync(options);
            AmqpChannel channel = await connection.OpenChannelAsync();
            AmqpChannel confirming = await connection.OpenChannelAsync();
            await confirming.EnableConfirmsAsync();
            return new SpanwireClient(connection, channel, confirming,
                synchronousContinuations ? "Spanwire, AllowSynchronousContinuations" : "Spanwire");
        }

        public Task DeclareAsync(string queue) => _channel.QueueDeclareAsync(queue);

        public Task DeleteAsync(string queue) => _channel.QueueDeleteAsync(queue);

        public async Task PublishAsync(string queue, int count, byte[] body)
        {
            for (int i = 0; i < count; i++)
            {
                await _channel.PublishAsync("", queue, body);
            }

            await _channel.QueueDeclareAsync(queue, passive: true); // a round trip behind the last publish
        }

        public Task PublishConfirmedAsync(string queue, int count, byte[] body) =>
            InWindowsAsync(count, () => _confirming.PublishConfirmedAsync("", queue, default, body));

        public async Task ConsumeAsync(string queue, int count)
        {
            await _channel.QosAsync(Window);
            AmqpConsumer consumer = await _channel.ConsumeAsync(queue);
            int received = 0;
            await foreach (AmqpDelivery delivery in consumer.ReadAllAsync())
            {
                await _channel.AckAsync(delivery.DeliveryTag);
                if (++received == count)
                {
                    break;
                }
            }

            await consumer.CancelAsync();
        }

        public async ValueTask DisposeAsync() => await _connection.DisposeAsync();
    }

    /// <summary>
    /// One scenario code through RabbitMQ.Client's interfaces: with RabbitMQ.Client's factory it is the baseline, with
    /// Spanwire's drop-in factory it is what an application moved over by a factory swap runs.
    /// </summary>
    private sealed class InterfaceClient : IClient
    {
        private readonly IConnection _connection;
        private readonly IChannel _channel;
        private readonly IChannel _confirming;

        private InterfaceClient(IConnection connection, IChannel channel, IChannel confirming, string name)
        {
            _connection = connection;
            _channel = channel;
            _confirming = confirming;
            Name = name;
        }

        public string Name { get; }

        public static async Task<IClient> CreateAsync(IConnectionFactory factory, string name)
        {
            IConnection connection = await factory.CreateConnectionAsync();
            IChannel channel = await connection.CreateChannelAsync();
            // Tracking on, so each publish is awaitable for its confirm; its default limiter of 128 in flight is lifted
            // so that both clients run the same window.
            IChannel confirming = await connection.CreateChannelAsync(new CreateChannelOptions(
                publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true, outstandingPublisherConfirmationsRateLimiter: null));
            return new InterfaceClient(connection, channel, confirming, name);
        }

        public Task DeclareAsync(string queue) => _channel.QueueDeclareAsync(queue, durable: false, exclusive: false, autoDelete: false);

        public Task DeleteAsync(string queue) => _channel.QueueDeleteAsync(queue);

        public async Task PublishAsync(string queue, int count, byte[] body)
        {
            for (int i = 0; i < count; i++)
            {
                await _channel.BasicPublishAsync("", queue, body);
            }

            await _channel.QueueDeclarePassiveAsync(queue);
        }

        public Task PublishConfirmedAsync(string queue, int count, byte[] body) =>
            InWindowsAsync(count, () => _confirming.BasicPublishAsync("", queue, body));

        public async Task ConsumeAsync(string queue, int count)
        {
            await _channel.BasicQosAsync(0, Window, false);
            var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            int received = 0;
            var consumer = new AsyncEventingBasicConsumer(_channel);
            consumer.ReceivedAsync += async (_, delivery) =>
            {
                await _channel.BasicAckAsync(delivery.DeliveryTag, false);
                if (++received == count)
                {
                    done.TrySetResult();
                }
            };
            string tag = await _channel.BasicConsumeAsync(queue, autoAck: false, consumer);
            await done.Task;
            await _channel.BasicCancelAsync(tag);
        }

        public async ValueTask DisposeAsync()
        {
            await _channel.CloseAsync();
            await _confirming.CloseAsync();
            await _connection.CloseAsync();
            await _connection.DisposeAsync();
        }
    }
}
