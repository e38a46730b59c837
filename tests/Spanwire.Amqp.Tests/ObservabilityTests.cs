using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Diagnostics.Tracing;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

[CollectionDefinition(nameof(ObservabilityTests), DisableParallelization = true)]
public sealed class ObservabilityCollection;

/// <summary>
/// What an operator sees: the duration histograms, in-flight gauges and byte counters of the meter, the EventSource's
/// connection and recovery events (never a password), and the server and network tags of the spans. Alone in its
/// collection, since meters and event sources are process-wide.
/// </summary>
[Collection(nameof(ObservabilityTests))]
public class ObservabilityTests
{
    [Fact]
    public async Task Confirms_and_handlers_are_timed_in_flight_gauges_return_to_zero_bytes_are_counted_both_ways()
    {
        await using var broker = new AutoBroker();
        using var meters = new Measurements();
        int port = broker.Port;
        AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        await channel.EnableConfirmsAsync();
        for (int i = 0; i < 5; i++)
        {
            await channel.PublishConfirmedAsync("", "q", default, new byte[10]);
        }

        var handled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await channel.ConsumeAsync("q", async (delivery, _) =>
        {
            await channel.AckAsync(delivery.DeliveryTag);
            handled.TrySetResult();
        }, consumerTag: "c");
        await broker.Current.DeliverAsync("c", [1]);
        await handled.Task.WaitAsync(TimeSpan.FromSeconds(10));
        await broker.WaitForAsync(m => m.Method == AmqpMethods.BasicAck, "the ack");
        await connection.CloseAsync();

        Measurement[] confirms = meters.Of("messaging.client.operation.duration", port);
        Expect.Equal(5, confirms.Length, "a publish-to-confirm duration per confirmed publish");
        Assert.All(confirms, m => Assert.Equal("publish", m.Tags["messaging.operation.name"]));
        Assert.All(confirms, m => Assert.Equal("127.0.0.1", m.Tags["server.address"]));
        Expect.Equal(1, meters.Of("messaging.process.duration", port).Length, "a handling duration per handled delivery");
        Expect.Equal(0.0, meters.Sum("spanwire.amqp.publishes.unconfirmed"), "unconfirmed publishes once all are confirmed");
        Expect.Equal(0.0, meters.Sum("spanwire.amqp.deliveries.unacked"), "unacked deliveries once acked");
        Expect.Equal(1.0, meters.Max("spanwire.amqp.deliveries.unacked"), "unacked at the most");
        Expect.Equal(0.0, meters.Sum("spanwire.amqp.connections"), "open connections after the close");
        Expect.Equal(0.0, meters.Sum("spanwire.amqp.channels"), "open channels after the close");
        Assert.True(meters.Sum("spanwire.amqp.io", "network.io.direction", "transmit") > 100, "bytes sent");
        Assert.True(meters.Sum("spanwire.amqp.io", "network.io.direction", "receive") > 100, "bytes received");
    }

    [Fact]
    public async Task The_event_source_reports_connect_loss_recovery_and_close_without_the_password()
    {
        await using var broker = new AutoBroker();
        using var events = new AmqpEvents();
        AmqpConnectionOptions options = broker.Options();
        options.Password = "hunter2-secret";
        AmqpConnection connection = await AmqpConnection.ConnectAsync(options);
        await connection.OpenChannelAsync();

        broker.Current.Drop();
        while (!connection.IsOpen || broker.Connections < 2)
        {
            await Task.Delay(5);
        }

        await connection.CloseAsync();
        string[] names = [.. events.Seen.Select(e => e.EventName ?? "")];
        Expect.Equal("ConnectionOpened,ConnectionLost,RecoveryStarted,RecoverySucceeded,ConnectionClosed", string.Join(",", names), "the events");
        string all = string.Join(" | ", events.Seen.Select(e => string.Join(", ", e.Payload ?? [])));
        Assert.Contains($"127.0.0.1:{broker.Port}", all);
        Assert.DoesNotContain("hunter2-secret", all);
    }

    [Fact]
    public async Task Publish_spans_carry_the_server_and_network_tags()
    {
        await using var broker = new AutoBroker();
        var spans = new ConcurrentQueue<Activity>();
        using var listener = new ActivityListener
        {
            ShouldListenTo = s => s.Name == AmqpTelemetry.PublisherSourceName,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = spans.Enqueue,
        };
        ActivitySource.AddActivityListener(listener);
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        await channel.PublishAsync("", "q", new byte[1]);

        Activity publish = Assert.Single(spans);
        Expect.Equal("127.0.0.1", publish.GetTagItem("server.address"), "server.address");
        Expect.Equal(broker.Port, publish.GetTagItem("server.port"), "server.port");
        Expect.Equal("tcp", publish.GetTagItem("network.transport"), "network.transport");
        Expect.Equal("amqp", publish.GetTagItem("network.protocol.name"), "network.protocol.name");
        await broker.WaitForAsync(m => m.Method == AmqpMethods.BasicPublish, "the publish");
    }

    private sealed class AmqpEvents : EventListener
    {
        public ConcurrentQueue<EventWrittenEventArgs> Seen { get; } = new();

        protected override void OnEventSourceCreated(EventSource source)
        {
            if (source.Name == AmqpTelemetry.EventSourceName)
            {
                EnableEvents(source, EventLevel.Verbose);
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs e) => Seen.Enqueue(e);
    }

    private sealed record Measurement(string Instrument, double Value, Dictionary<string, object?> Tags);

    private sealed class Measurements : IDisposable
    {
        private readonly MeterListener _listener = new();
        private readonly ConcurrentQueue<Measurement> _all = new();

        public Measurements()
        {
            _listener.InstrumentPublished = (instrument, l) =>
            {
                if (instrument.Meter.Name == AmqpTelemetry.MeterName)
                {
                    l.EnableMeasurementEvents(instrument);
                }
            };
            _listener.SetMeasurementEventCallback<long>((i, v, tags, _) => Add(i, v, tags));
            _listener.SetMeasurementEventCallback<double>((i, v, tags, _) => Add(i, v, tags));
            _listener.Start();
        }

        public Measurement[] Of(string instrument, int port) =>
            [.. _all.Where(m => m.Instrument == instrument && m.Tags.TryGetValue("server.port", out object? p) && Equals(p, port))];

        public double Sum(string instrument, string? tag = null, string? value = null) =>
            _all.Where(m => m.Instrument == instrument && (tag is null || Equals(m.Tags.GetValueOrDefault(tag), value))).Sum(m => m.Value);

        public double Max(string instrument)
        {
            double running = 0, most = 0;
            foreach (Measurement m in _all.Where(m => m.Instrument == instrument))
            {
                running += m.Value;
                most = Math.Max(most, running);
            }

            return most;
        }

        public void Dispose() => _listener.Dispose();

        private void Add(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            var map = new Dictionary<string, object?>();
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                map[tag.Key] = tag.Value;
            }

            _all.Enqueue(new Measurement(instrument.Name, value, map));
        }
    }
}
