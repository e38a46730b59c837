using System.Security.Cryptography;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;
using Spanwire.Amqp.DropIn;

namespace Spanwire.Amqp.IntegrationTests;

// More of IChannel's and IConnection's contract, each scenario through both clients (see DropInTests).
public sealed partial class DropInTests
{
    [BrokerFact]
    public Task Bodies_from_empty_to_8_MB_arrive_whole() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        int[] sizes = [0, 1, 4095, 4096, 131_071, 131_072, 131_073, 1 << 20, 8 << 20];
        var random = new Random(36);
        var seen = new List<string>();
        foreach (int size in sizes)
        {
            byte[] body = new byte[size];
            random.NextBytes(body);
            await channel.BasicPublishAsync("", name, body, TestTimeout.Token);
            BasicGetResult? got = null;
            while (got is null)
            {
                got = await channel.BasicGetAsync(name, autoAck: true, TestTimeout.Token);
            }

            seen.Add($"{size}:{got.Body.Length}:{Convert.ToHexString(SHA256.HashData(got.Body.Span))[..8]}");
        }

        // And the largest through a consumer, whose body is valid for the handler's call.
        var received = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += (_, e) =>
        {
            received.TrySetResult($"{e.Body.Length}:{Convert.ToHexString(SHA256.HashData(e.Body.Span))[..8]}");
            return Task.CompletedTask;
        };
        await channel.BasicConsumeAsync(name, autoAck: true, consumer, TestTimeout.Token);
        byte[] large = new byte[8 << 20];
        random.NextBytes(large);
        await channel.BasicPublishAsync("", name, large, TestTimeout.Token);
        return string.Join(" ", seen) + " consumed " + await received.Task.WaitAsync(TestTimeout.Token);
    });

    [BrokerFact]
    public Task Ack_nack_and_reject_single_and_multiple_leave_what_the_broker_counts() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        for (byte i = 0; i < 8; i++)
        {
            await channel.BasicPublishAsync("", name, new[] { i }, TestTimeout.Token);
        }

        async Task<BasicGetResult> Get() => (await channel.BasicGetAsync(name, autoAck: false, TestTimeout.Token))!;
        var steps = new List<string>();
        BasicGetResult a = await Get(), b = await Get(), c = await Get();
        await channel.BasicNackAsync(c.DeliveryTag, multiple: true, requeue: true, TestTimeout.Token); // a, b, c back
        await Until(async () => await channel.MessageCountAsync(name, TestTimeout.Token) == 8); // the queue counts requeued messages a moment later
        steps.Add("nack multiple: all 8 ready");
        BasicGetResult d = await Get();
        await channel.BasicRejectAsync(d.DeliveryTag, requeue: false, TestTimeout.Token);
        steps.Add($"reject: {await channel.MessageCountAsync(name, TestTimeout.Token)} first={d.Body.Span[0]} redelivered={d.Redelivered}");
        BasicGetResult e = await Get(), f = await Get();
        await channel.BasicAckAsync(f.DeliveryTag, multiple: true, TestTimeout.Token);
        BasicGetResult g = await Get();
        await channel.BasicNackAsync(g.DeliveryTag, multiple: false, requeue: false, TestTimeout.Token);
        steps.Add($"ack multiple, nack one: {await channel.MessageCountAsync(name, TestTimeout.Token)} bodies={a.Body.Span[0]},{e.Body.Span[0]},{g.Body.Span[0]}");
        await channel.BasicAckAsync(999, multiple: false, TestTimeout.Token); // a tag never delivered: the broker closes the channel
        await Until(() => !channel.IsOpen);
        ShutdownEventArgs? why = channel.CloseReason;
        steps.Add($"unknown tag: {why?.Initiator} {why?.ReplyCode} {why?.ClassId}.{why?.MethodId} then {await Outcome(() => channel.QueueDeclarePassiveAsync(name, TestTimeout.Token))}");
        return string.Join(" | ", steps);
    });

    [BrokerFact]
    public Task Qos_limits_unacknowledged_deliveries_and_dispatch_concurrency_runs_handlers_side_by_side() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(new CreateChannelOptions(false, false, null, consumerDispatchConcurrency: 3), TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        await channel.BasicQosAsync(0, 5, false, TestTimeout.Token);
        for (int i = 0; i < 12; i++)
        {
            await channel.BasicPublishAsync("", name, new byte[] { (byte)i }, TestTimeout.Token);
        }

        int running = 0, most = 0, handled = 0;
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += async (_, e) =>
        {
            int now = Interlocked.Increment(ref running);
            InterlockedMax(ref most, now);
            await release.Task;
            Interlocked.Decrement(ref running);
            Interlocked.Increment(ref handled);
            await channel.BasicAckAsync(e.DeliveryTag, multiple: false);
        };
        await channel.BasicConsumeAsync(name, autoAck: false, consumer, TestTimeout.Token);
        await Until(() => Volatile.Read(ref most) == 3);
        await Task.Delay(200, TestTimeout.Token);
        uint waiting = await MessageCount(connection, name);
        release.SetResult();
        await Until(() => Volatile.Read(ref handled) == 12);
        return $"most at once={most} left in the queue while 5 were unacked={waiting} handled={handled}";
    });

    [BrokerFact]
    public Task NoWait_and_passive_declares_behave_as_RabbitMQ_Clients() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        var steps = new List<string>();
        QueueDeclareOk noWait = await channel.QueueDeclareAsync(name, durable: false, exclusive: false, autoDelete: true, noWait: true, cancellationToken: TestTimeout.Token);
        steps.Add($"queue nowait: {noWait.QueueName == name} {noWait.MessageCount} {noWait.ConsumerCount}");
        await channel.ExchangeDeclareAsync(name, ExchangeType.Fanout, durable: false, autoDelete: true, noWait: true, cancellationToken: TestTimeout.Token);
        await channel.QueueBindAsync(name, name, "", noWait: true, cancellationToken: TestTimeout.Token);
        await channel.ExchangeDeclarePassiveAsync(name, TestTimeout.Token);
        QueueDeclareOk passive = await channel.QueueDeclarePassiveAsync(name, TestTimeout.Token);
        steps.Add($"passive: {passive.QueueName == name} {passive.MessageCount} {passive.ConsumerCount} current={channel.CurrentQueue == name}");
        await channel.BasicPublishAsync(name, "any", new byte[] { 1 }, TestTimeout.Token);
        await Until(async () => await channel.MessageCountAsync(name, TestTimeout.Token) == 1); // routed through the binding, counted a moment later
        steps.Add($"through the binding: consumers={await channel.ConsumerCountAsync(name, TestTimeout.Token)}");
        await channel.QueueUnbindAsync(name, name, "", cancellationToken: TestTimeout.Token);
        await channel.ExchangeDeleteAsync(name, ifUnused: false, noWait: true, cancellationToken: TestTimeout.Token);
        steps.Add("exchange gone: " + await Outcome(() => channel.ExchangeDeclarePassiveAsync(name, TestTimeout.Token)));
        return string.Join(" | ", steps);
    });

    [BrokerFact]
    public Task Closing_the_connection_reports_its_reason_and_every_later_call_is_already_closed() => Compare(async (factory, name) =>
    {
        IConnection connection = await factory.CreateConnectionAsync("dropin-close", TestTimeout.Token);
        IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        var seen = new List<string>();
        connection.ConnectionShutdownAsync += (_, e) => Note(seen, $"connection {e.Initiator} {e.ReplyCode} {e.ReplyText}");
        channel.ChannelShutdownAsync += (_, e) => Note(seen, $"channel {e.Initiator} {e.ReplyCode}");
        string before = $"open={connection.IsOpen} name={connection.ClientProvidedName} reason={connection.CloseReason is null} " +
            $"channel={channel.ChannelNumber} max={connection.ChannelMax} frame={connection.FrameMax} local={connection.LocalPort > 0} " +
            $"product={connection.ServerProperties?.ContainsKey("product")}";
        await connection.CloseAsync(TestTimeout.Token);
        await Until(() => seen.Count >= 2);
        string after = $"open={connection.IsOpen} reason={connection.CloseReason?.Initiator} {connection.CloseReason?.ReplyCode} channel open={channel.IsOpen}";
        string create = await Outcome(() => connection.CreateChannelAsync(cancellationToken: TestTimeout.Token));
        string declare = await Outcome(() => channel.QueueDeclareAsync(name, false, false, true, cancellationToken: TestTimeout.Token));
        string publish = await Outcome(() => channel.BasicPublishAsync("", name, new byte[1], TestTimeout.Token).AsTask());
        string closeAgain = await Outcome(() => connection.CloseAsync(TestTimeout.Token));
        string abort = await Outcome(() => connection.AbortAsync(TestTimeout.Token));
        connection.Dispose();
        seen.Sort(StringComparer.Ordinal); // the two events' order is not part of the contract
        return $"{before} | {after} | {string.Join(", ", seen)} | create: {create} | declare: {declare} | publish: {publish} | close again: {closeAgain} | abort: {abort}";
    });

    [BrokerFact]
    public Task A_tracked_publish_the_broker_nacks_is_a_PublishException_that_is_not_a_return() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true), TestTimeout.Token);

        // A queue that holds one message and refuses the next publish: RabbitMQ nacks it.
        var arguments = new Dictionary<string, object?> { ["x-max-length"] = 1, ["x-overflow"] = "reject-publish" };
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, arguments, cancellationToken: TestTimeout.Token);
        var nacks = new List<string>();
        channel.BasicNacksAsync += (_, e) => Note(nacks, $"nack {e.DeliveryTag} multiple={e.Multiple}");
        await channel.BasicPublishAsync("", name, new byte[] { 1 }, TestTimeout.Token);
        string second = await Outcome(() => channel.BasicPublishAsync("", name, new byte[] { 2 }, TestTimeout.Token).AsTask());
        string detail = "";
        try
        {
            await channel.BasicPublishAsync("", name, new byte[] { 3 }, TestTimeout.Token);
        }
        catch (PublishException e)
        {
            detail = $"seq={e.PublishSequenceNumber} isReturn={e.IsReturn}";
        }

        await Until(() => nacks.Count >= 2);
        return $"second: {second} | third: {detail} | events: {string.Join(", ", nacks)} | open={channel.IsOpen}";
    });

    [BrokerFact]
    public Task Broker_errors_a_closed_channel_and_update_secret_behave_as_RabbitMQ_Clients() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        var steps = new List<string>();

        // A declare that contradicts an existing exchange: 406 on that channel.
        IChannel first = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await first.ExchangeDeclareAsync(name, ExchangeType.Fanout, durable: false, autoDelete: true, cancellationToken: TestTimeout.Token);
        steps.Add("type mismatch: " + await Outcome(() => first.ExchangeDeclareAsync(name, ExchangeType.Direct, durable: false, autoDelete: true, cancellationToken: TestTimeout.Token)));

        // Another connection's exclusive queue: 405.
        await using IConnection other = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel owner = await other.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await owner.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        IChannel second = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        steps.Add("locked: " + await Outcome(() => second.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token)));

        // A channel the application closed: a second close does nothing, later calls are already closed, dispose is fine.
        IChannel third = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await third.CloseAsync(TestTimeout.Token);
        steps.Add("close again: " + await Outcome(() => third.CloseAsync(TestTimeout.Token)));
        steps.Add("abort: " + await Outcome(() => third.AbortAsync(TestTimeout.Token)));
        steps.Add("after close: " + await Outcome(() => third.BasicQosAsync(0, 1, false, TestTimeout.Token)));
        steps.Add($"reason: {third.CloseReason?.Initiator} {third.CloseReason?.ReplyCode} {third.CloseReason?.ReplyText}");
        await third.DisposeAsync();

        // The connection goes on through all of it.
        await using IChannel fourth = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await fourth.QueueDeclareAsync("", durable: false, exclusive: true, autoDelete: true, cancellationToken: TestTimeout.Token);
        steps.Add("update secret: " + await Outcome(() => connection.UpdateSecretAsync("guest", "rotation", TestTimeout.Token)));
        steps.Add($"connection open={connection.IsOpen}");
        return string.Join(" | ", steps);
    });

    [BrokerFact]
    public Task Exchange_to_exchange_bindings_untracked_confirms_and_a_throwing_consumer() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: false), TestTimeout.Token);
        var steps = new List<string>();
        await channel.ExchangeDeclareAsync(name + ".in", ExchangeType.Topic, durable: false, autoDelete: false, cancellationToken: TestTimeout.Token);
        await channel.ExchangeDeclareAsync(name + ".out", ExchangeType.Fanout, durable: false, autoDelete: false, cancellationToken: TestTimeout.Token);
        await channel.ExchangeBindAsync(name + ".out", name + ".in", "orders.#", cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        await channel.QueueBindAsync(name, name + ".out", "", cancellationToken: TestTimeout.Token);

        // Untracked confirms: publishes complete when sent, acks arrive as events.
        int acked = 0;
        channel.BasicAcksAsync += (_, e) =>
        {
            InterlockedMax(ref acked, (int)e.DeliveryTag); // the highest tag acked, whatever order the events ran in
            return Task.CompletedTask;
        };
        ulong first = await channel.GetNextPublishSequenceNumberAsync(TestTimeout.Token);
        for (int i = 0; i < 10; i++)
        {
            await channel.BasicPublishAsync(name + ".in", i % 2 == 0 ? "orders.eu" : "invoices.eu", new[] { (byte)i }, TestTimeout.Token);
        }

        await Until(() => Volatile.Read(ref acked) == 10).WaitAsync(TimeSpan.FromSeconds(20));
        await Until(async () => await channel.MessageCountAsync(name, TestTimeout.Token) == 5).WaitAsync(TimeSpan.FromSeconds(20));
        steps.Add($"first={first} routed through the bound exchange: 5 of 10, acks up to 10");
        await channel.ExchangeUnbindAsync(name + ".out", name + ".in", "orders.#", cancellationToken: TestTimeout.Token);
        await channel.BasicPublishAsync(name + ".in", "orders.us", new byte[] { 99 }, TestTimeout.Token);

        // A handler that throws on one delivery: the channel's CallbackExceptionAsync, and the consumer goes on.
        var errors = new List<string>();
        channel.CallbackExceptionAsync += (_, e) => Note(errors, e.Exception.Message);
        int handled = 0;
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += (_, e) =>
        {
            Interlocked.Increment(ref handled);
            return e.Body.Span[0] == 4 ? throw new InvalidOperationException("handler refused 4") : Task.CompletedTask;
        };
        await channel.BasicConsumeAsync(name, autoAck: true, consumer, TestTimeout.Token);
        await Until(() => Volatile.Read(ref handled) == 5 && errors.Count == 1).WaitAsync(TimeSpan.FromSeconds(20));
        steps.Add($"handled={handled} errors=[{string.Join(";", errors)}] running={consumer.IsRunning} open={channel.IsOpen}");
        await channel.ExchangeDeleteAsync(name + ".in", cancellationToken: TestTimeout.Token);
        await channel.ExchangeDeleteAsync(name + ".out", cancellationToken: TestTimeout.Token);
        return string.Join(" | ", steps);
    });

    [BrokerFact]
    public Task Concurrent_publishers_on_one_channel_all_confirmed() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true), TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        int acks = 0;
        channel.BasicAcksAsync += (_, _) =>
        {
            Interlocked.Increment(ref acks);
            return Task.CompletedTask;
        };
        await Task.WhenAll(Enumerable.Range(0, 8).Select(publisher => Task.Run(async () =>
        {
            for (int i = 0; i < 250; i++)
            {
                await channel.BasicPublishAsync("", name, BitConverter.GetBytes(publisher * 1000 + i), TestTimeout.Token);
            }
        })));
        ulong next = await channel.GetNextPublishSequenceNumberAsync(TestTimeout.Token);
        uint count = await channel.MessageCountAsync(name, TestTimeout.Token);
        return $"next={next} count={count} acks seen={Volatile.Read(ref acks) > 0}";
    });

    [BrokerFact]
    public Task Heartbeat_and_limits_are_negotiated_as_asked() => Compare(async (factory, name) =>
    {
        if (factory is ConnectionFactory control)
        {
            control.RequestedHeartbeat = TimeSpan.FromSeconds(7);
            control.RequestedChannelMax = 100;
            control.RequestedFrameMax = 65_536;
        }
        else
        {
            var dropIn = (SpanwireConnectionFactory)factory;
            dropIn.RequestedHeartbeat = TimeSpan.FromSeconds(7);
            dropIn.RequestedChannelMax = 100;
            dropIn.RequestedFrameMax = 65_536;
        }

        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        return $"heartbeat={connection.Heartbeat} channels={connection.ChannelMax} frame={connection.FrameMax} protocol={connection.Protocol.ApiName}";
    });

    [Fact]
    public async Task An_unreachable_broker_is_BrokerUnreachableException_as_with_RabbitMQ_Client()
    {
        async Task<string> Connect(IConnectionFactory factory) => await Outcome(() => factory.CreateConnectionAsync(TestTimeout.Token));
        string expected = await Connect(new ConnectionFactory { Uri = new Uri("amqp://guest:guest@127.0.0.1:1/") });
        string actual = await Connect(new SpanwireConnectionFactory { Uri = new Uri("amqp://guest:guest@127.0.0.1:1/") });
        Expect.Equal(expected, actual, "a connect to a closed port");
    }

    [Fact]
    public void AuthMechanismFactory_picks_among_the_brokers_mechanisms_as_RabbitMQ_Clients_default_does()
    {
        string?[][] offers = [["PLAIN"], ["plain"], ["AMQPLAIN", "PLAIN"], ["EXTERNAL"], ["AMQPLAIN", "EXTERNAL"], [], null!];
        foreach (string?[] offer in offers)
        {
            static string Pick(IConnectionFactory factory, string?[] offer)
            {
                try
                {
                    return factory.AuthMechanismFactory(offer!)?.Name ?? "null";
                }
                catch (Exception e)
                {
                    return e.GetType().Name;
                }
            }

            Expect.Equal(Pick(new ConnectionFactory(), offer), Pick(new SpanwireConnectionFactory(), offer),
                $"the broker offering [{(offer is null ? "null" : string.Join(", ", offer))}]");
        }
    }

    [BrokerFact]
    public Task A_refused_login_is_BrokerUnreachableException_around_AuthenticationFailureException() => Compare(async (factory, name) =>
    {
        factory.UserName = name;
        factory.Password = name;
        try
        {
            await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
            return "connected";
        }
        catch (BrokerUnreachableException e)
        {
            return $"{e.GetType().Name}: {e.Message}; inner {e.InnerException?.GetType().Name}: {e.InnerException?.Message}; " +
                $"a possible authentication failure {e.InnerException is PossibleAuthenticationFailureException}";
        }
    });

    [BrokerFact]
    public Task Channel_numbers_are_the_lowest_free_and_come_back_when_a_channel_closes_or_is_disposed() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        var seen = new List<string>();
        var channels = new List<IChannel>();
        for (int i = 0; i < 12; i++)
        {
            channels.Add(await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token));
        }

        seen.Add("opened " + string.Join(",", channels.Select(c => c.ChannelNumber)));
        await channels[3].CloseAsync(TestTimeout.Token);
        channels[7].Dispose(); // Dispose alone closes it too
        IChannel first = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        IChannel second = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        IChannel third = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        seen.Add($"after freeing 4 and 8: {first.ChannelNumber},{second.ChannelNumber},{third.ChannelNumber}");
        foreach (IChannel channel in channels.Concat([first, second, third]))
        {
            await channel.DisposeAsync();
        }

        IChannel again = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        seen.Add($"after freeing all: {again.ChannelNumber}");
        await again.CloseAsync(TestTimeout.Token);
        return string.Join("; ", seen);
    });

    [BrokerFact]
    public Task Disposed_channels_and_connections_throw_ObjectDisposedException_closed_ones_AlreadyClosedException() => Compare(async (factory, name) =>
    {
        var seen = new List<string>();
        IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        IChannel closed = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await closed.CloseAsync(TestTimeout.Token);
        seen.Add("closed: ack " + await Outcome(() => closed.BasicAckAsync(1, false, TestTimeout.Token).AsTask()));
        seen.Add("declare " + await Outcome(() => closed.QueueDeclareAsync(cancellationToken: TestTimeout.Token)));
        seen.Add("close again " + await Outcome(() => closed.CloseAsync(TestTimeout.Token)));
        await closed.DisposeAsync();
        seen.Add($"disposed: open={closed.IsOpen} ack " + await Outcome(() => closed.BasicAckAsync(1, false, TestTimeout.Token).AsTask()));
        seen.Add("nack " + await Outcome(() => closed.BasicNackAsync(1, false, true, TestTimeout.Token).AsTask()));
        seen.Add("publish " + await Outcome(() => closed.BasicPublishAsync("", name, new byte[1], TestTimeout.Token).AsTask()));
        seen.Add("sequence " + await Outcome(() => closed.GetNextPublishSequenceNumberAsync(TestTimeout.Token).AsTask()));
        seen.Add("declare " + await Outcome(() => closed.QueueDeclareAsync(cancellationToken: TestTimeout.Token)));
        seen.Add("close " + await Outcome(() => closed.CloseAsync(TestTimeout.Token)));
        seen.Add("dispose again " + await Outcome(() => closed.DisposeAsync().AsTask()));

        IChannel open = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await connection.CloseAsync(TestTimeout.Token);
        seen.Add($"connection closed: channel open={open.IsOpen} create " + await Outcome(() => connection.CreateChannelAsync(cancellationToken: TestTimeout.Token)));
        seen.Add("close again " + await Outcome(() => connection.CloseAsync(TestTimeout.Token)));
        await connection.DisposeAsync();
        seen.Add($"connection disposed: open={connection.IsOpen} create " + await Outcome(() => connection.CreateChannelAsync(cancellationToken: TestTimeout.Token)));
        seen.Add("close " + await Outcome(() => connection.CloseAsync(TestTimeout.Token)));
        seen.Add("update secret " + await Outcome(() => connection.UpdateSecretAsync("guest", "test", TestTimeout.Token)));
        seen.Add("dispose again " + await Outcome(() => connection.DisposeAsync().AsTask()));
        return string.Join("; ", seen);
    });

    [BrokerFact]
    public Task Channels_disposed_and_closed_from_several_tasks_at_once_leave_the_connection_open() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        var channels = new List<IChannel>();
        for (int i = 0; i < 16; i++)
        {
            channels.Add(await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token));
        }

        await Task.WhenAll(channels.SelectMany(channel => new[]
        {
            Task.Run(async () => await channel.DisposeAsync()),
            Task.Run(async () => await channel.DisposeAsync()),
            Task.Run(async () => await Outcome(() => channel.CloseAsync(TestTimeout.Token))),
        })).WaitAsync(TestTimeout.Token);
        await using IChannel next = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        return $"open channels {channels.Count(c => c.IsOpen)}; connection open {connection.IsOpen}; next channel {next.ChannelNumber}";
    });

    [BrokerFact]
    public Task Closing_a_channel_cancels_its_consumers_token_for_running_handlers_and_the_shutdown_callback() => Compare(async (factory, name) =>
    {
        // RabbitMQ.Client 7.2's consumer dispatcher: one token for a channel's consumer callbacks, cancelled when the
        // channel shuts down (so the shutdown callback gets it cancelled too), also when the close's own token is.
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        var seen = new List<string>();
        foreach (bool cancelledClose in new[] { false, true })
        {
            IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
            await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
            var received = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var handlerEnd = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
            var shutdownEnd = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
            var consumer = new AsyncEventingBasicConsumer(channel);
            consumer.ReceivedAsync += async (_, e) =>
            {
                received.TrySetResult();
                handlerEnd.TrySetResult(await WaitOn(e.CancellationToken));
            };
            consumer.ShutdownAsync += async (_, e) => shutdownEnd.TrySetResult(await WaitOn(e.CancellationToken));
            await channel.BasicConsumeAsync(name, autoAck: false, consumer, TestTimeout.Token);
            await channel.BasicPublishAsync("", name, new byte[1], TestTimeout.Token);
            await received.Task.WaitAsync(TestTimeout.Token);
            using var closeToken = new CancellationTokenSource(cancelledClose ? TimeSpan.FromSeconds(1) : Timeout.InfiniteTimeSpan);
            string close = await Outcome(() => channel.CloseAsync(closeToken.Token));
            seen.Add($"close (token {(cancelledClose ? "cancelled at 1 s" : "none")}): {close}, handler {await handlerEnd.Task.WaitAsync(TestTimeout.Token)}, " +
                $"shutdown {await shutdownEnd.Task.WaitAsync(TestTimeout.Token)}, open {channel.IsOpen}");
            await channel.DisposeAsync();
        }

        return string.Join("; ", seen);
    });

    [BrokerFact]
    public Task A_close_token_goes_with_the_shutdown_reason_to_the_connections_and_channels_handlers() => Compare(async (factory, name) =>
    {
        var seen = new List<string>();
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        IChannel alone = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        Task<string> aloneHandler = Handler(h => alone.ChannelShutdownAsync += h);
        using (var cancelled = new CancellationTokenSource(TimeSpan.FromSeconds(1)))
        {
            seen.Add("channel close " + await Outcome(() => alone.CloseAsync(cancelled.Token)) + ", its handler " + await aloneHandler.WaitAsync(TestTimeout.Token));
        }

        IChannel plain = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        var plainToken = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        plain.ChannelShutdownAsync += (_, e) =>
        {
            plainToken.TrySetResult($"can be cancelled {e.CancellationToken.CanBeCanceled}");
            return Task.CompletedTask;
        };
        await plain.CloseAsync();
        seen.Add("plain channel close: token " + await plainToken.Task.WaitAsync(TestTimeout.Token));

        IChannel open = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        Task<string> connectionHandler = Handler(h => connection.ConnectionShutdownAsync += h);
        Task<string> channelHandler = Handler(h => open.ChannelShutdownAsync += h);
        using (var cancelled = new CancellationTokenSource(TimeSpan.FromSeconds(1)))
        {
            seen.Add("connection close " + await Outcome(() => connection.CloseAsync(cancellationToken: cancelled.Token)));
        }

        seen.Add("connection handler " + await connectionHandler.WaitAsync(TestTimeout.Token) + ", channel handler " + await channelHandler.WaitAsync(TestTimeout.Token));
        return string.Join("; ", seen);

        // A handler that waits on the reason's token: it tells whether that token ended the wait.
        static Task<string> Handler(Action<AsyncEventHandler<ShutdownEventArgs>> add)
        {
            var ended = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
            add(async (_, e) => ended.TrySetResult(await WaitOn(e.CancellationToken)));
            return ended.Task;
        }
    });

    /// <summary>Waits 30 s on <paramref name="token"/>: says whether the wait ran out or the token ended it.</summary>
    private static async Task<string> WaitOn(CancellationToken token)
    {
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(30), token);
            return "ran its 30 s";
        }
        catch (OperationCanceledException)
        {
            return "cancelled";
        }
    }

    [BrokerFact]
    public Task A_channel_and_a_connection_being_closed_are_no_longer_open_and_report_the_close() => Compare(async (factory, name) =>
    {
        var seen = new List<string>();
        IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        Task closing = channel.CloseAsync(TestTimeout.Token);
        seen.Add($"channel while closing: open {channel.IsOpen}, closed {channel.IsClosed}, reason {channel.CloseReason?.ReplyCode}");
        await closing;
        seen.Add($"channel closed: open {channel.IsOpen}, reason {channel.CloseReason?.ReplyCode} {channel.CloseReason?.ReplyText}");
        closing = connection.CloseAsync(TestTimeout.Token);
        seen.Add($"connection while closing: open {connection.IsOpen}, reason {connection.CloseReason?.ReplyCode}");
        await closing;
        seen.Add($"connection closed: open {connection.IsOpen}, reason {connection.CloseReason?.ReplyCode} {connection.CloseReason?.ReplyText}");
        await connection.DisposeAsync();
        return string.Join("; ", seen);
    });

    [BrokerFact]
    public Task A_shutdown_handler_added_once_closed_is_called_at_once_and_disposed_objects_refuse_handlers() => Compare(async (factory, name) =>
    {
        var seen = new List<string>();
        IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await channel.CloseAsync(TestTimeout.Token);
        channel.ChannelShutdownAsync += (_, e) =>
        {
            seen.Add($"late channel handler: {e.Initiator} {e.ReplyCode} {e.ReplyText}");
            return Task.CompletedTask;
        };
        seen.Add("after the channel's add");
        await channel.DisposeAsync();
        seen.Add("shutdown add " + await Outcome(() => { channel.ChannelShutdownAsync += (_, _) => Task.CompletedTask; return Task.CompletedTask; }));
        seen.Add("ack add " + await Outcome(() => { channel.BasicAcksAsync += (_, _) => Task.CompletedTask; return Task.CompletedTask; }));
        seen.Add("return remove " + await Outcome(() => { channel.BasicReturnAsync -= (_, _) => Task.CompletedTask; return Task.CompletedTask; }));
        seen.Add("callback add " + await Outcome(() => { channel.CallbackExceptionAsync += (_, _) => Task.CompletedTask; return Task.CompletedTask; }));
        seen.Add("flow add " + await Outcome(() => { channel.FlowControlAsync += (_, _) => Task.CompletedTask; return Task.CompletedTask; }));

        await connection.CloseAsync(TestTimeout.Token);
        connection.ConnectionShutdownAsync += (_, e) =>
        {
            seen.Add($"late connection handler: {e.Initiator} {e.ReplyCode} {e.ReplyText}");
            return Task.CompletedTask;
        };
        seen.Add("after the connection's add");
        await connection.DisposeAsync();
        seen.Add("connection shutdown add " + await Outcome(() => { connection.ConnectionShutdownAsync += (_, _) => Task.CompletedTask; return Task.CompletedTask; }));
        return string.Join("; ", seen);
    });

    [BrokerFact]
    public Task Cancelling_a_tag_with_no_consumer_is_answered_and_client_properties_are_what_was_sent() => Compare(async (factory, name) =>
    {
        factory.ClientProperties["application"] = "drop-in test";
        await using IConnection connection = await factory.CreateConnectionAsync("named connection", TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        var consumer = new AsyncEventingBasicConsumer(channel);
        string tag = await channel.BasicConsumeAsync(name, autoAck: true, consumer, TestTimeout.Token);
        await channel.BasicCancelAsync(tag, cancellationToken: TestTimeout.Token);
        string twice = await Outcome(() => channel.BasicCancelAsync(tag, cancellationToken: TestTimeout.Token));
        string never = await Outcome(() => channel.BasicCancelAsync("never-used", cancellationToken: TestTimeout.Token));
        IDictionary<string, object?> sent = connection.ClientProperties;
        string properties = $"connection_name={sent["connection_name"]} application={sent["application"]} capabilities={sent["capabilities"] is IDictionary<string, object?>}";
        return $"cancel twice {twice}; unknown tag {never}; open={channel.IsOpen}; {properties}; factory has product={factory.ClientProperties.ContainsKey("product")}";
    });

    [BrokerFact]
    public Task A_tracked_confirm_left_unanswered_by_the_channels_end_is_AlreadyClosedException() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(new CreateChannelOptions(true, true), TestTimeout.Token);
        string publish = await Outcome(() => channel.BasicPublishAsync(name + ".missing-exchange", "", new byte[1], TestTimeout.Token).AsTask());
        return $"{publish} open={channel.IsOpen} reason={channel.CloseReason?.ReplyCode} {channel.CloseReason?.ClassId}.{channel.CloseReason?.MethodId}";
    });

    [BrokerFact]
    public Task A_frame_past_MaxInboundMessageBodySize_ends_the_connection_with_a_MalformedFrameException() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        var seen = new List<string> { $"endpoint limit {connection.Endpoint.MaxInboundMessageBodySize}" };
        connection.ConnectionShutdownAsync += (_, e) => Note(seen, $"connection shutdown {e.Initiator} {e.ReplyCode} {e.Exception?.GetType().Name}");
        await using IChannel channel = await connection.CreateChannelAsync(new CreateChannelOptions(true, true), TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += (_, e) => Note(seen, $"received {e.Body.Length}");
        consumer.ShutdownAsync += (_, _) =>
        {
            ended.TrySetResult();
            return Task.CompletedTask;
        };
        await channel.BasicConsumeAsync(name, autoAck: true, consumer, TestTimeout.Token);
        await channel.BasicPublishAsync("", name, new byte[100], TestTimeout.Token);
        await Until(() => { lock (seen) { return seen.Count == 2; } });
        try
        {
            await channel.BasicPublishAsync("", name, new byte[16384], TestTimeout.Token);
            seen.Add("the large publish confirmed");
        }
        catch (AlreadyClosedException e)
        {
            await Note(seen, $"the large publish: {e.GetType().Name} around {e.InnerException?.GetType().Name}");
        }

        await ended.Task.WaitAsync(TestTimeout.Token);
        await Until(() => { lock (seen) { return seen.Count == 4; } });
        lock (seen)
        {
            return string.Join("; ", seen.Order()) + $"; open={connection.IsOpen}";
        }
    }, Broker.Uri, factory =>
    {
        switch (factory)
        {
            case ConnectionFactory control:
                control.MaxInboundMessageBodySize = 8192;
                control.AutomaticRecoveryEnabled = false;
                break;
            case SpanwireConnectionFactory dropIn:
                dropIn.MaxInboundMessageBodySize = 8192;
                dropIn.AutomaticRecoveryEnabled = false;
                break;
        }
    });

    [BrokerFact]
    public Task The_factory_cuts_long_client_names_and_each_connection_reports_its_endpoints_limit() => Compare(async (factory, name) =>
    {
        Uri uri = new(Broker.Uri);
        var seen = new List<string>();
        await using (IConnection named = await factory.CreateConnectionAsync(new string('n', 3003), TestTimeout.Token))
        {
            seen.Add($"a 3003-character name comes out {named.ClientProvidedName?.Length}");
            seen.Add($"limit {named.Endpoint.MaxInboundMessageBodySize} port {named.Endpoint.Port == uri.Port}");
        }

        var endpoint = new AmqpTcpEndpoint(uri.Host, uri.Port, new SslOption(), 1200);
        await using (IConnection listed = await factory.CreateConnectionAsync([endpoint], TestTimeout.Token))
        {
            seen.Add($"an endpoint's own limit {listed.Endpoint.MaxInboundMessageBodySize}");
        }

        await using (IConnection hosts = await factory.CreateConnectionAsync([uri.Host], TestTimeout.Token))
        {
            seen.Add($"a host list takes the factory's limit {hosts.Endpoint.MaxInboundMessageBodySize}");
        }

        return string.Join("; ", seen);
    }, Broker.Uri, factory =>
    {
        switch (factory)
        {
            case ConnectionFactory control:
                control.MaxInboundMessageBodySize = 1500;
                control.Endpoint = new AmqpTcpEndpoint(control.HostName, control.Port, control.Ssl, control.MaxInboundMessageBodySize);
                break;
            case SpanwireConnectionFactory dropIn:
                dropIn.MaxInboundMessageBodySize = 1500;
                dropIn.Endpoint = new AmqpTcpEndpoint(dropIn.HostName, dropIn.Port, dropIn.Ssl, dropIn.MaxInboundMessageBodySize);
                break;
        }
    });

    [BrokerFact]
    public Task A_delivery_handler_may_cancel_its_own_consumer_then_nack() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        await channel.BasicPublishAsync("", name, new byte[] { 1 }, TestTimeout.Token);
        var handled = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var unregistered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.UnregisteredAsync += (_, _) =>
        {
            unregistered.TrySetResult();
            return Task.CompletedTask;
        };
        consumer.ReceivedAsync += async (sender, e) =>
        {
            // RabbitMQ.Client's own test: the handler cancels its consumer, then nacks the message back to the queue.
            string outcome = await Outcome(() => channel.BasicCancelAsync(((AsyncEventingBasicConsumer)sender).ConsumerTags[0]));
            outcome += " " + await Outcome(() => channel.BasicNackAsync(e.DeliveryTag, multiple: false, requeue: true).AsTask());
            handled.TrySetResult(outcome);
        };
        await channel.BasicConsumeAsync(name, autoAck: false, consumer, TestTimeout.Token);
        string inHandler = await handled.Task.WaitAsync(TestTimeout.Token);
        await unregistered.Task.WaitAsync(TestTimeout.Token);
        QueueDeclareOk queue = await channel.QueueDeclarePassiveAsync(name, TestTimeout.Token);
        while (queue.MessageCount == 0)
        {
            await Task.Delay(10, TestTimeout.Token);
            queue = await channel.QueueDeclarePassiveAsync(name, TestTimeout.Token);
        }

        return $"{inHandler}; messages={queue.MessageCount} consumers={queue.ConsumerCount} running={consumer.IsRunning}";
    });

    [BrokerFact]
    public Task Dispose_abort_and_a_custom_close_report_RabbitMQ_Clients_reasons() => Compare(async (factory, name) =>
    {
        var seen = new List<string>();
        static string Describe(ShutdownEventArgs? e) => e is null ? "none" : $"{e.Initiator} {e.ReplyCode} '{e.ReplyText}' {e.ClassId}.{e.MethodId}";

        IConnection first = await factory.CreateConnectionAsync(TestTimeout.Token);
        IChannel disposed = await first.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        ShutdownEventArgs? disposedWith = null;
        disposed.ChannelShutdownAsync += (_, e) =>
        {
            disposedWith = e; // its CloseReason may not be read once disposed
            return Task.CompletedTask;
        };
        await disposed.DisposeAsync();
        seen.Add("channel disposed: " + Describe(disposedWith));
        IChannel aborted = await first.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await aborted.AbortAsync(TestTimeout.Token);
        seen.Add("channel aborted: " + Describe(aborted.CloseReason));
        IChannel left = await first.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        await first.CloseAsync(320, "closing with my own words", TestTimeout.Token);
        seen.Add("connection closed: " + Describe(first.CloseReason) + "; its channel: " + Describe(left.CloseReason));
        await first.DisposeAsync();

        IConnection second = await factory.CreateConnectionAsync(TestTimeout.Token);
        IChannel open = await second.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        var shutdown = new TaskCompletionSource<ShutdownEventArgs>(TaskCreationOptions.RunContinuationsAsynchronously);
        open.ChannelShutdownAsync += (_, e) =>
        {
            shutdown.TrySetResult(e);
            return Task.CompletedTask;
        };
        await second.DisposeAsync();
        seen.Add("connection disposed, its channel heard: " + Describe(await shutdown.Task.WaitAsync(TestTimeout.Token)));
        return string.Join("; ", seen);
    });

    [BrokerFact]
    public Task Handlers_that_throw_are_reported_with_RabbitMQ_Clients_context_and_consumer() => Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        var reported = new List<string>();
        var twoReported = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        channel.CallbackExceptionAsync += (_, e) =>
        {
            lock (reported)
            {
                e.Detail.TryGetValue("consumer", out object? consumer);
                reported.Add($"{e.Exception.Message} context={e.Detail["context"]} consumer={consumer?.GetType().Name ?? "none"}");
                if (reported.Count == 2)
                {
                    twoReported.TrySetResult();
                }
            }

            return Task.CompletedTask;
        };
        await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += (_, _) => throw new InvalidOperationException("from the delivery handler");
        await channel.BasicConsumeAsync(name, autoAck: true, consumer, TestTimeout.Token);
        await channel.BasicPublishAsync("", name, new byte[] { 1 }, TestTimeout.Token);
        await Until(() => { lock (reported) { return reported.Count == 1; } });
        channel.ChannelShutdownAsync += (_, _) => throw new InvalidOperationException("from the shutdown handler");
        await channel.CloseAsync(TestTimeout.Token);
        await twoReported.Task.WaitAsync(TestTimeout.Token);

        // A consumer whose consume-ok callback throws is registered all the same; the failure is reported.
        await using IChannel other = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        var consumeOkFailed = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        other.CallbackExceptionAsync += (_, e) =>
        {
            consumeOkFailed.TrySetResult($"{e.Exception.Message} context={e.Detail["context"]} consumer={e.Detail["consumer"]?.GetType().Name}");
            return Task.CompletedTask;
        };
        await other.QueueDeclareAsync(name + ".other", durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        string consume = await Outcome(() => other.BasicConsumeAsync(name + ".other", autoAck: true, new ThrowingConsumeOk(other), TestTimeout.Token));
        return string.Join("; ", reported) + $"; consume with a throwing consume-ok: {consume}, {await consumeOkFailed.Task.WaitAsync(TestTimeout.Token)}";
    });

    private static async Task Until(Func<Task<bool>> condition)
    {
        while (!await condition())
        {
            await Task.Delay(10, TestTimeout.Token);
        }
    }

    private static async Task<uint> MessageCount(IConnection connection, string queue)
    {
        await using IChannel other = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        return (await other.QueueDeclarePassiveAsync(queue, TestTimeout.Token)).MessageCount;
    }

    private static void InterlockedMax(ref int location, int value)
    {
        int seen = Volatile.Read(ref location);
        while (value > seen && Interlocked.CompareExchange(ref location, value, seen) is var was && was != seen)
        {
            seen = was;
        }
    }

    private sealed class ThrowingConsumeOk(IChannel channel) : AsyncDefaultBasicConsumer(channel)
    {
        public override async Task HandleBasicConsumeOkAsync(string consumerTag, CancellationToken cancellationToken = default)
        {
            await base.HandleBasicConsumeOkAsync(consumerTag, cancellationToken);
            throw new InvalidOperationException("from consume-ok");
        }
    }
}
