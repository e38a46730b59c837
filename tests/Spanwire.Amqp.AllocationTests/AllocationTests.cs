using Spanwire.Amqp.Client;
using Spanwire.Amqp.IntegrationTests;

namespace Spanwire.Amqp.AllocationTests;

[CollectionDefinition(nameof(AllocationTests), DisableParallelization = true)]
public sealed class AllocationCollection;

/// <summary>
/// After warm-up, publishing allocates nothing per message, with or without confirms. Measured process-wide, so these
/// tests have a process of their own and run one at a time, and the least of five runs counts: the runtime itself
/// allocates now and then (a thread-pool thread starting, a timer), none of it the publish path's doing. A small fixed
/// budget covers the rare publish that waits for a congested socket.
/// </summary>
[Collection(nameof(AllocationTests))]
public class AllocationTests
{
    private const int Messages = 20_000;
    private const long Budget = Messages / 2; // under half a byte per message on average

    [BrokerFact]
    public async Task Publish_after_warm_up_allocates_nothing_per_message()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        var body = new byte[256];
        await PublishAsync(channel, queue.Name, body);
        await channel.QueuePurgeAsync(queue.Name, TestTimeout.Token);

        long allocated = await LeastOfFiveAsync(() => PublishAsync(channel, queue.Name, body));
        Assert.True(allocated < Budget, $"{allocated} B for {Messages} publishes ({(double)allocated / Messages:0.###} B each)");
    }

    [BrokerFact]
    public async Task Publish_confirmed_after_warm_up_allocates_nothing_per_message()
    {
        await using AmqpConnection connection = await Broker.ConnectAsync();
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);
        var body = new byte[256];
        var window = new ValueTask[500];
        await PublishConfirmedAsync(channel, queue.Name, body, window);
        await channel.QueuePurgeAsync(queue.Name, TestTimeout.Token);

        long allocated = await LeastOfFiveAsync(() => PublishConfirmedAsync(channel, queue.Name, body, window));
        Assert.True(allocated < Budget, $"{allocated} B for {Messages} confirmed publishes ({(double)allocated / Messages:0.###} B each)");
    }

    private static async Task<long> LeastOfFiveAsync(Func<Task> run)
    {
        long least = long.MaxValue;
        for (int i = 0; i < 5; i++)
        {
            long before = GC.GetTotalAllocatedBytes(precise: true);
            await run();
            least = Math.Min(least, GC.GetTotalAllocatedBytes(precise: true) - before);
        }

        return least;
    }

    private static async Task PublishAsync(AmqpChannel channel, string queue, byte[] body)
    {
        for (int i = 0; i < Messages; i++)
        {
            await channel.PublishAsync("", queue, body);
        }
    }

    private static async Task PublishConfirmedAsync(AmqpChannel channel, string queue, byte[] body, ValueTask[] window)
    {
        for (int sent = 0; sent < Messages; sent += window.Length)
        {
            for (int i = 0; i < window.Length; i++)
            {
                window[i] = channel.PublishConfirmedAsync("", queue, default, body);
            }

            foreach (ValueTask confirm in window)
            {
                await confirm;
            }
        }
    }
}
