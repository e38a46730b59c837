using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Text;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

public sealed partial class AmqpConnection
{
    private static readonly TimeSpan s_writerFailureGrace = TimeSpan.FromMilliseconds(250);

    private enum HandshakeState
    {
        Start,
        Tune,
        OpenOk,
        Done,
    }

    /// <summary>
    /// Starts the connection's reader thread, which connects, shakes hands (the returned task completes then, or
    /// faults with why not) and reads frames until the connection ends. The socket is only ever used with blocking
    /// calls, by this thread and the writer's: each read is one system call, with no event-loop thread and no
    /// thread-pool work item between the socket and the frames.
    /// </summary>
    private Task StartReader(Link link)
    {
        var opened = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(() => RunReader(link, opened))
        {
            IsBackground = true,
            Name = "Spanwire AMQP reader",
        };
        thread.Start();
        return opened.Task;
    }

    private void RunReader(Link link, TaskCompletionSource opened)
    {
        bool writerStarted = false;
        try
        {
            Stream stream;
            try
            {
                link.Socket.Connect(link.Endpoint.Host, link.Endpoint.Port);
                stream = new NetworkStream(link.Socket, ownsSocket: false); // the connection disposes the socket
                if (_options.Tls is { } tls)
                {
                    stream = AuthenticateTls(link, stream, tls);
                }

                StartWriter(link, stream);
                writerStarted = true;
                Handshake(link, stream);
            }
            catch (Exception ex)
            {
                if (!writerStarted)
                {
                    link.WriterEnded.TrySetResult();
                }

                opened.TrySetException(TlsRefusal(link, ex) ?? ex);
                return;
            }

            opened.TrySetResult();
            ReadFrames(link, stream);
        }
        catch (Exception ex)
        {
            link.ReaderStopped.Set();
            FailAsync(link, ex).GetAwaiter().GetResult(); // this thread has nothing else to do
        }
        finally
        {
            link.ReaderStopped.Set();
            link.Receive.Dispose();
        }
    }

    /// <summary>
    /// TLS over the socket, before any AMQP byte: the server's certificate is checked as <paramref name="tls"/> says
    /// (by default against the machine's trusted roots and <see cref="SslClientAuthenticationOptions.TargetHost"/>).
    /// One read and one write may run at once on an SslStream, which is how the reader and writer threads use it.
    /// </summary>
    private static SslStream AuthenticateTls(Link link, Stream stream, SslClientAuthenticationOptions tls)
    {
        var ssl = new SslStream(stream, leaveInnerStreamOpen: false);
        link.Tls = ssl;
        SslClientAuthenticationOptions options = tls;
        if (string.IsNullOrEmpty(options.TargetHost))
        {
            options = CopyWithTargetHost(tls, link.Endpoint.Host);
        }

        try
        {
            ssl.AuthenticateAsClient(options);
        }
        catch (AuthenticationException ex)
        {
            throw new AuthenticationException($"TLS with {link.Endpoint} failed: {ex.Message} {ex.InnerException?.Message}".TrimEnd(), ex);
        }

        return ssl;
    }

    /// <summary>
    /// With TLS 1.3 the broker checks the client's certificate after the client has finished its side of the TLS
    /// handshake, so a refusal (an unknown CA, an expired certificate) arrives as a TLS alert at the first read:
    /// reported as the authentication failure it is, with the alert, rather than as a failed read.
    /// </summary>
    private static AuthenticationException? TlsRefusal(Link link, Exception error)
    {
        if (link.Tls is null || error is not IOException || error.InnerException is null)
        {
            return null;
        }

        Exception innermost = error;
        while (innermost.InnerException is not null)
        {
            innermost = innermost.InnerException;
        }

        return new AuthenticationException(
            $"The broker at {link.Endpoint} ended the TLS session: {innermost.Message} (is the client certificate one the broker trusts?)", error);
    }

    private static SslClientAuthenticationOptions CopyWithTargetHost(SslClientAuthenticationOptions tls, string host) => new()
    {
        TargetHost = host,
        ClientCertificates = tls.ClientCertificates,
        ClientCertificateContext = tls.ClientCertificateContext,
        LocalCertificateSelectionCallback = tls.LocalCertificateSelectionCallback,
        RemoteCertificateValidationCallback = tls.RemoteCertificateValidationCallback,
        EnabledSslProtocols = tls.EnabledSslProtocols,
        CertificateRevocationCheckMode = tls.CertificateRevocationCheckMode,
        CertificateChainPolicy = tls.CertificateChainPolicy,
        EncryptionPolicy = tls.EncryptionPolicy,
        CipherSuitesPolicy = tls.CipherSuitesPolicy,
        AllowRenegotiation = tls.AllowRenegotiation,
        AllowTlsResume = tls.AllowTlsResume,
        ApplicationProtocols = tls.ApplicationProtocols,
    };

