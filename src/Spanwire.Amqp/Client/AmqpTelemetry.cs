using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Reflection;
using System.Text;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>
/// The client's tracing and metrics, for OpenTelemetry or any <see cref="ActivityListener"/> and
/// <see cref="MeterListener"/>. Publishes and deliveries are traced with the messaging semantic conventions
/// RabbitMQ.Client 7 uses, with <c>server.address</c>, <c>server.port</c> and <c>network.*</c> tags, and the trace
/// context (and baggage) travels in the message headers through <see cref="Propagator"/>, by default in the
/// <c>traceparent</c>, <c>tracestate</c> and <c>baggage</c> headers as RabbitMQ.Client writes them, so a trace crosses
/// from one client to the other. With no listener attached nothing is created: a publish allocates nothing.
/// Connection, recovery and consumer events also go to the EventSource <see cref="EventSourceName"/>.
/// </summary>
/// <example>
/// <code>
/// builder.Services.AddOpenTelemetry()
///     .WithTracing(t => t.AddSource(AmqpTelemetry.PublisherSourceName, AmqpTelemetry.SubscriberSourceName))
///     .WithMetrics(m => m.AddMeter(AmqpTelemetry.MeterName));
/// </code>
/// </example>
public static class AmqpTelemetry
{
    /// <summary>The <see cref="ActivitySource"/> of publishes: a producer span "publish {routing key}" per message.</summary>
    public const string PublisherSourceName = "Spanwire.Amqp.Publisher";

    /// <summary>The <see cref="ActivitySource"/> of deliveries: a consumer span "deliver {routing key}" per message (or
    /// "fetch {routing key}" for basic.get), linked to the publisher's span found in the headers.</summary>
    public const string SubscriberSourceName = "Spanwire.Amqp.Subscriber";

    /// <summary>
    /// The <see cref="Meter"/>. Counters: <c>spanwire.amqp.messages.published</c>, <c>.confirmed</c>, <c>.nacked</c>,
    /// <c>.delivered</c>, <c>.acked</c> (a multiple ack counts the deliveries it settles),
    /// <c>spanwire.amqp.connection.recoveries</c>, and <c>spanwire.amqp.io</c> (bytes, by <c>network.io.direction</c>).
    /// Histograms, in seconds, by OpenTelemetry's messaging conventions: <c>messaging.client.operation.duration</c>
    /// (publish to confirm, for publishes in confirm mode; <c>error.type</c> <c>nack</c> when refused) and
    /// <c>messaging.process.duration</c> (a handler consumer's handler). In flight: <c>spanwire.amqp.publishes.unconfirmed</c>,
    /// <c>spanwire.amqp.deliveries.unacked</c>, <c>spanwire.amqp.connections</c> (open), <c>spanwire.amqp.channels</c> (open).
    /// Every measurement carries <c>messaging.system</c>; the durations also <c>server.address</c> and <c>server.port</c>.
    /// </summary>
    public const string MeterName = "Spanwire.Amqp";

    /// <summary>The EventSource of connection, recovery and consumer events, for <c>dotnet-trace</c> or an <see cref="System.Diagnostics.Tracing.EventListener"/>.</summary>
    public const string EventSourceName = "Spanwire-Amqp";

    private static DistributedContextPropagator? s_propagator;

    /// <summary>
    /// How trace context and baggage go into and come out of message headers. Default: the process's
    /// <see cref="DistributedContextPropagator.Current"/> (W3C <c>traceparent</c>, <c>tracestate</c>, <c>baggage</c>).
    /// Set it to bridge another propagator, such as OpenTelemetry's configured one.
    /// </summary>
    /// <exception cref="ArgumentNullException">Set to null.</exception>
    public static DistributedContextPropagator Propagator
    {
        get => s_propagator ?? DistributedContextPropagator.Current;
        set => s_propagator = value ?? throw new ArgumentNullException(nameof(value));
    }

    private static readonly string s_version =
        typeof(AmqpTelemetry).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "";

    private static readonly ActivitySource s_publisher = new(PublisherSourceName, s_version);
    private static readonly ActivitySource s_subscriber = new(SubscriberSourceName, s_version);
    private static readonly Meter s_meter = new(MeterName, s_version);

    // Messaging latencies: from a fraction of a millisecond on loopback to seconds under load.
    private static readonly InstrumentAdvice<double> s_durationAdvice = new()
    {
        HistogramBucketBoundaries = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    };

    private static readonly KeyValuePair<string, object?>[] s_creationTags =
    [
        new("messaging.system", "rabbitmq"),
        new("network.protocol.name", "amqp"),
        new("network.protocol.version", "0.9.1"),
    ];

