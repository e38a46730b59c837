using System.Buffers.Binary;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// Publishes on one channel leave in the order of the calls, however congested the connection is: calls that wait for
/// room and calls that find it never overtake each other (a fake broker that reads slowly).
/// </summary>
public class PublishOrderTests
{
    private const int BodySize = 32 * 1024;

    // A body of its own per call (a parked publish reads its body when it is written), numbered in call order.
    private static byte[] Body(int number) => [.. BitConverter.GetBytes(System.Net.IPAddress.HostToNetworkOrder(number)), .. new byte[BodySize - 4]];

    [Fact]
    public async Task Congested_channel_window_of_awaited_publishes_frames_leave_in_call_order()
    {
        // A broker that reads nothing at first, so more than a MiB waits and publishes park, then reads everything.
        const int Count = 600;
        await using var fake = new FakeBroker();
        await using AmqpConnection connection = await fake.ConnectClientAsync(TestTimeout.Token);
        AmqpChannel channel = await fake.OpenChannelAsync(connection, TestTimeout.Token);

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
            byte[] frame = await fake.ReceiveFrameAsync(TestTimeout.Token);
            if (frame[0] == (byte)AmqpFrameType.ContentBody)
            {
                order.Add(BinaryPrimitives.ReadInt32BigEndian(frame.AsSpan(7)));
            }
        }

        await publishing.WaitAsync(TestTimeout.Token);
        Expect.InOrder(order, "publishes");
    }

    [Fact]
    public async Task Cancelled_while_waiting_for_room_the_publish_is_never_sent_the_rest_keep_their_order()
    {
        const int Count = 600;
        await using var fake = new FakeBroker();
        await using AmqpConnection connection = await fake.ConnectClientAsync(TestTimeout.Token);
        AmqpChannel channel = await fake.OpenChannelAsync(connection, TestTimeout.Token);

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
            byte[] frame = await fake.ReceiveFrameAsync(TestTimeout.Token);
            if (frame[0] == (byte)AmqpFrameType.ContentBody)
            {
                received.Add(BinaryPrimitives.ReadInt32BigEndian(frame.AsSpan(7)));
            }
        }

        await Task.WhenAll(publishes.Where(p => !p.IsCanceled)).WaitAsync(TestTimeout.Token);
        Assert.Contains(publishes, p => p.IsCanceled); // the test reached congestion
        int[] sent = [.. Enumerable.Range(0, Count).Where(i => !publishes[i].IsCanceled)];
        Assert.Equal(sent, received);
    }
}