    private void Handshake(Link link, Stream stream)
    {
        link.Decoder.AllowProtocolHeader = true; // a broker that refuses the version answers with its own header
        using (FrameOutput.Scope scope = link.Output.Begin())
        {
            AmqpFrameWriter.WriteProtocolHeader(scope.Writer);
        }

        HandshakeState state = HandshakeState.Start;
        while (state != HandshakeState.Done)
        {
            int count = stream.Read(link.Receive.GetReceiveMemory().Span);
            if (count == 0)
            {
                throw new AmqpConnectionClosedException(0, state == HandshakeState.Start
                    ? "the peer closed the socket before connection.start; is this an AMQP 0-9-1 port?"
                    : "the broker closed the socket during the handshake; check the user, password and vhost");
            }

            link.Receive.Commit(count);
            System.Buffers.ReadOnlySequence<byte> data = link.Receive.Data;
            try
            {
                while (state != HandshakeState.Done && link.Decoder.TryReadFrame(ref data, out AmqpFrame frame))
                {
                    state = HandshakeStep(link, frame, state);
                }
            }
            finally
            {
                link.Receive.AdvanceTo(data.Start);
            }
        }

        link.Decoder.AllowProtocolHeader = false;
        Volatile.Write(ref link.LastReceiveTicks, Environment.TickCount64);
    }

    private HandshakeState HandshakeStep(Link link, in AmqpFrame frame, HandshakeState state)
    {
        if (frame.Type == AmqpFrameType.Heartbeat)
        {
            return state;
        }

        if (frame.Type == AmqpFrameType.ProtocolHeader)
        {
            byte[] version = System.Buffers.BuffersExtensions.ToArray(frame.Payload);
            throw new AmqpConnectionClosedException(0, $"the broker does not speak AMQP 0-9-1 (it offered protocol {string.Join('.', version)})");
        }

        if (frame.Type != AmqpFrameType.Method || frame.Channel != 0)
        {
            throw new AmqpProtocolException(AmqpReplyCode.UnexpectedFrame, frame.Offset, $"a {frame.Type} frame on channel {frame.Channel} during the handshake");
        }

        var method = AmqpMethodReader.Parse(link.Decoder.GetPayloadSpan(frame), frame.PayloadOffset);
        AmqpMethod m = method.Method;
        if (m == AmqpMethods.ConnectionClose)
        {
            throw AcceptBrokerClose(link, method);
        }

        if (state == HandshakeState.Start && m == AmqpMethods.ConnectionStart)
        {
            var start = new ConnectionStartArguments(method);
            if (start.VersionMajor != 0 || start.VersionMinor != 9)
            {
                throw new AmqpConnectionClosedException(0, $"the broker speaks AMQP {start.VersionMajor}-{start.VersionMinor}, not 0-9-1");
            }

            string mechanism = _options.AuthMechanism == AmqpAuthMechanism.External ? "EXTERNAL" : "PLAIN";
            string offered = start.Mechanisms;
            if (!offered.Split(' ').Contains(mechanism))
            {
                throw new AmqpConnectionClosedException(0, $"the broker does not offer {mechanism} authentication (it offers: {offered})"
                    + (mechanism == "EXTERNAL" ? "; RabbitMQ offers it with the rabbitmq_auth_mechanism_ssl plugin on a TLS listener" : ""));
            }

            ServerProperties = FieldTableConversion.ToDictionary(start.ServerProperties);
            WriteStartOk(link);
            return HandshakeState.Tune;
        }

        if (state == HandshakeState.Tune && m == AmqpMethods.ConnectionSecure)
        {
            byte[] response = _options.AuthMechanism == AmqpAuthMechanism.External ? [] : PlainResponse(link);
            using FrameOutput.Scope scope = link.Output.Begin();
            AmqpMethodFrames.WriteConnectionSecureOk(scope.Writer, 0, response);
            return state;
        }

        if (state == HandshakeState.Tune && m == AmqpMethods.ConnectionTune)
        {
            var tune = new ConnectionTuneArguments(method);
            ChannelMax = Negotiate(_options.ChannelMax, tune.ChannelMax);
            FrameMax = Negotiate(_options.FrameMax, tune.FrameMax);
            Heartbeat = Negotiate(_options.Heartbeat, tune.Heartbeat);
            if (FrameMax != 0 && FrameMax < AmqpFraming.MinFrameMax)
            {
                throw new AmqpConnectionClosedException(0, $"the negotiated frame_max {FrameMax} is below the protocol minimum {AmqpFraming.MinFrameMax}");
            }

            using (FrameOutput.Scope scope = link.Output.Begin())
            {
                AmqpMethodFrames.WriteConnectionTuneOk(scope.Writer, 0, ChannelMax, FrameMax, Heartbeat);
                AmqpMethodFrames.WriteConnectionOpen(scope.Writer, 0, _options.VirtualHost);
            }

            link.Decoder.FrameMax = AcceptedFrameMax(FrameMax, _options.MaxInboundFramePayload);
            return HandshakeState.OpenOk;
        }

        if (state == HandshakeState.OpenOk && m == AmqpMethods.ConnectionOpenOk)
        {
            return HandshakeState.Done;
        }

        throw new AmqpProtocolException(AmqpReplyCode.CommandInvalid, method.Offset, $"unexpected {m.Name} during the handshake");
    }

