namespace Spanwire.Amqp.Client;

/// <summary>How the connection proves who it is to the broker.</summary>
public enum AmqpAuthMechanism
{
    /// <summary>User name and password (SASL PLAIN), from <see cref="AmqpConnectionOptions.UserName"/> and <see cref="AmqpConnectionOptions.Password"/>.</summary>
    Plain,

    /// <summary>
    /// The TLS client certificate (SASL EXTERNAL): the broker takes the user from the certificate (by default its
    /// subject's common name, in RabbitMQ). Needs <see cref="AmqpConnectionOptions.Tls"/> with a client certificate, and
    /// on RabbitMQ the <c>rabbitmq_auth_mechanism_ssl</c> plugin.
    /// </summary>
    External,
}
