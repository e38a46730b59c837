using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.DropIn;

/// <summary>RabbitMQ.Client's <see cref="IConnection"/> over one Spanwire <see cref="AmqpConnection"/>.</summary>
internal sealed class SpanwireConnection : IConnection
{
    private readonly AmqpConnection _connection;
    private readonly SpanwireConnectionFactory _factory;
    private readonly AsyncEvents _events = new();
    private ShutdownEventArgs? _closeReason;
    private ShutdownReportEntry[] _shutdownReport = [];
    private ShutdownEventArgs? _applicationClose; // the code and text the application closed with, as RabbitMQ.Client reports them
    private ShutdownInitiator _initiator = ShutdownInitiator.Peer;
    private bool _disposed;
    private readonly ConcurrentDictionary<SpanwireChannel, byte> _channels = new(); // the open ones
    private readonly Action<Exception> _shutdownFailed;
    private AsyncEventHandler<ShutdownEventArgs>? _connectionShutdown;

    public SpanwireConnection(AmqpConnection connection, SpanwireConnectionFactory factory, AmqpTcpEndpoint endpoint, string? clientProvidedName)
    {
        _connection = connection;
        _factory = factory;
        ClientProvidedName = clientProvidedName;
        Endpoint = endpoint;
        // A handler that throws is reported on the connection's callback exception event, with RabbitMQ.Client's context.
        _shutdownFailed = e => RaiseCallbackException(CallbackExceptionEventArgs.Build(e, "OnShutdown"));
        connection.Closed += (_, reason) =>
        {
            _closeReason = Shutdown(reason);
            _events.Raise(_connectionShutdown, this, _closeReason, _shutdownFailed);
            ReportUnexpectedClosure(reason);
        };
        // As RabbitMQ.Client: a lost connection is shut down (and then recovered), whoever ended it.
        connection.ConnectionLost += (_, reason) =>
        {
            // As RabbitMQ.Client: each channel, and each consumer on it, hears the shutdown too; they come back with
            // the recovery.
            ShutdownEventArgs lost = Mapping.ToShutdown(reason, reason.InnerException is null ? ShutdownInitiator.Peer : ShutdownInitiator.Library);
            _events.Raise(_connectionShutdown, this, lost, _shutdownFailed);
            ReportUnexpectedClosure(reason);
            foreach (SpanwireChannel channel in _channels.Keys)
            {
                channel.OnConnectionLost(lost);
            }
        };
        connection.Blocked += (_, why) => _events.Raise(ConnectionBlockedAsync, this, new ConnectionBlockedEventArgs(why), Failed("OnConnectionBlocked"));
        connection.Unblocked += (_, _) => _events.Raise(ConnectionUnblockedAsync, this, AsyncEventArgs.Empty, Failed("OnConnectionUnblocked"));
        connection.RecoverySucceeded += (_, _) =>
        {
            Volatile.Write(ref _shutdownReport, []); // the report is the link's, as RabbitMQ.Client's is its inner connection's
            foreach (SpanwireChannel channel in _channels.Keys)
            {
                channel.OnRecovered(); // its consumers hear consume-ok again before the recovery is announced
            }

            _events.Raise(RecoverySucceededAsync, this, AsyncEventArgs.Empty, Failed("OnConnectionRecovery"));
        };
        connection.RecoveryFailed += (_, e) => _events.Raise(ConnectionRecoveryErrorAsync, this,
            new ConnectionRecoveryErrorEventArgs(e.Error ?? new InvalidOperationException("recovery failed")), Failed("OnConnectionRecoveryError"));
        connection.ConsumerTagChangedAfterRecovery += (_, e) => _events.Raise(ConsumerTagChangeAfterRecoveryAsync, this,
            new ConsumerTagChangedAfterRecoveryEventArgs(e.TagBefore, e.TagAfter), Failed("OnConsumerRecovery"));
        connection.QueueNameChangedAfterRecovery += (_, e) => _events.Raise(QueueNameChangedAfterRecoveryAsync, this,
            new QueueNameChangedAfterRecoveryEventArgs(e.NameBefore, e.NameAfter), Failed("OnQueueRecovery"));
        connection.RecoveringConsumerHook = OnRecoveringConsumerAsync;
    }

    /// <summary>The Spanwire connection underneath.</summary>
    public AmqpConnection Connection => _connection;

    internal AsyncEvents Events => _events;

    public ushort ChannelMax => _connection.ChannelMax;

    // What connection.start-ok sent, as RabbitMQ.Client's connection gives it: the defaults, connection_name and the factory's own.
    public IDictionary<string, object?> ClientProperties => new Dictionary<string, object?>(_connection.SentClientProperties);

