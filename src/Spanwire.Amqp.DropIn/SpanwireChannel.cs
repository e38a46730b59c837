using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.DropIn;

/// <summary>RabbitMQ.Client's <see cref="IChannel"/> over one Spanwire <see cref="AmqpChannel"/>.</summary>
internal sealed class SpanwireChannel : IChannel
{
    private readonly SpanwireConnection _connection;
    private readonly AmqpChannel _channel;
    private readonly CreateChannelOptions? _options;
    private readonly int _dispatchConcurrency;
    private readonly ConcurrentDictionary<string, Subscription> _consumers = new();
    private ShutdownInitiator _initiator = ShutdownInitiator.Peer;
    private ShutdownEventArgs? _applicationClose; // the code and text the application closed with, as RabbitMQ.Client reports them
    private bool _tracking;
    private bool _disposed;
    private readonly Action<Exception> _shutdownFailed;
    private AsyncEventHandler<ShutdownEventArgs>? _channelShutdown;
    private AsyncEventHandler<BasicAckEventArgs>? _basicAcks;
    private AsyncEventHandler<BasicNackEventArgs>? _basicNacks;
    private AsyncEventHandler<BasicReturnEventArgs>? _basicReturn;
    private AsyncEventHandler<CallbackExceptionEventArgs>? _callbackException;

    // The token consumer callbacks are given, as RabbitMQ.Client 7.2's consumer dispatcher gives its own: cancelled once
    // the channel shuts down, so handlers still running hear it (and a shutdown callback gets it cancelled); a channel
    // recovered with its connection gets a fresh one.
    private CancellationTokenSource _dispatch = new();

    public SpanwireChannel(SpanwireConnection connection, AmqpChannel channel, CreateChannelOptions? options, ushort dispatchConcurrency)
    {
        _connection = connection;
        _channel = channel;
        _options = options;
        _dispatchConcurrency = options?.ConsumerDispatchConcurrency ?? dispatchConcurrency;
        AsyncEvents events = connection.Events;

        // A handler that throws is reported as RabbitMQ.Client reports it: the channel's callback exception event,
        // with the context RabbitMQ.Client names (each reporter made once, not per event).
        Action<Exception> ackFailed = e => CallbackFailed(e, "OnBasicAck");
        Action<Exception> nackFailed = e => CallbackFailed(e, "OnBasicNack");
        Action<Exception> returnFailed = e => CallbackFailed(e, "OnBasicReturn");
        _shutdownFailed = e => CallbackFailed(e, "OnChannelShutdownAsync");
        channel.Acked += (_, c) => events.Raise(_basicAcks, this, new BasicAckEventArgs(c.DeliveryTag, c.Multiple), ackFailed);
        channel.Nacked += (_, c) => events.Raise(_basicNacks, this, new BasicNackEventArgs(c.DeliveryTag, c.Multiple, requeue: false), nackFailed);
        channel.Returned += (_, r) => events.Raise(_basicReturn, this, new BasicReturnEventArgs(
            r.ReplyCode, r.ReplyText, r.Exchange, r.RoutingKey, Mapping.ToRabbitMQ(r.Properties), r.Body.ToArray()), returnFailed);
        channel.CallbackException += (_, e) => ConsumerFailed(e.Exception, "Deliver",
            _consumers.TryGetValue(e.Consumer.Tag, out Subscription? subscription) ? subscription.Consumer : e.Consumer.Tag);
        connection.Track(this);
        channel.Closed += (_, reason) =>
        {
            connection.Forget(this);
            StopDispatch();
            events.Raise(_channelShutdown, this, Shutdown(reason), _shutdownFailed);
        };
        // A publish that fails after it was sent is a confirm the channel's end left unanswered: RabbitMQ.Client fails
        // each such confirm with AlreadyClosedException.
        channel.SetPublishErrorTranslator(error => TranslatePublishError(error, closedBefore: true));
    }

