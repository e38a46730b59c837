using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// A broker on loopback that accepts connection after connection and answers every synchronous method the way
/// RabbitMQ does (open, qos, confirm.select, declares, binds, consume, cancel, close), recording what each connection
/// sent. Tests deliver messages through it and drop its connections at any moment: for recovery, whose steps a real
/// broker will not fail on demand.
/// </summary>
public sealed class AutoBroker : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Session> _sessions = [];
    private readonly Task _accepting;

    public AutoBroker()
    {
        _listener.Start();
        _accepting = AcceptLoopAsync();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>Every method received, in order, by connection number (1 for the first connection).</summary>
    public ConcurrentQueue<Received> Methods { get; } = new();

    /// <summary>The client properties of every connection's start-ok, in order.</summary>
    public ConcurrentQueue<IReadOnlyDictionary<string, object?>> ClientProperties { get; } = new();

    /// <summary>The PLAIN logins of every connection, as "user:password", in order.</summary>
    public ConcurrentQueue<string> Logins { get; } = new();

    /// <summary>Refuses a basic.consume as RabbitMQ does for a queue that is gone (channel.close 404) when it returns true.</summary>
    public Func<Session, string, bool>? RefuseConsume { get; set; }

    /// <summary>Answers basic.consume on connections after the first with another tag than the one asked for.</summary>
    public bool RenameConsumerTags { get; set; }

    /// <summary>Runs before a method is answered (to hold the answer back until the test says).</summary>
    public Func<Session, Received, Task>? BeforeAnswer { get; set; }

    /// <summary>Runs after a method is answered (to deliver to a consumer just registered, say).</summary>
    public Func<Session, Received, Task>? AfterAnswer { get; set; }

    /// <summary>How many connections completed the handshake.</summary>
    public int Connections
    {
        get
        {
            lock (_sessions)
            {
                return _sessions.Count;
            }
        }
    }

    /// <summary>The newest connection.</summary>
    public Session Current
    {
        get
        {
            lock (_sessions)
            {
                return _sessions[^1];
            }
        }
    }

    /// <summary>Options for a client of this broker, recovering quickly.</summary>
    public AmqpConnectionOptions Options()
    {
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse($"amqp://guest:guest@127.0.0.1:{Port}/");
        options.RecoveryInterval = TimeSpan.FromMilliseconds(20);
        options.ConnectTimeout = TimeSpan.FromSeconds(10);
        return options;
    }

    /// <summary>Waits until a method matching <paramref name="match"/> has been received.</summary>
    public async Task<Received> WaitForAsync(Func<Received, bool> match, string what)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(20);
        while (DateTime.UtcNow < deadline)
        {
            foreach (Received received in Methods)
            {
                if (match(received))
                {
                    return received;
                }
            }

            await Task.Delay(5);
        }

        throw new TimeoutException($"The broker did not receive {what} within 20 s; it received: {string.Join(", ", Methods.Select(m => m.ToString()))}");
    }

    public async ValueTask DisposeAsync()
    {
        _stop.Cancel();
        _listener.Stop();
        await _accepting.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        Session[] sessions;
        lock (_sessions)
        {
            sessions = [.. _sessions];
        }

        foreach (Session session in sessions)
        {
            session.Drop();
            await session.Loop.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        }
    }

    private async Task AcceptLoopAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync(_stop.Token);
            }
            catch (Exception)
            {
                return;
            }

            var session = new Session(this, socket);
            try
            {
                await session.HandshakeAsync(_stop.Token);
            }
            catch (Exception)
            {
                session.Drop(); // the client gave up mid-handshake; it will come again
                continue;
            }

            lock (_sessions)
            {
                _sessions.Add(session);
                session.Number = _sessions.Count;
            }

            session.Loop = session.ServeAsync(_stop.Token);
        }
    }

    /// <summary>One method the client sent: its connection, channel, method and decoded arguments.</summary>
    public sealed record Received(int Connection, ushort Channel, AmqpMethod Method, string Text, byte[] Payload)
    {
        public override string ToString() => $"#{Connection} ch{Channel} {Text}";
    }

    /// <summary>One client connection.</summary>
    public sealed class Session(AutoBroker broker, Socket socket)
    {
        private readonly SemaphoreSlim _sendLock = new(1, 1);
        private readonly ConcurrentDictionary<ushort, bool> _confirming = new();
        private readonly ConcurrentDictionary<ushort, ulong> _published = new();
        private readonly ConcurrentDictionary<ushort, ulong> _delivered = new();
        private int _names;

        public int Number { get; set; }

        public Task Loop { get; set; } = Task.CompletedTask;

        /// <summary>Consumer tags registered on this connection, with their channel and queue.</summary>
        public ConcurrentDictionary<string, (ushort Channel, string Queue)> Consumers { get; } = new();

        /// <summary>Drops the connection without a word (RST), as a cut network does.</summary>
        public void Drop()
        {
            try
            {
                socket.LingerState = new LingerOption(true, 0);
                socket.Close();
            }
            catch (ObjectDisposedException)
            {
            }
        }

        /// <summary>Delivers a message to a consumer (basic.deliver, header, body); returns its delivery tag on this connection.</summary>
        public async Task<ulong> DeliverAsync(string consumerTag, byte[] body)
        {
            (ushort channel, _) = Consumers[consumerTag];
            ulong tag = _delivered.AddOrUpdate(channel, 1, (_, t) => t + 1);
            using var buffer = new PooledBufferWriter();
            AmqpMethodFrame frame = AmqpFrameWriter.BeginMethod(buffer, channel, AmqpMethods.BasicDeliver, 512);
            frame.Arguments.WriteShortString(consumerTag);
            frame.Arguments.WriteLongLong(tag);
            frame.Arguments.WriteBit(false);
            frame.Arguments.WriteShortString(""u8);
            frame.Arguments.WriteShortString("q"u8);
            frame.Complete();
            AmqpFrameWriter.WriteContentHeader(buffer, channel, 60, (ulong)body.Length, default);
            AmqpFrameWriter.WriteBody(buffer, channel, body, 131072);
            await SendAsync(buffer.ToArray());
            return tag;
        }

        internal async Task HandshakeAsync(CancellationToken cancellationToken)
        {
            socket.NoDelay = true;
            await ReceiveExactlyAsync(new byte[8], cancellationToken);
            await SendMethodAsync(0, AmqpMethods.ConnectionStart, 512, (ref AmqpMethodWriter a) =>
            {
                a.WriteOctet(0);
                a.WriteOctet(9);
                a.WriteTable(FieldTable.FromDictionary(new Dictionary<string, object?> { ["product"] = "auto" }));
                a.WriteLongString("PLAIN AMQPLAIN"u8);
                a.WriteLongString("en_US"u8);
            });
            byte[] startOk = await ReceiveFrameAsync(cancellationToken);
            var startOkMethod = AmqpMethodReader.Parse(startOk.AsSpan(7, startOk.Length - 8));
            broker.ClientProperties.Enqueue(FieldTableConversion.ToDictionary(startOkMethod.GetTable(0)));
            string[] plain = Encoding.UTF8.GetString(startOkMethod.GetLongString(2)).Split('\0');
            broker.Logins.Enqueue($"{plain[1]}:{plain[2]}");
            await SendMethodAsync(0, AmqpMethods.ConnectionTune, 8, (ref AmqpMethodWriter a) =>
            {
                a.WriteShort(2047);
                a.WriteLong(131072);
                a.WriteShort(0);
            });
            await ReceiveFrameAsync(cancellationToken); // tune-ok
            await ReceiveFrameAsync(cancellationToken); // open
            await SendMethodAsync(0, AmqpMethods.ConnectionOpenOk, 1, (ref AmqpMethodWriter a) => a.WriteShortString(""u8));
        }

        // Reading and answering run apart, so a test that holds an answer back still sees what the client sends meanwhile.
        internal Task ServeAsync(CancellationToken cancellationToken)
        {
            var toAnswer = System.Threading.Channels.Channel.CreateUnbounded<Received>();
            return Task.WhenAll(ReadAsync(toAnswer.Writer, cancellationToken), AnswerAllAsync(toAnswer.Reader, cancellationToken));
        }

        private async Task ReadAsync(System.Threading.Channels.ChannelWriter<Received> toAnswer, CancellationToken cancellationToken)
        {
            try
            {
                while (true)
                {
                    byte[] frame = await ReceiveFrameAsync(cancellationToken);
                    if (frame[0] != 1)
                    {
                        continue; // content header, body or heartbeat: recorded through their method only
                    }

                    ushort channel = BinaryPrimitives.ReadUInt16BigEndian(frame.AsSpan(1));
                    toAnswer.TryWrite(Record(channel, frame[7..^1]));
                }
            }
            catch (Exception)
            {
                // The client or the test dropped the connection.
            }
            finally
            {
                toAnswer.TryComplete();
            }
        }

        private async Task AnswerAllAsync(System.Threading.Channels.ChannelReader<Received> toAnswer, CancellationToken cancellationToken)
        {
            try
            {
                await foreach (Received received in toAnswer.ReadAllAsync(cancellationToken))
                {
                    if (broker.BeforeAnswer is { } before)
                    {
                        await before(this, received).WaitAsync(cancellationToken); // a hook that never ends stops with the broker
                    }

                    await AnswerAsync(received);
                    if (broker.AfterAnswer is { } after)
                    {
                        await after(this, received).WaitAsync(cancellationToken);
                    }
                }
            }
            catch (Exception)
            {
                // The connection is gone.
            }
        }

        private Received Record(ushort channel, byte[] payload)
        {
            var method = AmqpMethodReader.Parse(payload);
            var received = new Received(Number, channel, method.Method, method.ToString(), payload);
            broker.Methods.Enqueue(received);
            return received;
        }

        private async Task AnswerAsync(Received received)
        {
            AmqpMethod m = received.Method;
            ushort ch = received.Channel;
            if (NoWait(received))
            {
                return; // as the broker: a no-wait request gets no reply
            }

            if (m == AmqpMethods.ChannelOpen)
            {
                await SendMethodAsync(ch, AmqpMethods.ChannelOpenOk, 4, (ref AmqpMethodWriter a) => a.WriteLongString(""u8));
            }
            else if (m == AmqpMethods.ChannelClose)
            {
                await SendMethodAsync(ch, AmqpMethods.ChannelCloseOk, 0, (ref AmqpMethodWriter a) => { });
            }
            else if (m == AmqpMethods.BasicQos)
            {
                await SendMethodAsync(ch, AmqpMethods.BasicQosOk, 0, (ref AmqpMethodWriter a) => { });
            }
            else if (m == AmqpMethods.ConfirmSelect)
            {
                _confirming[ch] = true;
                await SendMethodAsync(ch, AmqpMethods.ConfirmSelectOk, 0, (ref AmqpMethodWriter a) => { });
            }
            else if (m == AmqpMethods.BasicPublish && _confirming.ContainsKey(ch))
            {
                ulong seq = _published.AddOrUpdate(ch, 1, (_, s) => s + 1);
                await SendMethodAsync(ch, AmqpMethods.BasicAck, 9, (ref AmqpMethodWriter a) =>
                {
                    a.WriteLongLong(seq);
                    a.WriteBit(false);
                });
            }
            else if (m == AmqpMethods.ExchangeDeclare)
            {
                await SendMethodAsync(ch, AmqpMethods.ExchangeDeclareOk, 0, (ref AmqpMethodWriter a) => { });
            }
            else if (m == AmqpMethods.QueueDeclare)
            {
                string name = Argument(received, 1);
                if (name.Length == 0)
                {
                    name = $"amq.gen-{Number}-{Interlocked.Increment(ref _names)}";
                }

                await SendMethodAsync(ch, AmqpMethods.QueueDeclareOk, 256, (ref AmqpMethodWriter a) =>
                {
                    a.WriteShortString(name);
                    a.WriteLong(0);
                    a.WriteLong(0);
                });
            }
            else if (m == AmqpMethods.QueueBind)
            {
                await SendMethodAsync(ch, AmqpMethods.QueueBindOk, 0, (ref AmqpMethodWriter a) => { });
            }
            else if (m == AmqpMethods.ExchangeBind)
            {
                await SendMethodAsync(ch, AmqpMethods.ExchangeBindOk, 0, (ref AmqpMethodWriter a) => { });
            }
            else if (m == AmqpMethods.QueueDelete)
            {
                await SendMethodAsync(ch, AmqpMethods.QueueDeleteOk, 4, (ref AmqpMethodWriter a) => a.WriteLong(0));
            }
            else if (m == AmqpMethods.BasicConsume)
            {
                string tag = Argument(received, 2);
                string queue = Argument(received, 1);
                if (broker.RefuseConsume?.Invoke(this, queue) == true)
                {
                    await SendMethodAsync(ch, AmqpMethods.ChannelClose, 256, (ref AmqpMethodWriter a) =>
                    {
                        a.WriteShort(404);
                        a.WriteShortString($"NOT_FOUND - no queue '{queue}' in vhost '/'");
                        a.WriteShort(60);
                        a.WriteShort(20);
                    });
                    return;
                }

                if (tag.Length == 0 || (broker.RenameConsumerTags && Number > 1))
                {
                    tag = $"amq.ctag-{Number}-{Interlocked.Increment(ref _names)}";
                }

                Consumers[tag] = (ch, Argument(received, 1));
                await SendMethodAsync(ch, AmqpMethods.BasicConsumeOk, 256, (ref AmqpMethodWriter a) => a.WriteShortString(tag));
            }
            else if (m == AmqpMethods.BasicCancel)
            {
                string tag = Argument(received, 0);
                Consumers.TryRemove(tag, out _);
                await SendMethodAsync(ch, AmqpMethods.BasicCancelOk, 256, (ref AmqpMethodWriter a) => a.WriteShortString(tag));
            }
            else if (m == AmqpMethods.ConnectionUpdateSecret)
            {
                await SendMethodAsync(0, AmqpMethods.ConnectionUpdateSecretOk, 0, (ref AmqpMethodWriter a) => { });
            }
            else if (m == AmqpMethods.ConnectionClose)
            {
                await SendMethodAsync(0, AmqpMethods.ConnectionCloseOk, 0, (ref AmqpMethodWriter a) => { });
                socket.Shutdown(SocketShutdown.Both);
            }
        }

        private static bool NoWait(Received received)
        {
            var method = AmqpMethodReader.Parse(received.Payload);
            for (int i = 0; i < method.Method.Arguments.Length; i++)
            {
                if (method.Method.Arguments[i].Name == "no-wait")
                {
                    return method.GetBit(i);
                }
            }

            return false;
        }

        private static string Argument(Received received, int index) => AmqpMethodReader.Parse(received.Payload).GetString(index);

        private delegate void ArgumentsWriter(ref AmqpMethodWriter arguments);

        private async Task SendMethodAsync(ushort channel, AmqpMethod method, int maxArgumentsSize, ArgumentsWriter write)
        {
            using var buffer = new PooledBufferWriter();
            AmqpMethodFrame frame = AmqpFrameWriter.BeginMethod(buffer, channel, method,
                method.GetMaxArgumentsSize(method.VariableArgumentCount > 0 ? maxArgumentsSize : 0));
            write(ref frame.Arguments);
            frame.Complete();
            await SendAsync(buffer.ToArray());
        }

        private async Task SendAsync(byte[] bytes)
        {
            await _sendLock.WaitAsync();
            try
            {
                await socket.SendAsync(bytes, SocketFlags.None);
            }
            finally
            {
                _sendLock.Release();
            }
        }

        private async Task<byte[]> ReceiveFrameAsync(CancellationToken cancellationToken)
        {
            var head = new byte[7];
            await ReceiveExactlyAsync(head, cancellationToken);
            int size = BinaryPrimitives.ReadInt32BigEndian(head.AsSpan(3));
            var rest = new byte[size + 1];
            await ReceiveExactlyAsync(rest, cancellationToken);
            return [.. head, .. rest];
        }

        private async Task ReceiveExactlyAsync(byte[] buffer, CancellationToken cancellationToken)
        {
            int read = 0;
            while (read < buffer.Length)
            {
                int count = await socket.ReceiveAsync(buffer.AsMemory(read), SocketFlags.None, cancellationToken);
                if (count == 0)
                {
                    throw new EndOfStreamException("The client closed the socket.");
                }

                read += count;
            }
        }
    }

    /// <summary>Waits until <paramref name="condition"/> holds, at most 20 s, then fails saying <paramref name="what"/> did not happen.</summary>
    public static async Task WaitUntilAsync(Func<bool> condition, string what)
    {
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"Not within 20 s: {what}");
            }

            await Task.Delay(5);
        }
    }

    /// <summary>The UTF-8 text of a body, for messages in tests.</summary>
    public static string Text(ReadOnlySpan<byte> body) => Encoding.UTF8.GetString(body);
}
