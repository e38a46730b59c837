using System.Collections.Concurrent;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// Handler consumers: deliveries handled several at once when asked, acks right whatever the order, and a handler
/// that throws reported while the consumer goes on (or, when asked, ending it).
/// </summary>
public class HandlerConsumerTests
{
    [Theory]
    [InlineData(1)] // the default: one at a time, in order
    [InlineData(4)]
    public async Task Handlers_run_as_many_at_once_as_the_dispatch_concurrency_and_every_ack_reaches_the_broker(int concurrency)
    {
        const int messages = 12;
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        int running = 0, most = 0;
        var order = new ConcurrentQueue<string>();
        await channel.ConsumeAsync("q", async (delivery, _) =>
        {
            int now = Interlocked.Increment(ref running);
            InterlockedMax(ref most, now);
            order.Enqueue(AutoBroker.Text(delivery.Body.Span));
            await Task.Delay(30); // long enough for the others to start, if they may
            Interlocked.Decrement(ref running);
            await channel.AckAsync(delivery.DeliveryTag);
        }, new AmqpConsumerOptions { ConsumerTag = "c", DispatchConcurrency = concurrency });

        for (int i = 0; i < messages; i++)
        {
            await broker.Current.DeliverAsync("c", System.Text.Encoding.UTF8.GetBytes($"m{i}"));
        }

        await broker.WaitForAsync(_ => broker.Methods.Count(m => m.Method == AmqpMethods.BasicAck) == messages, "an ack for every delivery");
        ulong[] acked = [.. broker.Methods.Where(m => m.Method == AmqpMethods.BasicAck).Select(m => AmqpMethodReader.Parse(m.Payload).GetLongLong(0)).Order()];

        Expect.Equal(concurrency, most, "handlers running at once at the most");
        Expect.Equal(string.Join(",", Enumerable.Range(1, messages)), string.Join(",", acked), "the tags acked");
        if (concurrency == 1)
        {
            Expect.Equal(string.Join(",", Enumerable.Range(0, messages).Select(i => $"m{i}")), string.Join(",", order), "one at a time keeps the order");
        }
    }

    [Fact]
    public async Task A_handler_that_throws_is_reported_with_its_delivery_and_the_consumer_goes_on()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        var reported = new ConcurrentQueue<AmqpCallbackExceptionEventArgs>();
        channel.CallbackException += (_, e) => reported.Enqueue(e);
        var handled = new ConcurrentQueue<string>();
        AmqpConsumer consumer = await channel.ConsumeAsync("q", (delivery, _) =>
        {
            string text = AutoBroker.Text(delivery.Body.Span);
            if (text == "bad")
            {
                throw new InvalidOperationException("cannot handle bad");
            }

            handled.Enqueue(text);
            return ValueTask.CompletedTask;
        }, autoAck: true, consumerTag: "c");

        foreach (string text in new[] { "one", "bad", "two" })
        {
            await broker.Current.DeliverAsync("c", System.Text.Encoding.UTF8.GetBytes(text));
        }

        await broker.WaitForAsync(_ => handled.Count == 2, "the deliveries after the failing one");
        AmqpCallbackExceptionEventArgs report = Assert.Single(reported);
        Expect.Equal("cannot handle bad", report.Exception.Message, "the exception reported");
        Expect.Equal(2UL, report.DeliveryTag, "the delivery it was handling");
        Assert.Same(consumer, report.Consumer);
        Assert.False(consumer.Completion.IsCompleted);
        Assert.DoesNotContain(broker.Methods, m => m.Method == AmqpMethods.BasicCancel);
    }

    [Fact]
    public async Task StopOnHandlerException_ends_the_consumer_with_the_exception_and_cancels_it_at_the_broker()
    {
        await using var broker = new AutoBroker();
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(broker.Options());
        AmqpChannel channel = await connection.OpenChannelAsync();
        AmqpConsumer consumer = await channel.ConsumeAsync("q", (_, _) => throw new InvalidOperationException("stop here"),
            new AmqpConsumerOptions { ConsumerTag = "c", AutoAck = true, StopOnHandlerException = true });

        await broker.Current.DeliverAsync("c", [1]);

        InvalidOperationException ended = await Assert.ThrowsAsync<InvalidOperationException>(() => consumer.Completion.WaitAsync(TimeSpan.FromSeconds(10)));
        Expect.Equal("stop here", ended.Message, "Completion's exception");
        await broker.WaitForAsync(m => m.Method == AmqpMethods.BasicCancel, "basic.cancel");
        Assert.True(channel.IsOpen);
    }

    private static void InterlockedMax(ref int target, int value)
    {
        int seen;
        while ((seen = Volatile.Read(ref target)) < value && Interlocked.CompareExchange(ref target, value, seen) != seen)
        {
        }
    }
}