    /// <summary>Publisher confirms as the options ask, before the channel is handed out.</summary>
    public async Task InitializeAsync(CancellationToken cancellationToken)
    {
        if (_options is { PublisherConfirmationsEnabled: true } options)
        {
            await Invoke(() => _channel.EnableConfirmsAsync(options.PublisherConfirmationTrackingEnabled ? options.OutstandingPublisherConfirmationsRateLimiter : null, cancellationToken)).ConfigureAwait(false);
            _tracking = options.PublisherConfirmationTrackingEnabled;
        }
    }

    public int ChannelNumber => _channel.Number;

    // As RabbitMQ.Client: a channel the application is closing reports that close already, and is no longer open.
    public ShutdownEventArgs? CloseReason => _channel.CloseReason is { } reason ? Shutdown(reason) : Volatile.Read(ref _applicationClose);

    public IAsyncBasicConsumer? DefaultConsumer { get; set; }

    public bool IsClosed => !IsOpen;

    public bool IsOpen => !Volatile.Read(ref _disposed) && _channel.IsOpen && Volatile.Read(ref _applicationClose) is null;

    public string? CurrentQueue { get; private set; }

    public TimeSpan ContinuationTimeout
    {
        get => _channel.ContinuationTimeout;
        set => _channel.ContinuationTimeout = value;
    }

    // As RabbitMQ.Client: adding or removing a handler on a disposed channel throws ObjectDisposedException.
    public event AsyncEventHandler<BasicAckEventArgs>? BasicAcksAsync
    {
        add => AddHandler(ref _basicAcks, value);
        remove => RemoveHandler(ref _basicAcks, value);
    }

    public event AsyncEventHandler<BasicNackEventArgs>? BasicNacksAsync
    {
        add => AddHandler(ref _basicNacks, value);
        remove => RemoveHandler(ref _basicNacks, value);
    }

    public event AsyncEventHandler<BasicReturnEventArgs>? BasicReturnAsync
    {
        add => AddHandler(ref _basicReturn, value);
        remove => RemoveHandler(ref _basicReturn, value);
    }

    public event AsyncEventHandler<CallbackExceptionEventArgs>? CallbackExceptionAsync
    {
        add => AddHandler(ref _callbackException, value);
        remove => RemoveHandler(ref _callbackException, value);
    }

    /// <summary>Never raised: RabbitMQ does not send channel.flow to clients.</summary>
    public event AsyncEventHandler<FlowControlEventArgs>? FlowControlAsync
    {
        add => ThrowIfDisposed();
        remove => ThrowIfDisposed();
    }

    /// <summary>As RabbitMQ.Client: a handler added once the channel is closed is called at once with the reason.</summary>
    public event AsyncEventHandler<ShutdownEventArgs>? ChannelShutdownAsync
    {
        add
        {
            ThrowIfDisposed();
            if (value is not null && CloseReason is { } reason) // closed, or being closed by the application
            {
                _connection.Events.CallLate(value, this, reason);
                return;
            }

            AsyncEvents.Add(ref _channelShutdown, value);
        }

        remove => RemoveHandler(ref _channelShutdown, value);
    }

    public ValueTask<ulong> GetNextPublishSequenceNumberAsync(CancellationToken cancellationToken = default)
    {
        ThrowIfDisposed();
        return ValueTask.FromResult(_channel.ConfirmsEnabled ? _channel.NextPublishSequenceNumber : 0);
    }

    public ValueTask BasicAckAsync(ulong deliveryTag, bool multiple, CancellationToken cancellationToken = default) =>
        Settle((deliveryTag, multiple), static (channel, a) => channel.AckAsync(a.deliveryTag, a.multiple));

    public ValueTask BasicNackAsync(ulong deliveryTag, bool multiple, bool requeue, CancellationToken cancellationToken = default) =>
        Settle((deliveryTag, multiple, requeue), static (channel, a) => channel.NackAsync(a.deliveryTag, a.multiple, a.requeue));

    public ValueTask BasicRejectAsync(ulong deliveryTag, bool requeue, CancellationToken cancellationToken = default) =>
        Settle((deliveryTag, requeue), static (channel, a) => channel.RejectAsync(a.deliveryTag, a.requeue));

