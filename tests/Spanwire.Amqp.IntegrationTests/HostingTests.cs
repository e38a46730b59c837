using System.Collections.Concurrent;
using System.Diagnostics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;
using RabbitMQ.Client;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.DropIn;
using Spanwire.Amqp.Hosting;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// <c>AddSpanwireAmqp</c> in a real generic host against a broker: the connection made on first use and shared as
/// <see cref="IConnection"/> and <see cref="AmqpConnection"/>, keyed clients, the health check, the log messages, and
/// the OpenTelemetry builder extensions.
/// </summary>
[Trait("Category", BrokerTests.Trait)]
public sealed class HostingTests(PrivateNode node) : IClassFixture<PrivateNode>
{
    [BrokerFact]
    public async Task A_host_shares_one_connection_made_on_first_use_as_IConnection_and_AmqpConnection()
    {
        using IHost host = Build(new() { ["Amqp:ConnectionString"] = Broker.Uri, ["Amqp:ClientName"] = "hosting-test" },
            (services, configuration) => services.AddSpanwireAmqp(configuration.GetSection("Amqp")));
        await host.StartAsync(TestTimeout.Token);
        var client = host.Services.GetRequiredService<SpanwireAmqpClient>();
        Assert.False(client.IsConnected, "nothing connects when the host starts");

        IConnection connection = host.Services.GetRequiredService<IConnection>();
        AmqpConnection native = host.Services.GetRequiredService<AmqpConnection>();
        Assert.Same(native, connection.ToAmqpConnection());
        Assert.Equal("hosting-test", connection.ClientProvidedName);
        await using (IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token))
        {
            QueueDeclareOk queue = await channel.QueueDeclareAsync("", durable: false, exclusive: true, autoDelete: true, cancellationToken: TestTimeout.Token);
            await channel.BasicPublishAsync("", queue.QueueName, new byte[] { 7 }, TestTimeout.Token);
            BasicGetResult? got = await GetAsync(channel, queue.QueueName);
            Assert.Equal(7, got!.Body.Span[0]);
        }

        HealthReport health = await host.Services.GetRequiredService<HealthCheckService>().CheckHealthAsync(TestTimeout.Token);
        Expect.Equal(HealthStatus.Healthy, health.Entries["spanwire-amqp"].Status, health.Entries["spanwire-amqp"].Description ?? "");

