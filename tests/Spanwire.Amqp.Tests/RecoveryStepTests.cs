using System.Collections.Concurrent;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;
using Step = Spanwire.Amqp.Client.AmqpConnection.RecoveryStep;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// Recovery's lifecycle on a broker that fails on demand: the new link dropped at every step of a recovery attempt,
/// acks of deliveries that arrive while recovery is still registering consumers, argument tables kept as declared,
/// and close while a recovery is under way. What a real broker does through a cut is in the integration tests, with
/// RabbitMQ.Client as the control.
/// </summary>
public class RecoveryStepTests
{
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(20);

    [Theory]
    [InlineData(nameof(Step.LinkOpened))] // the handshake done, nothing restored
    [InlineData(nameof(Step.TopologyRecovered))] // queues declared again, channels not yet
    [InlineData(nameof(Step.ChannelsRecovered))] // channels and consumers back, the connection not yet open
    [InlineData(nameof(Step.Resumed))] // open again, success not yet reported: the loss must start a new recovery
    public async Task New_link_dropped_at_a_step_of_recovery_recovery_goes_on_to_a_third_link_with_everything_restored(string stepName)
    {
        Step step = Enum.Parse<Step>(stepName);
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        await channel.QueueDeclareAsync("jobs");
        await channel.QosAsync(1);
        AmqpConsumer consumer = await channel.ConsumeAsync("jobs", consumerTag: "c1");
        var events = new ConcurrentQueue<string>();
        connection.ConnectionLost += (_, _) => events.Enqueue("lost");
        connection.RecoverySucceeded += (_, e) => events.Enqueue("succeeded");
        int fired = 0;
        connection.RecoveryStepReached = async reached =>
        {
            if (reached == step && broker.Connections == 2 && Interlocked.Exchange(ref fired, 1) == 0)
            {
                broker.Current.Drop();
                await AutoBroker.WaitUntilAsync(() => connection.LinkEnded, "the client sees the new link dropped");
            }
        };

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => broker.Connections == 3 && connection.IsOpen && channel.IsOpen, $"open on a third link after the drop at {step}");

        Expect.Equal(1, fired, $"the drop at {step} happened");
        await broker.WaitForAsync(r => r.Connection == 3 && r.Method == AmqpMethods.QueueDeclare, "the queue declared again on the third link");
        await broker.WaitForAsync(r => r.Connection == 3 && r.Method == AmqpMethods.BasicQos, "QoS again on the third link");
        await broker.WaitForAsync(r => r.Connection == 3 && r.Method == AmqpMethods.BasicConsume, "the consumer again on the third link");
        await AutoBroker.WaitUntilAsync(() => events.Count(e => e == "succeeded") >= 1 && !events.IsEmpty && events.Last() == "succeeded",
            $"recovery reported as succeeded last (events: {string.Join(",", events)})");

