using System.Buffers;
using System.Net.Sockets;
using System.Reflection;
using System.Text;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>
/// A connection to an AMQP 0-9-1 broker (RabbitMQ): the handshake with PLAIN authentication and tuning, one read
/// loop that decodes frames where they were received, one writer loop that sends the frames of every channel in
/// batches, and heartbeats. A connection-level error or a lost socket faults every pending operation.
/// </summary>
/// <example>
/// <code>
/// await using AmqpConnection connection = await AmqpConnection.ConnectAsync("amqp://guest:guest@localhost:5672/");
/// AmqpChannel channel = await connection.OpenChannelAsync();
/// await channel.EnableConfirmsAsync();
/// await channel.PublishConfirmedAsync("", "jobs", default, "hello"u8.ToArray());
/// </code>
/// </example>
public sealed partial class AmqpConnection : IAsyncDisposable
{
    private readonly AmqpConnectionOptions _options;
    private readonly Lock _channelsLock = new();
    private readonly TaskCompletionSource<Exception> _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private AmqpChannel?[] _channels = [];
    private Dictionary<string, object?> _sentClientProperties = [];
    private Link _link;
    private string? _updatedSecret; // the secret UpdateSecretAsync gave the broker, for later logins

    private AmqpConnection(AmqpConnectionOptions options, IReadOnlyList<AmqpEndpoint> endpoints, Link link)
    {
        _options = options;
        Dispatcher = options.AllowSynchronousContinuations ? null : new DeliveryDispatcher();
        _link = link;
        ContinuationTimeout = options.ContinuationTimeout;
        _endpoints = endpoints; // in the order connect tried them: recovery goes on from the one in use
    }

    /// <summary>The current link's frame output: every channel writes here (a recovered connection has a new one).</summary>
    internal FrameOutput Output => Volatile.Read(ref _link).Output;

    /// <summary>How long a request to the broker waits for its reply (from the options when connecting).</summary>
    internal TimeSpan ContinuationTimeout { get; }

    /// <summary>Raised when the broker blocks publishing (connection.blocked, for example on a memory alarm); the argument is its reason.</summary>
    public event EventHandler<string>? Blocked;

    /// <summary>Raised when the broker unblocks publishing (connection.unblocked).</summary>
    public event EventHandler? Unblocked;

    /// <summary>
    /// Raised when a consumer's handler on any of the connection's channels throws (after that channel's own
    /// <see cref="AmqpChannel.CallbackException"/>): one place to log consumer failures.
    /// </summary>
    public event EventHandler<AmqpCallbackExceptionEventArgs>? CallbackException;

    internal void RaiseCallbackException(AmqpCallbackExceptionEventArgs args)
    {
        try
        {
            CallbackException?.Invoke(this, args);
        }
        catch (Exception)
        {
            // A throwing handler of the event must not stop the consumer.
        }
    }

    /// <summary>Raised once when the connection ends, with the reason (an <see cref="AmqpClosedException"/> or an <see cref="AmqpProtocolException"/>).</summary>
    public event EventHandler<Exception>? Closed;

    /// <summary>The negotiated frame_max (0: no limit).</summary>
    public uint FrameMax { get; private set; }

    /// <summary>The negotiated channel_max.</summary>
    public ushort ChannelMax { get; private set; }

    /// <summary>The negotiated heartbeat interval in seconds (0: none).</summary>
    public ushort Heartbeat { get; private set; }

    /// <summary>The broker's server-properties from connection.start (product, version, capabilities).</summary>
    public IReadOnlyDictionary<string, object?> ServerProperties { get; private set; } = new Dictionary<string, object?>();

    /// <summary>The largest message body accepted from the broker; a larger one is a connection error. Default 128 MiB (RabbitMQ's own limit).</summary>
    public long MaxMessageSize { get; set; } = 128L << 20;

    /// <summary>Whether confirms and deliveries may resume awaiting code on the reader thread; see <see cref="AmqpConnectionOptions.AllowSynchronousContinuations"/>.</summary>
    internal bool AllowSynchronousContinuations => _options.AllowSynchronousContinuations;

    /// <summary>Where consumer loops woken by a delivery resume; null with synchronous continuations (on the reader thread).</summary>
    internal DeliveryDispatcher? Dispatcher { get; }

    /// <summary>The default dispatch concurrency of handler consumers.</summary>
    internal int ConsumerDispatchConcurrency => _options.ConsumerDispatchConcurrency;