    /// <summary>Answers the broker's connection.close with close-ok and returns the exception that ends the connection.</summary>
    private static AmqpConnectionClosedException AcceptBrokerClose(Link link, in AmqpMethodReader close)
    {
        var arguments = new ConnectionCloseArguments(close);
        var reason = new AmqpConnectionClosedException(arguments.ReplyCode, arguments.ReplyText, arguments.ClassId, arguments.MethodId);

        // Kept before close-ok goes out: a broker that is shutting down drops the socket at once, and the writer's
        // failure on it must not replace the reason the broker gave.
        Volatile.Write(ref link.BrokerClose, reason);
        using (FrameOutput.Scope scope = link.Output.Begin())
        {
            AmqpMethodFrames.WriteConnectionCloseOk(scope.Writer, 0);
        }

        return reason;
    }

    private static ushort Negotiate(ushort client, ushort server) => client == 0 ? server : server == 0 ? client : Math.Min(client, server);

    // The largest frame read from the broker: the negotiated frame_max, lowered by the application's payload limit.
    private static uint AcceptedFrameMax(uint frameMax, uint maxPayload)
    {
        if (maxPayload == 0 || maxPayload > uint.MaxValue - AmqpFraming.FrameOverhead)
        {
            return frameMax;
        }

        uint limit = maxPayload + AmqpFraming.FrameOverhead;
        return frameMax == 0 ? limit : Math.Min(frameMax, limit);
    }

    private static uint Negotiate(uint client, uint server) => client == 0 ? server : server == 0 ? client : Math.Min(client, server);

    private static byte[] PlainResponse(Link link) =>
        link.Credentials is { } credentials ? Encoding.UTF8.GetBytes($"\0{credentials.UserName}\0{credentials.Password}") : [];

    /// <summary>
    /// What this client says of itself in connection.start-ok before the application's own properties are added:
    /// product, version, platform and the capabilities it implements. A new dictionary each time.
    /// </summary>
    internal static Dictionary<string, object?> DefaultClientProperties() => new()
    {
        ["product"] = "Spanwire.Amqp",
        ["version"] = ClientVersion,
        ["platform"] = ".NET",
        ["capabilities"] = new Dictionary<string, object?>
        {
            ["publisher_confirms"] = true,
            ["exchange_exchange_bindings"] = true,
            ["basic.nack"] = true,
            ["consumer_cancel_notify"] = true,
            ["connection.blocked"] = true,
            ["authentication_failure_close"] = true,
        },
    };

    /// <summary>The client properties the last connection.start-ok sent (empty before the first).</summary>
    internal IReadOnlyDictionary<string, object?> SentClientProperties => Volatile.Read(ref _sentClientProperties);

    private void WriteStartOk(Link link)
    {
        Dictionary<string, object?> properties = DefaultClientProperties();
        if (_options.ClientName is { } name)
        {
            properties["connection_name"] = name;
        }

        foreach ((string key, object? value) in _options.ClientProperties)
        {
            if (key != "capabilities") // what this client implements is not the application's to say
            {
                properties[key] = value;
            }
        }

        Volatile.Write(ref _sentClientProperties, properties);
        var table = FieldTable.FromDictionary(properties);
        bool external = _options.AuthMechanism == AmqpAuthMechanism.External;
        byte[] response = external ? [] : PlainResponse(link); // EXTERNAL: the broker takes the identity from the client certificate
        using FrameOutput.Scope scope = link.Output.Begin();
        AmqpMethodFrames.WriteConnectionStartOk(scope.Writer, 0, table, external ? "EXTERNAL" : "PLAIN", response, "en_US");
    }

