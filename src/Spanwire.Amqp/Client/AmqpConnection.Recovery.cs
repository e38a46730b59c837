namespace Spanwire.Amqp.Client;

public sealed partial class AmqpConnection
{
    private readonly IReadOnlyList<AmqpEndpoint> _endpoints;
    private readonly CancellationTokenSource _recoveryStop = new();
    private Exception? _lost;
    private volatile bool _closing;
    private int _endpointIndex;

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

    /// <summary>The endpoint of the current link.</summary>
    public AmqpEndpoint Endpoint => Volatile.Read(ref _link).Endpoint;

    /// <summary>Topology this connection declared, redeclared by recovery.</summary>
    internal TopologyRecorder Topology { get; } = new();

    /// <summary>
    /// The established link is lost: channels are suspended (pending calls and unconfirmed publishes fault with
    /// <paramref name="reason"/>), the link ends, and recovery starts on a new one.
    /// </summary>
    private async Task LoseAsync(Link link, Exception reason)
    {
        var lost = new AmqpConnectionClosedException(reason is AmqpClosedException closed ? closed.ReplyCode : (ushort)0,
            $"the connection is recovering after it was lost ({reason.Message})", innerException: reason);
        if (Interlocked.CompareExchange(ref _lost, lost, null) is not null)
        {
            return;
        }

        foreach (AmqpChannel channel in OpenChannels())
        {
            channel.Suspend(lost);
        }

        await EndLinkAsync(link, reason).ConfigureAwait(false);
        Raise(() => ConnectionLost?.Invoke(this, reason));
        _ = Task.Run(RecoverAsync);
    }

    private async Task RecoverAsync()
    {
        TimeSpan delay = _options.RecoveryInterval;
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                await Task.Delay(delay, _recoveryStop.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return; // closed by the application meanwhile
            }

            // Each attempt goes on to the next endpoint, whether the one before succeeded or failed.
            _endpointIndex = (_endpointIndex + 1) % _endpoints.Count;
            var link = new Link(_options, _endpoints[_endpointIndex]);
            Raise(() => RecoveryStarted?.Invoke(this, new AmqpRecoveryEventArgs(attempt, link.Endpoint, null)));
            try
            {
                await OpenLinkAsync(link, _recoveryStop.Token).ConfigureAwait(false);
                Volatile.Write(ref _link, link);
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(_recoveryStop.Token);
                timeout.CancelAfter(_options.ConnectTimeout);
                if (_options.TopologyRecovery)
                {
                    await Topology.RecoverAsync(this, timeout.Token).ConfigureAwait(false);
                }

                // All at once: a channel whose consumer waits for its queue (a quorum queue electing a new leader)
                // does not hold up the others.
                await Task.WhenAll(OpenChannels().Select(c => c.RecoverAsync(timeout.Token))).ConfigureAwait(false);

                link.Established = true;
                if (link.HasEnded || _closing)
                {
                    throw new AmqpConnectionClosedException(0, "the new link was lost while recovering");
                }

                Volatile.Write(ref _lost, null);
                AmqpTelemetry.Recoveries.Add(1);
                Raise(() => RecoverySucceeded?.Invoke(this, new AmqpRecoveryEventArgs(attempt, link.Endpoint, null)));
                return;
            }
            catch (Exception ex)
            {
                await EndLinkAsync(link, ex).ConfigureAwait(false);
                if (_closing || Volatile.Read(ref _closeReason) is not null)
                {
                    return;
                }

                Raise(() => RecoveryFailed?.Invoke(this, new AmqpRecoveryEventArgs(attempt, link.Endpoint, ex)));
                delay = TimeSpan.FromTicks(Math.Min(delay.Ticks * 2, Math.Max(_options.RecoveryInterval.Ticks, _options.MaxRecoveryInterval.Ticks)));
            }
        }
    }

    /// <summary>Opens a channel for recovery's own use while the connection is not yet open again.</summary>
    internal Task<AmqpChannel> OpenRecoveryChannelAsync(CancellationToken cancellationToken) => OpenChannelCoreAsync(forRecovery: true, cancellationToken);

    /// <summary>The channels a recovery restores: open ones, not recovery's own.</summary>
    private AmqpChannel[] OpenChannels()
    {
        lock (_channelsLock)
        {
            return [.. _channels.OfType<AmqpChannel>().Where(c => !c.IsForRecovery)];
        }
    }

    /// <summary>Renames a server-named queue in every consumer after recovery declared it again under a new name.</summary>
    internal void RenameQueueInConsumers(string before, string after)
    {
        foreach (AmqpChannel channel in OpenChannels())
        {
            channel.RenameQueueInConsumers(before, after);
        }
    }
}
