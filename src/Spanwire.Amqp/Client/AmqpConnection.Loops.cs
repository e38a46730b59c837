using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Text;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

public sealed partial class AmqpConnection
{
    private static readonly TimeSpan WriterFailureGrace = TimeSpan.FromMilliseconds(250);
    private readonly CancellationTokenSource _stop = new();

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
    private Task StartReader()
    {
        var opened = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(() => RunReader(opened))
        {
            IsBackground = true,
            Name = "Spanwire AMQP reader",
        };
        thread.Start();
        return opened.Task;
    }

    private void RunReader(TaskCompletionSource opened)
    {
        bool writerStarted = false;
        try
        {
            Stream stream;
            try
            {
                _socket.Connect(_options.Host, _options.Port);
                stream = new NetworkStream(_socket, ownsSocket: false); // the connection disposes the socket
                if (_options.Tls is { } tls)
                {
                    stream = AuthenticateTls(stream, tls);
                }

                StartWriter(stream);
                writerStarted = true;
                Handshake(stream);
            }
            catch (Exception ex)
            {
                if (!writerStarted)
                {
                    _writerEnded.TrySetResult();
                }

                opened.TrySetException(TlsRefusal(ex) ?? ex);
                return;
            }

            opened.TrySetResult();
            ReadFrames(stream);
        }
        catch (Exception ex)
        {
            _readerStopped.Set();
            FailAsync(ex).GetAwaiter().GetResult(); // this thread has nothing else to do
        }
        finally
        {
            _readerStopped.Set();
            _receive.Dispose();
        }
    }

    /// <summary>
    /// TLS over the socket, before any AMQP byte: the server's certificate is checked as <paramref name="tls"/> says
    /// (by default against the machine's trusted roots and <see cref="SslClientAuthenticationOptions.TargetHost"/>).
    /// One read and one write may run at once on an SslStream, which is how the reader and writer threads use it.
    /// </summary>
    private SslStream AuthenticateTls(Stream stream, SslClientAuthenticationOptions tls)
    {
        var ssl = new SslStream(stream, leaveInnerStreamOpen: false);
        _tlsStream = ssl;
        SslClientAuthenticationOptions options = tls;
        if (string.IsNullOrEmpty(options.TargetHost))
        {
            options = CopyWithTargetHost(tls, _options.Host);
        }

        try
        {
            ssl.AuthenticateAsClient(options);
        }
        catch (AuthenticationException ex)
        {
            throw new AuthenticationException($"TLS with {_options.Host}:{_options.Port} failed: {ex.Message} {ex.InnerException?.Message}".TrimEnd(), ex);
        }

        return ssl;
    }

