using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>Writes one method frame into the connection's output.</summary>
internal delegate void MethodWriter(IBufferWriter<byte> output, ushort channel);

/// <summary>Turns a synchronous reply into the call's result; runs on the read loop.</summary>
internal delegate T ReplyParser<T>(in AmqpMethodReader reply);

/// <summary>Acts on a synchronous reply that carries no result for the caller; runs on the read loop.</summary>
internal delegate void ReplyHandler(in AmqpMethodReader reply);

/// <summary>
/// One synchronous request at a time on a channel (AMQP allows no more): the caller waits for the slot, writes its
/// method and awaits the reply the read loop matches to it. A caller that stops waiting (cancellation) leaves the
/// slot held until the reply arrives, so a late reply can never be taken for the next request's.
/// </summary>
internal sealed class RpcSlot(TimeSpan timeout)
{
    private readonly SemaphoreSlim _gate = new(1, 1);
    private TimeSpan _timeout = timeout;
    private readonly Lock _lock = new();
    private Pending? _pending;
    private Exception? _closed;

    /// <summary>How long a request waits for its turn and its reply; a change applies to the requests after it.</summary>
    public TimeSpan Timeout
    {
        get => _timeout;
        set => _timeout = value;
    }

    /// <summary>
    /// Sends a method the broker does not answer (a no-wait declare) in its turn: after the reply of any request before
    /// it, so the broker sees requests in the order of the calls.
    /// </summary>
    public async Task SendAsync(FrameOutput output, ushort channel, MethodWriter write, AmqpMethod method, CancellationToken cancellationToken)
    {
        if (!await _gate.WaitAsync(_timeout, cancellationToken).ConfigureAwait(false))
        {
            ThrowTimedOut(method, waitingForSlot: true);
        }

        try
        {
            lock (_lock)
            {
                if (_closed is not null)
                {
                    StoredFailure.Throw(_closed);
                }
            }

            using FrameOutput.Scope scope = output.Begin();
            write(scope.Writer, channel);
        }
        finally
        {
            _gate.Release();
        }
    }

    /// <summary>Sends a request and awaits its reply, all within the continuation timeout (waiting for the slot included).</summary>
    public Task CallAsync(FrameOutput output, ushort channel, MethodWriter write, AmqpMethod reply, AmqpMethod? alternative,
        ReplyHandler? onReply, CancellationToken cancellationToken) =>
        CallAsync<bool>(output, channel, write, reply, alternative, onReply is null ? null : (in AmqpMethodReader r) =>
        {
            onReply(r);
            return true;
        }, cancellationToken);

    /// <summary>Sends a request and awaits its reply, parsed by <paramref name="parse"/> (none: the result is default), all within the continuation timeout.</summary>
    public async Task<T> CallAsync<T>(FrameOutput output, ushort channel, MethodWriter write, AmqpMethod reply, AmqpMethod? alternative,
        ReplyParser<T>? parse, CancellationToken cancellationToken)
    {
        long started = Environment.TickCount64;
        if (!await _gate.WaitAsync(_timeout, cancellationToken).ConfigureAwait(false))
        {
            ThrowTimedOut(reply, waitingForSlot: true);
        }

        var pending = new Pending<T>(reply, alternative, parse);
        lock (_lock)
        {
            if (_closed is not null)
            {
                _gate.Release();
                StoredFailure.Throw(_closed);
            }

            _pending = pending;
        }

        try
        {
            using FrameOutput.Scope scope = output.Begin();
            write(scope.Writer, channel);
        }
        catch
        {
            lock (_lock)
            {
                _pending = null;
            }

            _gate.Release();
            throw;
        }

        TimeSpan left = _timeout == System.Threading.Timeout.InfiniteTimeSpan
            ? _timeout
            : TimeSpan.FromMilliseconds(Math.Max(0, _timeout.TotalMilliseconds - (Environment.TickCount64 - started)));
        try
        {
            return await pending.Result.Task.WaitAsync(left, cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            ThrowTimedOut(reply, waitingForSlot: false);
            throw;
        }
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowTimedOut(AmqpMethod reply, bool waitingForSlot) =>
        throw new TimeoutException(waitingForSlot
            ? $"An earlier request on this channel still waits for its reply, and this one waited {_timeout.TotalSeconds:0.###} s for its turn (AmqpChannel.ContinuationTimeout)."
            : $"No {reply.Name} from the broker within {_timeout.TotalSeconds:0.###} s (AmqpChannel.ContinuationTimeout). The request may still take effect; the channel waits for the late reply before its next request.");

    /// <summary>The pending request if <paramref name="method"/> is a reply it waits for; the slot stays held.</summary>
    public Pending? Match(AmqpMethod method)
    {
        lock (_lock)
        {
            Pending? pending = _pending;
            return pending is not null && (pending.Reply == method || pending.Alternative == method) ? pending : null;
        }
    }

    /// <summary>Completes the matched request with its reply, parsed here on the read loop, and frees the slot.</summary>
    public void Complete(Pending pending, in AmqpMethodReader reply)
    {
        pending.Read(reply);
        Release(pending);
    }

    /// <summary>Completes the matched request with a result assembled from more than its method (basic.get-ok's content).</summary>
    public void Complete<T>(Pending<T> pending, T result)
    {
        pending.Set(result);
        Release(pending);
    }

    private void Release(Pending pending)
    {
        lock (_lock)
        {
            if (_pending != pending)
            {
                return;
            }

            _pending = null;
        }

        _gate.Release();
        pending.Finish();
    }

    /// <summary>Faults the pending request and every later one with <paramref name="reason"/>.</summary>
    public void Fail(Exception reason)
    {
        Pending? pending;
        lock (_lock)
        {
            _closed ??= reason;
            pending = _pending;
            _pending = null;
        }

        if (pending is not null)
        {
            _gate.Release();
            pending.Fail(reason);
        }
    }

    /// <summary>Accepts requests again after <see cref="Fail"/>: the channel was reopened on a recovered connection.</summary>
    public void Reset()
    {
        lock (_lock)
        {
            _closed = null;
        }
    }

    /// <summary>A request waiting for its reply, of any result type.</summary>
    internal abstract class Pending(AmqpMethod reply, AmqpMethod? alternative)
    {
        public AmqpMethod Reply { get; } = reply;

        public AmqpMethod? Alternative { get; } = alternative;

        /// <summary>Parses the reply into the result, on the read loop, before the slot is freed.</summary>
        public abstract void Read(in AmqpMethodReader reply);

        /// <summary>Completes the caller's task with the result.</summary>
        public abstract void Finish();

        public abstract void Fail(Exception reason);
    }

    /// <summary>A request whose reply becomes a <typeparamref name="T"/>, with no boxing on the way.</summary>
    internal sealed class Pending<T>(AmqpMethod reply, AmqpMethod? alternative, ReplyParser<T>? parse) : Pending(reply, alternative)
    {
        private T _result = default!;

        public TaskCompletionSource<T> Result { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void Read(in AmqpMethodReader reply) => _result = parse is null ? default! : parse(reply);

        public void Set(T result) => _result = result;

        public override void Finish() => Result.TrySetResult(_result);

        public override void Fail(Exception reason) => Result.TrySetException(reason);
    }
}
