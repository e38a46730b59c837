using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using RabbitMQ.Client;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.Hosting;

/// <summary>Registers Spanwire AMQP clients in a service collection.</summary>
/// <example>
/// <code>
/// // appsettings.json: { "Amqp": { "ConnectionString": "amqp://app:secret@rabbit:5672/orders", "ClientName": "orders-api" } }
/// builder.Services.AddSpanwireAmqp(builder.Configuration.GetSection("Amqp"));
/// builder.Services.AddOpenTelemetry()
///     .WithTracing(t => t.AddSpanwireAmqpInstrumentation())
///     .WithMetrics(m => m.AddSpanwireAmqpInstrumentation());
///
/// // Anywhere: IConnection (RabbitMQ.Client's interface) or AmqpConnection (Spanwire's), the same connection.
/// public sealed class Orders(IConnection connection) { ... }
/// </code>
/// </example>
public static class SpanwireAmqpServiceCollectionExtensions
{
    /// <summary>
    /// Registers the default AMQP client: <see cref="SpanwireAmqpClient"/>, <see cref="IConnection"/> and
    /// <see cref="AmqpConnection"/> as singletons over one connection made on first use, and its health check.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section holding <see cref="SpanwireAmqpOptions"/> (ConnectionString, ClientName…).</param>
    /// <param name="configure">Changes after binding, or null.</param>
    /// <returns>The service collection.</returns>
    public static IServiceCollection AddSpanwireAmqp(this IServiceCollection services, IConfiguration configuration, Action<SpanwireAmqpOptions>? configure = null) =>
        Add(services, Options.DefaultName, configuration, configure);

    /// <summary>Registers the default AMQP client from code alone; see <see cref="AddSpanwireAmqp(IServiceCollection, IConfiguration, Action{SpanwireAmqpOptions}?)"/>.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets the options (at least the connection string).</param>
    /// <returns>The service collection.</returns>
    public static IServiceCollection AddSpanwireAmqp(this IServiceCollection services, Action<SpanwireAmqpOptions> configure) =>
        Add(services, Options.DefaultName, null, configure ?? throw new ArgumentNullException(nameof(configure)));

    /// <summary>
    /// Registers a named AMQP client as keyed services (<c>[FromKeyedServices("name")] IConnection</c>), with options
    /// named <paramref name="name"/> and a health check of its own; each name has its own connection.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="name">The client's key and options name.</param>
    /// <param name="configuration">The section holding its options.</param>
    /// <param name="configure">Changes after binding, or null.</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty.</exception>
    public static IServiceCollection AddKeyedSpanwireAmqp(this IServiceCollection services, string name, IConfiguration configuration, Action<SpanwireAmqpOptions>? configure = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        return Add(services, name, configuration, configure);
    }

    /// <summary>Registers a named AMQP client from code alone; see <see cref="AddKeyedSpanwireAmqp(IServiceCollection, string, IConfiguration, Action{SpanwireAmqpOptions}?)"/>.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="name">The client's key and options name.</param>
    /// <param name="configure">Sets the options (at least the connection string).</param>
    /// <returns>The service collection.</returns>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty.</exception>
    public static IServiceCollection AddKeyedSpanwireAmqp(this IServiceCollection services, string name, Action<SpanwireAmqpOptions> configure)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        return Add(services, name, null, configure ?? throw new ArgumentNullException(nameof(configure)));
    }

    private static IServiceCollection Add(IServiceCollection services, string name, IConfiguration? configuration, Action<SpanwireAmqpOptions>? configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        OptionsBuilder<SpanwireAmqpOptions> options = services.AddOptions<SpanwireAmqpOptions>(name);
        if (configuration is not null)
        {
            options.Bind(configuration);
        }

        if (configure is not null)
        {
            options.Configure(configure);
        }

        SpanwireAmqpClient Create(IServiceProvider provider) =>
            new(name, provider.GetRequiredService<IOptionsMonitor<SpanwireAmqpOptions>>().Get(name), provider.GetService<ILoggerFactory>());

        // DI resolves synchronously: the first resolution of a connection waits for the connect (and its retries).
        if (name == Options.DefaultName)
        {
            services.TryAddSingleton(Create);
            services.TryAddSingleton(provider => provider.GetRequiredService<SpanwireAmqpClient>().GetConnectionAsync().AsTask().GetAwaiter().GetResult());
            services.TryAddSingleton(provider => provider.GetRequiredService<SpanwireAmqpClient>().GetAmqpConnectionAsync().AsTask().GetAwaiter().GetResult());
        }
        else
        {
            services.TryAddKeyedSingleton(name, (provider, _) => Create(provider));
            services.TryAddKeyedSingleton(name, (provider, key) =>
                provider.GetRequiredKeyedService<SpanwireAmqpClient>(key).GetConnectionAsync().AsTask().GetAwaiter().GetResult());
            services.TryAddKeyedSingleton(name, (provider, key) =>
                provider.GetRequiredKeyedService<SpanwireAmqpClient>(key).GetAmqpConnectionAsync().AsTask().GetAwaiter().GetResult());
        }

        services.AddHealthChecks();
        services.Configure<HealthCheckServiceOptions>(health =>
        {
            string check = name == Options.DefaultName ? "spanwire-amqp" : "spanwire-amqp-" + name;
            if (health.Registrations.Any(r => r.Name == check))
            {
                return;
            }

            health.Registrations.Add(new HealthCheckRegistration(check, provider =>
            {
                SpanwireAmqpOptions settings = provider.GetRequiredService<IOptionsMonitor<SpanwireAmqpOptions>>().Get(name);
                return settings.DisableHealthChecks
                    ? new AlwaysHealthy()
                    : new SpanwireAmqpHealthCheck(name == Options.DefaultName
                        ? provider.GetRequiredService<SpanwireAmqpClient>()
                        : provider.GetRequiredKeyedService<SpanwireAmqpClient>(name));
            }, failureStatus: null, tags: ["amqp", "spanwire"]));
        });
        return services;
    }

    /// <summary>What a disabled check reports.</summary>
    private sealed class AlwaysHealthy : IHealthCheck
    {
        public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
            Task.FromResult(HealthCheckResult.Healthy("disabled"));
    }
}
