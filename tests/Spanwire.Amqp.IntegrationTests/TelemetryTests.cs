using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Text;
using RabbitMQ.Client;
using Spanwire.Amqp.Client;
using SpanwireProperties = Spanwire.Amqp.Protocol.BasicProperties;

namespace Spanwire.Amqp.IntegrationTests;

[CollectionDefinition(nameof(TelemetryTests), DisableParallelization = true)]
public sealed class TelemetryCollection;

/// <summary>
/// Publish and deliver spans with RabbitMQ.Client's conventions, trace context that crosses between the two clients
/// in both directions, and the counters. Listeners are process-wide, so this class runs alone.
/// </summary>
[Collection(nameof(TelemetryTests))]
public sealed class TelemetryTests : IDisposable
{
    private readonly ConcurrentQueue<Activity> _stopped = new();
    private readonly ActivityListener _listener;

    public TelemetryTests()
    {
        _listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name.StartsWith("Spanwire.Amqp", StringComparison.Ordinal) || source.Name.StartsWith("RabbitMQ.Client", StringComparison.Ordinal),
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = _stopped.Enqueue,
        };
        ActivitySource.AddActivityListener(_listener);
    }

    public void Dispose() => _listener.Dispose();

    [BrokerFact]
    public async Task Publish_and_deliver_spans_carry_the_messaging_tags_the_deliver_span_links_to_the_publish()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);

        await channel.PublishConfirmedAsync("", queue.Name, new SpanwireProperties { MessageId = "m-1" }, "hello"u8.ToArray(), cancellationToken: TestTimeout.Token);
        AmqpConsumer consumer = await channel.ConsumeAsync(queue.Name, autoAck: true, cancellationToken: TestTimeout.Token);
        Activity? during = null;
        await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(TestTimeout.Token))
        {
            during = delivery.Activity;
            break;
        }

        Activity publish = Assert.Single(_stopped, a => a.DisplayName == $"publish {queue.Name}");
        Expect.Equal(ActivityKind.Producer, publish.Kind, "publish kind");
        Expect.Equal("rabbitmq", publish.GetTagItem("messaging.system"), "messaging.system");
        Expect.Equal("amq.default", publish.GetTagItem("messaging.destination.name"), "the default exchange");
        Expect.Equal(queue.Name, publish.GetTagItem("messaging.rabbitmq.destination.routing_key"), "routing key");
        Expect.Equal("m-1", publish.GetTagItem("messaging.message.id"), "message id");
        Expect.Equal(5, publish.GetTagItem("messaging.message.body.size"), "body size");

        Activity deliver = Assert.Single(_stopped, a => a.DisplayName == $"deliver {queue.Name}");
        Assert.Same(deliver, during);
        Expect.Equal(ActivityKind.Consumer, deliver.Kind, "deliver kind");
        Expect.Equal("process", deliver.GetTagItem("messaging.operation.type"), "operation type");
        ActivityLink link = Assert.Single(deliver.Links);
        Expect.Equal(publish.TraceId, link.Context.TraceId, "linked to the publisher's trace");
        Expect.Equal(publish.SpanId, link.Context.SpanId, "linked to the publish span");
    }

    [BrokerFact]
    public async Task Baggage_of_the_publishing_context_arrives_on_the_fetch_span_and_in_the_header_RabbitMQ_Client_writes()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(cancellationToken: TestTimeout.Token);
        using (var request = new Activity("request").SetIdFormat(ActivityIdFormat.W3C).Start())
        {
            request.SetBaggage("tenant", "acme");
            await channel.PublishAsync("", queue.Name, "spanwire"u8.ToArray(), TestTimeout.Token);
        }

        // The control: RabbitMQ.Client publishing in the same context.
        var factory = new ConnectionFactory { Uri = new Uri(Broker.Uri) };
        await using IConnection other = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel otherChannel = await other.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        using (var request = new Activity("request").SetIdFormat(ActivityIdFormat.W3C).Start())
        {
            request.SetBaggage("tenant", "acme");
            await otherChannel.BasicPublishAsync("", queue.Name, "control"u8.ToArray(), TestTimeout.Token);
        }

        using AmqpDelivery? ours = await channel.GetAsync(queue.Name, autoAck: true, TestTimeout.Token);
        BasicGetResult? theirs = null;
        for (int i = 0; i < 50 && theirs is null; i++)
        {
            theirs = await otherChannel.BasicGetAsync(queue.Name, autoAck: true, TestTimeout.Token);
        }

        await channel.QueueDeleteAsync(queue.Name, cancellationToken: TestTimeout.Token);
        Assert.NotNull(ours);
        Assert.NotNull(theirs);
        Activity fetch = Assert.Single(_stopped, a => a.DisplayName == $"fetch {queue.Name}" && a.Source.Name == AmqpTelemetry.SubscriberSourceName);
        Expect.Equal("acme", fetch.GetBaggageItem("tenant"), "the baggage on Spanwire's fetch span");
        Assert.True(ours!.Properties.Headers!.Value.Reader.TryGetValue("baggage", out Protocol.FieldValue baggage), "a baggage header");
        string controlBaggage = Encoding.UTF8.GetString(Assert.IsType<byte[]>(theirs!.BasicProperties.Headers!["baggage"]));
        Expect.Equal(controlBaggage, Encoding.UTF8.GetString(baggage.GetLongString()), "the baggage header, as RabbitMQ.Client writes it");
    }

    [BrokerFact]
    public async Task Spanwire_publishes_RabbitMQ_client_reads_the_traceparent_header_is_the_publish_span()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        await channel.PublishConfirmedAsync("", queue.Name, default, "x"u8.ToArray(), cancellationToken: TestTimeout.Token);

        var factory = new ConnectionFactory { Uri = new Uri(Broker.Uri) };
        await using IConnection other = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel otherChannel = await other.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        BasicGetResult? got = await otherChannel.BasicGetAsync(queue.Name, autoAck: true, TestTimeout.Token);
        await channel.QueueDeleteAsync(queue.Name, cancellationToken: TestTimeout.Token);

        Assert.NotNull(got);
        Activity publish = Assert.Single(_stopped, a => a.DisplayName == $"publish {queue.Name}");
        byte[] traceparent = Assert.IsType<byte[]>(got.BasicProperties.Headers!["traceparent"]);
        Expect.Equal(publish.Id, Encoding.UTF8.GetString(traceparent), "the W3C traceparent RabbitMQ.Client reads");
        // RabbitMQ.Client's own fetch span links to it too.
        Activity fetch = Assert.Single(_stopped, a => a.Source.Name.StartsWith("RabbitMQ.Client", StringComparison.Ordinal) && a.Kind == ActivityKind.Consumer);
        Expect.Equal(publish.TraceId, Assert.Single(fetch.Links).Context.TraceId, "RabbitMQ.Client's span links to Spanwire's");
    }

    [BrokerFact]
    public async Task RabbitMQ_client_publishes_spanwire_fetches_its_span_links_to_RabbitMQ_clients_publish()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(cancellationToken: TestTimeout.Token);

        var factory = new ConnectionFactory { Uri = new Uri(Broker.Uri) };
        await using (IConnection other = await factory.CreateConnectionAsync(TestTimeout.Token))
        await using (IChannel otherChannel = await other.CreateChannelAsync(cancellationToken: TestTimeout.Token))
        {
            await otherChannel.BasicPublishAsync("", queue.Name, mandatory: false, new BasicProperties(), "y"u8.ToArray(), TestTimeout.Token);
        }

        AmqpDelivery? delivery = null;
        for (int i = 0; i < 50 && delivery is null; i++)
        {
            delivery = await channel.GetAsync(queue.Name, autoAck: true, TestTimeout.Token) ?? await Task.Delay(50).ContinueWith(_ => (AmqpDelivery?)null);
        }

        await channel.QueueDeleteAsync(queue.Name, cancellationToken: TestTimeout.Token);
        Assert.NotNull(delivery);
        Activity theirs = Assert.Single(_stopped, a => a.Source.Name == "RabbitMQ.Client.Publisher");
        Activity ours = Assert.Single(_stopped, a => a.DisplayName == $"fetch {queue.Name}");
        Expect.Equal(theirs.TraceId, Assert.Single(ours.Links).Context.TraceId, "Spanwire's fetch span links to RabbitMQ.Client's publish");
    }

    [BrokerFact]
    public async Task Counters_count_published_confirmed_delivered_and_acked()
    {
        var totals = new ConcurrentDictionary<string, long>();
        using var meters = new MeterListener
        {
            InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == AmqpTelemetry.MeterName)
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            },
        };
        meters.SetMeasurementEventCallback<long>((instrument, value, _, _) => totals.AddOrUpdate(instrument.Name, value, (_, sum) => sum + value));
        meters.Start();

        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        for (int i = 0; i < 10; i++)
        {
            await channel.PublishConfirmedAsync("", queue.Name, default, new byte[] { (byte)i }, cancellationToken: TestTimeout.Token);
        }

        AmqpConsumer consumer = await channel.ConsumeAsync(queue.Name, cancellationToken: TestTimeout.Token);
        int received = 0;
        await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(TestTimeout.Token))
        {
            await channel.AckAsync(delivery.DeliveryTag, multiple: ++received == 10);
            if (received == 10)
            {
                break;
            }
        }

        Expect.Equal(10, totals.GetValueOrDefault("spanwire.amqp.messages.published"), "published");
        Expect.Equal(10, totals.GetValueOrDefault("spanwire.amqp.messages.confirmed"), "confirmed");
        Expect.Equal(10, totals.GetValueOrDefault("spanwire.amqp.messages.delivered"), "delivered");
        Expect.Equal(10, totals.GetValueOrDefault("spanwire.amqp.messages.acked"), "acked: nine single acks, then one multiple ack settling the tenth");
    }
}
