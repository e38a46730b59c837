using System.Collections.Concurrent;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// What an application controls in recovery: which entities are restored, what happens to one the broker refuses,
/// the arguments a consumer is registered with again, and the events for new queue names and consumer tags. Also the
/// failures RabbitMQ.Client's users reported in recovery: a consumer lost when its basic.consume timed out (#1993), a
/// channel disposed before the loss (#1647).
/// </summary>
public class RecoveryControlTests
{
    private static readonly TimeSpan s_wait = TimeSpan.FromSeconds(20);

    [Fact]
    public async Task The_filter_leaves_out_what_it_refuses_a_consumer_left_out_ends()
    {
        await using var broker = new AutoBroker();
        AmqpConnectionOptions options = broker.Options();
        options.TopologyRecoveryFilter = new AmqpTopologyRecoveryFilter
        {
            Exchanges = e => e.Name != "temp.x",
            Queues = q => q.Name != "temp.q",
            Bindings = b => b.Destination != "temp.q",
            Consumers = c => c.Queue != "temp.q",
        };
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options);
        AmqpChannel channel = await connection.OpenChannelAsync();
        foreach (string x in new[] { "keep.x", "temp.x" })
        {
            await channel.ExchangeDeclareAsync(x, "direct");
        }

        foreach (string q in new[] { "keep.q", "temp.q" })
        {
            await channel.QueueDeclareAsync(q);
            await channel.QueueBindAsync(q, "keep.x", "k");
        }

