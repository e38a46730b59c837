using System.Collections.Concurrent;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// Recovery failures RabbitMQ.Client's users reported, run on a node whose every connection is closed, with
/// RabbitMQ.Client through the same closes as the control: an auto-delete queue gone with its last consumer (#1905),
/// server-named queues through one recovery after another (#1238).
/// </summary>
public partial class RecoveryTests
{
    [BrokerFact]
    public async Task An_auto_delete_queue_gone_with_its_last_consumer_is_not_declared_again_and_recovery_succeeds_as_with_RabbitMQ_Client()
    {
        string ours = Broker.Name("autodelete"), theirs = Broker.Name("autodelete");
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(node.Uri);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(200);
        await using AmqpConnection spanwire = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        var spanwireFailures = new ConcurrentQueue<string>();
        var spanwireRecovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        spanwire.RecoveryFailed += (_, e) => spanwireFailures.Enqueue(e.Error?.Message ?? "");
        spanwire.RecoverySucceeded += (_, _) => spanwireRecovered.TrySetResult();
        AmqpChannel channel = await spanwire.OpenChannelAsync(TestTimeout.Token);
        await channel.ExchangeDeclareAsync(ours, "direct", cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(ours, autoDelete: true, cancellationToken: TestTimeout.Token);
        await channel.QueueBindAsync(ours, ours, "k", cancellationToken: TestTimeout.Token);
        AmqpConsumer consumer = await channel.ConsumeAsync(ours, cancellationToken: TestTimeout.Token);
        await consumer.CancelAsync(TestTimeout.Token); // the broker deletes the queue, and its binding with it

        await using IConnection rabbit = await ControlConnectionAsync(); // closed whatever happens: a leftover would allocate under later tests
        var controlFailures = new ConcurrentQueue<string>();
        var controlRecovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        rabbit.ConnectionRecoveryErrorAsync += (_, e) =>
        {
            controlFailures.Enqueue(e.Exception.Message);
            return Task.CompletedTask;
        };
        rabbit.RecoverySucceededAsync += (_, _) =>
        {
            controlRecovered.TrySetResult();
            return Task.CompletedTask;
        };
        IChannel controlChannel = await rabbit.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await controlChannel.ExchangeDeclareAsync(theirs, "direct", cancellationToken: TestTimeout.Token);
        await controlChannel.QueueDeclareAsync(theirs, durable: false, exclusive: false, autoDelete: true, cancellationToken: TestTimeout.Token);
        await controlChannel.QueueBindAsync(theirs, theirs, "k", cancellationToken: TestTimeout.Token);
        string tag = await controlChannel.BasicConsumeAsync(theirs, autoAck: false, new AsyncEventingBasicConsumer(controlChannel), TestTimeout.Token);
        await controlChannel.BasicCancelAsync(tag, cancellationToken: TestTimeout.Token);

        await node.CtlAsync("close_all_connections \"auto-delete case\"");
        await Task.WhenAll(spanwireRecovered.Task, controlRecovered.Task).WaitAsync(TimeSpan.FromSeconds(30));

        string spanwireOutcome = $"failures {spanwireFailures.Count}, queue {(await QueueExistsAsync(ours) ? "declared again" : "gone")}";
        string controlOutcome = $"failures {controlFailures.Count}, queue {(await QueueExistsAsync(theirs) ? "declared again" : "gone")}";
        Expect.Equal(controlOutcome, spanwireOutcome, "Spanwire, against RabbitMQ.Client's outcome");
    }

    [BrokerFact]
    public async Task A_server_named_queue_through_three_recoveries_new_name_each_time_the_binding_and_consumer_follow_as_with_RabbitMQ_Client()
    {
        string exchange = Broker.Name("renamed");
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(node.Uri);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(200);
        await using AmqpConnection spanwire = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        var spanwireRenames = new ConcurrentQueue<string>();
        spanwire.QueueNameChangedAfterRecovery += (_, e) => spanwireRenames.Enqueue(e.NameAfter);
        AmqpChannel channel = await spanwire.OpenChannelAsync(TestTimeout.Token);
        await channel.ExchangeDeclareAsync(exchange, "fanout", cancellationToken: TestTimeout.Token);
        AmqpQueueInfo queue = await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await channel.QueueBindAsync(queue.Name, exchange, "", cancellationToken: TestTimeout.Token);
        int spanwireReceived = 0;
        await channel.ConsumeAsync(queue.Name, (_, _) =>
        {
            Interlocked.Increment(ref spanwireReceived);
            return ValueTask.CompletedTask;
        }, autoAck: true, cancellationToken: TestTimeout.Token);

        await using IConnection rabbit = await ControlConnectionAsync(); // closed whatever happens: a leftover would allocate under later tests
        var controlRenames = new ConcurrentQueue<string>();
        rabbit.QueueNameChangedAfterRecoveryAsync += (_, e) =>
        {
            controlRenames.Enqueue(e.NameAfter);
            return Task.CompletedTask;
        };
        IChannel controlChannel = await rabbit.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        QueueDeclareOk controlQueue = await controlChannel.QueueDeclareAsync("", durable: false, exclusive: true, autoDelete: true, cancellationToken: TestTimeout.Token);
        await controlChannel.QueueBindAsync(controlQueue.QueueName, exchange, "", cancellationToken: TestTimeout.Token);
        int controlReceived = 0;
        var controlConsumer = new AsyncEventingBasicConsumer(controlChannel);
        controlConsumer.ReceivedAsync += (_, _) =>
        {
            Interlocked.Increment(ref controlReceived);
            return Task.CompletedTask;
        };
        await controlChannel.BasicConsumeAsync(controlQueue.QueueName, autoAck: true, controlConsumer, TestTimeout.Token);

        await using AmqpConnection publisher = await AmqpConnection.ConnectAsync(AmqpConnectionOptions.Parse(node.Uri), TestTimeout.Token);
        for (int round = 1; round <= 3; round++)
        {
            await node.CtlAsync($"close_all_connections \"rename round {round}\"");
            await WaitAsync(() => spanwire.IsOpen && rabbit.IsOpen && spanwireRenames.Count >= round && controlRenames.Count >= round);
            AmqpChannel publishing = await ReconnectPublisherAsync(publisher);
            await publishing.PublishAsync(exchange, "", new byte[] { (byte)round }, TestTimeout.Token);
            await WaitAsync(() => Volatile.Read(ref spanwireReceived) >= round && Volatile.Read(ref controlReceived) >= round);
        }

        Expect.Equal($"renamed {controlRenames.Count}, received {controlReceived}", $"renamed {spanwireRenames.Count}, received {spanwireReceived}",
            "Spanwire, against RabbitMQ.Client's outcome");
        Expect.Equal(3, spanwireRenames.Distinct().Count(), "a new name each recovery");
    }

    [BrokerFact]
    public async Task A_channel_disposed_before_the_close_is_not_restored_and_recovery_succeeds_as_with_RabbitMQ_Client()
    {
        // RabbitMQ.Client #1647.
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(node.Uri);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(200);
        await using AmqpConnection spanwire = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        var spanwireRecovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        spanwire.RecoverySucceeded += (_, _) => spanwireRecovered.TrySetResult();
        AmqpChannel kept = await spanwire.OpenChannelAsync(TestTimeout.Token);
        AmqpChannel disposed = await spanwire.OpenChannelAsync(TestTimeout.Token);
        string queue = (await disposed.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token)).Name;
        await disposed.ConsumeAsync(queue, cancellationToken: TestTimeout.Token);
        await disposed.DisposeAsync();

        await using IConnection rabbit = await ControlConnectionAsync(); // closed whatever happens: a leftover would allocate under later tests
        var controlRecovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        rabbit.RecoverySucceededAsync += (_, _) =>
        {
            controlRecovered.TrySetResult();
            return Task.CompletedTask;
        };
        IChannel controlKept = await rabbit.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        IChannel controlDisposed = await rabbit.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        QueueDeclareOk controlQueue = await controlDisposed.QueueDeclareAsync("", false, true, true, cancellationToken: TestTimeout.Token);
        await controlDisposed.BasicConsumeAsync(controlQueue.QueueName, autoAck: false, new AsyncEventingBasicConsumer(controlDisposed), TestTimeout.Token);
        await controlDisposed.DisposeAsync();

        await node.CtlAsync("close_all_connections \"disposed channel case\"");
        await Task.WhenAll(spanwireRecovered.Task, controlRecovered.Task).WaitAsync(TimeSpan.FromSeconds(30));

        await kept.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token); // the kept channel works
        await controlKept.QueueDeclareAsync("", false, true, true, cancellationToken: TestTimeout.Token);
        Expect.Equal($"kept {controlKept.IsOpen}, disposed {controlDisposed.IsOpen}", $"kept {kept.IsOpen}, disposed {disposed.IsOpen}",
            "Spanwire, against RabbitMQ.Client's outcome");
    }

    [BrokerFact]
    public async Task Publishes_after_the_node_is_killed_and_restarted_complete_none_hangs_as_with_RabbitMQ_Client()
    {
        // RabbitMQ.Client #1930: publishes hung after a server restart.
        string queue = Broker.Name("restart");
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(node.Uri);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(200); // a killed node resets the socket: no heartbeat needed to see it
        await using AmqpConnection spanwire = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        AmqpChannel channel = await spanwire.OpenChannelAsync(TestTimeout.Token);
        await channel.QueueDeclareAsync(queue, durable: true, cancellationToken: TestTimeout.Token);
        await channel.EnableConfirmsAsync(TestTimeout.Token);

        await using IConnection rabbit = await ControlConnectionAsync(); // closed whatever happens: a leftover would allocate under later tests
        IChannel controlChannel = await rabbit.CreateChannelAsync(new CreateChannelOptions(publisherConfirmationsEnabled: true,
            publisherConfirmationTrackingEnabled: true), TestTimeout.Token);

        await node.KillAsync();
        await node.StartAsync();

        // Async lambdas: a publish refused at once while the connection recovers faults its task, to be tried again.
        (bool spanwireConfirmed, int spanwireHung) = await PublishUntilConfirmedAsync(async () =>
            await channel.PublishConfirmedAsync("", queue, new Protocol.BasicProperties { DeliveryMode = 2 }, new byte[] { 1 }));
        (bool controlConfirmed, _) = await PublishUntilConfirmedAsync(async () =>
            await controlChannel.BasicPublishAsync("", queue, mandatory: false, new BasicProperties { DeliveryMode = DeliveryModes.Persistent }, new byte[] { 2 }));

        Expect.Equal(controlConfirmed, spanwireConfirmed, "a confirmed publish after the restart, Spanwire against RabbitMQ.Client");
        Expect.Equal(0, spanwireHung, "Spanwire publishes that neither completed nor failed within 5 s");
        await WaitAsync(() => spanwire.IsOpen);
        await channel.QueueDeleteAsync(queue, cancellationToken: TestTimeout.Token);
    }

    // Publishes (each watched for 5 s) until one is confirmed, for at most 45 s: whether one was, and how many hung.
    private static async Task<(bool Confirmed, int Hung)> PublishUntilConfirmedAsync(Func<Task> publish)
    {
        var deadline = DateTime.UtcNow.AddSeconds(45);
        int hung = 0;
        while (DateTime.UtcNow < deadline)
        {
            Task attempt = publish();
            if (await Task.WhenAny(attempt, Task.Delay(TimeSpan.FromSeconds(5))) != attempt)
            {
                hung++;
                continue;
            }

            if (attempt.IsCompletedSuccessfully)
            {
                return (true, hung);
            }

            await Task.Delay(200); // still recovering: the publish failed at once, as it should
        }

        return (false, hung);
    }

    private async Task<IConnection> ControlConnectionAsync()
    {
        var endpoint = new Uri(node.Uri);
        var factory = new ConnectionFactory
        {
            HostName = endpoint.Host,
            Port = endpoint.Port,
            NetworkRecoveryInterval = TimeSpan.FromMilliseconds(200),
        };
        return await factory.CreateConnectionAsync(TestTimeout.Token);
    }

    private async Task<bool> QueueExistsAsync(string queue)
    {
        await using AmqpConnection check = await AmqpConnection.ConnectAsync(AmqpConnectionOptions.Parse(node.Uri), TestTimeout.Token);
        AmqpChannel channel = await check.OpenChannelAsync(TestTimeout.Token);
        try
        {
            await channel.QueueDeclareAsync(queue, passive: true, cancellationToken: TestTimeout.Token);
            return true;
        }
        catch (AmqpChannelClosedException ex) when (ex.ReplyCode == 404)
        {
            return false;
        }
    }

    // The publisher's connection is closed with the others; it recovers by itself, so wait for it to be open again.
    private static async Task<AmqpChannel> ReconnectPublisherAsync(AmqpConnection publisher)
    {
        await WaitAsync(() => publisher.IsOpen);
        return await publisher.OpenChannelAsync(TestTimeout.Token);
    }

    private static async Task WaitAsync(Func<bool> condition)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (!condition() && DateTime.UtcNow < deadline)
        {
            await Task.Delay(20);
        }
    }
}
