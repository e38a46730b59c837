using System.Buffers.Binary;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// Where code awaiting a confirm or a delivery resumes: on the thread pool by default; on the connection's reader
/// thread with <see cref="AmqpConnectionOptions.AllowSynchronousContinuations"/>, which must still deliver every
/// confirm and message, in order, and leave the connection working. Each scenario runs under Task.Run, away from the
/// test framework's synchronization context, which would otherwise decide the thread instead.
/// </summary>
public class ContinuationTests
{
    private const string ReaderThread = "Spanwire AMQP reader";

    [BrokerFact]
    public async Task By_default_confirms_and_deliveries_resume_off_the_reader_thread()
    {
        (List<string?> confirmThreads, List<string?> deliveryThreads) = await Task.Run(() => PublishAndConsumeAsync(synchronous: false, count: 2_000));
        Assert.DoesNotContain(ReaderThread, confirmThreads);
        Assert.DoesNotContain(ReaderThread, deliveryThreads);
    }

    [BrokerFact]
    public async Task With_synchronous_continuations_confirms_and_deliveries_resume_on_the_reader_thread_and_all_arrive_in_order()
    {
        (List<string?> confirmThreads, List<string?> deliveryThreads) = await Task.Run(() => PublishAndConsumeAsync(synchronous: true, count: 20_000));
        Assert.Contains(ReaderThread, confirmThreads);
        Assert.Contains(ReaderThread, deliveryThreads);
    }

    [BrokerFact]
    public Task WithSynchronousContinuations_AnRpcAwaitedOnTheReaderThread_Completes() => Task.Run(async () =>
    {
        await using AmqpConnection connection = await Broker.ConnectAsync(o => o.AllowSynchronousContinuations = true);
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);

        await channel.PublishConfirmedAsync("", queue.Name, default, new byte[4], cancellationToken: TestTimeout.Token);
        // Here the code may run on the reader thread: awaiting another reply from the broker must not stall it.
        AmqpQueueInfo info = await channel.QueueDeclareAsync(queue.Name, passive: true, cancellationToken: TestTimeout.Token);
        Assert.Equal(1u, info.MessageCount);
        await channel.WaitForConfirmsAsync(TestTimeout.Token);
        Assert.True(connection.IsOpen);
    });

    private static async Task<(List<string?> Confirms, List<string?> Deliveries)> PublishAndConsumeAsync(bool synchronous, int count)
    {
        await using AmqpConnection connection = await Broker.ConnectAsync(o => o.AllowSynchronousContinuations = synchronous);
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);

        var confirmThreads = new List<string?>();
        var window = new ValueTask[500];
        var body = new byte[8];
        for (int sent = 0; sent < count; sent += window.Length)
        {
            for (int i = 0; i < window.Length; i++)
            {
                BinaryPrimitives.WriteInt64BigEndian(body, sent + i);
                window[i] = channel.PublishConfirmedAsync("", queue.Name, default, body);
            }

            foreach (ValueTask confirm in window)
            {
                await confirm;
                confirmThreads.Add(Thread.CurrentThread.Name);
            }
        }

        Assert.Equal(0, channel.UnconfirmedCount);

        var deliveryThreads = new List<string?>();
        await channel.QosAsync(1000, cancellationToken: TestTimeout.Token);
        AmqpConsumer consumer = await channel.ConsumeAsync(queue.Name, cancellationToken: TestTimeout.Token);
        long expected = 0;
        await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(TestTimeout.Token))
        {
            deliveryThreads.Add(Thread.CurrentThread.Name);
            Assert.Equal(expected, BinaryPrimitives.ReadInt64BigEndian(delivery.Body.Span));
            await channel.AckAsync(delivery.DeliveryTag);
            if (++expected == count)
            {
                break;
            }
        }

        Assert.Equal(count, expected);
        await consumer.CancelAsync(TestTimeout.Token);
        Assert.Equal(0u, (await channel.QueueDeclareAsync(queue.Name, passive: true, cancellationToken: TestTimeout.Token)).MessageCount);
        return (confirmThreads, deliveryThreads);
    }
}
