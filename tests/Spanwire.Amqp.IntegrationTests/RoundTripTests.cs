using System.Text;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>What goes through a real broker comes back equal: properties, headers of every type, bodies of every size.</summary>
public class RoundTripTests
{
    [BrokerFact]
    public async Task Handshake_negotiates_with_the_broker()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync(o => { o.FrameMax = 0; o.Heartbeat = 30; o.ChannelMax = 0; });
        Assert.True(connection.IsOpen);
        Assert.Equal("RabbitMQ", Encoding.UTF8.GetString((byte[])connection.ServerProperties["product"]!));
        Assert.Equal(131072u, connection.FrameMax);   // we said "no limit": the broker's value wins
        Assert.Equal((ushort)30, connection.Heartbeat); // both non-zero: the smaller
        Assert.NotEqual((ushort)0, connection.ChannelMax);
    }

    [BrokerFact]
    public async Task Update_secret_is_accepted_and_the_connection_goes_on()
    {
        AmqpConnectionOptions options = Broker.Options();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        await connection.UpdateSecretAsync(options.Password, "rotation", TestTimeout.Token); // update-secret-ok
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        Assert.StartsWith("amq.gen-", (await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token)).Name);
    }

    [BrokerFact]
    public async Task All_fourteen_properties_and_every_header_type_round_trip()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        string exchange = Broker.Name("x"), queue = Broker.Name("q");
        await channel.ExchangeDeclareAsync(exchange, "direct", autoDelete: true, cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(queue, exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.QueueBindAsync(queue, exchange, "rk", cancellationToken: TestTimeout.Token);

        // Every field type RabbitMQ accepts ('L' and 'U' are not among them).
        var headers = new Dictionary<string, object?>
        {
            ["bool"] = true,
            ["sbyte"] = (sbyte)-5,
            ["byte"] = (byte)250,
            ["short"] = (short)-1234,
            ["ushort"] = (ushort)54321,
            ["int"] = -123456,
            ["uint"] = 4000000000u,
            ["long"] = long.MinValue,
            ["float"] = 1.5f,
            ["double"] = -2.25,
            ["decimal"] = 12.34m,
            ["timestamp"] = new AmqpTimestamp(1_700_000_000),
            ["table"] = new Dictionary<string, object?> { ["nested"] = new Dictionary<string, object?> { ["deep"] = 1 } },
            ["void"] = null,
            ["bytes"] = new ReadOnlyMemory<byte>([0xAA, 0x55]),
            ["string"] = Encoding.UTF8.GetBytes("héllo"),
            ["array"] = new List<object?> { 1, Encoding.UTF8.GetBytes("two"), 3.0, new List<object?> { true } },
        };
        var sent = new BasicProperties
        {
            ContentType = "application/json",
            ContentEncoding = "gzip",
            Headers = FieldTable.FromDictionary(headers),
            DeliveryMode = 2,
            Priority = 0, // explicitly zero: must arrive as present
            CorrelationId = "corr-1",
            ReplyTo = "reply.queue",
            Expiration = "60000",
            MessageId = "msg-1",
            Timestamp = new AmqpTimestamp(1_700_000_123),
            Type = "order.created",
            UserId = "guest", // RabbitMQ checks it against the connection's user
            AppId = "spanwire-tests",
            ClusterId = "cluster-7",
        };
        byte[] body = Encoding.UTF8.GetBytes("{\"id\":1}");
        await channel.PublishAsync(exchange, "rk", sent, body, cancellationToken: TestTimeout.Token);

        AmqpConsumer consumer = await channel.ConsumeAsync(queue, cancellationToken: TestTimeout.Token);
        await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(TestTimeout.Token))
        {
            BasicProperties got = delivery.Properties;
            Assert.Equal(sent.Flags, got.Flags);
            Assert.Equal(sent.ContentType, got.ContentType);
            Assert.Equal(sent.ContentEncoding, got.ContentEncoding);
            Assert.Equal(sent.DeliveryMode, got.DeliveryMode);
            Assert.Equal(sent.Priority, got.Priority);
            Assert.Equal(sent.CorrelationId, got.CorrelationId);
            Assert.Equal(sent.ReplyTo, got.ReplyTo);
            Assert.Equal(sent.Expiration, got.Expiration);
            Assert.Equal(sent.MessageId, got.MessageId);
            Assert.Equal(sent.Timestamp, got.Timestamp);
            Assert.Equal(sent.Type, got.Type);
            Assert.Equal(sent.UserId, got.UserId);
            Assert.Equal(sent.AppId, got.AppId);
            Assert.Equal(sent.ClusterId, got.ClusterId);
            Assert.Equal(sent.Headers!.Value.Span.ToArray(), got.Headers!.Value.Span.ToArray()); // byte for byte, so every type survived
            Assert.Equal(body, delivery.Body.Span.ToArray());
            Assert.Equal(exchange, delivery.Exchange);
            Assert.Equal("rk", delivery.RoutingKey);
            Assert.Equal(consumer.Tag, delivery.ConsumerTag);
            Assert.False(delivery.Redelivered);
            await channel.AckAsync(delivery.DeliveryTag);
            break;
        }

        await channel.CloseAsync(TestTimeout.Token);
    }

    [BrokerFact]
    public async Task Ten_megabyte_body_through_FrameMax_4096()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync(o => o.FrameMax = 4096);
        Assert.Equal(4096u, connection.FrameMax);
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        var body = new byte[10 * 1024 * 1024];
        new Random(42).NextBytes(body);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        await channel.PublishConfirmedAsync("", queue.Name, default, body, cancellationToken: TestTimeout.Token);

        using AmqpDelivery? delivery = await channel.GetAsync(queue.Name, autoAck: true, TestTimeout.Token);
        Assert.NotNull(delivery);
        Assert.Equal(body.Length, delivery.Body.Length);
        Assert.False(delivery.Body.IsSingleSegment);
        Assert.True(body.AsSpan().SequenceEqual(delivery.Body.ToArray()));
    }

    [BrokerFact]
    public async Task Empty_body_and_BasicGet_on_an_empty_queue()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        Assert.StartsWith("amq.gen-", queue.Name);
        Assert.Null(await channel.GetAsync(queue.Name, cancellationToken: TestTimeout.Token));

        await channel.PublishAsync("", queue.Name, ReadOnlyMemory<byte>.Empty, TestTimeout.Token);
        await channel.PublishAsync("", queue.Name, "second"u8.ToArray(), TestTimeout.Token);
        using AmqpDelivery? first = await WaitForGetAsync(channel, queue.Name);
        Assert.Equal(0, first.Body.Length);
        Assert.Equal(1u, first.MessageCount); // one left behind it
        await channel.AckAsync(first.DeliveryTag);
        using AmqpDelivery? second = await WaitForGetAsync(channel, queue.Name);
        Assert.Equal("second", Encoding.UTF8.GetString(second.Body.Span));
    }

    [BrokerFact]
    public async Task Body_used_after_release_throws_taken_body_outlives_the_delivery()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.PublishAsync("", queue.Name, "one"u8.ToArray(), TestTimeout.Token);
        await channel.PublishAsync("", queue.Name, "two"u8.ToArray(), TestTimeout.Token);

        AmqpConsumer consumer = await channel.ConsumeAsync(queue.Name, autoAck: true, cancellationToken: TestTimeout.Token);
        AmqpMessageBody? kept = null;
        AmqpDelivery? released = null;
        AmqpMessageBody? releasedBody = null;
        int count = 0;
        await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(TestTimeout.Token))
        {
            if (++count == 1)
            {
                released = delivery;
                releasedBody = delivery.Body;
            }
            else
            {
                kept = delivery.TakeBody();
                break;
            }
        }

        Assert.Throws<ObjectDisposedException>(() => released!.Body);
        Assert.Throws<ObjectDisposedException>(() => releasedBody!.Span.Length); // a kept reference cannot read reused memory
        Assert.Equal("two", Encoding.UTF8.GetString(kept!.Span));
        kept.Dispose();
        Assert.Throws<ObjectDisposedException>(() => kept.Length);
    }

    internal static async Task<AmqpDelivery> WaitForGetAsync(AmqpChannel channel, string queue)
    {
        for (int i = 0; i < 200; i++)
        {
            if (await channel.GetAsync(queue, cancellationToken: TestTimeout.Token) is { } delivery)
            {
                return delivery;
            }

            await Task.Delay(25);
        }

        throw new TimeoutException($"Nothing arrived in {queue} within 5 s.");
    }
}
