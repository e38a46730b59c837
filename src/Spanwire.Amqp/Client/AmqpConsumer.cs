using System.Runtime.CompilerServices;
using System.Text;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>
/// A consumer started with <see cref="AmqpChannel.ConsumeAsync(string, bool, string, bool, Protocol.FieldTable, CancellationToken)"/>.
/// Deliveries are read as an async stream; each delivery (and its pooled body) is released when the next one is
/// read or the loop ends, unless its body was taken. The stream ends when the consumer is cancelled (by the
/// application or by the broker) or its channel is closed by the application; it throws when the channel or
/// connection fails.
/// </summary>
/// <example>
/// <code>
/// AmqpConsumer consumer = await channel.ConsumeAsync("jobs");
/// await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(ct))
/// {
///     Process(delivery.Body.Span);
///     await channel.AckAsync(delivery.DeliveryTag);
/// }
/// </code>
/// </example>
public sealed class AmqpConsumer
{
    private readonly DeliveryQueue _deliveries;
    private readonly TaskCompletionSource _ended = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private Exception? _error;
    private Task? _handlerLoop;

    /// <param name="channel">The channel the consumer is on.</param>
    /// <param name="queue">The queue consumed from.</param>
    /// <param name="dispatcher">Where loops woken by a delivery resume; null: on the reader thread (synchronous continuations).</param>
    internal AmqpConsumer(AmqpChannel channel, string queue, DeliveryDispatcher? dispatcher)
    {
        _deliveries = new DeliveryQueue(dispatcher);
        Channel = channel;
        Queue = queue;
    }

    /// <summary>The channel the consumer is on.</summary>
    public AmqpChannel Channel { get; }

    /// <summary>The queue consumed from (after recovery, the new name of a server-named queue).</summary>
    public string Queue { get; internal set; }

    /// <summary>The consumer tag (the broker's, when none was given).</summary>
    public string Tag { get; private set; } = "";

    /// <summary>Whether the broker cancelled the consumer (queue deleted, node down).</summary>
    public bool IsCancelledByBroker { get; private set; }

    /// <summary>Completes when the consumer has ended; faults with the reason when its channel or connection failed, or its handler threw.</summary>
    public Task Completion => _handlerLoop ?? _ended.Task;

    internal byte[] TagUtf8 { get; private set; } = [];

    /// <summary>The basic.consume arguments, for recovery to register the consumer again as it was.</summary>
    internal (bool AutoAck, bool Exclusive, FieldTable Arguments) Registration { get; set; }

    /// <summary>The deliveries, in order. Read them from one loop at a time.</summary>
    /// <param name="cancellationToken">Ends the enumeration.</param>
    /// <returns>The deliveries, in order.</returns>
    public async IAsyncEnumerable<AmqpDelivery> ReadAllAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        DeliveryQueue.Waiter waiter = _deliveries.CreateWaiter();
        AmqpDelivery? previous = null;
        try
        {
            while (await waiter.WaitToReadAsync(cancellationToken).ConfigureAwait(false))
            {
                while (_deliveries.TryRead(out AmqpDelivery delivery))
                {
                    previous?.Dispose();
                    previous = delivery;
                    StartDeliverSpan(delivery);
                    try
                    {
                        yield return delivery;
                    }
                    finally
                    {
                        delivery.Activity?.Dispose(); // the span covers the delivery's processing, until the next is asked for
                    }
                }
            }
        }
        finally
        {
            previous?.Dispose();
        }