    /// <summary>
    /// With TLS 1.3 the broker checks the client's certificate after the client has finished its side of the TLS
    /// handshake, so a refusal (an unknown CA, an expired certificate) arrives as a TLS alert at the first read:
    /// reported as the authentication failure it is, with the alert, rather than as a failed read.
    /// </summary>
    private AuthenticationException? TlsRefusal(Exception error)
    {
        if (_tlsStream is null || error is not IOException || error.InnerException is null)
        {
            return null;
        }

        Exception innermost = error;
        while (innermost.InnerException is not null)
        {
            innermost = innermost.InnerException;
        }

        return new AuthenticationException(
            $"The broker at {_options.Host}:{_options.Port} ended the TLS session: {innermost.Message} (is the client certificate one the broker trusts?)", error);
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

    private void Handshake(Stream stream)
    {
        _decoder.AllowProtocolHeader = true; // a broker that refuses the version answers with its own header
        using (FrameOutput.Scope scope = _output.Begin())
        {
            AmqpFrameWriter.WriteProtocolHeader(scope.Writer);
        }

        HandshakeState state = HandshakeState.Start;
        while (state != HandshakeState.Done)
        {
            int count = stream.Read(_receive.GetReceiveMemory().Span);
            if (count == 0)
            {
                throw new AmqpConnectionClosedException(0, state == HandshakeState.Start
                    ? "the peer closed the socket before connection.start; is this an AMQP 0-9-1 port?"
                    : "the broker closed the socket during the handshake; check the user, password and vhost");
            }

            _receive.Commit(count);
            System.Buffers.ReadOnlySequence<byte> data = _receive.Data;
            try
            {
                while (state != HandshakeState.Done && _decoder.TryReadFrame(ref data, out AmqpFrame frame))
                {
                    state = HandshakeStep(frame, state);
                }
            }
            finally
            {
                _receive.AdvanceTo(data.Start);
            }
        }

        _decoder.AllowProtocolHeader = false;
        Volatile.Write(ref _lastReceiveTicks, Environment.TickCount64);
    }

    private HandshakeState HandshakeStep(in AmqpFrame frame, HandshakeState state)
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

        var method = AmqpMethodView.Parse(_decoder.GetPayloadSpan(frame), frame.PayloadOffset);
        AmqpMethod m = method.Method;
        if (m == AmqpMethods.ConnectionClose)
        {
            throw AcceptBrokerClose(method);
        }

        if (state == HandshakeState.Start && m == AmqpMethods.ConnectionStart)
        {
            if (method.GetOctet(0) != 0 || method.GetOctet(1) != 9)
            {
                throw new AmqpConnectionClosedException(0, $"the broker speaks AMQP {method.GetOctet(0)}-{method.GetOctet(1)}, not 0-9-1");
            }

            string mechanism = _options.AuthMechanism == AmqpAuthMechanism.External ? "EXTERNAL" : "PLAIN";
            if (!Encoding.UTF8.GetString(method.GetLongString(3)).Split(' ').Contains(mechanism))
            {
                throw new AmqpConnectionClosedException(0, $"the broker does not offer {mechanism} authentication (it offers: {method.GetString(3)})"
                    + (mechanism == "EXTERNAL" ? "; RabbitMQ offers it with the rabbitmq_auth_mechanism_ssl plugin on a TLS listener" : ""));
            }

            ServerProperties = FieldTableConversion.ToDictionary(method.GetTable(2));
            WriteStartOk();
            return HandshakeState.Tune;
        }

        if (state == HandshakeState.Tune && m == AmqpMethods.ConnectionSecure)
        {
            byte[] response = _options.AuthMechanism == AmqpAuthMechanism.External ? [] : PlainResponse();
            WriteMethod(AmqpMethods.ConnectionSecureOk, 4 + response.Length, (ref AmqpMethodEncoder a) => a.WriteLongString(response));
            return state;
        }

        if (state == HandshakeState.Tune && m == AmqpMethods.ConnectionTune)
        {
            ChannelMax = Negotiate(_options.ChannelMax, method.GetShort(0));
            FrameMax = Negotiate(_options.FrameMax, method.GetLong(1));
            Heartbeat = Negotiate(_options.Heartbeat, method.GetShort(2));
            if (FrameMax != 0 && FrameMax < AmqpFraming.MinFrameMax)
            {
                throw new AmqpConnectionClosedException(0, $"the negotiated frame_max {FrameMax} is below the protocol minimum {AmqpFraming.MinFrameMax}");
            }

            WriteMethod(AmqpMethods.ConnectionTuneOk, 8, (ref AmqpMethodEncoder a) =>
            {
                a.WriteShort(ChannelMax);
                a.WriteLong(FrameMax);
                a.WriteShort(Heartbeat);
            });
            _decoder.FrameMax = FrameMax;
            string vhost = _options.VirtualHost;
            WriteMethod(AmqpMethods.ConnectionOpen, 256 + 2, (ref AmqpMethodEncoder a) =>
            {
                a.WriteShortString(vhost);
                a.WriteShortString(""u8);
                a.WriteBit(false);
            });
            return HandshakeState.OpenOk;
        }

        if (state == HandshakeState.OpenOk && m == AmqpMethods.ConnectionOpenOk)
        {
            return HandshakeState.Done;
        }

        throw new AmqpProtocolException(AmqpReplyCode.CommandInvalid, method.Offset, $"unexpected {m.Name} during the handshake");
    }

