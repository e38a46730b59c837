using System.Buffers.Binary;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// Publishes on one channel reach the broker in the order of the calls, however congested the connection is: calls
/// that wait for room and calls that find it never overtake each other.
/// </summary>
public class PublishOrderTests
{
    private const int BodySize = 32 * 1024;

    [BrokerFact]
    public async Task Confirmed_publishes_500_in_flight_32KiB_bodies_arrive_at_the_consumer_in_call_order()
    {
        const int Count = 3_000;
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);

        var window = new Queue<ValueTask>();
        for (int i = 0; i < Count; i++)
        {
            window.Enqueue(channel.PublishConfirmedAsync("", queue.Name, default, Body(i)));
            if (window.Count == 500)
            {
                await window.Dequeue();
            }
        }

        while (window.Count > 0)
        {
            await window.Dequeue();
        }

        AmqpChannel consuming = await connection.OpenChannelAsync(TestTimeout.Token);
        await consuming.QosAsync(500, cancellationToken: TestTimeout.Token);
        AmqpConsumer consumer = await consuming.ConsumeAsync(queue.Name, autoAck: true, cancellationToken: TestTimeout.Token);
        var order = new List<int>();
        await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(TestTimeout.Token))
        {
            order.Add(BinaryPrimitives.ReadInt32BigEndian(delivery.Body.ToArray()));
            if (order.Count == Count)
            {
                break;
            }
        }

        Expect.InOrder(order, "publishes");
    }

    // A body of its own per call (a parked publish reads its body when it is written), numbered in call order.
    private static byte[] Body(int number)
    {
        var body = new byte[BodySize];
        BinaryPrimitives.WriteInt32BigEndian(body, number);
        return body;
    }

}