    public async Task BasicCancelAsync(string consumerTag, bool noWait = false, CancellationToken cancellationToken = default)
    {
        ThrowIfDisposed();
        if (!_consumers.TryGetValue(consumerTag, out Subscription? subscription))
        {
            // RabbitMQ.Client asks the broker all the same, which answers cancel-ok: nothing is thrown.
            await Invoke(() => _channel.CancelUnknownConsumerAsync(consumerTag, cancellationToken)).ConfigureAwait(false);
            return;
        }

        // As RabbitMQ.Client: the call ends with the broker's cancel-ok, and the consumer hears HandleBasicCancelOkAsync
        // after the deliveries it holds (from its watch), so a delivery handler may cancel its own consumer.
        subscription.CancelledByUs = true;
        await Invoke(() => subscription.Native.CancelAsync(cancellationToken)).ConfigureAwait(false);
    }

    public async Task<string> BasicConsumeAsync(string queue, bool autoAck, string consumerTag, bool noLocal, bool exclusive,
        IDictionary<string, object?>? arguments, IAsyncBasicConsumer consumer, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(consumer);
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var options = new AmqpConsumerOptions
        {
            AutoAck = autoAck,
            ConsumerTag = consumerTag ?? "",
            Exclusive = exclusive,
            Arguments = Mapping.ToFieldTable(arguments),
            DispatchConcurrency = Math.Max(1, _dispatchConcurrency),
            StopOnHandlerException = false,
        };
        AmqpConsumer native = await Invoke(() => _channel.ConsumeAsync(queue, async (delivery, _) =>
        {
            // RabbitMQ.Client tells the consumer its tag before the first delivery.
            await started.Task.ConfigureAwait(false);
            ReadOnlyMemory<byte> body = delivery.Body.IsSingleSegment ? delivery.Body.Sequence.First : delivery.Body.ToArray();
            await consumer.HandleBasicDeliverAsync(delivery.ConsumerTag, delivery.DeliveryTag, delivery.Redelivered, delivery.Exchange,
                delivery.RoutingKey, Mapping.ToRabbitMQ(delivery.Properties), body, DispatchToken).ConfigureAwait(false);
        }, options, cancellationToken)).ConfigureAwait(false);
        var subscription = new Subscription(native, consumer);
        if (arguments is not null)
        {
            // As RabbitMQ.Client records them: a copy, which recovery's handlers may change for every recovery after.
            _connection.ConsumerArguments.AddOrUpdate(native, new Dictionary<string, object?>(arguments));
        }

        _consumers[native.Tag] = subscription;
        subscription.Watch = WatchAsync(subscription);
        try
        {
            await consumer.HandleBasicConsumeOkAsync(native.Tag, DispatchToken).ConfigureAwait(false);
        }
        catch (Exception e)
        {
            // As RabbitMQ.Client: the consumer is registered all the same, and its failing callback is reported.
            ConsumerFailed(e, "ConsumeOk", consumer);
        }
        finally
        {
            started.TrySetResult();
        }

        return native.Tag;
    }

    public async Task<BasicGetResult?> BasicGetAsync(string queue, bool autoAck, CancellationToken cancellationToken = default)
    {
        using AmqpDelivery? delivery = await Invoke(() => _channel.GetAsync(queue, autoAck, cancellationToken)).ConfigureAwait(false);
        return delivery is null
            ? null
            : new BasicGetResult(delivery.DeliveryTag, delivery.Redelivered, delivery.Exchange, delivery.RoutingKey, delivery.MessageCount,
                Mapping.ToRabbitMQ(delivery.Properties), delivery.Body.ToArray());
    }

    public ValueTask BasicPublishAsync<TProperties>(CachedString exchange, CachedString routingKey, bool mandatory, TProperties basicProperties,
        ReadOnlyMemory<byte> body = default, CancellationToken cancellationToken = default)
        where TProperties : IReadOnlyBasicProperties, IAmqpHeader =>
        BasicPublishAsync(exchange.Value, routingKey.Value, mandatory, basicProperties, body, cancellationToken);