    internal static readonly Counter<long> Published = s_meter.CreateCounter<long>("spanwire.amqp.messages.published", "{message}", "Messages published.");
    internal static readonly Counter<long> Confirmed = s_meter.CreateCounter<long>("spanwire.amqp.messages.confirmed", "{message}", "Publishes the broker confirmed (acked).");
    internal static readonly Counter<long> Nacked = s_meter.CreateCounter<long>("spanwire.amqp.messages.nacked", "{message}", "Publishes the broker refused (nacked).");
    internal static readonly Counter<long> Delivered = s_meter.CreateCounter<long>("spanwire.amqp.messages.delivered", "{message}", "Messages received by consumers and basic.get.");
    internal static readonly Counter<long> Acked = s_meter.CreateCounter<long>("spanwire.amqp.messages.acked", "{message}", "Deliveries acknowledged.");
    internal static readonly Counter<long> Recoveries = s_meter.CreateCounter<long>("spanwire.amqp.connection.recoveries", "{recovery}", "Connections recovered after a lost link.");
    internal static readonly Counter<long> Bytes = s_meter.CreateCounter<long>("spanwire.amqp.io", "By", "Bytes sent and received on the connections' sockets.");
    internal static readonly Histogram<double> ConfirmDuration = s_meter.CreateHistogram<double>("messaging.client.operation.duration", "s",
        "Time from a publish in confirm mode to the broker's confirm.", advice: s_durationAdvice);
    internal static readonly Histogram<double> ProcessDuration = s_meter.CreateHistogram<double>("messaging.process.duration", "s",
        "Time a handler consumer's handler took for a delivery.", advice: s_durationAdvice);
    internal static readonly UpDownCounter<long> Unconfirmed = s_meter.CreateUpDownCounter<long>("spanwire.amqp.publishes.unconfirmed", "{message}",
        "Publishes sent in confirm mode and not yet confirmed.");
    internal static readonly UpDownCounter<long> Unacked = s_meter.CreateUpDownCounter<long>("spanwire.amqp.deliveries.unacked", "{message}",
        "Deliveries received with manual acknowledgement and not yet settled.");
    internal static readonly UpDownCounter<long> Connections = s_meter.CreateUpDownCounter<long>("spanwire.amqp.connections", "{connection}", "Open connections.");
    internal static readonly UpDownCounter<long> Channels = s_meter.CreateUpDownCounter<long>("spanwire.amqp.channels", "{channel}", "Open channels.");

    internal static readonly KeyValuePair<string, object?> Transmit = new("network.io.direction", "transmit");
    internal static readonly KeyValuePair<string, object?> Receive = new("network.io.direction", "receive");
    private static readonly KeyValuePair<string, object?> s_system = new("messaging.system", "rabbitmq");

    /// <summary>Whether anything listens to publish spans; checked before any work for them.</summary>
    internal static bool TracesPublishes => s_publisher.HasListeners();

    internal static bool TracesDeliveries => s_subscriber.HasListeners();

    internal static bool TimesDeliveries => ProcessDuration.Enabled;

    /// <summary>Records a publish's time to its confirm.</summary>
    internal static void RecordConfirm(AmqpEndpoint endpoint, long startedTimestamp, bool acked)
    {
        TagList tags = OperationTags("publish", endpoint);
        if (!acked)
        {
            tags.Add("error.type", "nack");
        }

        ConfirmDuration.Record(Stopwatch.GetElapsedTime(startedTimestamp).TotalSeconds, tags);
    }

    /// <summary>Records a handler's time for one delivery.</summary>
    internal static void RecordDeliveryHandled(AmqpEndpoint endpoint, string queue, long startedTimestamp, bool failed)
    {
        TagList tags = OperationTags("process", endpoint);
        tags.Add("messaging.destination.name", queue);
        if (failed)
        {
            tags.Add("error.type", "handler");
        }

        ProcessDuration.Record(Stopwatch.GetElapsedTime(startedTimestamp).TotalSeconds, tags);
    }

    // The tags every duration carries: the system, the operation and the server.
    private static TagList OperationTags(string operation, AmqpEndpoint endpoint) => new()
    {
        s_system,
        { "messaging.operation.name", operation },
        { "server.address", endpoint.Host },
        { "server.port", endpoint.Port },
    };

