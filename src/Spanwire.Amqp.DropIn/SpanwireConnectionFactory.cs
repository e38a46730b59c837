using System.Net.Security;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.DropIn;

/// <summary>
/// RabbitMQ.Client's <see cref="IConnectionFactory"/> on Spanwire's AMQP client: replace <c>new ConnectionFactory()</c>
/// with <c>new SpanwireConnectionFactory()</c> and the <see cref="IConnection"/> and <see cref="IChannel"/> it makes run
/// code written against RabbitMQ.Client unchanged. Its settings and defaults are <see cref="ConnectionFactory"/>'s.
/// </summary>
/// <example>
/// <code>
/// IConnectionFactory factory = new SpanwireConnectionFactory { Uri = new Uri("amqp://guest:guest@localhost:5672/") };
/// await using IConnection connection = await factory.CreateConnectionAsync();
/// await using IChannel channel = await connection.CreateChannelAsync(
///     new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true));
/// await channel.BasicPublishAsync("", "jobs", mandatory: true, new BasicProperties { Persistent = true }, body);
/// </code>
/// </example>
public sealed class SpanwireConnectionFactory : IConnectionFactory
{
    /// <summary>The host connected to when no endpoints are given (RabbitMQ.Client's default: localhost).</summary>
    public string HostName { get; set; } = "localhost";

    /// <summary>The port; <see cref="AmqpTcpEndpoint.UseDefaultPort"/> (-1) takes 5672, or 5671 with TLS.</summary>
    public int Port { get; set; } = AmqpTcpEndpoint.UseDefaultPort;

    /// <inheritdoc/>
    public string UserName { get; set; } = ConnectionFactory.DefaultUser;

    /// <inheritdoc/>
    public string Password { get; set; } = ConnectionFactory.DefaultPass;

    /// <inheritdoc/>
    public string VirtualHost { get; set; } = ConnectionFactory.DefaultVHost;

    /// <inheritdoc/>
    public IDictionary<string, object?> ClientProperties { get; set; } = AmqpConnection.DefaultClientProperties();

    /// <inheritdoc/>
    public ushort RequestedChannelMax { get; set; } = ConnectionFactory.DefaultChannelMax;

    /// <inheritdoc/>
    public uint RequestedFrameMax { get; set; } = ConnectionFactory.DefaultFrameMax;

    /// <inheritdoc/>
    public TimeSpan RequestedHeartbeat { get; set; } = ConnectionFactory.DefaultHeartbeat;

    /// <summary>How long a connect may take (RabbitMQ.Client's RequestedConnectionTimeout).</summary>
    public TimeSpan RequestedConnectionTimeout { get; set; } = ConnectionFactory.DefaultConnectionTimeout;

    /// <inheritdoc/>
    public ICredentialsProvider? CredentialsProvider { get; set; }

    /// <inheritdoc/>
    /// <remarks>Cut to its first 3,000 characters, as RabbitMQ.Client cuts it: the handshake's first frames have room for no more.</remarks>
    public string? ClientProvidedName
    {
        get => _clientProvidedName;
        set => _clientProvidedName = Shortened(value);
    }

    private string? _clientProvidedName;

    /// <inheritdoc/>
    public TimeSpan HandshakeContinuationTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <inheritdoc/>
    public TimeSpan ContinuationTimeout { get; set; } = TimeSpan.FromSeconds(20);

    /// <inheritdoc/>
    public ushort ConsumerDispatchConcurrency { get; set; } = 1;

    /// <summary>Whether a lost connection is recovered (RabbitMQ.Client's default: true).</summary>
    public bool AutomaticRecoveryEnabled { get; set; } = true;

    /// <summary>Whether exchanges, queues, bindings and consumers are declared again on recovery (default: true).</summary>
    public bool TopologyRecoveryEnabled { get; set; } = true;