    // The channel's own publish task is handed out as it is (no state machine, and code awaiting a confirm resumes
    // once, where the channel resumes it): what fails after the publish was sent is translated by the channel itself
    // (SetPublishErrorTranslator, installed in the constructor), what fails before is translated here.
    public ValueTask BasicPublishAsync<TProperties>(string exchange, string routingKey, bool mandatory, TProperties basicProperties,
        ReadOnlyMemory<byte> body = default, CancellationToken cancellationToken = default)
        where TProperties : IReadOnlyBasicProperties, IAmqpHeader
    {
        ThrowIfDisposed();
        bool closedBefore = !_channel.IsOpen;
        try
        {
            Protocol.BasicProperties properties = Mapping.ToSpanwire(basicProperties);
            return _tracking
                ? _channel.PublishConfirmedAsync(exchange, routingKey, properties, body, mandatory, cancellationToken)
                : _channel.PublishAsync(exchange, routingKey, properties, body, mandatory, cancellationToken);
        }
        catch (Exception e) when (TranslatePublishError(e, closedBefore) is var translated && translated != e)
        {
            return ValueTask.FromException(translated);
        }
    }

    private Exception TranslatePublishError(Exception error, bool closedBefore) => error switch
    {
        AmqpPublishReturnedException returned => new PublishException(returned.PublishSequenceNumber, isReturn: true),
        AmqpPublishNackedException nacked => new PublishException(nacked.PublishSequenceNumber, isReturn: false),
        _ => Mapping.Translate(error, closedBefore, Shutdown),
    };

    public Task BasicQosAsync(uint prefetchSize, ushort prefetchCount, bool global, CancellationToken cancellationToken = default) =>
        Invoke(() => _channel.QosAsync(prefetchSize, prefetchCount, global, cancellationToken));

    public async Task CloseAsync(ushort replyCode, string replyText, bool abort, CancellationToken cancellationToken = default)
    {
        ThrowIfDisposed();
        _initiator = ShutdownInitiator.Application;
        // As RabbitMQ.Client: the close's token goes with the reason, so shutdown handlers stop waiting when it is cancelled.
        _applicationClose ??= new ShutdownEventArgs(ShutdownInitiator.Application, replyCode, replyText, cancellationToken: cancellationToken);
        if (abort)
        {
            await _channel.CloseAsync(replyCode, replyText, abort: true, cancellationToken).ConfigureAwait(false);
        }
        else
        {
            await Invoke(() => _channel.CloseAsync(replyCode, replyText, abort: false, cancellationToken)).ConfigureAwait(false);
        }

        await EndConsumersAsync().ConfigureAwait(false);
    }

    public Task CloseAsync(ShutdownEventArgs reason, bool abort) => CloseAsync(reason, abort, CancellationToken.None);

    public Task CloseAsync(ShutdownEventArgs reason, bool abort, CancellationToken cancellationToken) =>
        CloseAsync(reason.ReplyCode, reason.ReplyText, abort, cancellationToken);

    public Task ExchangeDeclareAsync(string exchange, string type, bool durable, bool autoDelete, IDictionary<string, object?>? arguments = null,
        bool passive = false, bool noWait = false, CancellationToken cancellationToken = default) =>
        Invoke(() => _channel.ExchangeDeclareAsync(exchange, type, durable, autoDelete, arguments: Mapping.ToFieldTable(arguments), passive: passive, noWait: noWait,
            cancellationToken: cancellationToken));

    public Task ExchangeDeclarePassiveAsync(string exchange, CancellationToken cancellationToken = default) =>
        Invoke(() => _channel.ExchangeDeclareAsync(exchange, "", passive: true, cancellationToken: cancellationToken));

    public Task ExchangeDeleteAsync(string exchange, bool ifUnused = false, bool noWait = false, CancellationToken cancellationToken = default) =>
        Invoke(() => _channel.ExchangeDeleteAsync(exchange, ifUnused, noWait, cancellationToken));

    public Task ExchangeBindAsync(string destination, string source, string routingKey, IDictionary<string, object?>? arguments = null,
        bool noWait = false, CancellationToken cancellationToken = default) =>
        Invoke(() => _channel.ExchangeBindAsync(destination, source, routingKey, Mapping.ToFieldTable(arguments), noWait, cancellationToken));