        // The consumer works on the third link: a delivery arrives and its ack reaches the broker.
        await broker.Current.DeliverAsync("c1", "after"u8.ToArray());
        await using IAsyncEnumerator<AmqpDelivery> reading = consumer.ReadAllAsync().GetAsyncEnumerator();
        Assert.True(await reading.MoveNextAsync().AsTask().WaitAsync(s_wait));
        Expect.Equal("after", AutoBroker.Text(reading.Current.Body.Span), $"the delivery after the drop at {step}");
        await channel.AckAsync(reading.Current.DeliveryTag);
        AutoBroker.Received ack = await broker.WaitForAsync(r => r.Connection == 3 && r.Method == AmqpMethods.BasicAck, "the ack on the third link");
        Expect.Equal(1UL, AmqpMethodReader.Parse(ack.Payload).GetLongLong(0), "the ack's tag on the third link's numbering");
    }

    [Fact]
    public async Task Deliveries_that_arrive_while_recovery_still_registers_consumers_are_acked_at_once_prefetch_1()
    {
        // Five consumers on one channel at prefetch 1. On the new link the broker delivers to each consumer as soon as
        // it is registered, and holds back the last consume-ok until the four earlier deliveries are acked: those acks
        // must go out while the channel is still being recovered, or the consumers stall with a full prefetch.
        const int consumers = 5;
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        await channel.QosAsync(1);
        var failures = new ConcurrentQueue<Exception>();
        var received = new ConcurrentQueue<string>();
        for (int i = 1; i <= consumers; i++)
        {
            await channel.ConsumeAsync($"q{i}", async (delivery, _) =>
            {
                received.Enqueue(delivery.ConsumerTag);
                try
                {
                    await channel.AckAsync(delivery.DeliveryTag);
                }
                catch (Exception ex)
                {
                    failures.Enqueue(ex);
                }
            }, consumerTag: $"c{i}");
        }

        broker.AfterAnswer = async (session, r) =>
        {
            if (session.Number == 2 && r.Method == AmqpMethods.BasicConsume)
            {
                await session.DeliverAsync(AmqpMethodReader.Parse(r.Payload).GetString(2), "during recovery"u8.ToArray());
            }
        };
        broker.BeforeAnswer = async (session, r) =>
        {
            if (session.Number == 2 && r.Method == AmqpMethods.BasicConsume && AmqpMethodReader.Parse(r.Payload).GetString(2) == $"c{consumers}")
            {
                await AutoBroker.WaitUntilAsync(() => broker.Methods.Count(m => m.Connection == 2 && m.Method == AmqpMethods.BasicAck) == consumers - 1,
                    "the acks of the deliveries made while the channel was still being recovered");
            }
        };

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => broker.Methods.Count(m => m.Connection == 2 && m.Method == AmqpMethods.BasicAck) == consumers,
            "an ack for every delivery of the new link");
        await AutoBroker.WaitUntilAsync(() => connection.IsOpen, "recovered");

        Expect.Equal(0, failures.Count, $"acks that failed: {string.Join(" | ", failures.Select(f => f.Message))}");
        Expect.Equal(consumers, received.Count, "deliveries handed to the handlers");
        ulong[] tags = [.. broker.Methods.Where(m => m.Connection == 2 && m.Method == AmqpMethods.BasicAck)
            .Select(m => AmqpMethodReader.Parse(m.Payload).GetLongLong(0)).Order()];
        Expect.Equal("1,2,3,4,5", string.Join(",", tags), "the acked tags, on the new link's numbering");
    }

    [Fact]
    public async Task Argument_tables_are_redeclared_as_declared_though_the_caller_overwrote_its_buffer()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        byte[] declared = FieldTable.FromDictionary(new Dictionary<string, object?> { ["x-max-length"] = 10 }).Memory.ToArray();
        byte[] other = FieldTable.FromDictionary(new Dictionary<string, object?> { ["x-max-length"] = 99 }).Memory.ToArray();
        Assert.Equal(declared.Length, other.Length);
        byte[] buffer = [.. declared]; // one buffer the application reuses for every call
        FieldTable table = FieldTable.FromEncoded(buffer);
        await channel.ExchangeDeclareAsync("x", "direct", arguments: table);
        await channel.QueueDeclareAsync("q", arguments: table);
        await channel.QueueBindAsync("q", "x", "k", table);
        await channel.ConsumeAsync("q", consumerTag: "c", arguments: table);
        other.CopyTo(buffer, 0);

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => connection.IsOpen && broker.Connections == 2, "recovered");

        foreach (AmqpMethod method in new[] { AmqpMethods.ExchangeDeclare, AmqpMethods.QueueDeclare, AmqpMethods.QueueBind, AmqpMethods.BasicConsume })
        {
            AutoBroker.Received again = await broker.WaitForAsync(r => r.Connection == 2 && r.Method == method, $"{method.Name} on the new link");
            Expect.Equal(Convert.ToHexString(declared), Convert.ToHexString(TableOf(again)), $"the arguments of {method.Name} redeclared");
        }
    }

    [Fact]
    public async Task Close_while_recovery_waits_for_a_reply_cancels_it_and_waits_for_it_no_further_link_is_opened()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        broker.BeforeAnswer = (session, r) => session.Number == 2 && r.Method == AmqpMethods.ChannelOpen ? release.Task : Task.CompletedTask;
        var succeeded = 0;
        connection.RecoverySucceeded += (_, _) => Interlocked.Increment(ref succeeded);

        broker.Current.Drop();
        await broker.WaitForAsync(r => r.Connection == 2 && r.Method == AmqpMethods.ChannelOpen, "channel.open on the new link");
        await connection.CloseAsync().WaitAsync(s_wait);
        release.TrySetResult();

        Assert.False(connection.IsOpen);
        Assert.NotNull(connection.CloseReason);
        Assert.False(channel.IsOpen);
        await Task.Delay(200);
        Expect.Equal(2, broker.Connections, "links opened: no attempt after the close");
        Expect.Equal(0, succeeded, "recoveries reported after the close");
        await Assert.ThrowsAsync<AmqpConnectionClosedException>(() => connection.OpenChannelAsync());
    }

    [Fact]
    public async Task Lost_again_right_after_recovery_succeeded_a_new_recovery_follows_events_in_order()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        await connection.OpenChannelAsync();
        var events = new ConcurrentQueue<string>();
        connection.ConnectionLost += (_, _) => events.Enqueue("lost");
        connection.RecoveryStarted += (_, _) => events.Enqueue("started");
        connection.RecoverySucceeded += (_, _) =>
        {
            events.Enqueue("succeeded");
            if (broker.Connections == 2)
            {
                broker.Current.Drop(); // inside the handler: the link goes while the success is being reported
            }
        };

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => broker.Connections == 3 && connection.IsOpen && events.Count(e => e == "succeeded") == 2, "recovered twice");

        Expect.Equal("lost,started,succeeded,lost,started,succeeded", string.Join(",", events), "the events of two recoveries");
    }

    [Fact]
    public async Task Without_recovery_a_lost_link_closes_the_connection_and_acks_throw()
    {
        await using var broker = new AutoBroker();
        AmqpConnectionOptions options = broker.Options();
        options.AutomaticRecovery = false;
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options);
        AmqpChannel channel = await connection.OpenChannelAsync();
        await channel.ConsumeAsync("q", consumerTag: "c");
        await broker.Current.DeliverAsync("c", [1]);

        broker.Current.Drop();
        Exception reason = await connection.Completion.WaitAsync(s_wait);

        Assert.IsType<AmqpConnectionClosedException>(reason);
        Assert.False(connection.IsOpen);
        Assert.Same(reason, connection.CloseReason);
        await Assert.ThrowsAsync<AmqpConnectionClosedException>(async () => await channel.AckAsync(1));
    }

    private static byte[] TableOf(AutoBroker.Received received)
    {
        var method = AmqpMethodReader.Parse(received.Payload);
        for (int i = 0; i < method.Method.Arguments.Length; i++)
        {
            if (method.Method.Arguments[i].Type == AmqpArgumentType.Table)
            {
                FieldTableReader table = method.GetTable(i);
                return LengthPrefixed(table.RawContent);
            }
        }

        throw new InvalidOperationException($"{method.Method.Name} has no table argument");
    }

    private static byte[] LengthPrefixed(ReadOnlySpan<byte> content)
    {
        var bytes = new byte[content.Length + 4];
        System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(bytes, content.Length);
        content.CopyTo(bytes.AsSpan(4));
        return bytes;
    }
}