    /// <summary>Answers the broker's connection.close with close-ok and returns the exception that ends the connection.</summary>
    private AmqpConnectionClosedException AcceptBrokerClose(in AmqpMethodView close)
    {
        var reason = new AmqpConnectionClosedException(close.GetShort(0), close.GetString(1), close.GetShort(2), close.GetShort(3));

        // Kept before close-ok goes out: a broker that is shutting down drops the socket at once, and the writer's
        // failure on it must not replace the reason the broker gave.
        Volatile.Write(ref _brokerClose, reason);
        using (FrameOutput.Scope scope = _output.Begin())
        {
            AmqpFrameWriter.BeginMethod(scope.Writer, 0, AmqpMethods.ConnectionCloseOk, 0).Complete();
        }

        return reason;
    }

    private static ushort Negotiate(ushort client, ushort server) => client == 0 ? server : server == 0 ? client : Math.Min(client, server);

    private static uint Negotiate(uint client, uint server) => client == 0 ? server : server == 0 ? client : Math.Min(client, server);

    private byte[] PlainResponse() => Encoding.UTF8.GetBytes($"\0{_options.UserName}\0{_options.Password}");

    private void WriteStartOk()
    {
        var capabilities = new Dictionary<string, object?>
        {
            ["publisher_confirms"] = true,
            ["exchange_exchange_bindings"] = true,
            ["basic.nack"] = true,
            ["consumer_cancel_notify"] = true,
            ["connection.blocked"] = true,
            ["authentication_failure_close"] = true,
        };
        var properties = new Dictionary<string, object?>
        {
            ["product"] = "Spanwire.Amqp",
            ["version"] = ClientVersion,
            ["platform"] = ".NET",
            ["capabilities"] = capabilities,
        };
        if (_options.ClientName is { } name)
        {
            properties["connection_name"] = name;
        }

        var table = FieldTable.FromDictionary(properties);
        bool external = _options.AuthMechanism == AmqpAuthMechanism.External;
        byte[] response = external ? [] : PlainResponse(); // EXTERNAL: the broker takes the identity from the client certificate
        WriteMethod(AmqpMethods.ConnectionStartOk, table.EncodedLength + 9 + 4 + response.Length + 6, (ref AmqpMethodEncoder a) =>
        {
            a.WriteTable(table);
            a.WriteShortString(external ? "EXTERNAL"u8 : "PLAIN"u8);
            a.WriteLongString(response);
            a.WriteShortString("en_US"u8);
        });
    }

    private delegate void ArgumentsWriter(ref AmqpMethodEncoder arguments);

    private void WriteMethod(AmqpMethod method, int maxArgumentsSize, ArgumentsWriter write)
    {
        using FrameOutput.Scope scope = _output.Begin();
        AmqpMethodFrame frame = AmqpFrameWriter.BeginMethod(scope.Writer, 0, method, maxArgumentsSize);
        write(ref frame.Arguments);
        frame.Complete();
    }

    private void StartWriter(Stream stream)
    {
        var thread = new Thread(() =>
        {
            Exception error = _output.Run(stream);
            if (IsOpen)
            {
                // A write fails on a socket the broker has just closed, often before the reader has seen the
                // connection.close that says why: give the reader a moment to read what has already arrived.
                _readerStopped.Wait(WriterFailureGrace);
                _ = FailAsync(error);
            }

            _writerEnded.TrySetResult();
        })
        {
            IsBackground = true,
            Name = "Spanwire AMQP writer",
        };
        thread.Start();
    }

    private void ReadFrames(Stream stream)
    {
        while (true)
        {
            System.Buffers.ReadOnlySequence<byte> data = _receive.Data;
            _output.BeginDeferral(); // what is written here, or by code resuming here, goes out once per read
            try
            {
                while (_decoder.TryReadFrame(ref data, out AmqpFrame frame))
                {
                    Dispatch(frame);
                }
            }
            finally
            {
                _output.EndDeferral();
                _receive.AdvanceTo(data.Start);
            }

            int count = stream.Read(_receive.GetReceiveMemory().Span);
            if (count == 0)
            {
                throw new AmqpConnectionClosedException(0, "the broker closed the socket");
            }

            _receive.Commit(count);
            Volatile.Write(ref _lastReceiveTicks, Environment.TickCount64);
        }
    }

    private void Dispatch(in AmqpFrame frame)
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

            channel.HandleFrame(frame, _decoder);
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