    public Task ExchangeUnbindAsync(string destination, string source, string routingKey, IDictionary<string, object?>? arguments = null,
        bool noWait = false, CancellationToken cancellationToken = default) =>
        Invoke(() => _channel.ExchangeUnbindAsync(destination, source, routingKey, Mapping.ToFieldTable(arguments), noWait, cancellationToken));

    public async Task<QueueDeclareOk> QueueDeclareAsync(string queue, bool durable, bool exclusive, bool autoDelete, IDictionary<string, object?>? arguments = null,
        bool passive = false, bool noWait = false, CancellationToken cancellationToken = default)
    {
        AmqpQueueInfo info = await Invoke(() => _channel.QueueDeclareAsync(queue, durable, exclusive, autoDelete, Mapping.ToFieldTable(arguments), passive, noWait,
            cancellationToken)).ConfigureAwait(false);
        string name = noWait ? queue : info.Name;
        CurrentQueue = name;
        return new QueueDeclareOk(name, info.MessageCount, info.ConsumerCount);
    }

    public Task<QueueDeclareOk> QueueDeclarePassiveAsync(string queue, CancellationToken cancellationToken = default) =>
        QueueDeclareAsync(queue, durable: false, exclusive: true, autoDelete: true, passive: true, cancellationToken: cancellationToken);

    public Task<uint> QueueDeleteAsync(string queue, bool ifUnused, bool ifEmpty, bool noWait = false, CancellationToken cancellationToken = default) =>
        Invoke(() => _channel.QueueDeleteAsync(queue, ifUnused, ifEmpty, noWait, cancellationToken));

    public Task<uint> QueuePurgeAsync(string queue, CancellationToken cancellationToken = default) =>
        Invoke(() => _channel.QueuePurgeAsync(queue, cancellationToken));

    public Task QueueBindAsync(string queue, string exchange, string routingKey, IDictionary<string, object?>? arguments = null,
        bool noWait = false, CancellationToken cancellationToken = default) =>
        Invoke(() => _channel.QueueBindAsync(queue, exchange, routingKey, Mapping.ToFieldTable(arguments), noWait, cancellationToken));

    public Task QueueUnbindAsync(string queue, string exchange, string routingKey, IDictionary<string, object?>? arguments = null,
        CancellationToken cancellationToken = default) =>
        Invoke(() => _channel.QueueUnbindAsync(queue, exchange, routingKey, Mapping.ToFieldTable(arguments), cancellationToken));

    public async Task<uint> MessageCountAsync(string queue, CancellationToken cancellationToken = default) =>
        (await QueueDeclarePassiveAsync(queue, cancellationToken).ConfigureAwait(false)).MessageCount;

    public async Task<uint> ConsumerCountAsync(string queue, CancellationToken cancellationToken = default) =>
        (await QueueDeclarePassiveAsync(queue, cancellationToken).ConfigureAwait(false)).ConsumerCount;

    public Task TxCommitAsync(CancellationToken cancellationToken = default) => Invoke(() => _channel.TxCommitAsync(cancellationToken));

    public Task TxRollbackAsync(CancellationToken cancellationToken = default) => Invoke(() => _channel.TxRollbackAsync(cancellationToken));

    public Task TxSelectAsync(CancellationToken cancellationToken = default) => Invoke(() => _channel.TxSelectAsync(cancellationToken));

    public void Dispose() => DisposeAsync().AsTask().GetAwaiter().GetResult();

    public async ValueTask DisposeAsync()
    {
        if (Volatile.Read(ref _disposed))
        {
            return;
        }

        try
        {
            if (_channel.IsOpen)
            {
                // RabbitMQ.Client's dispose aborts the channel: its Goodbye.
                _initiator = ShutdownInitiator.Application;
                _applicationClose ??= new ShutdownEventArgs(ShutdownInitiator.Application, 200, "Goodbye");
            }

            await _channel.DisposeAsync().ConfigureAwait(false);
            await EndConsumersAsync().ConfigureAwait(false);
        }
        finally
        {
            // As RabbitMQ.Client's channel: once disposed, its calls throw ObjectDisposedException, not AlreadyClosedException.
            Volatile.Write(ref _disposed, true);
        }
    }

    private void ThrowIfDisposed() => Disposal.ThrowIf(Volatile.Read(ref _disposed), this);

