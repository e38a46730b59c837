using System.Net.Security;
using System.Security.Authentication;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Client;

/// <summary>What to connect to and what to ask for when tuning.</summary>
public sealed class AmqpConnectionOptions
{
    /// <summary>The broker's host name or address. Default "localhost".</summary>
    public string Host { get; set; } = "localhost";

    /// <summary>The broker's port. Default 5672 (<see cref="Parse"/> gives 5671 for an <c>amqps://</c> URI).</summary>
    public int Port { get; set; } = 5672;

    /// <summary>
    /// TLS for the connection, or null (the default) for plain TCP. The options are .NET's own for
    /// <see cref="SslStream"/>: <see cref="SslClientAuthenticationOptions.TargetHost"/> (the server name checked against
    /// its certificate and sent as SNI; <see cref="Host"/> when left empty), a
    /// <see cref="SslClientAuthenticationOptions.RemoteCertificateValidationCallback"/> (by default the certificate must
    /// chain to a root the machine trusts and name the host), <see cref="SslClientAuthenticationOptions.ClientCertificates"/>
    /// and <see cref="SslClientAuthenticationOptions.EnabledSslProtocols"/> (by default what the operating system allows).
    /// A certificate the checks refuse fails the connect with <see cref="AuthenticationException"/>.
    /// </summary>
    /// <example>
    /// <code>
    /// var options = AmqpConnectionOptions.Parse("amqps://broker.example.com/");
    /// options.Tls!.ClientCertificates = [X509Certificate2.CreateFromPemFile("client.pem", "client.key")];
    /// options.AuthMechanism = AmqpAuthMechanism.External; // log in as the certificate's user
    /// await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options);
    /// </code>
    /// </example>
    public SslClientAuthenticationOptions? Tls { get; set; }

    /// <summary>How to log in: <see cref="AmqpAuthMechanism.Plain"/> (user and password, the default) or
    /// <see cref="AmqpAuthMechanism.External"/> (the TLS client certificate).</summary>
    public AmqpAuthMechanism AuthMechanism { get; set; }

    /// <summary>The user name for PLAIN authentication. Default "guest".</summary>
    public string UserName { get; set; } = "guest";

    /// <summary>The password for PLAIN authentication. Default "guest".</summary>
    public string Password { get; set; } = "guest";

    /// <summary>
    /// Asked for the user name and password before every login (connect and each recovery attempt); when set, it
    /// replaces <see cref="UserName"/> and <see cref="Password"/>. A provider that throws fails that attempt (recovery
    /// tries again after the recovery interval). Not used with <see cref="AmqpAuthMechanism.External"/>.
    /// </summary>
    public IAmqpCredentialsProvider? CredentialsProvider { get; set; }

    /// <summary>The virtual host. Default "/".</summary>
    public string VirtualHost { get; set; } = "/";

    /// <summary>The heartbeat interval to ask for, in seconds; 0 asks for none. Default 60.</summary>
    public ushort Heartbeat { get; set; } = 60;

    /// <summary>The largest frame to ask for, overhead included; 0 asks for no limit. Default 131072.</summary>
    public uint FrameMax { get; set; } = 131072;

    /// <summary>
    /// The largest frame payload accepted from the broker once the connection is tuned, in bytes; 0 (the default)
    /// accepts every frame within the negotiated frame_max. A larger frame ends the connection with a frame error
    /// (<see cref="Protocol.AmqpProtocolException"/>, reply code 501): RabbitMQ.Client's
    /// <c>MaxInboundMessageBodySize</c>, which bounds each frame's payload, not the whole body.
    /// </summary>
    public uint MaxInboundFramePayload { get; set; }

    /// <summary>The most channels to ask for; 0 asks for the protocol's limit. Default 2047.</summary>
    public ushort ChannelMax { get; set; } = 2047;

    /// <summary>
    /// The brokers to connect to, for a cluster: tried in order (or shuffled, <see cref="ShuffleEndpoints"/>) until one
    /// accepts, and recovery moves on to the next. Empty (the default) means <see cref="Host"/> and <see cref="Port"/>.
    /// A URI can list them: <c>amqp://user:pass@node1:5672,node2:5672,node3/vhost</c>.
    /// </summary>
    public IList<AmqpEndpoint> Endpoints { get; } = new List<AmqpEndpoint>();

    /// <summary>Whether the endpoints are tried in a random order (spreading clients over a cluster), instead of as listed. Default false.</summary>
    public bool ShuffleEndpoints { get; set; }

