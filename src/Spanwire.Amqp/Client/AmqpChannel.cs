using System.Buffers;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>
/// One AMQP channel on an <see cref="AmqpConnection"/>: topology, publishing (with publisher confirms), consuming
/// and transactions. Safe to use from several threads; synchronous requests are queued one at a time, as AMQP
/// requires. A channel-level error from the broker (404, 406, ...) faults the call that caused it with an
/// <see cref="AmqpChannelClosedException"/> and closes this channel only.
/// </summary>
public sealed partial class AmqpChannel : IAsyncDisposable
{
    private readonly AmqpConnection _connection;
    private readonly RpcSlot _rpc;
    private Exception? _closeReason;
    private Exception? _suspended; // while the connection recovers
    private Exception? _closing; // once this side has sent channel.close: the broker takes nothing more but close-ok

    // The output of the link the channel is open on, set when the broker's channel.open-ok arrives (on the read loop,
    // before any delivery on that link) and cleared when that link is lost. Acks, nacks and rejects go there: the
    // deliveries of a link can be settled as soon as they arrive, even while recovery still restores the channel.
    private FrameOutput? _settleOutput;
    private int _counted; // 1 while the channel counts in the open-channels gauge
    private Func<Exception, Exception>? _errorTranslator;

    /// <summary>
    /// For a layer that presents the channel under another client's interface: what a publish that fails after it
    /// was sent (nacked, returned, or ended by a close) throws in its place, so that the publish's own task can be
    /// handed out unwrapped.
    /// </summary>
    internal void SetPublishErrorTranslator(Func<Exception, Exception> translate)
    {
        _errorTranslator = translate;
        if (_confirms is { } confirms)
        {
            confirms.Translate = translate;
        }
    }

    internal AmqpChannel(AmqpConnection connection, ushort number)
    {
        _connection = connection;
        Number = number;
        _rpc = new RpcSlot(connection.ContinuationTimeout);
    }

    /// <summary>The connection's current frame output; a recovered connection has a new one.</summary>
    private FrameOutput Output => _connection.Output;

    /// <summary>A channel recovery opens for its own use: not restored itself, and its declarations not recorded.</summary>
    internal bool IsForRecovery { get; init; }

    /// <summary>The channel number.</summary>
    public ushort Number { get; }

    /// <summary>The connection the channel belongs to.</summary>
    public AmqpConnection Connection => _connection;

    /// <summary>Whether the channel is open: false once closed, and while its connection recovers.</summary>
    public bool IsOpen => Volatile.Read(ref _closeReason) is null && Volatile.Read(ref _suspended) is null;

    /// <summary>Why the channel closed, or null while it is open.</summary>
    public Exception? CloseReason => Volatile.Read(ref _closeReason);

    /// <summary>
    /// Raised once when the channel ends, with the reason (an <see cref="AmqpClosedException"/>: the broker's close, the
    /// application's, or the connection's end), after every pending call, confirm and consumer has ended. Raised on the
    /// thread that ended the channel (the connection's reader, or the caller of a close): a handler must not block.
    /// </summary>
    public event EventHandler<Exception>? Closed;

    /// <summary>
    /// How long a request on this channel waits for its turn and its reply before it throws
    /// <see cref="TimeoutException"/>; starts as the connection's <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Set to zero or less, other than <see cref="Timeout.InfiniteTimeSpan"/>.</exception>
    public TimeSpan ContinuationTimeout
    {
        get => _rpc.Timeout;
        set => _rpc.Timeout = value > TimeSpan.Zero || value == Timeout.InfiniteTimeSpan
            ? value
            : throw new ArgumentOutOfRangeException(nameof(value), value, "The continuation timeout must be positive, or Timeout.InfiniteTimeSpan.");
    }

    /// <summary>Closes the channel (channel.close, then waits for close-ok). Closing a closed channel does nothing.</summary>
    /// <param name="cancellationToken">Cancels waiting for the broker's close-ok; the connection is closed either way.</param>
    /// <returns>A task that completes when the channel or connection is closed.</returns>
    /// <exception cref="AmqpClosedException">The channel or connection is closed, or closed before the reply.</exception>
    /// <exception cref="TimeoutException">No reply within <see cref="AmqpConnectionOptions.ContinuationTimeout"/>.</exception>
    public Task CloseAsync(CancellationToken cancellationToken = default) =>
        CloseAsync(AmqpReplyCode.Success, "Goodbye", abort: false, cancellationToken);

