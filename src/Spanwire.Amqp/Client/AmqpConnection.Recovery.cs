using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

public sealed partial class AmqpConnection
{
    private readonly IReadOnlyList<AmqpEndpoint> _endpoints;
    private readonly CancellationTokenSource _recoveryStop = new();
    private readonly Lock _stateLock = new();
    private Status _status = new(ConnectionState.Connecting, null);
    private Task _recovery = Task.CompletedTask;
    private int _endpointIndex;

    /// <summary>The connection's lifecycle. Every change goes through <see cref="Transition"/>.</summary>
    internal enum ConnectionState
    {
        /// <summary>ConnectAsync is still shaking hands; nobody else holds the connection yet.</summary>
        Connecting,

        /// <summary>The current link is up and in use.</summary>
        Open,

        /// <summary>The link was lost; the recovery task is bringing up a new one.</summary>
        Recovering,

        /// <summary>The application is closing the connection.</summary>
        Closing,

        /// <summary>Ended for good; <see cref="Status.Reason"/> says why.</summary>
        Closed,
    }

    /// <summary>
    /// Raised when the link to the broker is lost and recovery begins (<see cref="AmqpConnectionOptions.AutomaticRecovery"/>);
    /// the argument is why. Until <see cref="RecoverySucceeded"/>, <see cref="IsOpen"/> is false and calls throw
    /// <see cref="AmqpConnectionClosedException"/>. Raised on a thread of the connection's: keep handlers short.
    /// </summary>
    public event EventHandler<Exception>? ConnectionLost;

    /// <summary>Raised before each recovery attempt, with its number and the endpoint it tries.</summary>
    public event EventHandler<AmqpRecoveryEventArgs>? RecoveryStarted;

    /// <summary>Raised when an attempt has reconnected and restored topology, channels and consumers.</summary>
    public event EventHandler<AmqpRecoveryEventArgs>? RecoverySucceeded;

    /// <summary>Raised when an attempt fails, with why; the next follows after the recovery interval.</summary>
    public event EventHandler<AmqpRecoveryEventArgs>? RecoveryFailed;

    /// <summary>Raised when recovery declared a server-named queue again under a new name; consumers and bindings follow it.</summary>
    public event EventHandler<AmqpQueueNameChangedEventArgs>? QueueNameChangedAfterRecovery;

    /// <summary>Raised when recovery registered a consumer again and the broker gave it another tag.</summary>
    public event EventHandler<AmqpConsumerTagChangedEventArgs>? ConsumerTagChangedAfterRecovery;

    /// <summary>Raised before recovery registers a consumer again; the handler may change the arguments it is registered with.</summary>
    public event EventHandler<AmqpRecoveringConsumerEventArgs>? RecoveringConsumer;

    /// <summary>The endpoint of the current link.</summary>
    public AmqpEndpoint Endpoint => Volatile.Read(ref _link).Endpoint;

    /// <summary>The local port of the current link's socket, or -1 while it has none.</summary>
    public int LocalPort
    {
        get
        {
            try
            {
                return Volatile.Read(ref _link).Socket.LocalEndPoint is System.Net.IPEndPoint local ? local.Port : -1;
            }
            catch (ObjectDisposedException)
            {
                return -1; // the link ended meanwhile
            }
        }
    }

    /// <summary>Topology this connection declared, redeclared by recovery.</summary>
    internal TopologyRecorder Topology { get; } = new();

    /// <summary>The lifecycle state, read without a lock.</summary>
    internal ConnectionState State => Volatile.Read(ref _status).State;

    /// <summary>Whether the current link has ended (for tests that cut a link and wait for the client to see it).</summary>
    internal bool LinkEnded => Volatile.Read(ref _link).HasEnded;

    /// <summary>Called at each step of a recovery attempt, for tests that fail the new link exactly there.</summary>
    internal Func<RecoveryStep, ValueTask>? RecoveryStepReached { get; set; }

    /// <summary>The points of a recovery attempt a test can stop at.</summary>
    internal enum RecoveryStep
    {
        /// <summary>The new link is open and current; nothing is restored yet.</summary>
        LinkOpened,

        /// <summary>Exchanges, queues and bindings are declared again.</summary>
        TopologyRecovered,

        /// <summary>Channels are reopened with their QoS, confirm mode and consumers.</summary>
        ChannelsRecovered,

        /// <summary>The connection is open again; RecoverySucceeded is not yet raised.</summary>
        Resumed,
    }

    /// <summary>
    /// The one way the state changes: to <paramref name="to"/>, from the states that may lead there (false otherwise),
    /// with <paramref name="reason"/> (why the connection is not open). Call under <see cref="_stateLock"/>.
    /// </summary>
    private bool Transition(ConnectionState to, Exception? reason)
    {
        ConnectionState from = _status.State;
        bool allowed = (from, to) switch
        {
            (ConnectionState.Connecting, ConnectionState.Open) => true,
            (ConnectionState.Open, ConnectionState.Recovering) => true,
            (ConnectionState.Recovering, ConnectionState.Open) => true,
            (ConnectionState.Open or ConnectionState.Recovering, ConnectionState.Closing) => true,
            (not ConnectionState.Closed, ConnectionState.Closed) => true,
            _ => false,
        };
        if (allowed)
        {
            Volatile.Write(ref _status, new Status(to, reason));
        }

        return allowed;
    }

