using System.Diagnostics;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// The smaller controls production code relies on: no-wait declares, a continuation timeout per channel, client
/// properties of the application's own, and close with a timeout or an abort.
/// </summary>
public class ChannelControlTests
{
    [Fact]
    public async Task NoWait_declares_carry_the_bit_get_no_reply_and_keep_their_order_with_the_requests_around_them()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();

        await channel.ExchangeDeclareAsync("x", "topic", noWait: true);
        AmqpQueueInfo info = await channel.QueueDeclareAsync("q", noWait: true);
        await channel.QueueBindAsync("q", "x", "k", noWait: true);
        await channel.QueueDeclareAsync("after"); // an awaited request after them works: no reply was left unclaimed

        Expect.Equal(new AmqpQueueInfo("q", 0, 0), info, "a no-wait queue declare: the name given, counts unknown");
        string[] sent = [.. broker.Methods.Where(m => m.Channel == 1 && m.Method != AmqpMethods.ChannelOpen).Select(m => $"{m.Method.Name} {NoWaitBit(m)}")];
        Expect.Equal("exchange.declare True,queue.declare True,queue.bind True,queue.declare False", string.Join(",", sent), "sent in call order");
        await Assert.ThrowsAsync<ArgumentException>(() => channel.QueueDeclareAsync("", noWait: true)); // the reply is what names it
    }

    [Fact]
    public async Task A_channel_continuation_timeout_of_its_own_times_out_its_request_the_connection_default_stays()
    {
        await using var broker = new AutoBroker();
        var hold = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        broker.BeforeAnswer = (_, r) => r.Method == AmqpMethods.QueueDeclare ? hold.Task : Task.CompletedTask;
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        AmqpChannel other = await connection.OpenChannelAsync();

        channel.ContinuationTimeout = TimeSpan.FromMilliseconds(200);
        var clock = Stopwatch.StartNew();
        TimeoutException timedOut = await Assert.ThrowsAsync<TimeoutException>(() => channel.QueueDeclareAsync("q"));
        hold.TrySetResult();

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5), $"timed out after {clock.Elapsed}");
        Assert.Contains("queue.declare-ok", timedOut.Message);
        Expect.Equal(TimeSpan.FromSeconds(20), other.ContinuationTimeout, "another channel keeps the connection's");
        Assert.Throws<ArgumentOutOfRangeException>(() => channel.ContinuationTimeout = TimeSpan.Zero);
    }

    [Fact]
    public async Task Client_properties_of_the_application_go_with_the_login_next_to_the_clients_own_capabilities_stay()
    {
        await using var broker = new AutoBroker();
        AmqpConnectionOptions options = broker.Options();
        options.ClientName = "orders-api";
        options.ClientProperties["app.version"] = "4.2.0";
        options.ClientProperties["app.host"] = "web-3";
        options.ClientProperties["capabilities"] = "mine";
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options);

        IReadOnlyDictionary<string, object?> sent = Assert.Single(broker.ClientProperties);
        Expect.Equal("4.2.0", Text(sent["app.version"]), "app.version");
        Expect.Equal("web-3", Text(sent["app.host"]), "app.host");
        Expect.Equal("orders-api", Text(sent["connection_name"]), "connection_name");
        Expect.Equal("Spanwire.Amqp", Text(sent["product"]), "product");
        Assert.IsAssignableFrom<IReadOnlyDictionary<string, object?>>(sent["capabilities"]);
    }

    [Fact]
    public async Task Close_waits_for_close_ok_at_most_its_timeout_abort_does_not_wait_both_end_the_connection()
    {
        foreach (bool abort in new[] { false, true })
        {
            await using var broker = new AutoBroker();
            broker.BeforeAnswer = (_, r) => r.Method == AmqpMethods.ConnectionClose ? Task.Delay(TimeSpan.FromSeconds(30)) : Task.CompletedTask;
            AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
            AmqpChannel channel = await connection.OpenChannelAsync();

            var clock = Stopwatch.StartNew();
            await connection.CloseAsync(TimeSpan.FromMilliseconds(300), abort, 320, "maintenance");

            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5), $"abort {abort}: closed after {clock.Elapsed}");
            Assert.False(connection.IsOpen);
            Assert.False(channel.IsOpen);
            AutoBroker.Received close = await broker.WaitForAsync(r => r.Method == AmqpMethods.ConnectionClose, "connection.close");
            Expect.Equal((ushort)320, AmqpMethodReader.Parse(close.Payload).GetShort(0), $"abort {abort}: the reply code sent");
        }
    }

    private static string Text(object? value) => value switch
    {
        byte[] bytes => System.Text.Encoding.UTF8.GetString(bytes),
        _ => value?.ToString() ?? "null",
    };

    private static bool NoWaitBit(AutoBroker.Received received)
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
}