    private void AddHandler<T>(ref AsyncEventHandler<T>? handlers, AsyncEventHandler<T>? value)
        where T : AsyncEventArgs
    {
        ThrowIfDisposed();
        AsyncEvents.Add(ref handlers, value);
    }

    private void RemoveHandler<T>(ref AsyncEventHandler<T>? handlers, AsyncEventHandler<T>? value)
        where T : AsyncEventArgs
    {
        ThrowIfDisposed();
        AsyncEvents.Remove(ref handlers, value);
    }

    // A channel ended by its connection's end reports the connection's shutdown, as RabbitMQ.Client's channels do.
    private ShutdownEventArgs Shutdown(Exception reason) => reason switch
    {
        AmqpConnectionClosedException or AmqpProtocolException => _connection.Shutdown(reason),
        AmqpClosedException { ReplyCode: < 300 } when Volatile.Read(ref _applicationClose) is { } closed => closed,
        _ => Mapping.ToShutdown(reason, _initiator),
    };

    /// <summary>A Spanwire call, its closes reported as RabbitMQ.Client's exceptions.</summary>
    private async Task Invoke(Func<Task> call)
    {
        ThrowIfDisposed();
        bool closedBefore = !_channel.IsOpen;
        try
        {
            await call().ConfigureAwait(false);
        }
        catch (Exception e) when (Mapping.Translate(e, closedBefore, Shutdown) is var translated && translated != e)
        {
            throw translated;
        }
    }

    private async Task<T> Invoke<T>(Func<Task<T>> call)
    {
        ThrowIfDisposed();
        bool closedBefore = !_channel.IsOpen;
        try
        {
            return await call().ConfigureAwait(false);
        }
        catch (Exception e) when (Mapping.Translate(e, closedBefore, Shutdown) is var translated && translated != e)
        {
            throw translated;
        }
    }

