using System.Text;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;
using Spanwire.Amqp.DropIn;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// The drop-in (<see cref="SpanwireConnectionFactory"/>) against RabbitMQ.Client itself: each scenario is written once
/// against RabbitMQ.Client's interfaces, run through RabbitMQ.Client's <see cref="ConnectionFactory"/> (the control)
/// and through Spanwire's on the same broker, and what each observed (return values, events in order, exceptions and
/// their shutdown reasons) must be the same.
/// </summary>
[Trait("Category", BrokerTests.Trait)]
public sealed partial class DropInTests
{
    internal delegate Task<string> Scenario(IConnectionFactory factory, string name);

    [BrokerFact]
    public Task Publish_and_consume_every_property_and_header_type() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        var properties = new BasicProperties
        {
            ContentType = "application/json",
            ContentEncoding = "utf-8",
            DeliveryMode = DeliveryModes.Persistent,
            Priority = 3,
            CorrelationId = "c-1",
            ReplyTo = "replies",
            Expiration = "60000",
            MessageId = "m-1",
            Timestamp = new AmqpTimestamp(1_700_000_000),
            Type = "order",
            UserId = "guest",
            AppId = "tests",
            ClusterId = "",
            Headers = new Dictionary<string, object?>
            {
                ["int"] = 42,
                ["long"] = 1L << 40,
                ["string"] = "text",
                ["bytes"] = new byte[] { 1, 2, 3 },
                ["bool"] = true,
                ["double"] = 1.5,
                ["decimal"] = 12.34m,
                ["time"] = new AmqpTimestamp(1_600_000_000),
                ["null"] = null,
                ["list"] = new List<object?> { 1, "two" },
                ["table"] = new Dictionary<string, object?> { ["nested"] = 7 },
            },
        };
        var received = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += async (_, e) =>
        {
            received.TrySetResult($"{e.Exchange}|{e.RoutingKey}|{e.Redelivered}|{Describe(e.BasicProperties)}|{Encoding.UTF8.GetString(e.Body.Span)}");
            await channel.BasicAckAsync(e.DeliveryTag, multiple: false);
        };
        string tag = await channel.BasicConsumeAsync(name, autoAck: false, consumer, TestTimeout.Token);
        await channel.BasicPublishAsync("", name, mandatory: false, properties, Encoding.UTF8.GetBytes("hello"), TestTimeout.Token);
        string outcome = await received.Task.WaitAsync(TestTimeout.Token);
        await channel.BasicCancelAsync(tag, cancellationToken: TestTimeout.Token);
        await Until(() => !consumer.IsRunning); // RabbitMQ.Client tells the consumer after BasicCancelAsync returns
        return $"{outcome}|tags={consumer.ConsumerTags.Length}";
    });

    [BrokerFact]
    public Task Tracked_confirms_complete_on_ack_and_fail_on_return() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true), TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        ulong first = await channel.GetNextPublishSequenceNumberAsync(TestTimeout.Token);
        await channel.BasicPublishAsync("", name, mandatory: true, new BasicProperties(), new byte[10], TestTimeout.Token);
        var returns = new List<string>();
        channel.BasicReturnAsync += (_, e) =>
        {
            lock (returns)
            {
                returns.Add($"{e.ReplyCode} {e.ReplyText} {e.RoutingKey} {e.Body.Length}");
            }

            return Task.CompletedTask;
        };
        string failure;
        try
        {
            await channel.BasicPublishAsync("", name + ".nowhere", mandatory: true, new BasicProperties(), new byte[3], TestTimeout.Token);
            failure = "none";
        }
        catch (PublishException e)
        {
            failure = $"PublishException isReturn={e.IsReturn} seq={e.PublishSequenceNumber}";
        }

        ulong next = await channel.GetNextPublishSequenceNumberAsync(TestTimeout.Token);
        uint count = await channel.MessageCountAsync(name, TestTimeout.Token);
        await Until(() => returns.Count > 0);
        return $"first={first} next={next} count={count} {failure} returns=[{string.Join(";", returns)}]";
    });

    [BrokerFact]
    public Task A_channel_error_interrupts_the_call_and_closes_only_that_channel() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        var shutdowns = new List<string>();
        channel.ChannelShutdownAsync += (_, e) =>
        {
            lock (shutdowns)
            {
                shutdowns.Add($"{e.Initiator} {e.ReplyCode} {e.ClassId}.{e.MethodId}");
            }

            return Task.CompletedTask;
        };
        string first = await Outcome(() => channel.QueueDeclarePassiveAsync(name, TestTimeout.Token));
        string second = await Outcome(() => channel.QueueDeclareAsync(name, false, false, true, cancellationToken: TestTimeout.Token));
        await Until(() => shutdowns.Count > 0);
        IChannel other = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        QueueDeclareOk ok = await other.QueueDeclareAsync("", durable: false, exclusive: true, autoDelete: true, cancellationToken: TestTimeout.Token);
        await other.CloseAsync(TestTimeout.Token);
        return $"{first} | {second} | open={channel.IsOpen} closed={channel.IsClosed} reason={channel.CloseReason?.ReplyCode} " +
            $"shutdowns=[{string.Join(";", shutdowns)}] | other ok: generated={ok.QueueName.StartsWith("amq.gen-", StringComparison.Ordinal)} " +
            $"connection open={connection.IsOpen}";
    });

    [BrokerFact]
    public Task Get_transactions_purge_and_delete_report_what_the_broker_says() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: false, autoDelete: false, cancellationToken: TestTimeout.Token);
        BasicGetResult? empty = await channel.BasicGetAsync(name, autoAck: false, TestTimeout.Token);
        await channel.TxSelectAsync(TestTimeout.Token);
        await channel.BasicPublishAsync("", name, new byte[] { 1 }, TestTimeout.Token);
        await channel.TxRollbackAsync(TestTimeout.Token);
        uint afterRollback = await channel.MessageCountAsync(name, TestTimeout.Token);
        await channel.BasicPublishAsync("", name, new byte[] { 2 }, TestTimeout.Token);
        await channel.BasicPublishAsync("", name, new byte[] { 3, 3 }, TestTimeout.Token);
        await channel.TxCommitAsync(TestTimeout.Token);
        BasicGetResult? got = await channel.BasicGetAsync(name, autoAck: false, TestTimeout.Token);
        await channel.BasicRejectAsync(got!.DeliveryTag, requeue: true, TestTimeout.Token);
        await channel.TxCommitAsync(TestTimeout.Token);
        BasicGetResult? again = await channel.BasicGetAsync(name, autoAck: true, TestTimeout.Token);
        uint purged = await channel.QueuePurgeAsync(name, TestTimeout.Token);
        uint deleted = await channel.QueueDeleteAsync(name, ifUnused: false, ifEmpty: false, cancellationToken: TestTimeout.Token);
        return $"empty={empty is null} rollback={afterRollback} got={got.Body.Length} left={got.MessageCount} redelivered={again!.Redelivered} " +
            $"body={again.Body.Span[0]} purged={purged} deleted={deleted} current={channel.CurrentQueue == name}";
    });

    [BrokerFact]
    public Task A_consumer_learns_when_the_broker_cancels_it_and_when_its_channel_shuts_down() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: false, autoDelete: false, cancellationToken: TestTimeout.Token);
        var seen = new List<string>();
        var cancelled = new AsyncEventingBasicConsumer(channel);
        cancelled.RegisteredAsync += (_, e) => Note(seen, $"registered {e.ConsumerTags.Length}");
        cancelled.UnregisteredAsync += (_, e) => Note(seen, $"unregistered {e.ConsumerTags.Length}");
        cancelled.ShutdownAsync += (_, e) => Note(seen, $"shutdown {e.Initiator} {e.ReplyCode}");
        await channel.BasicConsumeAsync(name, autoAck: true, cancelled, TestTimeout.Token);

        // Deleting the queue makes the broker cancel its consumer (basic.cancel from the server).
        await using (IChannel other = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token))
        {
            await other.QueueDeleteAsync(name, ifUnused: false, ifEmpty: false, cancellationToken: TestTimeout.Token);
        }

        await Until(() => seen.Count >= 2);
        string afterCancel = $"running={cancelled.IsRunning}";
        var shut = new AsyncEventingBasicConsumer(channel);
        shut.ShutdownAsync += (_, e) => Note(seen, $"shutdown {e.Initiator} {e.ReplyCode} {e.ReplyText}");
        await channel.QueueDeclareAsync(name, durable: false, exclusive: false, autoDelete: true, cancellationToken: TestTimeout.Token);
        await channel.BasicConsumeAsync(name, autoAck: true, shut, TestTimeout.Token);
        await channel.CloseAsync(200, "done", abort: false, TestTimeout.Token);
        await Until(() => seen.Count >= 3);
        return $"{string.Join(" | ", seen)} | {afterCancel} | shut running={shut.IsRunning}";
    });

    /// <summary>Runs <paramref name="scenario"/> through RabbitMQ.Client, then through Spanwire, and compares what each saw.</summary>
    internal static Task Compare(Scenario scenario) => Compare(scenario, Broker.Uri, static _ => { });

    /// <summary>As <see cref="Compare(Scenario)"/>, against <paramref name="uri"/>, each factory set up by <paramref name="configure"/>.</summary>
    internal static async Task Compare(Scenario scenario, string uri, Action<IConnectionFactory> configure)
    {
        var control = new ConnectionFactory { Uri = new Uri(uri) };
        var dropIn = new SpanwireConnectionFactory { Uri = new Uri(uri) };
        configure(control);
        configure(dropIn);
        string expected = await scenario(control, Broker.Name("dropin.rmq"));
        string actual = await scenario(dropIn, Broker.Name("dropin.spanwire"));
        Expect.Equal(Normalize(expected), Normalize(actual), "the same scenario through RabbitMQ.Client (expected) and the drop-in (actual)");
    }

    // Names differ between the two runs by their prefix and unique part only.
    private static string Normalize(string outcome) => System.Text.RegularExpressions.Regex.Replace(outcome, @"dropin\.(rmq|spanwire)\.[0-9a-f]{32}", "dropin.X");

    internal static async Task<string> Outcome(Func<Task> call)
    {
        try
        {
            await call();
            return "ok";
        }
        catch (Exception e)
        {
            string reason = e is OperationInterruptedException interrupted
                ? $" {interrupted.ShutdownReason?.Initiator} {interrupted.ShutdownReason?.ReplyCode} {interrupted.ShutdownReason?.ClassId}.{interrupted.ShutdownReason?.MethodId}"
                : "";
            return e.GetType().Name + reason;
        }
    }

    internal static Task Note(List<string> seen, string what)
    {
        lock (seen)
        {
            seen.Add(what);
        }

        return Task.CompletedTask;
    }

    internal static async Task Until(Func<bool> condition)
    {
        while (!condition())
        {
            await Task.Delay(10, TestTimeout.Token);
        }
    }

    private static string Describe(IReadOnlyBasicProperties p)
    {
        string headers = p.Headers is null ? "none" : string.Join(",", p.Headers.OrderBy(h => h.Key, StringComparer.Ordinal).Select(h => $"{h.Key}={Show(h.Value)}"));
        return $"{p.ContentType};{p.ContentEncoding};{p.DeliveryMode};{p.Priority};{p.CorrelationId};{p.ReplyTo};{p.Expiration};{p.MessageId};" +
            $"{p.Timestamp.UnixTime};{p.Type};{p.UserId};{p.AppId};{p.IsClusterIdPresent()};[{headers}]";
    }

    private static string Show(object? value) => value switch
    {
        null => "null",
        byte[] b => "bytes:" + Convert.ToHexString(b),
        IDictionary<string, object?> d => "{" + string.Join(",", d.Select(f => $"{f.Key}={Show(f.Value)}")) + "}",
        System.Collections.IEnumerable list and not string => "[" + string.Join(",", list.Cast<object?>().Select(Show)) + "]",
        _ => $"{value.GetType().Name}:{value}",
    };
}