        await host.StopAsync(TestTimeout.Token);
        host.Dispose();
        Assert.False(native.IsOpen, "the connection closes with the host");
    }

    [BrokerFact]
    public async Task Keyed_clients_have_connections_and_health_checks_of_their_own()
    {
        using IHost host = Build(new()
        {
            ["Amqp:Orders:ConnectionString"] = Broker.Uri,
            ["Amqp:Orders:ClientName"] = "orders",
            ["Amqp:Audit:ConnectionString"] = Broker.Uri,
            ["Amqp:Audit:ClientName"] = "audit",
        }, (services, configuration) => services
            .AddKeyedSpanwireAmqp("orders", configuration.GetSection("Amqp:Orders"))
            .AddKeyedSpanwireAmqp("audit", configuration.GetSection("Amqp:Audit")));
        await host.StartAsync(TestTimeout.Token);

        IConnection orders = host.Services.GetRequiredKeyedService<IConnection>("orders");
        IConnection audit = host.Services.GetRequiredKeyedService<IConnection>("audit");
        Assert.NotSame(orders, audit);
        Assert.Equal("orders", orders.ClientProvidedName);
        Assert.Equal("audit", audit.ClientProvidedName);
        Assert.Same(orders.ToAmqpConnection(), host.Services.GetRequiredKeyedService<AmqpConnection>("orders"));
        Assert.Null(host.Services.GetService<IConnection>());

        HealthReport health = await host.Services.GetRequiredService<HealthCheckService>().CheckHealthAsync(TestTimeout.Token);
        Expect.Equal("spanwire-amqp-audit Healthy, spanwire-amqp-orders Healthy",
            string.Join(", ", health.Entries.OrderBy(e => e.Key, StringComparer.Ordinal).Select(e => $"{e.Key} {e.Value.Status}")), "the keyed checks");
        await host.StopAsync(TestTimeout.Token);
    }

    [Fact]
    public async Task An_unreachable_broker_is_tried_again_logged_and_reported_unhealthy_without_its_password()
    {
        var logs = new LogCollector();
        using IHost host = Build(new() { ["Amqp:ConnectionString"] = "amqp://app:s3cret-pass@127.0.0.1:1/", ["Amqp:ConnectRetryCount"] = "2", ["Amqp:ConnectRetryDelay"] = "00:00:00.010" },
            (services, configuration) => services.AddSpanwireAmqp(configuration.GetSection("Amqp")), logs);
        await host.StartAsync(TestTimeout.Token);

        HealthReport health = await host.Services.GetRequiredService<HealthCheckService>().CheckHealthAsync(TestTimeout.Token);
        HealthReportEntry entry = health.Entries["spanwire-amqp"];
        Expect.Equal(HealthStatus.Unhealthy, entry.Status, entry.Description ?? "");
        InOrder(["could not connect (attempt 1)", "could not connect (attempt 2)", "could not connect after 3 attempts"], logs.Messages, "the connect's log");
        string everything = string.Join("\n", logs.Messages.Append(entry.Description).Concat(logs.Errors));
        Assert.DoesNotContain("s3cret-pass", everything, StringComparison.Ordinal);
        await host.StopAsync(TestTimeout.Token);
    }

    [BrokerFact]
    public async Task A_lost_connection_its_recovery_and_a_failing_consumer_are_logged()
    {
        var logs = new LogCollector();
        using IHost host = Build(new() { ["Amqp:ConnectionString"] = node.Uri },
            (services, configuration) => services.AddSpanwireAmqp(configuration.GetSection("Amqp"), o => o.ConfigureConnection = c => c.RecoveryInterval = TimeSpan.FromMilliseconds(200)),
            logs);
        await host.StartAsync(TestTimeout.Token);
        AmqpConnection connection = await host.Services.GetRequiredService<SpanwireAmqpClient>().GetAmqpConnectionAsync(TestTimeout.Token);
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.ConsumeAsync(queue.Name, (_, _) => throw new InvalidOperationException("handler failed"), autoAck: true, cancellationToken: TestTimeout.Token);
        await channel.PublishAsync("", queue.Name, new byte[] { 1 }, TestTimeout.Token);
        await Until(() => logs.Messages.Any(m => m.Contains("failed on delivery", StringComparison.Ordinal)));

        await node.CtlAsync("close_all_connections \"hosting log case\"");
        await Until(() => logs.Messages.Any(m => m.Contains("recovered on", StringComparison.Ordinal)));
        InOrder(["connected to", "consumer", "lost its connection", "recovered on"], logs.Messages, "the client's log");
        await host.StopAsync(TestTimeout.Token);
    }

    [BrokerFact]
    public async Task The_OpenTelemetry_extensions_add_the_publish_spans_and_the_meter()
    {
        var spans = new ConcurrentQueue<string>();
        var metrics = new ConcurrentQueue<string>();
        using TracerProvider tracing = Sdk.CreateTracerProviderBuilder().AddSpanwireAmqpInstrumentation().AddProcessor(new SpanCollector(spans)).Build()!;
        using MeterProvider meters = Sdk.CreateMeterProviderBuilder().AddSpanwireAmqpInstrumentation()
            .AddReader(new BaseExportingMetricReader(new MetricCollector(metrics))).Build()!;

        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        await channel.PublishConfirmedAsync("", queue.Name, default, new byte[] { 1 }, cancellationToken: TestTimeout.Token);
        meters.ForceFlush();

        Assert.Contains(spans, s => s.StartsWith(AmqpTelemetry.PublisherSourceName, StringComparison.Ordinal));
        Assert.Contains(metrics, m => m.StartsWith("messaging.", StringComparison.Ordinal));
    }

    private static IHost Build(Dictionary<string, string?> settings, Action<IServiceCollection, IConfiguration> register, LogCollector? logs = null)
    {
        HostApplicationBuilder builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection(settings);
        builder.Logging.ClearProviders();
        if (logs is not null)
        {
            builder.Logging.AddProvider(logs);
        }

        register(builder.Services, builder.Configuration);
        return builder.Build();
    }

    private static async Task<BasicGetResult?> GetAsync(IChannel channel, string queue)
    {
        while (true)
        {
            if (await channel.BasicGetAsync(queue, autoAck: true, TestTimeout.Token) is { } got)
            {
                return got;
            }

            await Task.Delay(10, TestTimeout.Token);
        }
    }

    /// <summary>Each fragment in a message after the one the fragment before it was found in.</summary>
    private static void InOrder(string[] fragments, IReadOnlyList<string> messages, string what)
    {
        int at = -1;
        foreach (string fragment in fragments)
        {
            int found = -1;
            for (int i = at + 1; i < messages.Count && found < 0; i++)
            {
                found = messages[i].Contains(fragment, StringComparison.Ordinal) ? i : -1;
            }

            Assert.True(found >= 0, $"{what}: no message with \"{fragment}\" after message {at}; logged:{Environment.NewLine}{string.Join(Environment.NewLine, messages)}");
            at = found;
        }
    }

    private static async Task Until(Func<bool> condition)
    {
        while (!condition())
        {
            await Task.Delay(20, TestTimeout.Token);
        }
    }

    /// <summary>Every message logged, in order, with the texts of the exceptions logged with them.</summary>
    private sealed class LogCollector : ILoggerProvider, ILogger
    {
        private readonly ConcurrentQueue<string> _messages = new();
        private readonly ConcurrentQueue<string> _errors = new();

        public IReadOnlyList<string> Messages => [.. _messages];

        public IReadOnlyList<string> Errors => [.. _errors];

        public ILogger CreateLogger(string categoryName) => this;

        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            _messages.Enqueue(formatter(state, exception));
            if (exception is not null)
            {
                _errors.Enqueue(exception.ToString());
            }
        }

        public void Dispose()
        {
        }
    }

    private sealed class SpanCollector(ConcurrentQueue<string> spans) : BaseProcessor<Activity>
    {
        public override void OnEnd(Activity data) => spans.Enqueue($"{data.Source.Name} {data.DisplayName}");
    }

    private sealed class MetricCollector(ConcurrentQueue<string> names) : BaseExporter<Metric>
    {
        public override ExportResult Export(in Batch<Metric> batch)
        {
            foreach (Metric metric in batch)
            {
                names.Enqueue(metric.Name);
            }

            return ExportResult.Success;
        }
    }
}