    /// <summary>Whether a lost link is followed by recovery (<see cref="AmqpConnectionOptions.AutomaticRecovery"/>).</summary>
    internal bool RecoversAutomatically => _options.AutomaticRecovery;

    /// <summary>Whether the broker has blocked publishing and not yet unblocked it.</summary>
    public bool IsBlocked { get; private set; }

    /// <summary>Whether the connection is open: false once closed, and while it recovers from a lost link.</summary>
    public bool IsOpen => State == ConnectionState.Open;

    /// <summary>Why the connection ended, or null until it has.</summary>
    public Exception? CloseReason => Volatile.Read(ref _status) is { State: ConnectionState.Closed } closed ? closed.Reason : null;

    /// <summary>Completes with the reason once the connection has ended.</summary>
    public Task<Exception> Completion => _closed.Task;

    /// <summary>Connects to the broker named by an <c>amqp://user:pass@host:port/vhost</c> URI.</summary>
    /// <param name="uri">A RabbitMQ URI (<c>amqp://</c> or <c>amqps://</c>; see <see cref="AmqpConnectionOptions.Parse"/>).</param>
    /// <param name="cancellationToken">Cancels connecting.</param>
    /// <returns>The open connection.</returns>
    public static Task<AmqpConnection> ConnectAsync(string uri, CancellationToken cancellationToken = default) =>
        ConnectAsync(AmqpConnectionOptions.Parse(uri), cancellationToken);

    /// <summary>
    /// Connects and completes the handshake: protocol header, start/start-ok (PLAIN or EXTERNAL), secure if asked,
    /// tune/tune-ok, open. With several endpoints (<see cref="AmqpConnectionOptions.Endpoints"/>) each is tried in turn
    /// until one accepts; the error of the last one is thrown if none does.
    /// </summary>
    /// <param name="options">Where and how to connect; read once, here.</param>
    /// <param name="cancellationToken">Cancels connecting.</param>
    /// <returns>The open connection.</returns>
    /// <exception cref="AmqpConnectionClosedException">The broker refused the connection (403 for bad credentials, 530 for a vhost it will not open).</exception>
    /// <exception cref="TimeoutException">No endpoint completed the handshake within <see cref="AmqpConnectionOptions.ConnectTimeout"/>.</exception>
    /// <exception cref="System.Security.Authentication.AuthenticationException">TLS failed: a certificate was refused.</exception>
    /// <exception cref="SocketException">No endpoint could be reached.</exception>
    public static async Task<AmqpConnection> ConnectAsync(AmqpConnectionOptions options, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        IReadOnlyList<AmqpEndpoint> endpoints = options.GetEndpoints();
        AmqpConnection? connection = null;
        for (int i = 0; ; i++)
        {
            var link = new Link(options, endpoints[i]);
            connection ??= new AmqpConnection(options, endpoints, link);
            try
            {
                await connection.OpenLinkAsync(link, cancellationToken).ConfigureAwait(false);
                connection.Open(link, i);
                return connection;
            }
            catch (Exception) when (i + 1 < endpoints.Count && !cancellationToken.IsCancellationRequested)
            {
                // The next endpoint.
            }
            catch (Exception)
            {
                connection.Terminate(null, new AmqpConnectionClosedException(0, "the connection could not be opened"));
                throw;
            }
        }
    }

    /// <summary>Makes the handshaken <paramref name="link"/> the connection's, unless it has already failed.</summary>
    private void Open(Link link, int endpointIndex)
    {
        lock (_stateLock)
        {
            // Checked under the lock OnLinkEnded takes: a link that fails after this finds the connection open.
            if (link.HasEnded)
            {
                throw new AmqpConnectionClosedException(0, $"the connection to {link.Endpoint} was lost right after the handshake");
            }

            Volatile.Write(ref _link, link);
            _endpointIndex = endpointIndex;
            Transition(ConnectionState.Open, null);
        }

        AmqpTelemetry.Connections.Add(1);
        AmqpEventSource.Log.ConnectionOpened(link.Endpoint.ToString());
    }

