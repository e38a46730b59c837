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

    [Fact]
    public async Task Congested_channel_window_of_awaited_publishes_frames_leave_in_call_order()
    {
        // A broker that reads nothing at first, so more than a MiB waits and publishes park, then reads everything.
        const int Count = 600;
        await using var fake = new FakeBroker();
        await using AmqpConnection connection = await fake.ConnectClientAsync(Timeout.Token);
        AmqpChannel channel = await fake.OpenChannelAsync(connection, Timeout.Token);

        Task publishing = Task.Run(async () =>
        {
            var window = new Queue<ValueTask>();
            for (int i = 0; i < Count; i++)
            {
                window.Enqueue(channel.PublishAsync("", "q", Body(i)));
                if (window.Count == 50)
                {
                    await window.Dequeue();
                }
            }

            while (window.Count > 0)
            {
                await window.Dequeue();
            }
        });
        await Task.Delay(300);

        var order = new List<int>();
        while (order.Count < Count)
        {
            byte[] frame = await fake.ReceiveFrameAsync(Timeout.Token);
            if (frame[0] == (byte)AmqpFrameType.ContentBody)
            {
                order.Add(BinaryPrimitives.ReadInt32BigEndian(frame.AsSpan(7)));
            }
        }

        await publishing.WaitAsync(Timeout.Token);
        AssertInOrder(order);
    }

    [Fact]
    public async Task Cancelled_while_waiting_for_room_the_publish_is_never_sent_the_rest_keep_their_order()
    {
        const int Count = 600;
        await using var fake = new FakeBroker();
        await using AmqpConnection connection = await fake.ConnectClientAsync(Timeout.Token);
        AmqpChannel channel = await fake.OpenChannelAsync(connection, Timeout.Token);

        // Every third publish can be cancelled; those still waiting when the token fires must never reach the socket.
        using var cancel = new CancellationTokenSource();
        var publishes = new Task[Count];
        for (int i = 0; i < Count; i++)
        {
            publishes[i] = channel.PublishAsync("", "q", Body(i), i % 3 == 0 ? cancel.Token : CancellationToken.None).AsTask();
        }

        cancel.Cancel();
        var received = new List<int>();
        int expected = Count - publishes.Count(p => p.IsCanceled);
        while (received.Count < expected)
        {
            byte[] frame = await fake.ReceiveFrameAsync(Timeout.Token);
            if (frame[0] == (byte)AmqpFrameType.ContentBody)
            {
                received.Add(BinaryPrimitives.ReadInt32BigEndian(frame.AsSpan(7)));
            }
        }

        await Task.WhenAll(publishes.Where(p => !p.IsCanceled)).WaitAsync(Timeout.Token);
        Assert.Contains(publishes, p => p.IsCanceled); // the test reached congestion
        int[] sent = [.. Enumerable.Range(0, Count).Where(i => !publishes[i].IsCanceled)];
        Assert.Equal(sent, received);
    }

    [Fact]
    public async Task Confirmed_publishes_500_in_flight_32KiB_bodies_arrive_at_the_consumer_in_call_order()
    {
        const int Count = 3_000;
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(Timeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: Timeout.Token);
        await channel.EnableConfirmsAsync(Timeout.Token);

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

        AmqpChannel consuming = await connection.OpenChannelAsync(Timeout.Token);
        await consuming.QosAsync(500, cancellationToken: Timeout.Token);
        AmqpConsumer consumer = await consuming.ConsumeAsync(queue.Name, autoAck: true, cancellationToken: Timeout.Token);
        var order = new List<int>();
        await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(Timeout.Token))
        {
            order.Add(BinaryPrimitives.ReadInt32BigEndian(delivery.Body.ToArray()));
            if (order.Count == Count)
            {
                break;
            }
        }

        AssertInOrder(order);
    }

    // A body of its own per call (a parked publish reads its body when it is written), numbered in call order.
    private static byte[] Body(int number)
    {
        var body = new byte[BodySize];
        BinaryPrimitives.WriteInt32BigEndian(body, number);
        return body;
    }

    private static void AssertInOrder(List<int> order)
    {
        int outOfOrder = 0;
        int first = -1;
        for (int i = 0; i < order.Count; i++)
        {
            if (order[i] != i)
            {
                outOfOrder++;
                first = first < 0 ? i : first;
            }
        }

        Assert.True(outOfOrder == 0,
            $"{outOfOrder} of {order.Count} publishes out of order; the first at position {first}: {string.Join(", ", order.Skip(Math.Max(0, first - 3)).Take(8))}");
    }
}