    /// <summary>
    /// Closes the channel with a reply code and text of your own; with <paramref name="abort"/>, nothing is thrown
    /// (RabbitMQ.Client's abort): a close-ok that does not come in time, or a connection already gone, still leaves the
    /// channel closed.
    /// </summary>
    /// <param name="replyCode">The reply code sent to the broker (200 for a normal close).</param>
    /// <param name="replyText">The reply text sent to the broker.</param>
    /// <param name="abort">Whether to swallow every failure of the close.</param>
    /// <param name="cancellationToken">Cancels waiting for the broker's close-ok; the channel is closed either way.</param>
    /// <returns>A task that completes when the channel is closed.</returns>
    /// <exception cref="TimeoutException">No close-ok within <see cref="ContinuationTimeout"/> (not with <paramref name="abort"/>).</exception>
    public async Task CloseAsync(ushort replyCode, string replyText, bool abort, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(replyText);
        if (Volatile.Read(ref _closeReason) is not null)
        {
            return;
        }

        if (abort)
        {
            try
            {
                await CloseAsync(replyCode, replyText, abort: false, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception)
            {
                // Aborting: the channel ends whatever the broker or the link does.
                await EndByApplicationAsync().ConfigureAwait(false);
            }

            return;
        }

        if (Volatile.Read(ref _suspended) is not null)
        {
            // Nothing to say to a broker we are not connected to: the channel is simply not restored.
            await EndByApplicationAsync().ConfigureAwait(false);
            return;
        }

        try
        {
            // The channel ends on the read loop as the close-ok arrives, before the request slot is freed: a second
            // close, or any request waiting its turn, is then refused rather than sent on a channel the broker has
            // closed (which the broker answers by closing the connection).
            AmqpChannelClosedException closed = ClosedByApplication();
            await CallAsync(AmqpMethods.ChannelCloseOk, (o, ch) =>
            {
                WriteClose(o, ch, replyCode, replyText);
                Volatile.Write(ref _closing, closed); // under the output lock: no frame follows the close
            }, (in AmqpMethodReader _) => Shutdown(closed), cancellationToken).ConfigureAwait(false);
        }
        catch (AmqpClosedException)
        {
            // Closed by this close-ok, by a close already under way, or from the other side: closed either way.
        }

        await EndByApplicationAsync().ConfigureAwait(false);
    }

    /// <summary>Closes the channel.</summary>
    /// <returns>A task that completes when it is closed.</returns>
    public async ValueTask DisposeAsync()
    {
        if (IsOpen && _connection.IsOpen)
        {
            try
            {
                await CloseAsync().ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is AmqpClosedException or TimeoutException or ObjectDisposedException or IOException)
            {
            }
        }

        await EndByApplicationAsync().ConfigureAwait(false);
    }

    /// <summary>Ends the channel as the application closed it (a normal end for its consumers), and waits for its drain.</summary>
    private async Task EndByApplicationAsync()
    {
        Shutdown(ClosedByApplication());
        await StopDrainAsync().ConfigureAwait(false);
    }

    private AmqpChannelClosedException ClosedByApplication() => new(Number, AmqpReplyCode.Success, "closed by the application");

    internal Task OpenAsync(CancellationToken cancellationToken)
    {
        FrameOutput output = Output;
        return _rpc.CallAsync(output, Number, static (o, ch) =>
        {
            AmqpMethodFrames.WriteChannelOpen(o, ch);
        }, AmqpMethods.ChannelOpenOk, null, (in AmqpMethodReader _) =>
        {
            Volatile.Write(ref _settleOutput, output);
            if (!IsForRecovery && Interlocked.Exchange(ref _counted, 1) == 0)
            {
                AmqpTelemetry.Channels.Add(1);
            }
        }, cancellationToken);
    }

    /// <summary>Ends the channel: every pending call, confirm and consumer faults or ends with <paramref name="reason"/>.</summary>
    internal void Shutdown(Exception reason)
    {
        if (Interlocked.CompareExchange(ref _closeReason, reason, null) is not null)
        {
            return;
        }

        Volatile.Write(ref _settleOutput, null);
        ForgetUnacked();
        if (Interlocked.Exchange(ref _counted, 0) == 1)
        {
            AmqpTelemetry.Channels.Add(-1);
        }

        _rpc.Fail(reason);
        FailParked(reason);
        _drainStop.Cancel(); // after the parked publishes have their reason: the drain's own ending finds none left
        _confirms?.Fail(reason);
        AbandonIncomingContent();
        foreach (AmqpConsumer consumer in TakeAllConsumers())
        {
            consumer.Complete(reason);
        }

        _connection.ForgetChannel(this);
        try
        {
            Closed?.Invoke(this, reason);
        }
        catch (Exception)
        {
            // Event handlers must not break the connection's loops.
        }
    }

    private Task CallAsync(AmqpMethod reply, MethodWriter write, ReplyHandler? onReply, CancellationToken cancellationToken)
    {
        ThrowIfClosed();
        return CallRawAsync(reply, write, onReply, cancellationToken);
    }

    private Task<T> CallAsync<T>(AmqpMethod reply, MethodWriter write, ReplyParser<T>? parse, CancellationToken cancellationToken, AmqpMethod? alternative = null)
    {
        ThrowIfClosed();
        return _rpc.CallAsync(Output, Number, write, reply, alternative, parse, cancellationToken);
    }

    // Without the open check: recovery talks to the broker while the channel is still suspended.
    private Task CallRawAsync(AmqpMethod reply, MethodWriter write, ReplyHandler? onReply, CancellationToken cancellationToken) =>
        _rpc.CallAsync(Output, Number, write, reply, null, onReply, cancellationToken);

    private void ThrowIfClosed()
    {
        if ((Volatile.Read(ref _closeReason) ?? Volatile.Read(ref _suspended)) is { } reason)
        {
            StoredFailure.Throw(reason);
        }
    }

    /// <summary>
    /// Takes the output lock for frames of this channel, then checks the channel is open: a channel is suspended before
    /// its connection's link is replaced and resumed only once reopened on the new one, so a frame never reaches a link
    /// on which the channel is not open.
    /// </summary>
    private FrameOutput.Scope BeginFrames()
    {
        FrameOutput.Scope scope = Output.Begin();
        if ((Volatile.Read(ref _closeReason) ?? Volatile.Read(ref _closing) ?? Volatile.Read(ref _suspended)) is { } reason)
        {
            scope.Dispose();
            StoredFailure.Throw(reason);
        }

        return scope;
    }

    private static void WriteClose(IBufferWriter<byte> output, ushort channel, ushort code, string text)
    {
        AmqpMethodFrames.WriteChannelClose(output, channel, code, AmqpPrimitives.ToShortStringPrefix(text), 0, 0);
    }

    /// <summary>
    /// Writes a reply the read loop owes the broker (flow-ok, cancel-ok); none once this side has sent channel.close,
    /// as the broker then takes nothing on the channel but close-ok.
    /// </summary>
    private void WriteReply(MethodWriter write)
    {
        using FrameOutput.Scope scope = Output.Begin();
        if (Volatile.Read(ref _closing) is not null)
        {
            return;
        }

        if ((Volatile.Read(ref _closeReason) ?? Volatile.Read(ref _suspended)) is { } reason)
        {
            StoredFailure.Throw(reason);
        }

        write(scope.Writer, Number);
    }

    /// <summary>Handles one frame for this channel; runs on the connection's read loop.</summary>
    internal void HandleFrame(in AmqpFrame frame, AmqpFrameReader decoder)
    {
        switch (frame.Type)
        {
            case AmqpFrameType.Method:
                HandleMethod(AmqpMethodReader.Parse(decoder.GetPayloadSpan(frame), frame.PayloadOffset));
                break;
            case AmqpFrameType.ContentHeader:
                HandleContentHeader(AmqpContentHeader.Parse(decoder.GetPayloadSpan(frame), frame.PayloadOffset));
                break;
            case AmqpFrameType.ContentBody:
                HandleContentBody(frame);
                break;
            default:
                throw new AmqpProtocolException(AmqpReplyCode.UnexpectedFrame, frame.Offset, $"a {frame.Type} frame on channel {Number}");
        }
    }

    private void HandleMethod(in AmqpMethodReader method)
    {
        AmqpMethod m = method.Method;
        if (m == AmqpMethods.BasicDeliver)
        {
            BeginDelivery(method);
        }
        else if (m == AmqpMethods.BasicAck || m == AmqpMethods.BasicNack)
        {
            if (_confirms is null)
            {
                throw new AmqpProtocolException(AmqpReplyCode.CommandInvalid, method.Offset, $"{m.Name} on channel {Number}, which is not in confirm mode");
            }

            ulong tag;
            bool multiple;
            if (m == AmqpMethods.BasicAck)
            {
                var ack = new BasicAckArguments(method);
                (tag, multiple) = (ack.DeliveryTag, ack.Multiple);
            }
            else
            {
                var nack = new BasicNackArguments(method);
                (tag, multiple) = (nack.DeliveryTag, nack.Multiple);
            }

            _confirms.Resolve(tag, multiple, m == AmqpMethods.BasicAck);
            RaiseConfirm(m == AmqpMethods.BasicAck ? Acked : Nacked, new AmqpConfirm(tag, multiple));
        }
        else if (m == AmqpMethods.BasicGetOk)
        {
            BeginGetOk(method);
        }
        else if (m == AmqpMethods.BasicReturn)
        {
            BeginReturn(method);
        }
        else if (m == AmqpMethods.BasicCancel)
        {
            HandleBrokerCancel(method);
        }
        else if (m == AmqpMethods.ChannelClose)
        {
            var close = new ChannelCloseArguments(method);
            var reason = new AmqpChannelClosedException(Number, close.ReplyCode, close.ReplyText, close.ClassId, close.MethodId);
            AmqpEventSource.Log.ChannelClosedByBroker(_connection.Endpoint.ToString(), Number, reason.ReplyCode, reason.ReplyText);
            if (Volatile.Read(ref _suspended) is not null)
            {
                // A suspended channel is open on no link but the one recovery reopens it on: recovery asked for
                // something the broker refused (a consumer of a queue gone). That request fails, and recovery opens
                // the channel again for the rest.
                using (FrameOutput.Scope scope = Output.Begin())
                {
                    AmqpMethodFrames.WriteChannelCloseOk(scope.Writer, Number);
                }

                Volatile.Write(ref _settleOutput, null);
                _rpc.Fail(reason);
                return;
            }

            // Close-ok even when this side's own close crossed the broker's (the one method the broker then takes).
            using (FrameOutput.Scope scope = Output.Begin())
            {
                AmqpMethodFrames.WriteChannelCloseOk(scope.Writer, Number);
            }

            Shutdown(reason);
        }
        else if (m == AmqpMethods.ChannelFlow)
        {
            bool active = new ChannelFlowArguments(method).Active;
            WriteReply(active
                ? static (o, ch) => WriteFlowOk(o, ch, true)
                : static (o, ch) => WriteFlowOk(o, ch, false));
        }
        else if (_rpc.Match(m) is { } pending)
        {
            _rpc.Complete(pending, method);
        }
        else
        {
            throw new AmqpProtocolException(AmqpReplyCode.CommandInvalid, method.Offset, $"unexpected {m.Name} on channel {Number}");
        }
    }

    private void RaiseConfirm(EventHandler<AmqpConfirm>? handler, AmqpConfirm confirm)
    {
        try
        {
            handler?.Invoke(this, confirm);
        }
        catch (Exception)
        {
            // A throwing handler must not take the connection's read loop down with it.
        }
    }

    private static void WriteFlowOk(IBufferWriter<byte> output, ushort channel, bool active)
    {
        AmqpMethodFrames.WriteChannelFlowOk(output, channel, active);
    }
}