    /// <summary>Connects a link and completes its handshake within the connect timeout; on failure the link is ended.</summary>
    private async Task OpenLinkAsync(Link link, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(_options.ConnectTimeout);
        try
        {
            try
            {
                link.Credentials = await GetCredentialsAsync(timeout.Token).ConfigureAwait(false);
            }
            catch (Exception)
            {
                link.WriterEnded.TrySetResult(); // no writer was started: nothing to wait for when the link is released
                throw;
            }

            // The reader thread connects and shakes hands; a timeout or cancellation here disposes the socket under it.
            await StartReader(link).WaitAsync(timeout.Token).ConfigureAwait(false);
            link.HeartbeatLoop = RunHeartbeatsAsync(link);
        }
        catch (Exception ex)
        {
            Exception reason = ex is OperationCanceledException && !cancellationToken.IsCancellationRequested
                ? new TimeoutException($"Connecting to {link.Endpoint} did not complete within {_options.ConnectTimeout.TotalSeconds:0.#} s.", ex)
                : ex;
            EndLink(link, reason);
            await ReleaseLinkAsync(link).ConfigureAwait(false);
            if (reason == ex)
            {
                throw;
            }

            throw reason; // made just above for this caller alone
        }
    }

    /// <summary>The credentials for the next login: the provider's, else the secret kept by UpdateSecretAsync, else the options'.</summary>
    private async ValueTask<AmqpCredentials?> GetCredentialsAsync(CancellationToken cancellationToken)
    {
        if (_options.AuthMechanism == AmqpAuthMechanism.External)
        {
            return null;
        }

        if (_options.CredentialsProvider is { } provider)
        {
            return await provider.GetCredentialsAsync(cancellationToken).ConfigureAwait(false)
                ?? throw new InvalidOperationException("The credentials provider returned no credentials.");
        }

        return new AmqpCredentials(_options.UserName, Volatile.Read(ref _updatedSecret) ?? _options.Password);
    }

    /// <summary>Opens a channel on the lowest free number.</summary>
    /// <exception cref="InvalidOperationException">All channel_max channels are open.</exception>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>The open channel.</returns>
    public Task<AmqpChannel> OpenChannelAsync(CancellationToken cancellationToken = default)
    {
        ThrowIfClosed();
        return OpenChannelCoreAsync(forRecovery: false, cancellationToken);
    }

    private async Task<AmqpChannel> OpenChannelCoreAsync(bool forRecovery, CancellationToken cancellationToken)
    {
        AmqpChannel channel;
        lock (_channelsLock)
        {
            channel = new AmqpChannel(this, FindFreeChannel()) { IsForRecovery = forRecovery };
            _channels[channel.Number] = channel;
        }

        try
        {
            await channel.OpenAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            channel.Shutdown(ex);
            throw;
        }

        return channel;
    }

    /// <summary>
    /// Replaces the secret (for example an expiring OAuth token) on a live connection (connection.update-secret). Once
    /// the broker accepts it, the connection keeps it: later logins (recovery) use it in place of
    /// <see cref="AmqpConnectionOptions.Password"/>, unless a <see cref="AmqpConnectionOptions.CredentialsProvider"/> supplies them.
    /// </summary>
    /// <param name="newSecret">The new secret, for example a fresh OAuth token.</param>
    /// <param name="reason">Why, for the broker's log.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has accepted the new secret.</returns>
    public Task UpdateSecretAsync(string newSecret, string reason, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(newSecret);
        ArgumentNullException.ThrowIfNull(reason);
        ThrowIfClosed();
        return UpdateSecretCoreAsync(newSecret, reason, cancellationToken);
    }

    private async Task UpdateSecretCoreAsync(string newSecret, string reason, CancellationToken cancellationToken)
    {
        Link link = Volatile.Read(ref _link);
        await link.Rpc.CallAsync(link.Output, 0, (o, ch) =>
        {
            AmqpMethodFrames.WriteConnectionUpdateSecret(o, ch, Encoding.UTF8.GetBytes(newSecret), reason);
        }, AmqpMethods.ConnectionUpdateSecretOk, null, null, cancellationToken).ConfigureAwait(false);
        Volatile.Write(ref _updatedSecret, newSecret);
    }

    /// <summary>Closes the connection gracefully: connection.close, then close-ok from the broker (waited for at most 5 s,
    /// or the continuation timeout if shorter). Whether or not the broker answers, the connection is closed afterwards.</summary>
    /// <param name="replyCode">The reply code sent to the broker (200 for a normal close).</param>
    /// <param name="replyText">The reply text sent to the broker.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's close-ok; the connection is closed either way.</param>
    /// <returns>A task that completes when the channel or connection is closed.</returns>
    public Task CloseAsync(ushort replyCode = AmqpReplyCode.Success, string replyText = "Goodbye", CancellationToken cancellationToken = default) =>
        CloseAsync(TimeSpan.FromSeconds(5), abort: false, replyCode, replyText, cancellationToken);

