using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.Hosting;

/// <summary>
/// One AMQP client's settings, bound from configuration by <c>AddSpanwireAmqp</c> (a section with
/// <c>ConnectionString</c>, <c>ClientName</c>, <c>ConnectRetryCount</c>, <c>ConnectRetryDelay</c>,
/// <c>DisableHealthChecks</c>) and then given to the configure delegate.
/// </summary>
public sealed class SpanwireAmqpOptions
{
    /// <summary>The broker's amqp or amqps URI, with user, password and virtual host (amqp://user:pass@host:5672/vhost).</summary>
    public string? ConnectionString { get; set; }

    /// <summary>The connection's name, shown in the management UI.</summary>
    public string? ClientName { get; set; }

    /// <summary>How many times a failed first connect is tried again before it fails (default 5).</summary>
    public int ConnectRetryCount { get; set; } = 5;

    /// <summary>The wait before the first retry, doubled for each one after it (default 1 s).</summary>
    public TimeSpan ConnectRetryDelay { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Whether to leave out the health check that <c>AddSpanwireAmqp</c> adds.</summary>
    public bool DisableHealthChecks { get; set; }

    /// <summary>Spanwire's connection settings beyond the URI (recovery, TLS, continuations, pools), applied last.</summary>
    public Action<AmqpConnectionOptions>? ConfigureConnection { get; set; }
}
