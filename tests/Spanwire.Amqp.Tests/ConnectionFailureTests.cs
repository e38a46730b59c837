using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// A peer that misbehaves (a fake broker, a port nobody answers on): the connection fails promptly, with the reason
/// the peer gave or the one that fits, and every pending call with it. No RabbitMQ needed.
/// </summary>
public class ConnectionFailureTests
{
    [Theory]
    [InlineData(14_000, (byte)'F')] // 98 KB of tables in tables: once enough to overflow the stack and end the process
    [InlineData(14_000, (byte)'A')] // the same with arrays
    [InlineData(65, (byte)'F')] // one level past the bound
    public async Task Server_properties_nested_too_deep_connect_fails_with_protocol_exception_process_lives(int depth, byte kind)
    {
        await using var fake = new FakeBroker();
        Task<AmqpConnection> connecting = AmqpConnection.ConnectAsync(fake.Uri, TestTimeout.Token);
        await fake.AcceptAndStartAsync(NestedFieldTables.Nested(depth, kind), TestTimeout.Token);

        AmqpProtocolException error = await Assert.ThrowsAsync<AmqpProtocolException>(() => connecting);
        Assert.Contains("nest deeper than 64 levels", error.Message);
    }

    [Fact]
    public async Task Broker_closes_with_320_then_resets_the_socket_while_publishing_the_reason_is_320_not_the_socket_error()
    {
        // What a node shutting down does: connection.close 320, then the socket goes at once, so the client's
        // close-ok and pending publishes fail on a reset socket while the close frame waits to be read.
        for (int run = 0; run < 20; run++)
        {
            await using var fake = new FakeBroker();
            await using AmqpConnection connection = await fake.ConnectClientAsync(TestTimeout.Token);
            AmqpChannel channel = await fake.OpenChannelAsync(connection, TestTimeout.Token);
            Task publishing = Task.Run(async () =>
            {
                var body = new byte[4096];
                while (true)
                {
                    await channel.PublishAsync("", "q", body);
                }
            });
            await Task.Delay(run % 4 * 5);

            await fake.SendMethodAsync(AmqpMethods.ConnectionClose, 300, (ref AmqpMethodWriter a) =>
            {
                a.WriteShort(AmqpReplyCode.ConnectionForced);
                a.WriteShortString("CONNECTION_FORCED - broker forced connection closure with reason 'shutdown'"u8);
                a.WriteShort(0);
                a.WriteShort(0);
            });
            fake.Drop();

            Exception reason = await connection.Completion.WaitAsync(TestTimeout.Token);
            var closed = Assert.IsType<AmqpConnectionClosedException>(reason);
            Expect.Equal(AmqpReplyCode.ConnectionForced, closed.ReplyCode, $"run {run}: {closed}");
            await Assert.ThrowsAnyAsync<AmqpClosedException>(() => publishing.WaitAsync(TestTimeout.Token));
        }
    }

    [Fact]
    public async Task Broker_never_replies_request_times_out_after_ContinuationTimeout_without_a_cancellation_token()
    {
        await using var fake = new FakeBroker();
        Task<AmqpConnection> connecting = AmqpConnection.ConnectAsync(
            new AmqpConnectionOptions { Host = "127.0.0.1", Port = fake.Port, ContinuationTimeout = TimeSpan.FromMilliseconds(300), AutomaticRecovery = false }, TestTimeout.Token);
        await fake.AcceptAsync(TestTimeout.Token);
        await using AmqpConnection connection = await connecting;
        AmqpChannel channel = await fake.OpenChannelAsync(connection, TestTimeout.Token);

        var watch = System.Diagnostics.Stopwatch.StartNew();
        TimeoutException error = await Assert.ThrowsAsync<TimeoutException>(() => channel.QueuePurgeAsync("q"));
        Assert.Contains("queue.purge-ok", error.Message, StringComparison.Ordinal);
        Assert.InRange(watch.Elapsed, TimeSpan.FromMilliseconds(250), TimeSpan.FromSeconds(10));

        // The next request waits for the late reply first, and times out too rather than taking it for its own.
        await Assert.ThrowsAsync<TimeoutException>(() => channel.QueuePurgeAsync("q"));
        Assert.True(connection.IsOpen);
    }