    /// <summary>
    /// Whether a lost connection recovers by itself, as RabbitMQ.Client's does: it reconnects (to the next endpoint),
    /// declares again the exchanges, queues and bindings it declared, reopens its channels with their QoS and confirm
    /// mode, and registers its consumers again, which go on delivering to the same <c>ReadAllAsync</c> loop or handler.
    /// Default true. It does not recover after the application closes it, nor after a protocol error.
    /// </summary>
    /// <remarks>
    /// While it recovers, calls throw <see cref="AmqpConnectionClosedException"/>. Publishes awaiting confirms when the
    /// link was lost fault with it too: the broker may or may not have taken them, so publishing them again may
    /// duplicate them (at-least-once). Deliveries not acknowledged before the loss are delivered again, flagged
    /// redelivered; acknowledging one of them after recovery does nothing (its tag belonged to the lost link).
    /// </remarks>
    public bool AutomaticRecovery { get; set; } = true;

    /// <summary>How long recovery waits before its first attempt, and between attempts unless <see cref="MaxRecoveryInterval"/> is longer. Default 5 seconds, as RabbitMQ.Client.</summary>
    public TimeSpan RecoveryInterval { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>The longest wait between recovery attempts: each failed attempt doubles the wait up to it. Default 0 (no backoff: every wait is <see cref="RecoveryInterval"/>).</summary>
    public TimeSpan MaxRecoveryInterval { get; set; }

    /// <summary>Whether recovery declares again the exchanges, queues (server-named ones included) and bindings this connection declared. Default true.</summary>
    public bool TopologyRecovery { get; set; } = true;

    /// <summary>Which recorded exchanges, queues, bindings and consumers recovery restores; null restores all.</summary>
    public AmqpTopologyRecoveryFilter? TopologyRecoveryFilter { get; set; }

    /// <summary>
    /// Called when the broker refuses to restore an entity (a queue deleted meanwhile, a binding to it, a consumer of
    /// it): return true to have recovery try that entity once more (after putting things right on the failure's
    /// channel), false to go on without it. Without a handler the entity is left out and recovery goes on; a consumer
    /// left out ends, its Completion faulting with the broker's reason. A handler that throws fails the attempt.
    /// </summary>
    public Func<AmqpTopologyRecoveryFailure, CancellationToken, ValueTask<bool>>? TopologyRecoveryFailed { get; set; }

    /// <summary>How long the TCP connect and the handshake may take. Default 30 seconds.</summary>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How long a request to the broker (declare, bind, purge, qos, consume, close, ...) waits for its reply before
    /// it throws <see cref="TimeoutException"/>; <see cref="System.Threading.Timeout.InfiniteTimeSpan"/> waits for ever.
    /// Default 20 seconds, as RabbitMQ.Client's <c>ContinuationTimeout</c>. A caller's cancellation token still
    /// applies within it. Publisher confirms are not requests: await them with a token of your own.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Set to zero or less, other than <see cref="System.Threading.Timeout.InfiniteTimeSpan"/>.</exception>
    public TimeSpan ContinuationTimeout
    {
        get => _continuationTimeout;
        set => _continuationTimeout = value > TimeSpan.Zero || value == System.Threading.Timeout.InfiniteTimeSpan
            ? value
            : throw new ArgumentOutOfRangeException(nameof(value), value, "The continuation timeout must be positive, or Timeout.InfiniteTimeSpan.");
    }

    private TimeSpan _continuationTimeout = TimeSpan.FromSeconds(20);

    /// <summary>
    /// How many deliveries a handler consumer processes at once unless it says otherwise
    /// (<see cref="AmqpConsumerOptions.DispatchConcurrency"/>). Default 1, as RabbitMQ.Client's.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Set below 1.</exception>
    public int ConsumerDispatchConcurrency
    {
        get => _consumerDispatchConcurrency;
        set => _consumerDispatchConcurrency = value >= 1 ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "At least one handler must run.");
    }

    private int _consumerDispatchConcurrency = 1;

    /// <summary>A name shown for the connection in the broker's management tools, or null.</summary>
    public string? ClientName { get; set; }

    /// <summary>
    /// Client properties of your own sent with the login (connection.start-ok), shown by the broker's management UI
    /// and <c>rabbitmqctl list_connections client_properties</c>: an application name, a host, a version. They are
    /// added to the client's own (product, version, platform, connection_name), and replace those with the same name;
    /// <c>capabilities</c> stays the client's. Values take the types of <see cref="Protocol.FieldTableConversion"/>.
    /// </summary>
    public IDictionary<string, object?> ClientProperties { get; } = new Dictionary<string, object?>();