        if (_error is { } error)
        {
            StoredFailure.Throw(error);
        }
    }

    /// <summary>Cancels the consumer (basic.cancel); deliveries already received can still be read.</summary>
    /// <param name="cancellationToken">Cancels waiting for the broker's reply (the request may still take effect).</param>
    /// <returns>A task that completes when the broker has confirmed the cancel.</returns>
    public Task CancelAsync(CancellationToken cancellationToken = default) => Channel.CancelConsumerAsync(this, cancellationToken);

    internal void SetTag(string tag)
    {
        Tag = tag;
        TagUtf8 = Encoding.UTF8.GetBytes(tag);
    }

    internal void StartHandler(Func<AmqpDelivery, CancellationToken, ValueTask> handler, int concurrency, bool stopOnException)
    {
        var workers = new Task[concurrency];
        for (int i = 0; i < workers.Length; i++)
        {
            workers[i] = RunHandlerAsync(handler, stopOnException);
        }

        _handlerLoop = workers.Length == 1 ? workers[0] : Task.WhenAll(workers);
    }

    // One of the consumer's handler loops, owned by it: Completion is these tasks once a handler runs. Several loops
    // take deliveries from the same queue in turn.
    private async Task RunHandlerAsync(Func<AmqpDelivery, CancellationToken, ValueTask> handler, bool stopOnException)
    {
        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding); // never on the caller's thread
        DeliveryQueue.Waiter waiter = _deliveries.CreateWaiter();
        try
        {
            while (await waiter.WaitToReadAsync(CancellationToken.None).ConfigureAwait(false))
            {
                while (_deliveries.TryRead(out AmqpDelivery delivery))
                {
                    await HandleAsync(handler, delivery, stopOnException).ConfigureAwait(false);
                }
            }
        }
        catch (Exception) when (stopOnException && Channel.IsOpen)
        {
            // A failing handler ends its consumer, not the channel.
            try
            {
                await CancelAsync(CancellationToken.None).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is AmqpClosedException or OperationCanceledException or TimeoutException)
            {
            }

            throw;
        }

        if (_error is { } error)
        {
            StoredFailure.Throw(error);
        }
    }

    private async ValueTask HandleAsync(Func<AmqpDelivery, CancellationToken, ValueTask> handler, AmqpDelivery delivery, bool stopOnException)
    {
        System.Diagnostics.Activity? activity = StartDeliverSpan(delivery);
        System.Diagnostics.Activity.Current = activity ?? System.Diagnostics.Activity.Current; // spans the handler starts are its children
        long started = AmqpTelemetry.TimesDeliveries ? System.Diagnostics.Stopwatch.GetTimestamp() : 0;
        bool failed = true;
        try
        {
            await handler(delivery, CancellationToken.None).ConfigureAwait(false);
            failed = false;
        }
        catch (Exception ex) when (!stopOnException)
        {
            activity?.SetStatus(System.Diagnostics.ActivityStatusCode.Error, ex.Message);
            Channel.RaiseCallbackException(ex, this, delivery.DeliveryTag);
        }
        finally
        {
            if (started != 0)
            {
                AmqpTelemetry.RecordDeliveryHandled(Channel.Connection.Endpoint, Queue, started, failed);
            }

            activity?.Dispose();
            delivery.Dispose();
        }
    }

    /// <summary>The deliver span of a delivery handed out, when something listens; kept on the delivery while it is processed.</summary>
    private System.Diagnostics.Activity? StartDeliverSpan(AmqpDelivery delivery) =>
        delivery.Activity = AmqpTelemetry.TracesDeliveries ? AmqpTelemetry.StartDeliver(Channel.Connection.Endpoint, delivery, fetched: false) : null;

    internal void Enqueue(AmqpDelivery delivery)
    {
        if (!_deliveries.TryWrite(delivery))
        {
            delivery.Dispose();
        }
    }

    /// <summary>Ends the stream: normally when <paramref name="error"/> is null or an application close, else with it.</summary>
    internal void Complete(Exception? error, bool byBroker = false)
    {
        IsCancelledByBroker |= byBroker;
        if (error is AmqpClosedException { ReplyCode: Protocol.AmqpReplyCode.Success })
        {
            error = null;
        }

        _error ??= error;
        if (_deliveries.TryComplete())
        {
            if (error is null)
            {
                _ended.TrySetResult();
            }
            else
            {
                _ended.TrySetException(error);
            }
        }
    }
}