    /// <summary>
    /// A link has ended (its first failure ended it). What follows depends on the state: an open connection whose
    /// current link it was recovers (or closes, when recovery is off or the broker blamed the client); a recovering one
    /// fails the attempt's pending calls so that the attempt fails now and the next one starts; otherwise whoever set
    /// the state (ConnectAsync, a recovery attempt, CloseAsync) sees the failure itself.
    /// </summary>
    private void OnLinkEnded(Link link, Exception reason)
    {
        bool terminate = false;
        bool failCalls = false;
        lock (_stateLock)
        {
            if (!ReferenceEquals(link, _link))
            {
                return;
            }

            switch (_status.State)
            {
                case ConnectionState.Open when _options.AutomaticRecovery && ShouldRecover(reason):
                    var lost = new AmqpConnectionClosedException(reason is AmqpClosedException closed ? closed.ReplyCode : (ushort)0,
                        $"the connection is recovering after it was lost ({reason.Message})", innerException: reason);
                    Transition(ConnectionState.Recovering, lost);

                    // Before the link's buffers go back to the pool and before recovery can reopen anything: from here
                    // every call on a channel fails with the loss, and nothing is written to the lost link.
                    SuspendChannels(lost);

                    _recovery = RecoverAsync(_recovery, reason); // yields at once: nothing of it runs under the lock
                    break;
                case ConnectionState.Open:
                    terminate = true;
                    break;
                case ConnectionState.Recovering:
                    failCalls = true;
                    break;
            }
        }

        if (terminate)
        {
            Terminate(link, reason);
        }
        else if (failCalls)
        {
            SuspendChannels(reason);
        }
    }

    /// <summary>
    /// The recovery task: owned by the connection (<see cref="_recovery"/>), cancelled and awaited by CloseAsync. It
    /// reports the loss, then tries one endpoint after another until a new link is open with topology, channels
    /// and consumers restored. A failure of the new link at any step fails that attempt, and the next one follows.
    /// </summary>
    private async Task RecoverAsync(Task previous, Exception reason)
    {
        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        await previous.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing); // a recovery that succeeded just before this loss
        AmqpEventSource.Log.ConnectionLost(Endpoint.ToString(), reason.Message);
        Raise(() => ConnectionLost?.Invoke(this, reason));
        CancellationToken stop = _recoveryStop.Token;
        TimeSpan delay = _options.RecoveryInterval;
        for (int attempt = 1; State == ConnectionState.Recovering; attempt++)
        {
            try
            {
                await Task.Delay(delay, stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return; // closed by the application meanwhile
            }

            // Each attempt goes on to the next endpoint, whether the one before succeeded or failed.
            _endpointIndex = (_endpointIndex + 1) % _endpoints.Count;
            var link = new Link(_options, _endpoints[_endpointIndex]);
            AmqpEventSource.Log.RecoveryStarted(attempt, link.Endpoint.ToString());
            Raise(() => RecoveryStarted?.Invoke(this, new AmqpRecoveryEventArgs(attempt, link.Endpoint, null)));
            try
            {
                await OpenLinkAsync(link, stop).ConfigureAwait(false);
                lock (_stateLock)
                {
                    if (_status.State != ConnectionState.Recovering)
                    {
                        throw new OperationCanceledException("the connection was closed while it recovered");
                    }

                    Volatile.Write(ref _link, link); // failures of this link now reach OnLinkEnded
                }

                ThrowIfEnded(link);
                await StepReachedAsync(RecoveryStep.LinkOpened).ConfigureAwait(false);
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(stop);
                timeout.CancelAfter(_options.ConnectTimeout);
                if (_options.TopologyRecovery)
                {
                    await Topology.RecoverAsync(this, timeout.Token).ConfigureAwait(false);
                }

                await StepReachedAsync(RecoveryStep.TopologyRecovered).ConfigureAwait(false);

                // All at once: a channel whose consumer waits for its queue (a quorum queue electing a new leader)
                // does not hold up the others.
                await Task.WhenAll(OpenChannels().Select(c => c.RecoverAsync(timeout.Token))).ConfigureAwait(false);
                await StepReachedAsync(RecoveryStep.ChannelsRecovered).ConfigureAwait(false);
                lock (_stateLock)
                {
                    // Checked under the lock OnLinkEnded takes after ending a link: either the link ended before this
                    // check (this attempt fails), or its end finds the connection open and starts a new recovery.
                    ThrowIfEnded(link);
                    if (!Transition(ConnectionState.Open, null))
                    {
                        throw new OperationCanceledException("the connection was closed while it recovered");
                    }
                }

                AmqpTelemetry.Recoveries.Add(1);
                await StepReachedAsync(RecoveryStep.Resumed).ConfigureAwait(false);
                AmqpEventSource.Log.RecoverySucceeded(attempt, link.Endpoint.ToString());
                Raise(() => RecoverySucceeded?.Invoke(this, new AmqpRecoveryEventArgs(attempt, link.Endpoint, null)));
                return;
            }
            catch (Exception ex)
            {
                EndLink(link, ex);
                SuspendChannels(ex); // a request the attempt left waiting (one timed out, say) must not hold the next attempt's turn

                await ReleaseLinkAsync(link).ConfigureAwait(false);
                if (State != ConnectionState.Recovering)
                {
                    return;
                }

                AmqpEventSource.Log.RecoveryFailed(attempt, link.Endpoint.ToString(), ex.Message);
                Raise(() => RecoveryFailed?.Invoke(this, new AmqpRecoveryEventArgs(attempt, link.Endpoint, ex)));
                delay = TimeSpan.FromTicks(Math.Min(Math.Max(delay.Ticks, 1) * 2, Math.Max(_options.RecoveryInterval.Ticks, _options.MaxRecoveryInterval.Ticks)));
            }
        }
    }