    // As RabbitMQ.Client: a connection being closed by the application reports that close already.
    public ShutdownEventArgs? CloseReason => _closeReason ?? (_connection.IsOpen ? null : Volatile.Read(ref _applicationClose));

    public AmqpTcpEndpoint Endpoint { get; }

    public uint FrameMax => _connection.FrameMax;

    public TimeSpan Heartbeat => TimeSpan.FromSeconds(_connection.Heartbeat);

    public bool IsOpen => _connection.IsOpen;

    public IProtocol Protocol => Protocols.AMQP_0_9_1;

    public IDictionary<string, object?>? ServerProperties => _connection.ServerProperties.ToDictionary();

    public IEnumerable<ShutdownReportEntry> ShutdownReport => Volatile.Read(ref _shutdownReport);

    public string? ClientProvidedName { get; }

    public int LocalPort => _connection.LocalPort;

    public int RemotePort => _connection.Endpoint.Port;

    public event AsyncEventHandler<CallbackExceptionEventArgs>? CallbackExceptionAsync;

    /// <summary>
    /// As RabbitMQ.Client: a handler added once the connection is closed is called at once with the reason, and adding
    /// one to a disposed connection throws.
    /// </summary>
    public event AsyncEventHandler<ShutdownEventArgs>? ConnectionShutdownAsync
    {
        add
        {
            ThrowIfDisposed();
            if (value is not null && CloseReason is { } reason) // closed, or being closed by the application
            {
                _events.CallLate(value, this, reason);
                return;
            }

            AsyncEvents.Add(ref _connectionShutdown, value);
        }

        remove => AsyncEvents.Remove(ref _connectionShutdown, value);
    }

    public event AsyncEventHandler<AsyncEventArgs>? RecoverySucceededAsync;

    public event AsyncEventHandler<ConnectionRecoveryErrorEventArgs>? ConnectionRecoveryErrorAsync;

    public event AsyncEventHandler<ConsumerTagChangedAfterRecoveryEventArgs>? ConsumerTagChangeAfterRecoveryAsync;

    public event AsyncEventHandler<QueueNameChangedAfterRecoveryEventArgs>? QueueNameChangedAfterRecoveryAsync;

    public event AsyncEventHandler<RecoveringConsumerEventArgs>? RecoveringConsumerAsync;

    public event AsyncEventHandler<ConnectionBlockedEventArgs>? ConnectionBlockedAsync;

    public event AsyncEventHandler<AsyncEventArgs>? ConnectionUnblockedAsync;

