namespace Spanwire.Amqp.Client;

/// <summary>One broker address: a host name or IP address and a port.</summary>
/// <param name="Host">The host name or address.</param>
/// <param name="Port">The port; 5672 for AMQP, 5671 for AMQP over TLS.</param>
public readonly record struct AmqpEndpoint(string Host, int Port)
{
    /// <summary>The endpoint as <c>host:port</c> (IPv6 addresses in brackets).</summary>
    /// <returns>The text.</returns>
    public override string ToString() => Host.Contains(':') && !Host.StartsWith('[') ? $"[{Host}]:{Port}" : $"{Host}:{Port}";
}
