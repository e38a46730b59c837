using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using RabbitMQ.Client;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.DropIn;

namespace Spanwire.Amqp.Hosting;

/// <summary>
/// One registered AMQP client: its connection, made on first use (not when the host starts) and tried again with
/// back-off while the broker cannot be reached, then shared by everything that asks. Its connection, recovery and
/// consumer failures are logged. Disposed with the service provider, closing the connection.
/// </summary>
public sealed partial class SpanwireAmqpClient : IAsyncDisposable
{
    private readonly SpanwireAmqpOptions _options;
    private readonly ILogger _logger;
    private readonly SemaphoreSlim _connecting = new(1, 1);
    private IConnection? _connection;
    private bool _disposed;

    /// <summary>Creates the client; nothing connects until <see cref="GetConnectionAsync"/>.</summary>
    /// <param name="name">The client's name (empty for the default one), used in log messages and the health check.</param>
    /// <param name="options">Its settings.</param>
    /// <param name="loggerFactory">Where its log messages go, or null for none.</param>
    /// <exception cref="ArgumentException">The options have no connection string.</exception>
    public SpanwireAmqpClient(string name, SpanwireAmqpOptions options, ILoggerFactory? loggerFactory)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (string.IsNullOrWhiteSpace(options.ConnectionString))
        {
            throw new ArgumentException($"The AMQP client '{name}' has no ConnectionString: set it in configuration or in AddSpanwireAmqp's configure delegate.", nameof(options));
        }