    internal static void OnCallbackException(AmqpChannel channel, AmqpConsumer consumer, Exception exception) =>
        AmqpEventSource.Log.CallbackException(channel.Connection.Endpoint.ToString(), channel.Number, consumer.Tag, exception.GetType().FullName ?? "", exception.Message);
    /// <summary>Starts a publish span and returns the properties with its trace context added to the headers.</summary>
    internal static Activity? StartPublish(AmqpEndpoint endpoint, string exchange, string routingKey, int bodySize, ref BasicProperties properties)
    {
        Activity? activity = s_publisher.CreateActivity($"publish {routingKey}", ActivityKind.Producer, parentContext: default,
            tags: s_creationTags, idFormat: ActivityIdFormat.W3C)?.Start();
        if (activity is null)
        {
            return null;
        }

        if (activity.IsAllDataRequested)
        {
            SetMessagingTags(activity, endpoint, "send", "publish", exchange, routingKey, bodySize, 0);
            SetTagIfAny(activity, "messaging.message.id", properties.MessageId);
            SetTagIfAny(activity, "messaging.message.conversation_id", properties.CorrelationId);
        }

        var headers = properties.Headers is { } existing ? FieldTableConversion.ToDictionary(existing.Reader) : new Dictionary<string, object?>();
        Propagator.Inject(activity, headers, static (carrier, name, value) =>
        {
            if (carrier is Dictionary<string, object?> fields)
            {
                fields[name] = value; // a longstr, as RabbitMQ.Client writes it
            }
        });
        properties.Headers = FieldTable.FromDictionary(headers);
        return activity;
    }

    /// <summary>Starts a deliver (or fetch) span linked to the publisher's trace context from the headers.</summary>
    internal static Activity? StartDeliver(AmqpEndpoint endpoint, AmqpDelivery delivery, bool fetched)
    {
        string operation = fetched ? "fetch" : "deliver";
        ActivityContext publisher = Extract(delivery.Properties.Headers, out IEnumerable<KeyValuePair<string, string?>>? baggage);
        ActivityLink[]? links = publisher == default ? null : [new ActivityLink(publisher)];
        Activity? activity = s_subscriber.CreateActivity($"{operation} {delivery.RoutingKey}", ActivityKind.Consumer, parentContext: default,
            tags: s_creationTags, links: links, idFormat: ActivityIdFormat.W3C)?.Start();
        if (activity is { IsAllDataRequested: true })
        {
            SetMessagingTags(activity, endpoint, fetched ? "receive" : "process", operation, delivery.Exchange, delivery.RoutingKey,
                (int)Math.Min(int.MaxValue, delivery.Body.Length), delivery.DeliveryTag);
            SetTagIfAny(activity, "messaging.message.id", delivery.Properties.MessageId);
            SetTagIfAny(activity, "messaging.message.conversation_id", delivery.Properties.CorrelationId);
        }

        if (activity is not null && baggage is not null)
        {
            foreach ((string key, string? value) in baggage)
            {
                activity.SetBaggage(key, value); // what the publisher's side put in the message's baggage
            }
        }

        return activity;
    }

    private static ActivityContext Extract(FieldTable? headers, out IEnumerable<KeyValuePair<string, string?>>? baggage)
    {
        baggage = null;
        if (headers is not { } table || table.Reader.IsEmpty)
        {
            return default;
        }

        DistributedContextPropagator propagator = Propagator;
        propagator.ExtractTraceIdAndState(table, ReadHeader, out string? parent, out string? state);
        baggage = propagator.ExtractBaggage(table, ReadHeader);
        return parent is not null && ActivityContext.TryParse(parent, state, out ActivityContext context) ? context : default;
    }

    // The propagator asks for each field it knows by name; a longstr (or a byte array) is text.
    private static void ReadHeader(object? carrier, string name, out string? value, out IEnumerable<string>? values)
    {
        values = null;
        value = null;
        if (carrier is FieldTable table && table.Reader.TryGetValue(name, out FieldValue field))
        {
            value = field.Type switch
            {
                FieldValueType.LongString => Encoding.UTF8.GetString(field.GetLongString()),
                FieldValueType.ByteArray => Encoding.UTF8.GetString(field.GetByteArray()),
                _ => null,
            };
        }
    }

    private static void SetMessagingTags(Activity activity, AmqpEndpoint endpoint, string operationType, string operationName, string exchange,
        string routingKey, int bodySize, ulong deliveryTag)
    {
        activity.SetTag("server.address", endpoint.Host)
            .SetTag("server.port", endpoint.Port)
            .SetTag("network.transport", "tcp")
            .SetTag("messaging.operation.type", operationType)
            .SetTag("messaging.operation.name", operationName)
            .SetTag("messaging.destination.name", exchange.Length == 0 ? "amq.default" : exchange)
            .SetTag("messaging.rabbitmq.destination.routing_key", routingKey)
            .SetTag("messaging.message.body.size", bodySize);
        if (deliveryTag > 0)
        {
            activity.SetTag("messaging.rabbitmq.delivery_tag", deliveryTag);
        }
    }

    private static void SetTagIfAny(Activity activity, string name, string? value)
    {
        if (!string.IsNullOrEmpty(value))
        {
            activity.SetTag(name, value);
        }
    }
}
