using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.Hosting;

/// <summary>OpenTelemetry builder extensions: Spanwire's AMQP activity sources and meter, as RabbitMQ.Client.OpenTelemetry adds its own.</summary>
public static class SpanwireAmqpInstrumentationExtensions
{
    /// <summary>Adds the publish and deliver spans (<see cref="AmqpTelemetry.PublisherSourceName"/>, <see cref="AmqpTelemetry.SubscriberSourceName"/>).</summary>
    /// <param name="builder">The tracer provider builder.</param>
    /// <returns>The builder.</returns>
    public static TracerProviderBuilder AddSpanwireAmqpInstrumentation(this TracerProviderBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        return builder.AddSource(AmqpTelemetry.PublisherSourceName, AmqpTelemetry.SubscriberSourceName);
    }

    /// <summary>Adds the client's counters, gauges and histograms (<see cref="AmqpTelemetry.MeterName"/>).</summary>
    /// <param name="builder">The meter provider builder.</param>
    /// <returns>The builder.</returns>
    public static MeterProviderBuilder AddSpanwireAmqpInstrumentation(this MeterProviderBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        return builder.AddMeter(AmqpTelemetry.MeterName);
    }
}