    private static void ThrowIfEnded(Link link)
    {
        if (link.HasEnded)
        {
            throw new AmqpConnectionClosedException(0, "the new link was lost while recovering");
        }
    }

    private ValueTask StepReachedAsync(RecoveryStep step) => RecoveryStepReached is { } hook ? hook(step) : default;

    /// <summary>Opens a channel for recovery's own use while the connection is not yet open again.</summary>
    internal Task<AmqpChannel> OpenRecoveryChannelAsync(CancellationToken cancellationToken) => OpenChannelCoreAsync(forRecovery: true, cancellationToken);

    /// <summary>The channels a recovery restores: open ones, not recovery's own.</summary>
    private AmqpChannel[] OpenChannels() => [.. AllChannels().Where(c => !c.IsForRecovery)];

    /// <summary>Every channel's pending calls, parked publishes and confirms fail with <paramref name="reason"/>; consumers stay.</summary>
    private void SuspendChannels(Exception reason)
    {
        foreach (AmqpChannel channel in AllChannels())
        {
            channel.Suspend(reason);
        }
    }

    /// <summary>Every channel, recovery's own included.</summary>
    private AmqpChannel[] AllChannels()
    {
        lock (_channelsLock)
        {
            return [.. _channels.OfType<AmqpChannel>()];
        }
    }

    /// <summary>Renames a server-named queue in every consumer after recovery declared it again under a new name.</summary>
    internal void RenameQueueInConsumers(string before, string after)
    {
        foreach (AmqpChannel channel in OpenChannels())
        {
            channel.RenameQueueInConsumers(before, after);
        }

        Raise(() => QueueNameChangedAfterRecovery?.Invoke(this, new AmqpQueueNameChangedEventArgs(before, after)));
    }

    internal AmqpTopologyRecoveryFilter? RecoveryFilter => _options.TopologyRecoveryFilter;

    internal bool HasRecoveryFailureHandler => _options.TopologyRecoveryFailed is not null;

    /// <summary>Asks the application's handler whether to try a refused entity once more, on a channel it may use.</summary>
    internal async ValueTask<bool> ShouldRetryAsync(object entity, Exception exception, AmqpChannel channel, CancellationToken cancellationToken) =>
        _options.TopologyRecoveryFailed is { } handler
        && await handler(new AmqpTopologyRecoveryFailure(entity, exception, channel), cancellationToken).ConfigureAwait(false);

    /// <summary>
    /// An asynchronous say in a consumer's arguments before it is registered again, after <see cref="RecoveringConsumer"/>:
    /// the RabbitMQ.Client drop-in's event, whose handlers change the application's own dictionary.
    /// </summary>
    internal Func<AmqpConsumer, FieldTable, ValueTask<FieldTable>>? RecoveringConsumerHook { get; set; }

    internal async ValueTask<FieldTable> OnRecoveringConsumerAsync(AmqpConsumer consumer, FieldTable arguments)
    {
        FieldTable changed = OnRecoveringConsumer(consumer, arguments);
        return RecoveringConsumerHook is { } hook ? await hook(consumer, changed).ConfigureAwait(false) : changed;
    }

    /// <summary>Lets the application change a consumer's arguments before it is registered again.</summary>
    internal FieldTable OnRecoveringConsumer(AmqpConsumer consumer, FieldTable arguments)
    {
        if (RecoveringConsumer is null)
        {
            return arguments;
        }

        var args = new AmqpRecoveringConsumerEventArgs(consumer, arguments);
        Raise(() => RecoveringConsumer?.Invoke(this, args));
        return args.Arguments.Copy();
    }

    internal void OnConsumerTagChanged(string before, string after) =>
        Raise(() => ConsumerTagChangedAfterRecovery?.Invoke(this, new AmqpConsumerTagChangedEventArgs(before, after)));

    /// <summary>True when any open channel's consumer still consumes from <paramref name="queue"/>.</summary>
    internal bool IsConsumed(string queue) => OpenChannels().Any(c => c.ConsumesFrom(queue));

    /// <summary>The state and, when not open, why: one object, so the two are always read together.</summary>
    private sealed record Status(ConnectionState State, Exception? Reason);
}