    /// <summary>
    /// An ack, nack or reject: queued for the socket at once (the cancellation token has nothing to cancel), a refusal
    /// reported as RabbitMQ.Client's exception whether the channel throws it at once or later.
    /// </summary>
    private ValueTask Settle<TArguments>(TArguments arguments, Func<AmqpChannel, TArguments, ValueTask> settle)
    {
        ThrowIfDisposed();
        bool closedBefore = !_channel.IsOpen;
        try
        {
            ValueTask settled = settle(_channel, arguments);
            return settled.IsCompletedSuccessfully ? default : SettleLater(settled, closedBefore);
        }
        catch (Exception e) when (Mapping.Translate(e, closedBefore, Shutdown) is var translated && translated != e)
        {
            return ValueTask.FromException(translated);
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask SettleLater(ValueTask settle, bool closedBefore)
    {
        try
        {
            await settle.ConfigureAwait(false);
        }
        catch (Exception e) when (Mapping.Translate(e, closedBefore, Shutdown) is var translated && translated != e)
        {
            throw translated;
        }
    }

    /// <summary>The connection was lost and is recovering: the channel and its consumers hear the shutdown, as with RabbitMQ.Client.</summary>
    internal void OnConnectionLost(ShutdownEventArgs reason)
    {
        if (_channel.CloseReason is not null)
        {
            return; // ended before the loss
        }

        AsyncEvents events = _connection.Events;
        CancellationToken stopped = StopDispatch();
        events.Raise(_channelShutdown, this, reason, _shutdownFailed);
        ShutdownEventArgs told = WithToken(reason, stopped);
        foreach (Subscription subscription in _consumers.Values)
        {
            IAsyncBasicConsumer consumer = subscription.Consumer;
            events.Call(() => consumer.HandleChannelShutdownAsync(this, told), e => ConsumerFailed(e, "Shutdown", consumer));
        }
    }

    /// <summary>The connection recovered with this channel: its consumers hear consume-ok again, as with RabbitMQ.Client.</summary>
    internal void OnRecovered()
    {
        if (_channel.CloseReason is not null)
        {
            return;
        }

        Volatile.Write(ref _dispatch, new CancellationTokenSource());
        CancellationToken token = DispatchToken;
        foreach (Subscription subscription in _consumers.Values)
        {
            IAsyncBasicConsumer consumer = subscription.Consumer;
            string tag = subscription.Native.Tag;
            _connection.Events.Call(() => consumer.HandleBasicConsumeOkAsync(tag, token), e => ConsumerFailed(e, "ConsumeOk", consumer));
        }
    }

    private void CallbackFailed(Exception error, string context) =>
        _connection.Events.Raise(_callbackException, this, CallbackExceptionEventArgs.Build(error, context));

    // A consumer's callback that threw: RabbitMQ.Client names the work (Deliver, ConsumeOk, Cancel, CancelOk, Shutdown)
    // and the consumer object in the event's details.
    private void ConsumerFailed(Exception error, string work, object consumer) =>
        _connection.Events.Raise(_callbackException, this, CallbackExceptionEventArgs.Build(error, work, consumer));

    /// <summary>How a consumer ends, told to it as RabbitMQ.Client tells it: cancelled by the broker or by us, or its channel shut down.</summary>
    private async Task WatchAsync(Subscription subscription)
    {
        bool ended = true;
        try
        {
            await subscription.Native.Completion.ConfigureAwait(false);
        }
        catch (Exception)
        {
            ended = false; // its reason is the channel's, reported below
        }

        bool removed = _consumers.TryRemove(new KeyValuePair<string, Subscription>(subscription.Native.Tag, subscription));
        Debug.Assert(removed, "a consumer is added before its watch starts, and only its watch removes it");
        string tag = subscription.Native.Tag;
        string callback = "Cancel";
        try
        {
            if (subscription.Native.IsCancelledByBroker)
            {
                await subscription.Consumer.HandleBasicCancelAsync(tag, DispatchToken).ConfigureAwait(false);
            }
            else if (ended && subscription.CancelledByUs)
            {
                callback = "CancelOk";
                await subscription.Consumer.HandleBasicCancelOkAsync(tag, DispatchToken).ConfigureAwait(false);
            }
            else if (!subscription.CancelledByUs && _channel.CloseReason is { } reason)
            {
                callback = "Shutdown";
                await subscription.Consumer.HandleChannelShutdownAsync(this, WithToken(Shutdown(reason), StopDispatch())).ConfigureAwait(false);
            }
        }
        catch (Exception e)
        {
            ConsumerFailed(e, callback, subscription.Consumer);
        }
    }

    private CancellationToken DispatchToken => Volatile.Read(ref _dispatch).Token;

    /// <summary>
    /// Cancels the consumer callbacks' token, once per shutdown, and returns it. It is cancelled at once; what handlers
    /// continue with runs on the thread pool, never on the caller (the read loop may be the caller), and is awaited
    /// with the events.
    /// </summary>
    private CancellationToken StopDispatch()
    {
        CancellationTokenSource stopping = Volatile.Read(ref _dispatch);
        if (!stopping.IsCancellationRequested)
        {
            Task callbacks = stopping.CancelAsync();
            _connection.Events.Call(() => callbacks, static _ => { });
        }

        return stopping.Token;
    }

    /// <summary>A shutdown reason carrying <paramref name="token"/>, as RabbitMQ.Client hands it to consumers.</summary>
    private static ShutdownEventArgs WithToken(ShutdownEventArgs reason, CancellationToken token) =>
        reason.Exception is { } exception
            ? new ShutdownEventArgs(reason.Initiator, reason.ReplyCode, reason.ReplyText, exception, token)
            : new ShutdownEventArgs(reason.Initiator, reason.ReplyCode, reason.ReplyText, reason.ClassId, reason.MethodId, reason.Cause, token);

    private async Task EndConsumersAsync()
    {
        foreach (Subscription subscription in _consumers.Values)
        {
            await subscription.Watch.ConfigureAwait(false);
        }

        await _connection.Events.DrainAsync().ConfigureAwait(false);
    }

    private sealed class Subscription(AmqpConsumer native, IAsyncBasicConsumer consumer)
    {
        public AmqpConsumer Native { get; } = native;

        public IAsyncBasicConsumer Consumer { get; } = consumer;

        public Task Watch { get; set; } = Task.CompletedTask;

        public bool CancelledByUs { get; set; }
    }
}
