using System.Buffers.Binary;
using System.Text;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>Confirms, concurrency, returns, acks and nacks, cancellation and transactions against the broker.</summary>
public class PublishConsumeTests
{
    [BrokerFact]
    public async Task Hundred_thousand_confirmed_publishes_all_acked_none_lost_order_kept()
    {
        const int Count = 100_000;
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);

        var body = new byte[8];
        for (int i = 0; i < Count; i++)
        {
            BinaryPrimitives.WriteInt64BigEndian(body, i);
            await channel.PublishAsync("", queue.Name, body, TestTimeout.Token); // the frames are copied: body can be reused
            if (i % 10_000 == 9_999)
            {
                await channel.WaitForConfirmsAsync(TestTimeout.Token);
            }
        }

        await channel.WaitForConfirmsAsync(TestTimeout.Token);
        Assert.Equal(0, channel.UnconfirmedCount);

        AmqpChannel consuming = await connection.OpenChannelAsync(TestTimeout.Token);
        await consuming.QosAsync(1000, cancellationToken: TestTimeout.Token);
        AmqpConsumer consumer = await consuming.ConsumeAsync(queue.Name, cancellationToken: TestTimeout.Token);
        long expected = 0;
        await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(TestTimeout.Token))
        {
            Assert.Equal(expected, BinaryPrimitives.ReadInt64BigEndian(delivery.Body.Span));
            if (++expected % 100 == 0 || expected == Count)
            {
                await consuming.AckAsync(delivery.DeliveryTag, multiple: true);
            }

            if (expected == Count)
            {
                break;
            }
        }

        Assert.Equal(Count, expected);
        Assert.Equal(0u, (await channel.QueueDeclareAsync(queue.Name, passive: true, cancellationToken: TestTimeout.Token)).MessageCount);
    }

    [BrokerFact]
    public async Task QosAsync_takes_RabbitMQ_clients_argument_order_size_then_count_so_a_ported_call_limits_deliveries()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        for (int i = 0; i < 5; i++)
        {
            await channel.PublishAsync("", queue.Name, new byte[] { (byte)i }, TestTimeout.Token);
        }

        // As written for RabbitMQ.Client: BasicQosAsync(prefetchSize: 0, prefetchCount: 2, global: false).
        await channel.QosAsync(0, 2, false, TestTimeout.Token);
        AmqpConsumer consumer = await channel.ConsumeAsync(queue.Name, cancellationToken: TestTimeout.Token);
        await Task.Delay(300);

        AmqpQueueInfo state = await channel.QueueDeclareAsync(queue.Name, passive: true, cancellationToken: TestTimeout.Token);
        Expect.Equal(3u, state.MessageCount, "messages still ready with two unacknowledged deliveries allowed");
        await consumer.CancelAsync(TestTimeout.Token);
    }

    [BrokerFact]
    public async Task PublishConfirmedAsync_each_publish_awaits_its_own_ack()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await Assert.ThrowsAsync<InvalidOperationException>(async () => await channel.PublishConfirmedAsync("", queue.Name, default, new byte[1]));
        await channel.EnableConfirmsAsync(TestTimeout.Token);

        var pending = new ValueTask[500];
        for (int i = 0; i < pending.Length; i++)
        {
            pending[i] = channel.PublishConfirmedAsync("", queue.Name, default, new byte[16]);
        }

        foreach (ValueTask confirm in pending)
        {
            await confirm;
        }

        Assert.Equal(500u, (await channel.QueueDeclareAsync(queue.Name, passive: true, cancellationToken: TestTimeout.Token)).MessageCount);
    }

    [BrokerFact]
    public async Task Nacked_publish_faults_its_awaiter()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        // A full queue that rejects new publishes makes the broker nack them.
        var arguments = FieldTable.FromDictionary(new Dictionary<string, object?> { ["x-max-length"] = 1, ["x-overflow"] = Encoding.UTF8.GetBytes("reject-publish") });
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, arguments: arguments, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        await channel.PublishConfirmedAsync("", queue.Name, default, new byte[1], cancellationToken: TestTimeout.Token);
        await Assert.ThrowsAsync<AmqpPublishNackedException>(async () =>
            await channel.PublishConfirmedAsync("", queue.Name, default, new byte[1], cancellationToken: TestTimeout.Token));

        await channel.PublishAsync("", queue.Name, new byte[1], TestTimeout.Token);
        AmqpPublishNackedException batch = await Assert.ThrowsAsync<AmqpPublishNackedException>(() => channel.WaitForConfirmsAsync(TestTimeout.Token));
        Assert.Equal(1, batch.Count);
        Assert.True(channel.IsOpen);
    }

    [BrokerFact]
    public async Task Eight_channels_publishing_concurrently_on_one_connection()
    {
        const int PerChannel = 5_000;
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel setup = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await setup.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);

        await Task.WhenAll(Enumerable.Range(0, 8).Select(n => Task.Run(async () =>
        {
            AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
            await channel.EnableConfirmsAsync(TestTimeout.Token);
            var body = new byte[12];
            for (int i = 0; i < PerChannel; i++)
            {
                BinaryPrimitives.WriteInt32BigEndian(body, n);
                BinaryPrimitives.WriteInt64BigEndian(body.AsSpan(4), i);
                await channel.PublishAsync("", queue.Name, body, TestTimeout.Token);
            }

            await channel.WaitForConfirmsAsync(TestTimeout.Token);
            await channel.CloseAsync(TestTimeout.Token);
        })));

        // Every message arrived, and each channel's messages kept their order.
        var next = new long[8];
        AmqpConsumer consumer = await setup.ConsumeAsync(queue.Name, autoAck: true, cancellationToken: TestTimeout.Token);
        int total = 0;
        await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(TestTimeout.Token))
        {
            int n = BinaryPrimitives.ReadInt32BigEndian(delivery.Body.Span);
            Assert.Equal(next[n]++, BinaryPrimitives.ReadInt64BigEndian(delivery.Body.Span[4..]));
            if (++total == 8 * PerChannel)
            {
                break;
            }
        }

        Assert.All(next, count => Assert.Equal(PerChannel, count));
    }

    [BrokerFact]
    public async Task Mandatory_unroutable_is_returned_and_its_awaited_publish_faults_with_the_return()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        var returned = new TaskCompletionSource<AmqpReturnedMessage>(TaskCreationOptions.RunContinuationsAsynchronously);
        channel.Returned += (_, message) => returned.TrySetResult(message);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        var properties = new BasicProperties { MessageId = "lost-1" };
        AmqpPublishReturnedException fault = await Assert.ThrowsAsync<AmqpPublishReturnedException>(async () =>
            await channel.PublishConfirmedAsync("amq.direct", Broker.Name("nowhere"), properties, "ping"u8.ToArray(), mandatory: true, TestTimeout.Token));

        AmqpReturnedMessage message = await returned.Task.WaitAsync(TestTimeout.Token);
        Assert.Same(message, fault.Returned);
        Assert.Equal(1UL, fault.PublishSequenceNumber);
        Assert.Equal(AmqpReplyCode.NoRoute, message.ReplyCode);
        Assert.Equal("NO_ROUTE", message.ReplyText);
        Assert.Equal("amq.direct", message.Exchange);
        Assert.Equal("lost-1", message.Properties.MessageId);
        Assert.Equal("ping", Encoding.UTF8.GetString(message.Body.Span));
    }

    [BrokerFact]
    public async Task Template_publishes_arrive_with_the_templates_properties_and_their_own_bodies_and_mandatory_is_kept()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        var properties = new BasicProperties { AppId = "billing", DeliveryMode = 2, Priority = 0 };
        var toQueue = new AmqpPublishTemplate("", queue.Name, properties);
        for (int i = 0; i < 3; i++)
        {
            // Bodies on either side of the one-reservation limit, and an empty one.
            byte[] body = new byte[i switch { 0 => 10, 1 => 0, _ => 9000 }];
            body.AsSpan().Fill((byte)('a' + i));
            await channel.PublishConfirmedAsync(toQueue, body, TestTimeout.Token);
        }

        for (int i = 0; i < 3; i++)
        {
            AmqpDelivery? delivery = await channel.GetAsync(queue.Name, autoAck: true, TestTimeout.Token);
            Assert.NotNull(delivery);
            byte[] body = System.Buffers.BuffersExtensions.ToArray(delivery.Body.Sequence);
            Assert.Equal(i switch { 0 => 10, 1 => 0, _ => 9000 }, body.Length);
            Assert.All(body, b => Assert.Equal((byte)('a' + i), b));
            Assert.Equal("billing", delivery.Properties.AppId);
            Assert.Equal((byte)2, delivery.Properties.DeliveryMode);
            Assert.Equal((byte)0, delivery.Properties.Priority);
            delivery.Dispose();
        }

        var returned = new TaskCompletionSource<AmqpReturnedMessage>(TaskCreationOptions.RunContinuationsAsynchronously);
        channel.Returned += (_, message) => returned.TrySetResult(message);
        var nowhere = new AmqpPublishTemplate("amq.direct", Broker.Name("nowhere"), new BasicProperties { MessageId = "lost-2" }, mandatory: true);
        await channel.PublishAsync(nowhere, "ping"u8.ToArray(), TestTimeout.Token);
        AmqpReturnedMessage message = await returned.Task.WaitAsync(TestTimeout.Token);
        Assert.Equal(AmqpReplyCode.NoRoute, message.ReplyCode);
        Assert.Equal("lost-2", message.Properties.MessageId);
    }

    [BrokerFact]
    public async Task Nack_reject_requeue_and_multiple_ack()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        for (int i = 0; i < 4; i++)
        {
            await channel.PublishAsync("", queue.Name, new[] { (byte)i }, TestTimeout.Token);
        }

        using AmqpDelivery a = await RoundTripTests.WaitForGetAsync(channel, queue.Name);
        await channel.RejectAsync(a.DeliveryTag, requeue: true);
        using AmqpDelivery again = await RoundTripTests.WaitForGetAsync(channel, queue.Name);
        Assert.True(again.Redelivered);
        Assert.Equal(0, again.Body.Span[0]);
        await channel.NackAsync(again.DeliveryTag, requeue: false); // dropped

        using AmqpDelivery b = await RoundTripTests.WaitForGetAsync(channel, queue.Name);
        using AmqpDelivery c = await RoundTripTests.WaitForGetAsync(channel, queue.Name);
        await channel.NackAsync(c.DeliveryTag, multiple: true, requeue: true); // b and c back
        using AmqpDelivery b2 = await RoundTripTests.WaitForGetAsync(channel, queue.Name);
        using AmqpDelivery c2 = await RoundTripTests.WaitForGetAsync(channel, queue.Name);
        using AmqpDelivery d = await RoundTripTests.WaitForGetAsync(channel, queue.Name);
        Assert.Equal([1, 2, 3], new[] { b2.Body.Span[0], c2.Body.Span[0], d.Body.Span[0] });
        await channel.AckAsync(d.DeliveryTag, multiple: true);
        Assert.Null(await channel.GetAsync(queue.Name, cancellationToken: TestTimeout.Token));
        Assert.Equal(0u, await channel.QueuePurgeAsync(queue.Name, TestTimeout.Token));
    }

    [BrokerFact]
    public async Task Handler_consumer_cancelled_by_client_and_by_broker()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        string queue = (await channel.QueueDeclareAsync(Broker.Name("q"), cancellationToken: TestTimeout.Token)).Name;
        var seen = new List<string>();
        var three = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        AmqpConsumer consumer = await channel.ConsumeAsync(queue, async (delivery, ct) =>
        {
            seen.Add(Encoding.UTF8.GetString(delivery.Body.Span));
            await channel.AckAsync(delivery.DeliveryTag, cancellationToken: ct);
            if (seen.Count == 3)
            {
                three.TrySetResult();
            }
        }, consumerTag: "handler-1", cancellationToken: TestTimeout.Token);
        Assert.Equal("handler-1", consumer.Tag);
        foreach (string text in new[] { "a", "b", "c" })
        {
            await channel.PublishAsync("", queue, Encoding.UTF8.GetBytes(text), TestTimeout.Token);
        }

        await three.Task.WaitAsync(TestTimeout.Token);
        Assert.Equal(["a", "b", "c"], seen);
        await consumer.CancelAsync(TestTimeout.Token);
        await consumer.Completion.WaitAsync(TestTimeout.Token);
        Assert.False(consumer.IsCancelledByBroker);

        // Deleting the queue cancels its consumers from the broker's side.
        AmqpConsumer second = await channel.ConsumeAsync(queue, autoAck: true, cancellationToken: TestTimeout.Token);
        AmqpChannel other = await connection.OpenChannelAsync(TestTimeout.Token);
        await other.QueueDeleteAsync(queue, cancellationToken: TestTimeout.Token);
        await second.Completion.WaitAsync(TestTimeout.Token);
        Assert.True(second.IsCancelledByBroker);
        Assert.True(channel.IsOpen);
    }

    [BrokerFact]
    public async Task Transactions_commit_and_rollback()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.TxSelectAsync(TestTimeout.Token);
        await channel.PublishAsync("", queue.Name, "rolled back"u8.ToArray(), TestTimeout.Token);
        await channel.TxRollbackAsync(TestTimeout.Token);
        await channel.PublishAsync("", queue.Name, "committed"u8.ToArray(), TestTimeout.Token);
        await channel.TxCommitAsync(TestTimeout.Token);

        using AmqpDelivery delivery = await RoundTripTests.WaitForGetAsync(channel, queue.Name);
        Assert.Equal("committed", Encoding.UTF8.GetString(delivery.Body.Span));
        Assert.Equal(0u, delivery.MessageCount);
    }

    [BrokerFact]
    public async Task Exchange_to_exchange_bindings_route_and_unbind()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        string source = Broker.Name("src"), destination = Broker.Name("dst");
        await channel.ExchangeDeclareAsync(source, "fanout", autoDelete: false, cancellationToken: TestTimeout.Token);
        await channel.ExchangeDeclareAsync(destination, "topic", cancellationToken: TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.QueueBindAsync(queue.Name, destination, "#", cancellationToken: TestTimeout.Token);
        await channel.ExchangeBindAsync(destination, source, "", cancellationToken: TestTimeout.Token);
        await channel.PublishAsync(source, "any", "routed"u8.ToArray(), TestTimeout.Token);
        using AmqpDelivery delivery = await RoundTripTests.WaitForGetAsync(channel, queue.Name);
        Assert.Equal(source, delivery.Exchange);

        await channel.ExchangeUnbindAsync(destination, source, "", cancellationToken: TestTimeout.Token);
        await channel.QueueUnbindAsync(queue.Name, destination, "#", cancellationToken: TestTimeout.Token);
        await channel.ExchangeDeleteAsync(source, cancellationToken: TestTimeout.Token);
        await channel.ExchangeDeleteAsync(destination, ifUnused: true, cancellationToken: TestTimeout.Token);
        await channel.ExchangeDeclareAsync("amq.direct", "direct", durable: true, passive: true, cancellationToken: TestTimeout.Token);
    }
}
