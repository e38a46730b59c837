using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// Where a consumer loop resumes when a delivery arrives: on the connection's dispatch thread while that thread is
/// idle, on the thread pool while it runs someone's code, on the reader thread with synchronous continuations; and a
/// wait that ends when its token is cancelled.
/// </summary>
public class DeliveryDispatchTests
{
    private const string DispatchThread = "Spanwire AMQP dispatch";

    [Fact]
    public async Task A_loop_woken_by_a_delivery_resumes_on_the_connections_dispatch_thread()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());

        Expect.Equal<string?>(DispatchThread, await ThreadOfFirstDeliveryAsync(broker, connection), "the thread the loop resumed on");
    }

    [Fact]
    public async Task With_synchronous_continuations_a_loop_resumes_on_the_reader_thread()
    {
        await using var broker = new AutoBroker();
        AmqpConnectionOptions options = broker.Options();
        options.AllowSynchronousContinuations = true;
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options);

        Expect.Equal<string?>("Spanwire AMQP reader", await ThreadOfFirstDeliveryAsync(broker, connection), "the thread the loop resumed on");
        Assert.Null(connection.Dispatcher);
    }

    [Fact]
    public async Task A_loop_that_blocks_the_dispatch_thread_delays_no_other_consumer()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        AmqpConsumer blocking = await channel.ConsumeAsync("q1", consumerTag: "blocking", autoAck: true);
        AmqpConsumer other = await channel.ConsumeAsync("q2", consumerTag: "other", autoAck: true);
        using var blocked = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        Task blocker = Task.Run(async () =>
        {
            await foreach (AmqpDelivery _ in blocking.ReadAllAsync().ConfigureAwait(false))
            {
                blocked.Set();
                release.Wait(); // application code that blocks whatever thread it runs on
            }
        });
        Task<string?> otherResumedOn = ThreadOfFirstDeliveryAsync(other);
        await Task.Delay(50);
        await broker.Current.DeliverAsync("blocking", [1]);
        Assert.True(blocked.Wait(TimeSpan.FromSeconds(20)), "the blocking loop received its delivery");

        await broker.Current.DeliverAsync("other", [2]);
        string? thread = await otherResumedOn.WaitAsync(TimeSpan.FromSeconds(20));
        bool stillBlocked = !release.IsSet;
        release.Set();

        Assert.True(stillBlocked, "the other consumer got its delivery while the first still blocked");
        Assert.NotEqual(DispatchThread, thread);
        await blocking.CancelAsync();
        await blocker.WaitAsync(TimeSpan.FromSeconds(20));
    }

    [Fact]
    public async Task Waiting_for_a_delivery_ends_when_its_token_is_cancelled_and_the_consumer_reads_on_afterwards()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        AmqpConsumer consumer = await channel.ConsumeAsync("q", consumerTag: "c", autoAck: true);
        using var cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(100));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () =>
        {
            await foreach (AmqpDelivery _ in consumer.ReadAllAsync(cts.Token))
            {
                Assert.Fail("no delivery was sent");
            }
        });

        Assert.NotNull(await ThreadOfFirstDeliveryAsync(broker, consumer, "c"));
    }

    [Fact]
    public async Task The_dispatch_thread_ends_with_the_connection()
    {
        await using var broker = new AutoBroker();
        AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        await ThreadOfFirstDeliveryAsync(broker, connection);
        Assert.True(connection.Dispatcher!.IsRunning, "the dispatch thread runs once a loop was woken");

        await connection.DisposeAsync();

        await AutoBroker.WaitUntilAsync(() => !connection.Dispatcher.IsRunning, "the dispatch thread ended");
    }

    /// <summary>Starts a consumer on a new channel, has the broker deliver to it once it waits, and names the thread its loop resumed on.</summary>
    private static async Task<string?> ThreadOfFirstDeliveryAsync(AutoBroker broker, AmqpConnection connection)
    {
        AmqpChannel channel = await connection.OpenChannelAsync();
        return await ThreadOfFirstDeliveryAsync(broker, await channel.ConsumeAsync("q", consumerTag: "c", autoAck: true), "c");
    }

    private static async Task<string?> ThreadOfFirstDeliveryAsync(AutoBroker broker, AmqpConsumer consumer, string tag)
    {
        Task<string?> resumedOn = ThreadOfFirstDeliveryAsync(consumer);
        await Task.Delay(50); // the loop waits before the delivery arrives
        await broker.Current.DeliverAsync(tag, [1]);
        return await resumedOn.WaitAsync(TimeSpan.FromSeconds(20));
    }

    /// <summary>The name of the thread the consumer's first delivery was handed out on (null for the pool's).</summary>
    private static Task<string?> ThreadOfFirstDeliveryAsync(AmqpConsumer consumer) => Task.Run(async () =>
    {
        await foreach (AmqpDelivery _ in consumer.ReadAllAsync().ConfigureAwait(false))
        {
            return Thread.CurrentThread.Name;
        }

        return "the stream ended without a delivery";
    });
}
