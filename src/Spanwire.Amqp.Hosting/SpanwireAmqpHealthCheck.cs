using Microsoft.Extensions.Diagnostics.HealthChecks;
using RabbitMQ.Client;

namespace Spanwire.Amqp.Hosting;

/// <summary>
/// Healthy while the client's connection is open; unhealthy when it cannot be made or has closed, and while it
/// recovers (the check's registration decides what that reports). A check before the first use makes the connection.
/// </summary>
public sealed class SpanwireAmqpHealthCheck : IHealthCheck
{
    private readonly SpanwireAmqpClient _client;

    /// <summary>Creates the check for one client.</summary>
    /// <param name="client">The client whose connection is checked.</param>
    public SpanwireAmqpHealthCheck(SpanwireAmqpClient client) => _client = client;

    /// <summary>Checks the connection.</summary>
    /// <param name="context">The check's registration.</param>
    /// <param name="cancellationToken">Cancels a first connect.</param>
    /// <returns>Healthy with the broker's address, or the registration's failure status with why.</returns>
    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(context);
        try
        {
            IConnection connection = await _client.GetConnectionAsync(cancellationToken).ConfigureAwait(false);
            return connection.IsOpen
                ? HealthCheckResult.Healthy($"connected to {connection.Endpoint.HostName}:{connection.Endpoint.Port}")
                : new HealthCheckResult(context.Registration.FailureStatus, $"the connection to {connection.Endpoint.HostName}:{connection.Endpoint.Port} is not open (recovering or closed)");
        }
        catch (Exception e) when (e is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            return new HealthCheckResult(context.Registration.FailureStatus, "no AMQP connection: " + e.Message, e);
        }
    }
}