        var method = AmqpMethodView.Parse(_decoder.GetPayloadSpan(frame), frame.PayloadOffset);
        AmqpMethod m = method.Method;
        if (m == AmqpMethods.ConnectionClose)
        {
            throw AcceptBrokerClose(method);
        }

        if (m == AmqpMethods.ConnectionBlocked)
        {
            IsBlocked = true;
            string why = method.GetString(0);
            Raise(() => Blocked?.Invoke(this, why));
        }
        else if (m == AmqpMethods.ConnectionUnblocked)
        {
            IsBlocked = false;
            Raise(() => Unblocked?.Invoke(this, EventArgs.Empty));
        }
        else if (_rpc.Match(m) is { } pending)
        {
            _rpc.Complete(pending, null);
        }
        else
        {
            throw new AmqpProtocolException(AmqpReplyCode.CommandInvalid, method.Offset, $"unexpected {m.Name} on channel 0");
        }
    }

    private async Task RunHeartbeatsAsync()
    {
        if (Heartbeat == 0)
        {
            return;
        }

        long interval = Heartbeat * 1000L;
        try
        {
            using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(Math.Max(100, interval / 4)));
            while (await timer.WaitForNextTickAsync(_stop.Token).ConfigureAwait(false))
            {
                long now = Environment.TickCount64;
                if (now - Volatile.Read(ref _lastReceiveTicks) > 2 * interval)
                {
                    await FailAsync(new AmqpConnectionClosedException(0,
                        $"no frame from the broker for two heartbeat intervals ({2 * Heartbeat} s); the peer is considered dead")).ConfigureAwait(false);
                    return;
                }

                if (now - _output.LastWriteTicks >= interval / 2)
                {
                    using FrameOutput.Scope scope = _output.Begin();
                    AmqpFrameWriter.WriteHeartbeat(scope.Writer);
                }
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or AmqpClosedException or AmqpProtocolException or ObjectDisposedException)
        {
            // The connection ended.
        }
    }

    /// <summary>Ends the connection because of <paramref name="error"/>: a protocol fault is reported to the broker with connection.close first.</summary>
    private async Task FailAsync(Exception error)
    {
        if (!IsOpen)
        {
            return;
        }

        Exception reason = Volatile.Read(ref _brokerClose) ?? AmqpConnectionClosedException.ForFailure(error);
        try
        {
            if (error is AmqpProtocolException protocol)
            {
                using (FrameOutput.Scope scope = _output.Begin())
                {
                    WriteConnectionClose(scope.Writer, protocol.ReplyCode, $"{AmqpReplyCode.GetName(protocol.ReplyCode)}: {protocol.Detail}", 0, 0);
                }
            }

            if (reason is AmqpProtocolException or AmqpConnectionClosedException { ReplyCode: not 0 })
            {
                // Let the close or close-ok reach the broker before the socket goes.
                using var flush = new CancellationTokenSource(TimeSpan.FromSeconds(1));
                await _output.WaitForRoomAsync(0, flush.Token).ConfigureAwait(false);
            }
        }
        catch (Exception)
        {
            // Best effort: the connection is going away regardless.
        }

        await TerminateAsync(reason).ConfigureAwait(false);
    }

    private async Task TerminateAsync(Exception reason)
    {
        if (Interlocked.CompareExchange(ref _closeReason, reason, null) is not null)
        {
            return;
        }

        _stop.Cancel();
        _output.Fail(reason);
        _rpc.Fail(reason);
        AmqpChannel?[] channels;
        lock (_channelsLock)
        {
            channels = [.. _channels];
        }

        foreach (AmqpChannel? channel in channels)
        {
            channel?.Shutdown(reason);
        }

        // Disposing the socket also ends a connect or read blocked on it.
        _socket.Dispose();
        _closed.TrySetResult(reason);
        Raise(() => Closed?.Invoke(this, reason));
        try
        {
            await _writerEnded.Task.WaitAsync(TimeSpan.FromSeconds(5)).ConfigureAwait(false);
            _output.Release();
            _tlsStream?.Dispose();
        }
        catch (Exception)
        {
            // The writer loop already reported its own failure.
        }
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