        AmqpConsumer kept = await channel.ConsumeAsync("keep.q", consumerTag: "kept");
        AmqpConsumer dropped = await channel.ConsumeAsync("temp.q", consumerTag: "dropped");

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => connection.IsOpen && broker.Connections == 2, "recovered");

        string[] again = [.. broker.Methods.Where(m => m.Connection == 2 && m.Method != AmqpMethods.ChannelOpen && m.Method != AmqpMethods.ChannelClose)
            .Select(m => m.Text)];
        Assert.Contains(again, t => t.Contains("keep.x", StringComparison.Ordinal) && t.StartsWith("exchange.declare", StringComparison.Ordinal));
        Assert.DoesNotContain(again, t => t.Contains("temp.", StringComparison.Ordinal));
        Assert.Contains(again, t => t.StartsWith("basic.consume", StringComparison.Ordinal) && t.Contains("kept", StringComparison.Ordinal));
        await Assert.ThrowsAsync<AmqpConnectionClosedException>(() => dropped.Completion.WaitAsync(s_wait));
        Assert.False(kept.Completion.IsCompleted);
    }

    [Fact]
    public async Task A_consumer_whose_queue_is_gone_is_left_out_and_the_channel_goes_on_with_the_others()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        await channel.QosAsync(5);
        AmqpConsumer[] consumers = [.. await Task.WhenAll(new[] { "q1", "q2", "q3" }.Select(q => channel.ConsumeAsync(q, consumerTag: $"c-{q}")))];
        broker.RefuseConsume = (session, queue) => session.Number == 2 && queue == "q2";

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => connection.IsOpen && broker.Connections == 2, "recovered");

        AmqpChannelClosedException gone = await Assert.ThrowsAsync<AmqpChannelClosedException>(() => consumers[1].Completion.WaitAsync(s_wait));
        Expect.Equal((ushort)404, gone.ReplyCode, "the refused consumer's reason");
        Assert.True(channel.IsOpen);
        Assert.False(consumers[0].Completion.IsCompleted || consumers[2].Completion.IsCompleted, "the other consumers go on");
        await broker.WaitForAsync(m => m.Connection == 2 && m.Text.Contains("c-q3", StringComparison.Ordinal), "the consumer after the refused one");
        Expect.Equal(2, broker.Methods.Count(m => m.Connection == 2 && m.Method == AmqpMethods.BasicQos), "QoS again on the channel opened again");

        // It still works: a delivery to a recovered consumer arrives, on the channel opened again.
        await broker.Current.DeliverAsync("c-q3", "after"u8.ToArray());
        await using IAsyncEnumerator<AmqpDelivery> reading = consumers[2].ReadAllAsync().GetAsyncEnumerator();
        Assert.True(await reading.MoveNextAsync().AsTask().WaitAsync(s_wait));
        await channel.AckAsync(reading.Current.DeliveryTag);
        await broker.WaitForAsync(m => m.Connection == 2 && m.Method == AmqpMethods.BasicAck, "the ack");
    }

    [Fact]
    public async Task The_failure_handler_puts_it_right_on_its_channel_and_the_consumer_is_tried_once_more()
    {
        await using var broker = new AutoBroker();
        var failures = new ConcurrentQueue<AmqpTopologyRecoveryFailure>();
        AmqpConnectionOptions options = broker.Options();
        options.TopologyRecoveryFailed = async (failure, ct) =>
        {
            failures.Enqueue(failure);
            await failure.Channel.QueueDeclareAsync("q2", cancellationToken: ct); // the queue deleted meanwhile, declared again
            return true;
        };
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options);
        AmqpChannel channel = await connection.OpenChannelAsync();
        AmqpConsumer consumer = await channel.ConsumeAsync("q2", consumerTag: "c");
        int refusals = 0;
        broker.RefuseConsume = (session, queue) => session.Number == 2 && Interlocked.Increment(ref refusals) == 1;

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => connection.IsOpen && broker.Connections == 2, "recovered");

        AmqpTopologyRecoveryFailure failure = Assert.Single(failures);
        AmqpRecordedConsumer recorded = Assert.IsType<AmqpRecordedConsumer>(failure.Entity);
        Assert.Same(consumer, recorded.Consumer);
        Expect.Equal(2, broker.Methods.Count(m => m.Connection == 2 && m.Method == AmqpMethods.BasicConsume), "consume, then consume once more");
        Assert.False(consumer.Completion.IsCompleted);
    }

    [Fact]
    public async Task The_recovering_consumer_hook_changes_the_arguments_it_is_registered_with()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        await channel.ConsumeAsync("stream", consumerTag: "c",
            arguments: FieldTable.FromDictionary(new Dictionary<string, object?> { ["x-stream-offset"] = 0L }));
        long processed = 41;
        connection.RecoveringConsumer += (_, e) =>
            e.Arguments = FieldTable.FromDictionary(new Dictionary<string, object?> { ["x-stream-offset"] = processed + 1 });

        broker.Current.Drop();
        AutoBroker.Received again = await broker.WaitForAsync(m => m.Connection == 2 && m.Method == AmqpMethods.BasicConsume, "the consumer again");

        var method = AmqpMethodReader.Parse(again.Payload);
        Assert.True(method.GetTable(7).TryGetValue("x-stream-offset", out FieldValue offset));
        Expect.Equal(42L, offset.GetInt64(), "the offset the hook set");
    }

    [Fact]
    public async Task New_queue_names_and_consumer_tags_are_reported_and_followed()
    {
        await using var broker = new AutoBroker { RenameConsumerTags = true };
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true);
        AmqpConsumer consumer = await channel.ConsumeAsync(queue.Name, consumerTag: "mine");
        var names = new ConcurrentQueue<string>();
        connection.QueueNameChangedAfterRecovery += (_, e) => names.Enqueue($"{e.NameBefore}->{e.NameAfter}");
        connection.ConsumerTagChangedAfterRecovery += (_, e) => names.Enqueue($"{e.TagBefore}->{e.TagAfter}");

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => connection.IsOpen && broker.Connections == 2 && names.Count == 2, "recovered with both events");

        Expect.Equal($"{queue.Name}->{consumer.Queue},mine->{consumer.Tag}", string.Join(",", names), "the events");
        Assert.NotEqual(queue.Name, consumer.Queue);
        await broker.Current.DeliverAsync(consumer.Tag, [7]);
        await using IAsyncEnumerator<AmqpDelivery> reading = consumer.ReadAllAsync().GetAsyncEnumerator();
        Assert.True(await reading.MoveNextAsync().AsTask().WaitAsync(s_wait), "a delivery to the new tag reaches the consumer");
    }

    [Fact]
    public async Task A_consume_that_times_out_during_recovery_fails_that_attempt_and_the_next_registers_the_consumer()
    {
        // RabbitMQ.Client #1993: the consumer was silently lost.
        await using var broker = new AutoBroker();
        broker.BeforeAnswer = (session, r) => session.Number == 2 && r.Method == AmqpMethods.BasicConsume ? Task.Delay(TimeSpan.FromSeconds(30)) : Task.CompletedTask;
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        channel.ContinuationTimeout = TimeSpan.FromSeconds(1); // short, yet long enough for a loaded machine's other replies
        AmqpConsumer consumer = await channel.ConsumeAsync("q", consumerTag: "c");
        var failed = new ConcurrentQueue<Exception?>();
        connection.RecoveryFailed += (_, e) => failed.Enqueue(e.Error);

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => connection.IsOpen && broker.Connections >= 3, "recovered on a later link");

        // The attempt on the second link failed on the consume; a later one (the third, unless the machine was slow
        // enough to fail another) registered the consumer again.
        Assert.IsType<TimeoutException>(failed.First());
        int last = broker.Connections;
        await broker.WaitForAsync(m => m.Connection == last && m.Method == AmqpMethods.BasicConsume, "the consumer on the link recovery ended on");
        Assert.False(consumer.Completion.IsCompleted);
    }

    [Fact]
    public async Task A_channel_disposed_before_the_loss_is_not_opened_again_and_recovery_succeeds()
    {
        // RabbitMQ.Client #1647.
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel kept = await connection.OpenChannelAsync();
        AmqpChannel disposed = await connection.OpenChannelAsync();
        await disposed.ConsumeAsync("q", consumerTag: "gone");
        await disposed.DisposeAsync();

        broker.Current.Drop();
        await AutoBroker.WaitUntilAsync(() => connection.IsOpen && broker.Connections == 2, "recovered");
        await Task.Delay(100);

        ushort[] reopened = [.. broker.Methods.Where(m => m.Connection == 2 && m.Method == AmqpMethods.ChannelOpen).Select(m => m.Channel)];
        Expect.Equal(kept.Number.ToString(), string.Join(",", reopened), "the channels opened again");
        Assert.DoesNotContain(broker.Methods, m => m.Connection == 2 && m.Method == AmqpMethods.BasicConsume);
    }
}