        Name = name;
        _options = options;
        _logger = loggerFactory?.CreateLogger("Spanwire.Amqp") ?? NullLogger.Instance;
    }

    /// <summary>The client's name: empty for the default client, else its key.</summary>
    public string Name { get; }

    /// <summary>Whether the connection has been made (it may have closed since).</summary>
    public bool IsConnected => Volatile.Read(ref _connection) is not null;

    /// <summary>The connection as RabbitMQ.Client's interface, made on the first call.</summary>
    /// <param name="cancellationToken">Cancels the connect and its retries.</param>
    /// <returns>The shared connection.</returns>
    /// <exception cref="global::RabbitMQ.Client.Exceptions.BrokerUnreachableException">Every attempt failed.</exception>
    /// <exception cref="ObjectDisposedException">The client was disposed.</exception>
    public async ValueTask<IConnection> GetConnectionAsync(CancellationToken cancellationToken = default)
    {
        if (Volatile.Read(ref _connection) is { } made)
        {
            return made;
        }

        await _connecting.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return _connection ??= await ConnectWithRetryAsync(cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _connecting.Release();
        }
    }

    /// <summary>The Spanwire connection, made on the first call (the same one <see cref="GetConnectionAsync"/> returns).</summary>
    /// <param name="cancellationToken">Cancels the connect and its retries.</param>
    /// <returns>The shared connection.</returns>
    /// <exception cref="global::RabbitMQ.Client.Exceptions.BrokerUnreachableException">Every attempt failed.</exception>
    public async ValueTask<AmqpConnection> GetAmqpConnectionAsync(CancellationToken cancellationToken = default) =>
        (await GetConnectionAsync(cancellationToken).ConfigureAwait(false)).ToAmqpConnection();

    private async Task<IConnection> ConnectWithRetryAsync(CancellationToken cancellationToken)
    {
        var factory = new SpanwireConnectionFactory
        {
            Uri = new Uri(_options.ConnectionString!),
            ClientProvidedName = _options.ClientName,
            ConfigureOptions = _options.ConfigureConnection,
        };
        TimeSpan delay = _options.ConnectRetryDelay;
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                IConnection connection = await factory.CreateConnectionAsync(cancellationToken).ConfigureAwait(false);
                Watch(connection.ToAmqpConnection());
                LogConnected(Name, connection.Endpoint.HostName, connection.Endpoint.Port);
                return connection;
            }
            catch (Exception e) when (attempt <= _options.ConnectRetryCount && e is not OperationCanceledException)
            {
                LogConnectFailed(e, Name, attempt, delay);
                await Task.Delay(delay, cancellationToken).ConfigureAwait(false);
                delay *= 2;
            }
            catch (Exception e) when (e is not OperationCanceledException)
            {
                LogGaveUp(e, Name, attempt);
                throw;
            }
        }
    }

    private void Watch(AmqpConnection connection)
    {
        connection.ConnectionLost += (_, reason) => LogConnectionLost(reason, Name);
        connection.RecoverySucceeded += (_, e) => LogRecovered(Name, e.Endpoint.Host, e.Endpoint.Port, e.Attempt);
        connection.RecoveryFailed += (_, e) => LogRecoveryFailed(e.Error, Name, e.Attempt);
        connection.Blocked += (_, why) => LogBlocked(Name, why);
        connection.Unblocked += (_, _) => LogUnblocked(Name);
        connection.CallbackException += (_, e) => LogConsumerFailed(e.Exception, Name, e.Consumer.Tag, e.DeliveryTag);
        connection.Closed += (_, reason) =>
        {
            if (reason is AmqpClosedException { ReplyCode: 200 })
            {
                LogClosed(Name);
            }
            else
            {
                LogClosedOnError(reason, Name);
            }
        };
    }

    /// <summary>Closes the connection, if one was made.</summary>
    /// <returns>A task that completes when the connection is closed.</returns>
    public async ValueTask DisposeAsync()
    {
        await _connecting.WaitAsync().ConfigureAwait(false);
        try
        {
            _disposed = true;
            if (_connection is { } connection)
            {
                await connection.DisposeAsync().ConfigureAwait(false);
            }
        }
        finally
        {
            _connecting.Release();
        }
    }

    [LoggerMessage(1, LogLevel.Information, "AMQP client '{Client}' connected to {Host}:{Port}")]
    private partial void LogConnected(string client, string host, int port);

    [LoggerMessage(2, LogLevel.Warning, "AMQP client '{Client}' could not connect (attempt {Attempt}); trying again in {Delay}")]
    private partial void LogConnectFailed(Exception error, string client, int attempt, TimeSpan delay);

    [LoggerMessage(3, LogLevel.Error, "AMQP client '{Client}' could not connect after {Attempts} attempts")]
    private partial void LogGaveUp(Exception error, string client, int attempts);

    [LoggerMessage(4, LogLevel.Warning, "AMQP client '{Client}' lost its connection; recovering")]
    private partial void LogConnectionLost(Exception reason, string client);

    [LoggerMessage(5, LogLevel.Information, "AMQP client '{Client}' recovered on {Host}:{Port} (attempt {Attempt})")]
    private partial void LogRecovered(string client, string host, int port, int attempt);

    [LoggerMessage(6, LogLevel.Warning, "AMQP client '{Client}' recovery attempt {Attempt} failed")]
    private partial void LogRecoveryFailed(Exception? error, string client, int attempt);

    [LoggerMessage(7, LogLevel.Warning, "AMQP client '{Client}': the broker blocks publishing: {Reason}")]
    private partial void LogBlocked(string client, string reason);

    [LoggerMessage(8, LogLevel.Information, "AMQP client '{Client}': the broker unblocked publishing")]
    private partial void LogUnblocked(string client);

    [LoggerMessage(9, LogLevel.Error, "AMQP client '{Client}': consumer {ConsumerTag} failed on delivery {DeliveryTag}")]
    private partial void LogConsumerFailed(Exception error, string client, string consumerTag, ulong deliveryTag);

    [LoggerMessage(10, LogLevel.Information, "AMQP client '{Client}' closed its connection")]
    private partial void LogClosed(string client);

    [LoggerMessage(11, LogLevel.Error, "AMQP client '{Client}': the connection ended")]
    private partial void LogClosedOnError(Exception reason, string client);
}