    public async Task UpdateSecretAsync(string newSecret, string reason, CancellationToken cancellationToken = default)
    {
        ThrowIfDisposed();
        ThrowIfClosed();
        try
        {
            await _connection.UpdateSecretAsync(newSecret, reason, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception e) when (Mapping.Translate(e, closedBefore: false, Shutdown) is var translated && translated != e)
        {
            throw translated;
        }
    }

    public async Task CloseAsync(ushort reasonCode, string reasonText, TimeSpan timeout, bool abort, CancellationToken cancellationToken = default)
    {
        ThrowIfDisposed();
        if (_connection.CloseReason is not null)
        {
            return; // as RabbitMQ.Client: closing a closed connection does nothing
        }

        _initiator = ShutdownInitiator.Application;
        // As RabbitMQ.Client: the close's token goes with the reason, so shutdown handlers stop waiting when it is cancelled.
        Interlocked.CompareExchange(ref _applicationClose,
            new ShutdownEventArgs(ShutdownInitiator.Application, reasonCode, reasonText, cancellationToken: cancellationToken), null);
        try
        {
            await _connection.CloseAsync(timeout, abort, reasonCode, reasonText, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception e) when (!abort && Mapping.Translate(e, closedBefore: false, Shutdown) is var translated && translated != e)
        {
            throw translated;
        }

        await _events.DrainAsync().ConfigureAwait(false);
    }

    public async Task<IChannel> CreateChannelAsync(CreateChannelOptions? options = null, CancellationToken cancellationToken = default)
    {
        ThrowIfDisposed();
        bool inRecoveryHandler = RecoveryHooks.InHandler;
        if (!inRecoveryHandler)
        {
            ThrowIfClosed();
        }

        AmqpChannel channel;
        try
        {
            channel = inRecoveryHandler
                ? await _connection.OpenRecoveryChannelAsync(cancellationToken).ConfigureAwait(false)
                : await _connection.OpenChannelAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (Exception e) when (Mapping.Translate(e, closedBefore: false, Shutdown) is var translated && translated != e)
        {
            throw translated;
        }

        var result = new SpanwireChannel(this, channel, options, _factory.ConsumerDispatchConcurrency);
        await result.InitializeAsync(cancellationToken).ConfigureAwait(false);
        return result;
    }

    /// <summary>A new channel hears of the connection's losses and recoveries until <see cref="Forget"/>.</summary>
    internal void Track(SpanwireChannel channel) => _channels[channel] = 0;

    /// <summary>A channel that ended no longer hears of the connection's losses and recoveries.</summary>
    internal void Forget(SpanwireChannel channel)
    {
        bool removed = _channels.TryRemove(channel, out _);
        Debug.Assert(removed, "a channel is tracked before its end is watched, and it ends once");
    }

    internal void RaiseCallbackException(CallbackExceptionEventArgs args) => _events.Raise(CallbackExceptionAsync, this, args);

    /// <summary>Each consumer's arguments as recorded when it started (a copy of the application's).</summary>
    internal ConditionalWeakTable<AmqpConsumer, IDictionary<string, object?>> ConsumerArguments { get; } = new();

    // As RabbitMQ.Client: the handlers run before the consumer is registered again, on its recorded arguments, and what
    // they leave there is what the broker is sent, then and at every recovery after.
    private async ValueTask<FieldTable> OnRecoveringConsumerAsync(AmqpConsumer consumer, FieldTable arguments)
    {
        if (RecoveringConsumerAsync is not { } handlers)
        {
            return arguments;
        }

        IDictionary<string, object?>? own = ConsumerArguments.TryGetValue(consumer, out IDictionary<string, object?>? given) ? given : null;
        var args = new RecoveringConsumerEventArgs(consumer.Tag, own);
        foreach (AsyncEventHandler<RecoveringConsumerEventArgs> handler in handlers.GetInvocationList().Cast<AsyncEventHandler<RecoveringConsumerEventArgs>>())
        {
            try
            {
                await handler(this, args).ConfigureAwait(false);
            }
            catch (Exception e)
            {
                RaiseCallbackException(CallbackExceptionEventArgs.Build(e, "OnRecoveringConsumer"));
            }
        }

        return own is null ? arguments : Mapping.ToFieldTable(own);
    }

    // Rare events: the reporter is made when the event is raised.
    private Action<Exception> Failed(string context) => e => RaiseCallbackException(CallbackExceptionEventArgs.Build(e, context));

    /// <summary>
    /// As RabbitMQ.Client: a link ended by a transport failure (not by the broker's close, the application's, or a frame
    /// refused) leaves an entry in <see cref="ShutdownReport"/>, in RabbitMQ.Client's words, after the shutdown handlers.
    /// </summary>
    private void ReportUnexpectedClosure(Exception reason)
    {
        if (reason is not AmqpConnectionClosedException { InnerException: { } failure })
        {
            return;
        }

        (int code, string text) = failure is EndOfStreamException ? (0, "End of stream") : (541, failure.Message);
        string description = string.Create(CultureInfo.InvariantCulture,
            $"unexpected connection closure: AMQP close-reason, initiated by Library, code={code}, text='{text}', classId=0, methodId=0, exception={failure.Message}");
        Volatile.Write(ref _shutdownReport, [new ShutdownReportEntry(description, failure)]);
    }

    /// <summary>The shutdown RabbitMQ.Client reports for the connection's end: the application's code and text when it closed it.</summary>
    internal ShutdownEventArgs Shutdown(Exception reason) =>
        _closeReason ?? (Volatile.Read(ref _applicationClose) is { } closed && reason is AmqpConnectionClosedException { InnerException: null } ended
            && ended.ReplyCode == closed.ReplyCode ? closed : Mapping.ToShutdown(reason, _initiator));

    private void ThrowIfClosed()
    {
        if (!_connection.IsOpen && _connection.CloseReason is { } reason)
        {
            throw new AlreadyClosedException(Shutdown(reason));
        }
    }

    public void Dispose() => DisposeAsync().AsTask().GetAwaiter().GetResult();

    public async ValueTask DisposeAsync()
    {
        if (Volatile.Read(ref _disposed))
        {
            return;
        }

        try
        {
            if (_connection.IsOpen)
            {
                // RabbitMQ.Client's dispose closes with these words.
                _initiator = ShutdownInitiator.Application;
                Interlocked.CompareExchange(ref _applicationClose, new ShutdownEventArgs(ShutdownInitiator.Application, 200, "Connection close forced"), null);
            }

            await _connection.DisposeAsync().ConfigureAwait(false);
            await _events.DrainAsync().ConfigureAwait(false);
        }
        finally
        {
            // As RabbitMQ.Client's connection: once disposed, closing, making channels and updating the secret throw
            // ObjectDisposedException (its properties stay readable here, where RabbitMQ.Client's throw too).
            Volatile.Write(ref _disposed, true);
        }
    }

    private void ThrowIfDisposed() => Disposal.ThrowIf(Volatile.Read(ref _disposed), this);
}
