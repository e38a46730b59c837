using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// The broker the tests run against: SPANWIRE_AMQP_URI, which scripts/test.sh sets to the private node it starts.
/// Under scripts/test.sh without one every test fails and says why; see <see cref="BrokerTests"/>.
/// </summary>
public static class Broker
{
    public static string Uri => Environment.GetEnvironmentVariable("SPANWIRE_AMQP_URI") is { Length: > 0 } uri
        ? uri
        : throw new InvalidOperationException(
            "No broker: SPANWIRE_AMQP_URI is not set" +
            (Environment.GetEnvironmentVariable("SPANWIRE_AMQP_UNAVAILABLE") is { Length: > 0 } why ? $" (scripts/test.sh could not start one: {why.Trim()})" : "") +
            ". Run scripts/test.sh (it installs rabbitmq-server and starts a private node) " +
            "or point SPANWIRE_AMQP_URI at a RabbitMQ broker, e.g. amqp://guest:guest@127.0.0.1:5672/.");

    public static AmqpConnectionOptions Options(Action<AmqpConnectionOptions>? configure = null)
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(Uri);
        options.ConnectTimeout = TimeSpan.FromSeconds(15);
        configure?.Invoke(options);
        return options;
    }

    public static Task<AmqpConnection> ConnectAsync(Action<AmqpConnectionOptions>? configure = null) =>
        AmqpConnection.ConnectAsync(Options(configure), TestTimeout.Token);

    /// <summary>A name no other test (or earlier run) uses.</summary>
    public static string Name(string prefix) => $"spanwire.{prefix}.{Guid.NewGuid():N}";
}