    /// <summary>
    /// Which recorded exchanges, queues, bindings and consumers recovery restores, as RabbitMQ.Client's factory takes
    /// it: each predicate sees the entity through RabbitMQ.Client's <see cref="IRecordedExchange"/> and kin.
    /// </summary>
    public TopologyRecoveryFilter TopologyRecoveryFilter { get; set; } = new();

    /// <summary>
    /// What recovery does with an entity the broker refuses, as RabbitMQ.Client's factory takes it: when the kind's
    /// condition holds for the entity and the <see cref="RabbitMQ.Client.Exceptions.OperationInterruptedException"/>,
    /// the kind's handler runs with the connection (channels it makes open on the new link) and the entity is not
    /// tried again; a handler that throws fails the attempt, and recovery tries again after the recovery interval.
    /// </summary>
    public TopologyRecoveryExceptionHandler TopologyRecoveryExceptionHandler { get; set; } = new();

    /// <summary>How long recovery waits between attempts (RabbitMQ.Client's default: 5 s).</summary>
    public TimeSpan NetworkRecoveryInterval { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>TLS for the connection, as RabbitMQ.Client's <see cref="SslOption"/> describes it.</summary>
    public SslOption Ssl { get; set; } = new();

    /// <summary>
    /// The largest frame payload accepted from the broker (RabbitMQ.Client's default: 64 MiB): as in RabbitMQ.Client, a
    /// larger frame ends the connection, each call then failing with <see cref="RabbitMQ.Client.Exceptions.AlreadyClosedException"/>
    /// around a <see cref="RabbitMQ.Client.Exceptions.MalformedFrameException"/>. An endpoint given as an
    /// <see cref="AmqpTcpEndpoint"/> carries its own.
    /// </summary>
    public uint MaxInboundMessageBodySize { get; set; } = ConnectionFactory.DefaultMaxInboundMessageBodySize;

    /// <summary>The host, port, TLS and inbound limit as one endpoint, as RabbitMQ.Client's factory gives them; setting it sets all four.</summary>
    public AmqpTcpEndpoint Endpoint
    {
        get => new(HostName, Port, Ssl, MaxInboundMessageBodySize);
        set
        {
            ArgumentNullException.ThrowIfNull(value);
            HostName = value.HostName;
            Port = value.Port;
            Ssl = value.Ssl;
            MaxInboundMessageBodySize = value.MaxInboundMessageBodySize;
        }
    }

    /// <summary>
    /// Spanwire's own connection settings, applied after the ones above (for example
    /// <see cref="AmqpConnectionOptions.AllowSynchronousContinuations"/> or a segment pool of your own).
    /// </summary>
    public Action<AmqpConnectionOptions>? ConfigureOptions { get; set; }

    /// <summary>
    /// The broker's address as an amqp or amqps URI: setting it sets the host, port, user, password, virtual host and
    /// TLS, as RabbitMQ.Client's does.
    /// </summary>
    /// <exception cref="ArgumentException">The scheme is neither amqp nor amqps.</exception>
    public Uri Uri
    {
        get => new UriBuilder(Ssl.Enabled ? "amqps" : "amqp", HostName, Port, VirtualHost == "/" ? "" : Uri.EscapeDataString(VirtualHost)).Uri;
        set => SetUri(value);
    }

    /// <summary>
    /// The mechanism the factory logs in with among the broker's, as RabbitMQ.Client's default answers: PLAIN when the
    /// broker offers it (in any case), else null. A connection set to EXTERNAL through <see cref="ConfigureOptions"/>
    /// logs in with the client certificate all the same.
    /// </summary>
    /// <param name="mechanismNames">The broker's mechanisms.</param>
    /// <returns>RabbitMQ.Client's <see cref="PlainMechanismFactory"/>, or null when the broker does not offer PLAIN.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="mechanismNames"/> is null.</exception>
    public IAuthMechanismFactory? AuthMechanismFactory(IEnumerable<string> mechanismNames)
    {
        ArgumentNullException.ThrowIfNull(mechanismNames);
        return mechanismNames.Any(static name => string.Equals(name, "PLAIN", StringComparison.OrdinalIgnoreCase)) ? new PlainMechanismFactory() : null;
    }

    /// <inheritdoc/>
    public Task<IConnection> CreateConnectionAsync(CancellationToken cancellationToken = default) =>
        ConnectAsync([], ClientProvidedName, cancellationToken);

    /// <inheritdoc/>
    public Task<IConnection> CreateConnectionAsync(string clientProvidedName, CancellationToken cancellationToken = default) =>
        ConnectAsync([], clientProvidedName, cancellationToken);

    /// <inheritdoc/>
    public Task<IConnection> CreateConnectionAsync(IEnumerable<string> hostnames, CancellationToken cancellationToken = default) =>
        CreateConnectionAsync(hostnames, ClientProvidedName!, cancellationToken);

    /// <inheritdoc/>
    public Task<IConnection> CreateConnectionAsync(IEnumerable<string> hostnames, string clientProvidedName, CancellationToken cancellationToken = default) =>
        ConnectAsync([.. hostnames.Select(h => new AmqpTcpEndpoint(h, Port, Ssl, MaxInboundMessageBodySize))], clientProvidedName, cancellationToken);

    /// <inheritdoc/>
    public Task<IConnection> CreateConnectionAsync(IEnumerable<AmqpTcpEndpoint> endpoints, CancellationToken cancellationToken = default) =>
        CreateConnectionAsync(endpoints, ClientProvidedName!, cancellationToken);

    /// <inheritdoc/>
    public Task<IConnection> CreateConnectionAsync(IEnumerable<AmqpTcpEndpoint> endpoints, string clientProvidedName, CancellationToken cancellationToken = default) =>
        ConnectAsync([.. endpoints], clientProvidedName, cancellationToken);

    private const int MaxClientProvidedName = 3000;

    private static string? Shortened(string? name) => name is { Length: > MaxClientProvidedName } ? name[..MaxClientProvidedName] : name;

    private async Task<IConnection> ConnectAsync(List<AmqpTcpEndpoint> endpoints, string? clientProvidedName, CancellationToken cancellationToken)
    {
        clientProvidedName = Shortened(clientProvidedName);
        SpanwireConnection? made = null; // the recovery handlers are given the connection, made once connected
        AmqpConnectionOptions options = ToOptions(endpoints, clientProvidedName, () => made);
        AmqpConnection connection;
        try
        {
            connection = await AmqpConnection.ConnectAsync(options, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception e) when (e is not OperationCanceledException and not ArgumentException)
        {
            // RabbitMQ.Client's one exception for a connect that failed, the cause inside: a login the broker refused
            // as its AuthenticationFailureException, with the broker's words.
            throw new BrokerUnreachableException(e is AmqpConnectionClosedException { ReplyCode: Spanwire.Amqp.Protocol.AmqpReplyCode.AccessRefused } refused
                ? new AuthenticationFailureException(refused.ReplyText)
                : e);
        }

        made = new SpanwireConnection(connection, this, ConnectedEndpoint(connection, endpoints), clientProvidedName);
        return made;
    }

    // The endpoint given for the one connected to, its TLS and inbound limit with it.
    private static AmqpTcpEndpoint ConnectedEndpoint(AmqpConnection connection, List<AmqpTcpEndpoint> endpoints)
    {
        AmqpEndpoint connected = connection.Endpoint;
        AmqpTcpEndpoint given = endpoints.Find(e => e.HostName == connected.Host && PortOf(e) == connected.Port) ?? endpoints[0];
        return new AmqpTcpEndpoint(connected.Host, connected.Port, given.Ssl, given.MaxInboundMessageBodySize);
    }

    private static int PortOf(AmqpTcpEndpoint endpoint) => endpoint.Port > 0 ? endpoint.Port : endpoint.Ssl.Enabled ? 5671 : 5672;

    private AmqpConnectionOptions ToOptions(List<AmqpTcpEndpoint> endpoints, string? clientProvidedName, Func<IConnection?> connection)
    {
        if (endpoints.Count == 0)
        {
            endpoints.Add(Endpoint);
        }

        var options = new AmqpConnectionOptions
        {
            UserName = UserName,
            Password = Password,
            VirtualHost = VirtualHost,
            ChannelMax = RequestedChannelMax,
            FrameMax = RequestedFrameMax,
            Heartbeat = (ushort)Math.Min(ushort.MaxValue, RequestedHeartbeat.TotalSeconds),
            ConnectTimeout = RequestedConnectionTimeout,
            ContinuationTimeout = ContinuationTimeout,
            ConsumerDispatchConcurrency = ConsumerDispatchConcurrency,
            AutomaticRecovery = AutomaticRecoveryEnabled,
            TopologyRecoveryFilter = RecoveryHooks.Filter(TopologyRecoveryFilter),
            TopologyRecoveryFailed = RecoveryHooks.Failed(TopologyRecoveryExceptionHandler, connection),
            TopologyRecovery = TopologyRecoveryEnabled,
            RecoveryInterval = NetworkRecoveryInterval,
            ClientName = clientProvidedName,
        };
        options.Endpoints.Clear();
        foreach (AmqpTcpEndpoint endpoint in endpoints)
        {
            options.Endpoints.Add(new AmqpEndpoint(endpoint.HostName, PortOf(endpoint)));
        }

        foreach (KeyValuePair<string, object?> property in ClientProperties)
        {
            options.ClientProperties[property.Key] = property.Value;
        }

        options.MaxInboundFramePayload = endpoints[0].MaxInboundMessageBodySize;
        SslOption ssl = endpoints[0].Ssl;
        if (ssl.Enabled)
        {
            options.Tls = new SslClientAuthenticationOptions
            {
                TargetHost = string.IsNullOrEmpty(ssl.ServerName) ? endpoints[0].HostName : ssl.ServerName,
                EnabledSslProtocols = ssl.Version,
                ClientCertificates = ssl.Certs,
                LocalCertificateSelectionCallback = ssl.CertificateSelectionCallback,
                RemoteCertificateValidationCallback = ssl.CertificateValidationCallback
                    ?? (ssl.AcceptablePolicyErrors == SslPolicyErrors.None ? null : (_, _, _, errors) => (errors & ~ssl.AcceptablePolicyErrors) == SslPolicyErrors.None),
            };
        }

        if (CredentialsProvider is { } provider)
        {
            options.CredentialsProvider = AmqpCredentialsProvider.Create(async ct =>
            {
                Credentials credentials = await provider.GetCredentialsAsync(ct).ConfigureAwait(false);
                return new AmqpCredentials(credentials.UserName, credentials.Password);
            });
        }

        ConfigureOptions?.Invoke(options);
        return options;
    }

    private void SetUri(Uri uri)
    {
        bool tls = uri.Scheme switch
        {
            "amqp" => false,
            "amqps" => true,
            _ => throw new ArgumentException($"The URI's scheme is '{uri.Scheme}': amqp or amqps is expected.", nameof(uri)),
        };
        Ssl.Enabled = tls;
        HostName = string.IsNullOrEmpty(uri.Host) ? "localhost" : uri.Host;
        Port = uri.IsDefaultPort ? AmqpTcpEndpoint.UseDefaultPort : uri.Port;
        if (uri.UserInfo.Length > 0)
        {
            string[] parts = uri.UserInfo.Split(':', 2);
            UserName = Uri.UnescapeDataString(parts[0]);
            if (parts.Length == 2)
            {
                Password = Uri.UnescapeDataString(parts[1]);
            }
        }

        string path = uri.AbsolutePath.TrimStart('/');
        if (path.Length > 0)
        {
            VirtualHost = Uri.UnescapeDataString(path);
        }
    }
}
