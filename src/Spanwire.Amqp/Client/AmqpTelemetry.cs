using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Reflection;
using System.Text;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>
/// The client's tracing and metrics, for OpenTelemetry or any <see cref="ActivityListener"/> and
/// <see cref="MeterListener"/>. Publishes and deliveries are traced with the messaging semantic conventions
/// RabbitMQ.Client 7 uses, and the trace context travels in the <c>traceparent</c> and <c>tracestate</c> headers as it
/// does there, so a trace crosses from one client to the other. With no listener attached nothing is created: a
/// publish allocates nothing.
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
    /// The <see cref="Meter"/> with the counters <c>spanwire.amqp.messages.published</c>, <c>.confirmed</c>,
    /// <c>.nacked</c>, <c>.delivered</c>, <c>.acked</c> (a multiple ack counts the deliveries it settles) and
    /// <c>spanwire.amqp.connection.recoveries</c>.
    /// </summary>
    public const string MeterName = "Spanwire.Amqp";

    private static readonly string s_version =
        typeof(AmqpTelemetry).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "";

    private static readonly ActivitySource s_publisher = new(PublisherSourceName, s_version);
    private static readonly ActivitySource s_subscriber = new(SubscriberSourceName, s_version);
    private static readonly Meter s_meter = new(MeterName, s_version);

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

    /// <summary>Whether anything listens to publish spans; checked before any work for them.</summary>
    internal static bool TracesPublishes => s_publisher.HasListeners();

    internal static bool TracesDeliveries => s_subscriber.HasListeners();

    /// <summary>Starts a publish span and returns the properties with its trace context added to the headers.</summary>
    internal static Activity? StartPublish(string exchange, string routingKey, int bodySize, ref BasicProperties properties)
    {
        Activity? activity = s_publisher.CreateActivity($"publish {routingKey}", ActivityKind.Producer, parentContext: default,
            tags: s_creationTags, idFormat: ActivityIdFormat.W3C)?.Start();
        if (activity is null)
        {
            return null;
        }

        if (activity.IsAllDataRequested)
        {
            SetMessagingTags(activity, "send", "publish", exchange, routingKey, bodySize, 0);
            SetTagIfAny(activity, "messaging.message.id", properties.MessageId);
            SetTagIfAny(activity, "messaging.message.conversation_id", properties.CorrelationId);
        }

        var headers = properties.Headers is { } existing ? FieldTableConversion.ToDictionary(existing.Reader) : new Dictionary<string, object?>();
        DistributedContextPropagator.Current.Inject(activity, headers, static (carrier, name, value) =>
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
    internal static Activity? StartDeliver(AmqpDelivery delivery, bool fetched)
    {
        string operation = fetched ? "fetch" : "deliver";
        ActivityContext publisher = Extract(delivery.Properties.Headers);
        ActivityLink[]? links = publisher == default ? null : [new ActivityLink(publisher)];
        Activity? activity = s_subscriber.CreateActivity($"{operation} {delivery.RoutingKey}", ActivityKind.Consumer, parentContext: default,
            tags: s_creationTags, links: links, idFormat: ActivityIdFormat.W3C)?.Start();
        if (activity is { IsAllDataRequested: true })
        {
            SetMessagingTags(activity, fetched ? "receive" : "process", operation, delivery.Exchange, delivery.RoutingKey,
                (int)Math.Min(int.MaxValue, delivery.Body.Length), delivery.DeliveryTag);
            SetTagIfAny(activity, "messaging.message.id", delivery.Properties.MessageId);
            SetTagIfAny(activity, "messaging.message.conversation_id", delivery.Properties.CorrelationId);
        }

        return activity;
    }

    private static ActivityContext Extract(FieldTable? headers)
    {
        if (headers is not { } table || !table.Reader.TryGetValue("traceparent"u8, out FieldValue parent) || parent.Type != FieldValueType.LongString)
        {
            return default;
        }

        string? state = table.Reader.TryGetValue("tracestate"u8, out FieldValue s) && s.Type == FieldValueType.LongString
            ? Encoding.UTF8.GetString(s.GetLongString())
            : null;
        return ActivityContext.TryParse(Encoding.UTF8.GetString(parent.GetLongString()), state, out ActivityContext context) ? context : default;
    }

    private static void SetMessagingTags(Activity activity, string operationType, string operationName, string exchange, string routingKey,
        int bodySize, ulong deliveryTag)
    {
        activity.SetTag("messaging.operation.type", operationType)
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