    /// <summary>
    /// Whether a publish's confirm and a consumer's next delivery may resume the awaiting code on the connection's
    /// reader thread. Default false: a confirm resumes on the thread pool, and a consumer loop on the connection's
    /// dispatch thread when that thread is idle (a thread of its own that sleeps on an event, cheaper to wake than a
    /// pool worker), else on the thread pool, so a loop that blocks delays no other. The same trade as
    /// <see cref="System.Threading.Channels.ChannelOptions.AllowSynchronousContinuations"/>: with true, a publisher
    /// awaiting confirms or a consumer loop costs no thread switch per ack or delivery, but the code after the
    /// <c>await</c> holds up every channel of the connection until it awaits again, and code that blocks there on
    /// another reply from the broker (<c>.Wait()</c>, <c>.Result</c>) never gets it: the connection stalls. Turn it on
    /// only when that code is short and never blocks.
    /// </summary>
    public bool AllowSynchronousContinuations { get; set; }

    /// <summary>The pool for receive and send buffers. Default <see cref="SegmentPool.Shared"/>.</summary>
    public SegmentPool Pool { get; set; } = SegmentPool.Shared;

    /// <summary>
    /// Reads a RabbitMQ URI: <c>amqp://user:pass@host:port/vhost?heartbeat=N&amp;frame_max=N&amp;channel_max=N</c>, or
    /// <c>amqps://</c> for TLS (port 5671 by default; <see cref="Tls"/> set, checking the server's certificate against
    /// the host name). User, password, port and vhost are optional; the vhost is percent-decoded ("/" is written
    /// <c>%2F</c>), and an absent path means "/". Query parameters: <c>heartbeat</c>, <c>frame_max</c>,
    /// <c>channel_max</c>, <c>connection_timeout</c> (ms), <c>auth_mechanism</c> (<c>plain</c> or <c>external</c>) and
    /// <c>server_name_indication</c> (the name the server's certificate must carry, when not the host).
    /// </summary>
    /// <param name="uri">The URI.</param>
    /// <returns>New options; change any of them before connecting.</returns>
    /// <exception cref="FormatException">The text is not an amqp:// or amqps:// URI this client can use (the message
    /// shows the URI with its password as <c>***</c>).</exception>
    public static AmqpConnectionOptions Parse(string uri)
    {
        ArgumentNullException.ThrowIfNull(uri);
        string[] extraHosts = TakeExtraHosts(ref uri);
        if (!Uri.TryCreate(uri, UriKind.Absolute, out Uri? parsed) || parsed.Scheme is not ("amqp" or "amqps"))
        {
            throw new FormatException($"'{Redact(uri)}' is not an amqp:// or amqps:// URI.");
        }

        var options = new AmqpConnectionOptions { Host = parsed.Host.Length == 0 ? "localhost" : parsed.Host };
        if (parsed.Scheme == "amqps")
        {
            options.Port = 5671;
            options.Tls = new SslClientAuthenticationOptions { TargetHost = options.Host };
        }

        if (!parsed.IsDefaultPort && parsed.Port > 0)
        {
            options.Port = parsed.Port;
        }

        if (extraHosts.Length > 0)
        {
            options.Endpoints.Add(new AmqpEndpoint(options.Host, options.Port));
            foreach (string hostAndPort in extraHosts)
            {
                options.Endpoints.Add(ParseEndpoint(uri, hostAndPort, parsed.Scheme == "amqps" ? 5671 : 5672));
            }
        }

        if (parsed.UserInfo.Length > 0)
        {
            string[] parts = parsed.UserInfo.Split(':', 2);
            options.UserName = Uri.UnescapeDataString(parts[0]);
            options.Password = parts.Length > 1 ? Uri.UnescapeDataString(parts[1]) : "";
        }

        string path = parsed.AbsolutePath;
        if (path.Length > 1)
        {
            string vhost = path[1..];
            if (vhost.Contains('/'))
            {
                throw new FormatException($"The vhost in '{Redact(uri)}' has an unescaped '/'; write it as %2F.");
            }

            options.VirtualHost = Uri.UnescapeDataString(vhost);
        }

        foreach (string pair in parsed.Query.TrimStart('?').Split('&', StringSplitOptions.RemoveEmptyEntries))
        {
            string[] kv = pair.Split('=', 2);
            string value = kv.Length > 1 ? kv[1] : "";
            switch (kv[0])
            {
                case "heartbeat": options.Heartbeat = ParseNumber<ushort>(uri, kv[0], value); break;
                case "frame_max": options.FrameMax = ParseNumber<uint>(uri, kv[0], value); break;
                case "channel_max": options.ChannelMax = ParseNumber<ushort>(uri, kv[0], value); break;
                case "connection_timeout": options.ConnectTimeout = TimeSpan.FromMilliseconds(ParseNumber<uint>(uri, kv[0], value)); break;
                case "auth_mechanism":
                    options.AuthMechanism = value.ToLowerInvariant() switch
                    {
                        "plain" => AmqpAuthMechanism.Plain,
                        "external" => AmqpAuthMechanism.External,
                        _ => throw new FormatException($"'{Redact(uri)}': auth_mechanism={value} is not plain or external."),
                    };
                    break;
                case "server_name_indication" when options.Tls is not null:
                    options.Tls.TargetHost = Uri.UnescapeDataString(value);
                    break;
                default: throw new FormatException($"'{Redact(uri)}' has an unknown query parameter '{kv[0]}'.");
            }
        }

        return options;
    }