    private void StartWriter(Link link, Stream stream)
    {
        var thread = new Thread(() =>
        {
            Exception error = link.Output.Run(stream);
            link.WriterEnded.TrySetResult(); // the loop no longer touches the batches: they may go back to the pool
            if (!link.HasEnded)
            {
                // A write fails on a socket the broker has just closed, often before the reader has seen the
                // connection.close that says why: give the reader a moment to read what has already arrived.
                link.ReaderStopped.Wait(s_writerFailureGrace);
                FailAsync(link, error).GetAwaiter().GetResult(); // this thread has nothing else to do
            }
        })
        {
            IsBackground = true,
            Name = "Spanwire AMQP writer",
        };
        thread.Start();
    }

    private void ReadFrames(Link link, Stream stream)
    {
        while (true)
        {
            System.Buffers.ReadOnlySequence<byte> data = link.Receive.Data;
            link.Output.BeginDeferral(); // what is written here, or by code resuming here, goes out once per read
            try
            {
                // A link that has ended (lost, its channels suspended) dispatches nothing more: channels belong to
                // its successor from then on.
                while (!link.HasEnded && link.Decoder.TryReadFrame(ref data, out AmqpFrame frame))
                {
                    Dispatch(link, frame);
                }
            }
            finally
            {
                link.Output.EndDeferral();
                link.Receive.AdvanceTo(data.Start);
            }

            int count = stream.Read(link.Receive.GetReceiveMemory().Span);
            if (count == 0)
            {
                throw new AmqpConnectionClosedException(0, "the broker closed the socket");
            }

            link.Receive.Commit(count);
            Volatile.Write(ref link.LastReceiveTicks, Environment.TickCount64);
            AmqpTelemetry.Bytes.Add(count, AmqpTelemetry.Receive);
        }
    }

    private void Dispatch(Link link, in AmqpFrame frame)
    {
        if (frame.Channel != 0)
        {
            AmqpChannel? channel;
            lock (_channelsLock)
            {
                channel = frame.Channel < _channels.Length ? _channels[frame.Channel] : null;
            }

            if (channel is null)
            {
                throw new AmqpProtocolException(AmqpReplyCode.ChannelError, frame.Offset, $"a {frame.Type} frame for channel {frame.Channel}, which is not open");
            }

            channel.HandleFrame(frame, link.Decoder);
            return;
        }

        if (frame.Type == AmqpFrameType.Heartbeat)
        {
            return;
        }

        if (frame.Type != AmqpFrameType.Method)
        {
            throw new AmqpProtocolException(AmqpReplyCode.UnexpectedFrame, frame.Offset, $"a {frame.Type} frame on channel 0");
        }

        var method = AmqpMethodReader.Parse(link.Decoder.GetPayloadSpan(frame), frame.PayloadOffset);
        AmqpMethod m = method.Method;
        if (m == AmqpMethods.ConnectionClose)
        {
            throw AcceptBrokerClose(link, method);
        }

        if (m == AmqpMethods.ConnectionBlocked)
        {
            IsBlocked = true;
            string why = new ConnectionBlockedArguments(method).Reason;
            Raise(() => Blocked?.Invoke(this, why));
        }
        else if (m == AmqpMethods.ConnectionUnblocked)
        {
            IsBlocked = false;
            Raise(() => Unblocked?.Invoke(this, EventArgs.Empty));
        }
        else if (link.Rpc.Match(m) is { } pending)
        {
            link.Rpc.Complete(pending, method);
        }
        else
        {
            throw new AmqpProtocolException(AmqpReplyCode.CommandInvalid, method.Offset, $"unexpected {m.Name} on channel 0");
        }
    }

    private async Task RunHeartbeatsAsync(Link link)
    {
        if (Heartbeat == 0)
        {
            return;
        }

        long interval = Heartbeat * 1000L;
        try
        {
            using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(Math.Max(100, interval / 4)));
            while (await timer.WaitForNextTickAsync(link.Stop.Token).ConfigureAwait(false))
            {
                long now = Environment.TickCount64;
                if (now - Volatile.Read(ref link.LastReceiveTicks) > 2 * interval)
                {
                    await FailAsync(link, new AmqpConnectionClosedException(0,
                        $"no frame from the broker for two heartbeat intervals ({2 * Heartbeat} s); the peer is considered dead")).ConfigureAwait(false);
                    return;
                }

                if (now - link.Output.LastWriteTicks >= interval / 2)
                {
                    using FrameOutput.Scope scope = link.Output.Begin();
                    AmqpFrameWriter.WriteHeartbeat(scope.Writer);
                }
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or AmqpClosedException or AmqpProtocolException or ObjectDisposedException)
        {
            // The connection ended.
        }
    }

