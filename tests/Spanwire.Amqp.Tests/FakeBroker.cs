using System.Buffers;
using System.Net;
using System.Net.Sockets;
using Spanwire.Amqp.Protocol;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// A broker on loopback that does the handshake and then whatever a test tells it to: send bytes, go silent, drop the
/// socket. For faults a real broker will not produce on demand.
/// </summary>
public sealed class FakeBroker : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly ushort _heartbeat;
    private Socket? _client;

    public FakeBroker(ushort heartbeat = 0)
    {
        _heartbeat = heartbeat;
        _listener.Start();
    }

    public string Uri => $"amqp://guest:guest@127.0.0.1:{Port}/";

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>Options for this broker; without recovery, since a fake that drops a client does not take it back
    /// (recovery tests turn it on and accept again).</summary>
    public Spanwire.Amqp.Client.AmqpConnectionOptions Options(bool recover = false)
    {
        Spanwire.Amqp.Client.AmqpConnectionOptions options = Spanwire.Amqp.Client.AmqpConnectionOptions.Parse(Uri);
        options.AutomaticRecovery = recover;
        return options;
    }

    /// <summary>Connects a client to this broker and completes the handshake on both sides.</summary>
    public async Task<Spanwire.Amqp.Client.AmqpConnection> ConnectClientAsync(CancellationToken cancellationToken, bool recover = false)
    {
        Task<Spanwire.Amqp.Client.AmqpConnection> connecting = Spanwire.Amqp.Client.AmqpConnection.ConnectAsync(Options(recover), cancellationToken);
        await AcceptAsync(cancellationToken);
        return await connecting;
    }

    /// <summary>Accepts the client and completes the handshake with it.</summary>
    public async Task AcceptAsync(CancellationToken cancellationToken)
    {
        _client = await _listener.AcceptSocketAsync(cancellationToken);
        _client.NoDelay = true; // as RabbitMQ: a frame goes out when sent, not held for an earlier one's ack
        var header = new byte[8];
        await ReceiveExactlyAsync(header, cancellationToken);
        Assert.Equal(AmqpFraming.ProtocolHeader.ToArray(), header);
        await SendMethodAsync(AmqpMethods.ConnectionStart, 512, (ref AmqpMethodWriter a) =>
        {
            a.WriteOctet(0);
            a.WriteOctet(9);
            a.WriteTable(FieldTable.FromDictionary(new Dictionary<string, object?> { ["product"] = "fake" }));
            a.WriteLongString("PLAIN AMQPLAIN"u8);
            a.WriteLongString("en_US"u8);
        });
        await ReceiveFrameAsync(cancellationToken); // start-ok
        await SendMethodAsync(AmqpMethods.ConnectionTune, 8, (ref AmqpMethodWriter a) =>
        {
            a.WriteShort(16);
            a.WriteLong(131072);
            a.WriteShort(_heartbeat);
        });
        await ReceiveFrameAsync(cancellationToken); // tune-ok
        await ReceiveFrameAsync(cancellationToken); // open
        await SendMethodAsync(AmqpMethods.ConnectionOpenOk, 1, (ref AmqpMethodWriter a) => a.WriteShortString(""u8));
    }

    /// <summary>Accepts the client and sends connection.start with the given server properties (an encoded table, its
    /// length prefix included), then stops: for handshakes the client must refuse.</summary>
    public async Task AcceptAndStartAsync(byte[] serverProperties, CancellationToken cancellationToken)
    {
        _client = await _listener.AcceptSocketAsync(cancellationToken);
        _client.NoDelay = true; // as RabbitMQ: a frame goes out when sent, not held for an earlier one's ack
        await ReceiveExactlyAsync(new byte[8], cancellationToken);
        byte[] mechanisms = [0, 0, 0, 5, .. "PLAIN"u8];
        byte[] locales = [0, 0, 0, 5, .. "en_US"u8];
        byte[] payload = [0, 10, 0, 10, 0, 9, .. serverProperties, .. mechanisms, .. locales];
        var header = new byte[7];
        header[0] = 1;
        System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(header.AsSpan(3), payload.Length);
        await SendAsync([.. header, .. payload, 0xCE]);
    }

    /// <summary>Opens a channel on <paramref name="connection"/>, answering its channel.open with open-ok.</summary>
    public async Task<Spanwire.Amqp.Client.AmqpChannel> OpenChannelAsync(Spanwire.Amqp.Client.AmqpConnection connection, CancellationToken cancellationToken)
    {
        Task<Spanwire.Amqp.Client.AmqpChannel> opening = connection.OpenChannelAsync(cancellationToken);
        byte[] open = await ReceiveFrameAsync(cancellationToken);
        ushort channel = (ushort)((open[1] << 8) | open[2]);
        await SendMethodAsync(AmqpMethods.ChannelOpenOk, 4, (ref AmqpMethodWriter a) => a.WriteLongString(""u8), channel);
        return await opening;
    }

    /// <summary>Receives the client's next frame, whole (header, payload, frame end).</summary>
    public async Task<byte[]> ReceiveFrameAsync(CancellationToken cancellationToken)
    {
        var head = new byte[7];
        await ReceiveExactlyAsync(head, cancellationToken);
        int size = (head[3] << 24) | (head[4] << 16) | (head[5] << 8) | head[6];
        var rest = new byte[size + 1];
        await ReceiveExactlyAsync(rest, cancellationToken);
        return [.. head, .. rest];
    }

    public delegate void ArgumentsWriter(ref AmqpMethodWriter arguments);

    public async Task SendMethodAsync(AmqpMethod method, int maxArgumentsSize, ArgumentsWriter write, ushort channel = 0)
    {
        using var buffer = new PooledBufferWriter();
        AmqpMethodFrame frame = AmqpFrameWriter.BeginMethod(buffer, channel, method, maxArgumentsSize);
        write(ref frame.Arguments);
        frame.Complete();
        await SendAsync(buffer.ToArray());
    }

    public async Task SendAsync(byte[] bytes)
    {
        await _client!.SendAsync(bytes, SocketFlags.None);
        BytesSent += bytes.Length;
    }

    /// <summary>Bytes sent to the client so far, handshake included: the client's stream offsets count from the same start.</summary>
    public long BytesSent { get; private set; }

    /// <summary>Stops accepting: connecting to this broker is refused from now on.</summary>
    public void StopListening() => _listener.Stop();

    /// <summary>Drops the connection without a word (RST).</summary>
    public void Drop()
    {
        _client!.LingerState = new LingerOption(true, 0);
        _client.Close();
    }

    /// <summary>Everything the client sends until it closes the socket.</summary>
    public async Task<byte[]> ReceiveUntilClosedAsync(CancellationToken cancellationToken)
    {
        var all = new ArrayBufferWriter<byte>();
        var chunk = new byte[4096];
        while (true)
        {
            int count = await _client!.ReceiveAsync(chunk, SocketFlags.None, cancellationToken);
            if (count == 0)
            {
                return all.WrittenSpan.ToArray();
            }

            all.Write(chunk.AsSpan(0, count));
        }
    }

    public ValueTask DisposeAsync()
    {
        _client?.Dispose();
        _listener.Stop();
        return ValueTask.CompletedTask;
    }

    private async Task ReceiveExactlyAsync(byte[] buffer, CancellationToken cancellationToken)
    {
        int read = 0;
        while (read < buffer.Length)
        {
            int count = await _client!.ReceiveAsync(buffer.AsMemory(read), SocketFlags.None, cancellationToken);
            if (count == 0)
            {
                throw new EndOfStreamException("The client closed the socket.");
            }

            read += count;
        }
    }
}