    /// <summary>
    /// Closes the connection, waiting at most <paramref name="timeout"/> for the broker's close-ok; with
    /// <paramref name="abort"/>, close-ok is not waited for at all and nothing is thrown (RabbitMQ.Client's
    /// <c>AbortAsync</c>). Either way the connection is closed afterwards: every channel, consumer and pending call ends.
    /// </summary>
    /// <param name="timeout">How long to wait for close-ok (the continuation timeout is not used here).</param>
    /// <param name="abort">Whether to send connection.close and end the link at once.</param>
    /// <param name="replyCode">The reply code sent to the broker (200 for a normal close).</param>
    /// <param name="replyText">The reply text sent to the broker.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's close-ok; the connection is closed either way.</param>
    /// <returns>A task that completes when the connection is closed.</returns>
    public async Task CloseAsync(TimeSpan timeout, bool abort = false, ushort replyCode = AmqpReplyCode.Success, string replyText = "Goodbye",
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(replyText);
        ConnectionState before;
        lock (_stateLock)
        {
            before = _status.State;
            Transition(ConnectionState.Closing, new AmqpConnectionClosedException(replyCode, "the connection is closing"));
        }

        if (before is not (ConnectionState.Open or ConnectionState.Recovering))
        {
            await Completion.ConfigureAwait(false);
            return;
        }

        // From here a lost link ends the connection instead of recovering it; a recovery under way stops.
        _recoveryStop.Cancel();
        await _recovery.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        Link link = Volatile.Read(ref _link);
        if (before == ConnectionState.Open && !link.HasEnded)
        {
            try
            {
                if (abort)
                {
                    using FrameOutput.Scope scope = link.Output.Begin();
                    WriteConnectionClose(scope.Writer, replyCode, replyText, 0, 0);
                }
                else
                {
                    using var waiting = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                    waiting.CancelAfter(timeout);
                    await link.Rpc.CallAsync(link.Output, 0, (o, ch) => WriteConnectionClose(o, replyCode, replyText, 0, 0),
                        AmqpMethods.ConnectionCloseOk, null, null, waiting.Token).ConfigureAwait(false);
                }
            }
            catch (Exception ex) when (ex is AmqpClosedException or OperationCanceledException or TimeoutException or ObjectDisposedException or IOException)
            {
                // The broker closed first or did not answer in time: the connection ends either way.
            }

            if (abort)
            {
                // Let the close go out before the socket does, briefly: an abort does not wait for the broker.
                using var flush = new CancellationTokenSource(TimeSpan.FromMilliseconds(200));
                await link.Output.WaitForRoomAsync(0, flush.Token).AsTask().ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
            }
        }

        Terminate(link, new AmqpConnectionClosedException(replyCode, "closed by the application"));
        await ReleaseLinkAsync(link).ConfigureAwait(false);
    }

    /// <summary>Closes the connection.</summary>
    /// <returns>A task that completes when it is closed.</returns>
    public async ValueTask DisposeAsync() => await CloseAsync().ConfigureAwait(false);

    internal void ForgetChannel(AmqpChannel channel)
    {
        lock (_channelsLock)
        {
            if (channel.Number < _channels.Length && _channels[channel.Number] == channel)
            {
                _channels[channel.Number] = null;
            }
        }
    }

    // The lowest number not in use, as RabbitMQ.Client allocates them: a closed channel's number is taken again (a
    // channel is forgotten only once its close is settled with the broker, or the link is gone).
    private ushort FindFreeChannel()
    {
        int max = ChannelMax == 0 ? ushort.MaxValue : ChannelMax;
        if (_channels.Length == 0)
        {
            _channels = new AmqpChannel?[Math.Min(max, 255) + 1];
        }

        for (int number = 1; number <= max; number++)
        {
            if (number >= _channels.Length)
            {
                Array.Resize(ref _channels, Math.Min(max, _channels.Length * 2) + 1);
            }

            if (_channels[number] is null)
            {
                return (ushort)number;
            }
        }

        throw new InvalidOperationException($"All {max} channels of the connection are open.");
    }

    private void ThrowIfClosed()
    {
        if (Volatile.Read(ref _status) is { State: not ConnectionState.Open, Reason: { } reason })
        {
            StoredFailure.Throw(reason);
        }
    }

    private static void WriteConnectionClose(IBufferWriter<byte> output, ushort code, string text, ushort classId, ushort methodId)
    {
        AmqpMethodFrames.WriteConnectionClose(output, 0, code, AmqpPrimitives.ToShortStringPrefix(text), classId, methodId);
    }

    private static string ClientVersion =>
        typeof(AmqpConnection).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "0";
}
