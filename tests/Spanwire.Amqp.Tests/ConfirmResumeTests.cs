using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// Where code awaiting a publish's confirm resumes: on the connection's dispatch thread while it is idle (no
/// thread-pool worker woken per confirm), on the reader thread with synchronous continuations, on the awaiter's own
/// SynchronizationContext when it has one; and a continuation that blocks on another confirm does not stall it.
/// </summary>
public class ConfirmResumeTests
{
    [Theory]
    [InlineData(false, "Spanwire AMQP dispatch")] // the default: the connection's dispatch thread, while it is idle
    [InlineData(true, "Spanwire AMQP reader")] // AllowSynchronousContinuations: inline on the reader thread
    public async Task Code_awaiting_a_confirm_resumes_on_the_connection_s_own_thread(bool synchronousContinuations, string thread)
    {
        await using var broker = new AutoBroker();
        SemaphoreSlim ack = HoldConfirms(broker);
        AmqpConnectionOptions options = broker.Options();
        options.AllowSynchronousContinuations = synchronousContinuations;
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options);
        AmqpChannel channel = await connection.OpenChannelAsync();
        await channel.EnableConfirmsAsync();

        string? resumedOn = await ResumedOnAsync(channel, ack);
        Expect.Equal<string?>(thread, resumedOn, "the thread the awaiting code resumed on");
    }

    [Fact]
    public async Task A_continuation_that_blocks_on_a_later_confirm_stalls_nothing()
    {
        await using var broker = new AutoBroker();
        SemaphoreSlim release = HoldConfirms(broker);
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        await channel.EnableConfirmsAsync();

        ValueTask first = channel.PublishConfirmedAsync("", "q", default, new byte[1]);
        Task second = channel.PublishConfirmedAsync("", "q", default, new byte[2]).AsTask();
        Task blocker = BlockOnSecondAsync(first, second);
        release.Release(2); // the first confirm resumes code that blocks its thread until the second is confirmed
        await blocker.WaitAsync(TimeSpan.FromSeconds(20));

        // And the connection goes on.
        release.Release();
        await channel.PublishConfirmedAsync("", "q", default, new byte[3]).AsTask().WaitAsync(TimeSpan.FromSeconds(20));
    }

    [Fact]
    public async Task An_awaiter_with_a_SynchronizationContext_resumes_through_it()
    {
        await using var broker = new AutoBroker();
        SemaphoreSlim ack = HoldConfirms(broker);
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        await channel.EnableConfirmsAsync();
        var context = new CountingContext();

        Task awaited = RunIn(context, async () => await channel.PublishConfirmedAsync("", "q", default, new byte[1]));
        ack.Release(); // only now, so the code above awaits rather than finding the confirm already there
        await awaited.WaitAsync(TimeSpan.FromSeconds(20));
        Assert.True(context.Posts > 0, "the continuation was posted to the awaiter's context");
    }

    /// <summary>Holds the broker's answer to each publish until the returned semaphore is released once for it.</summary>
    private static SemaphoreSlim HoldConfirms(AutoBroker broker)
    {
        var release = new SemaphoreSlim(0);
        broker.BeforeAnswer = (_, r) => r.Method == AmqpMethods.BasicPublish ? release.WaitAsync() : Task.CompletedTask;
        return release;
    }

    /// <summary>
    /// Publishes, has code await the confirm before the broker may send it (else the await would complete at once, on
    /// the caller's thread), then lets it through and says which thread that code resumed on.
    /// </summary>
    private static async Task<string?> ResumedOnAsync(AmqpChannel channel, SemaphoreSlim ack)
    {
        Task<string?> resumed = AwaitConfirmAsync(channel.PublishConfirmedAsync("", "q", default, new byte[1]));
        ack.Release();
        return await resumed.WaitAsync(TimeSpan.FromSeconds(20));
    }

    private static async Task<string?> AwaitConfirmAsync(ValueTask confirm)
    {
        await confirm.ConfigureAwait(false);
        return Thread.CurrentThread.Name;
    }

    private static async Task BlockOnSecondAsync(ValueTask first, Task second)
    {
        await first.ConfigureAwait(false);
        second.Wait(TimeSpan.FromSeconds(20)); // application code that blocks whatever thread it resumed on
        Assert.True(second.IsCompletedSuccessfully, "the second confirm arrived while the first's continuation blocked");
    }

    private static Task RunIn(SynchronizationContext context, Func<Task> body)
    {
        SynchronizationContext? previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(context);
        try
        {
            return body();
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(previous);
        }
    }

    /// <summary>Runs what is posted on the thread pool, counting the posts.</summary>
    private sealed class CountingContext : SynchronizationContext
    {
        private int _posts;

        public int Posts => Volatile.Read(ref _posts);

        public override void Post(SendOrPostCallback d, object? state)
        {
            Interlocked.Increment(ref _posts);
            ThreadPool.QueueUserWorkItem(_ =>
            {
                SetSynchronizationContext(this);
                d(state);
            });
        }
    }
}