    [Fact]
    public async Task Malformed_frame_from_server_client_closes_with_501_caller_sees_protocol_exception()
    {
        await using var fake = new FakeBroker();
        await using AmqpConnection connection = await fake.ConnectClientAsync(TestTimeout.Token);

        Task<AmqpChannel> opening = connection.OpenChannelAsync(TestTimeout.Token);
        await fake.ReceiveFrameAsync(TestTimeout.Token); // channel.open
        // A method frame whose end octet is 0x00 instead of 0xCE.
        await fake.SendAsync([1, 0, 1, 0, 0, 0, 4, 0, 20, 0, 11, 0x00]);

        AmqpProtocolException error = await Assert.ThrowsAsync<AmqpProtocolException>(() => opening);
        Assert.Equal(AmqpReplyCode.FrameError, error.ReplyCode);
        Assert.Equal(fake.BytesSent - 1, error.Offset); // the bad frame-end byte, as a stream offset
        byte[] sent = await fake.ReceiveUntilClosedAsync(TestTimeout.Token);
        var view = AmqpMethodReader.Parse(sent.AsSpan(7, sent.Length - 8));
        Assert.Equal(AmqpMethods.ConnectionClose, view.Method);
        Assert.Equal(AmqpReplyCode.FrameError, view.GetShort(0));
        Assert.Same(error, await connection.Completion.WaitAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task Blocked_and_unblocked_are_raised_as_events()
    {
        await using var fake = new FakeBroker();
        await using AmqpConnection connection = await fake.ConnectClientAsync(TestTimeout.Token);
        var blocked = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var unblocked = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        connection.Blocked += (_, reason) => blocked.TrySetResult(reason);
        connection.Unblocked += (_, _) => unblocked.TrySetResult();

        await fake.SendMethodAsync(AmqpMethods.ConnectionBlocked, 256, (ref AmqpMethodWriter a) => a.WriteShortString("low on memory"u8));
        Assert.Equal("low on memory", await blocked.Task.WaitAsync(TestTimeout.Token));
        Assert.True(connection.IsBlocked);
        await fake.SendMethodAsync(AmqpMethods.ConnectionUnblocked, 0, (ref AmqpMethodWriter _) => { });
        await unblocked.Task.WaitAsync(TestTimeout.Token);
        Assert.False(connection.IsBlocked);
        Assert.True(connection.IsOpen);
        fake.Drop(); // the fake does not answer connection.close; end it at once instead
    }

    [Fact]
    public async Task Dropped_socket_faults_every_pending_call_promptly()
    {
        await using var fake = new FakeBroker();
        await using AmqpConnection connection = await fake.ConnectClientAsync(TestTimeout.Token);
        Task<AmqpChannel> opening = connection.OpenChannelAsync(TestTimeout.Token);
        await fake.ReceiveFrameAsync(TestTimeout.Token);
        fake.Drop();

        var watch = Stopwatch.StartNew();
        AmqpConnectionClosedException error = await Assert.ThrowsAsync<AmqpConnectionClosedException>(() => opening);
        Assert.Equal(0, error.ReplyCode);
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"took {watch.Elapsed}");
        Assert.False(connection.IsOpen);
        await Assert.ThrowsAsync<AmqpConnectionClosedException>(() => connection.OpenChannelAsync(TestTimeout.Token));
    }

    [Fact]
    public async Task Silent_peer_is_declared_dead_after_two_heartbeat_intervals()
    {
        await using var fake = new FakeBroker(heartbeat: 1);
        await using AmqpConnection connection = await fake.ConnectClientAsync(TestTimeout.Token);
        Task<AmqpChannel> opening = connection.OpenChannelAsync(TestTimeout.Token); // never answered

        var watch = Stopwatch.StartNew();
        AmqpConnectionClosedException error = await Assert.ThrowsAsync<AmqpConnectionClosedException>(() => opening);
        Assert.Contains("heartbeat", error.Message);
        Assert.InRange(watch.Elapsed, TimeSpan.FromSeconds(1.5), TimeSpan.FromSeconds(4));
    }

    [Fact]
    public async Task Connect_to_a_closed_port_fails_with_the_socket_error()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop(); // nobody listens there now

        SocketException error = await Assert.ThrowsAsync<SocketException>(() =>
            AmqpConnection.ConnectAsync(new AmqpConnectionOptions { Host = "127.0.0.1", Port = port }, TestTimeout.Token));
        Assert.Equal(SocketError.ConnectionRefused, error.SocketErrorCode);
    }

    [Fact]
    public async Task Peer_that_never_answers_the_handshake_times_out_within_ConnectTimeout()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start(); // the kernel accepts the connection; nothing ever speaks
        var options = new AmqpConnectionOptions
        {
            Host = "127.0.0.1",
            Port = ((IPEndPoint)listener.LocalEndpoint).Port,
            ConnectTimeout = TimeSpan.FromMilliseconds(500),
        };

        var watch = Stopwatch.StartNew();
        TimeoutException error = await Assert.ThrowsAsync<TimeoutException>(() => AmqpConnection.ConnectAsync(options, TestTimeout.Token));
        Assert.Contains("0.5 s", error.Message);
        Assert.InRange(watch.Elapsed, TimeSpan.FromMilliseconds(400), TimeSpan.FromSeconds(5));
    }

    [Fact]
    public async Task Cancelled_while_the_handshake_waits_throws_operation_canceled()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var options = new AmqpConnectionOptions { Host = "127.0.0.1", Port = ((IPEndPoint)listener.LocalEndpoint).Port };
        using var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        var watch = Stopwatch.StartNew();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => AmqpConnection.ConnectAsync(options, cancel.Token));
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(5), $"took {watch.Elapsed}");
    }
}