    /// <summary>The endpoints to try, in the order to try them.</summary>
    internal IReadOnlyList<AmqpEndpoint> GetEndpoints()
    {
        AmqpEndpoint[] endpoints = Endpoints.Count > 0 ? [.. Endpoints] : [new AmqpEndpoint(Host, Port)];
        if (ShuffleEndpoints)
        {
            Random.Shared.Shuffle(endpoints);
        }

        return endpoints;
    }

    private static T ParseNumber<T>(string uri, string name, string value)
        where T : IParsable<T> =>
        T.TryParse(value, System.Globalization.CultureInfo.InvariantCulture, out T? result)
            ? result
            : throw new FormatException($"'{Redact(uri)}': {name}={value} is not a valid number.");

    /// <summary>Cuts <c>,host2:port,host3</c> out of the authority, leaving the first host for <see cref="Uri"/>.</summary>
    private static string[] TakeExtraHosts(ref string uri)
    {
        int start = uri.IndexOf("://", StringComparison.Ordinal);
        if (start < 0)
        {
            return [];
        }

        start += 3;
        int end = uri.IndexOfAny(['/', '?', '#'], start);
        end = end < 0 ? uri.Length : end;
        int hosts = uri.LastIndexOf('@', end - 1, end - start) + 1;
        hosts = hosts == 0 ? start : hosts;
        int comma = uri.IndexOf(',', hosts, end - hosts);
        if (comma < 0)
        {
            return [];
        }

        string[] extra = uri[(comma + 1)..end].Split(',', StringSplitOptions.TrimEntries);
        uri = string.Concat(uri.AsSpan(0, comma), uri.AsSpan(end));
        return extra;
    }

    private static AmqpEndpoint ParseEndpoint(string uri, string hostAndPort, int defaultPort)
    {
        int colon = hostAndPort.LastIndexOf(':');
        bool bracketed = hostAndPort.StartsWith('[');
        if (colon > 0 && (!bracketed || hostAndPort[colon - 1] == ']'))
        {
            string host = hostAndPort[..colon].Trim('[', ']');
            return host.Length > 0 && int.TryParse(hostAndPort.AsSpan(colon + 1), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int port) && port is > 0 and < 65536
                ? new AmqpEndpoint(host, port)
                : throw new FormatException($"'{Redact(uri)}': '{hostAndPort}' is not host:port.");
        }

        return hostAndPort.Length > 0 ? new AmqpEndpoint(hostAndPort.Trim('[', ']'), defaultPort) : throw new FormatException($"'{Redact(uri)}' has an empty host in its list.");
    }

    /// <summary>The URI with its password replaced by <c>***</c>, for messages: a password never appears in one.</summary>
    /// <param name="uri">Any text; only an <c>scheme://user:password@</c> part is changed.</param>
    /// <returns>The text to show.</returns>
    public static string Redact(string uri)
    {
        ArgumentNullException.ThrowIfNull(uri);
        int start = uri.IndexOf("://", StringComparison.Ordinal);
        if (start < 0)
        {
            return uri;
        }

        start += 3;
        int end = uri.IndexOfAny(['/', '?', '#'], start);
        string authority = end < 0 ? uri[start..] : uri[start..end];
        int at = authority.LastIndexOf('@');
        int colon = at < 0 ? -1 : authority.IndexOf(':');
        if (colon < 0 || colon > at)
        {
            return uri;
        }

        return string.Concat(uri.AsSpan(0, start + colon + 1), "***", uri.AsSpan(start + at));
    }
}