    /// <summary>
    /// Ends <paramref name="link"/> because of <paramref name="error"/> (a protocol fault is reported to the broker with
    /// connection.close first). Then, if the link was the connection's, the connection recovers on a new link when
    /// <see cref="AmqpConnectionOptions.AutomaticRecovery"/> allows, or closes for good.
    /// </summary>
    private async Task FailAsync(Link link, Exception error)
    {
        if (link.HasEnded)
        {
            return;
        }

        Exception reason = Volatile.Read(ref link.BrokerClose) ?? AmqpConnectionClosedException.ForFailure(error);
        try
        {
            if (error is AmqpProtocolException protocol)
            {
                using (FrameOutput.Scope scope = link.Output.Begin())
                {
                    WriteConnectionClose(scope.Writer, protocol.ReplyCode, $"{AmqpReplyCode.GetName(protocol.ReplyCode)}: {protocol.Detail}", 0, 0);
                }
            }

            if (reason is AmqpProtocolException or AmqpConnectionClosedException { ReplyCode: not 0 })
            {
                // Let the close or close-ok reach the broker before the socket goes.
                using var flush = new CancellationTokenSource(TimeSpan.FromSeconds(1));
                await link.Output.WaitForRoomAsync(0, flush.Token).ConfigureAwait(false);
            }
        }
        catch (Exception)
        {
            // Best effort: the link is going away regardless.
        }

        if (EndLink(link, reason))
        {
            OnLinkEnded(link, reason);
            await ReleaseLinkAsync(link).ConfigureAwait(false);
        }
    }

    /// <summary>
    /// A lost connection recovers, as RabbitMQ.Client's does, unless the broker said the client did something wrong
    /// (a protocol error it reported, or one of ours): then trying again would fail again.
    /// </summary>
    private static bool ShouldRecover(Exception reason) => reason switch
    {
        AmqpProtocolException => false,
        AmqpConnectionClosedException
        {
            ReplyCode: AmqpReplyCode.FrameError or AmqpReplyCode.SyntaxError or AmqpReplyCode.CommandInvalid
            or AmqpReplyCode.ChannelError or AmqpReplyCode.UnexpectedFrame or AmqpReplyCode.NotAllowed or AmqpReplyCode.NotImplemented
        } => false,
        _ => true,
    };

    /// <summary>
    /// Stops a link for good: its loops end and its pending connection-level requests and writers fail with
    /// <paramref name="reason"/>. True for the first caller only: the first failure of a link decides why it ended.
    /// </summary>
    private static bool EndLink(Link link, Exception reason)
    {
        if (!link.TryEnd())
        {
            return false;
        }

        link.Stop.Cancel();
        link.Output.Fail(reason);
        link.Rpc.Fail(reason);

        // Disposing the socket also ends a connect or read blocked on it.
        link.Socket.Dispose();
        return true;
    }

    /// <summary>Gives an ended link's buffers back to the pool once its writer has stopped.</summary>
    private static async Task ReleaseLinkAsync(Link link)
    {
        try
        {
            await link.WriterEnded.Task.WaitAsync(TimeSpan.FromSeconds(5)).ConfigureAwait(false);
            if (link.TryRelease())
            {
                link.Output.Release();
                link.Tls?.Dispose();
            }
        }
        catch (TimeoutException)
        {
            // A writer blocked in a send on a dead peer: its buffers stay with it.
        }
    }

    /// <summary>Closes the connection for good with <paramref name="reason"/>: every channel, consumer and pending call ends.</summary>
    private void Terminate(Link? link, Exception reason)
    {
        ConnectionState before;
        lock (_stateLock)
        {
            before = _status.State;
            if (!Transition(ConnectionState.Closed, reason))
            {
                return;
            }
        }

        if (before != ConnectionState.Connecting)
        {
            AmqpTelemetry.Connections.Add(-1);
            AmqpEventSource.Log.ConnectionClosed(Volatile.Read(ref _link).Endpoint.ToString(), reason.Message);
        }

        _recoveryStop.Cancel();
        foreach (AmqpChannel channel in AllChannels())
        {
            channel.Shutdown(reason);
        }

        if (link is not null)
        {
            EndLink(link, reason);
        }

        Dispatcher?.Stop(); // after every consumer has ended: their loops' last wakes are posted
        _closed.TrySetResult(reason);
        Raise(() => Closed?.Invoke(this, reason));
    }

    private static void Raise(Action raise)
    {
        try
        {
            raise();
        }
        catch (Exception)
        {
            // Event handlers must not break the connection's loops.
        }
    }
}
