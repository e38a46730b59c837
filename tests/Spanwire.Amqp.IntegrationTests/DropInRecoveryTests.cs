using System.Net;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using Spanwire.Amqp.DropIn;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// The drop-in's recovery against RabbitMQ.Client's, on a node of its own (the broker closes every connection) and
/// through a proxy that drops the socket: the same events, the topology and consumers back, a server-named queue
/// renamed, deliveries going on.
/// </summary>
[Trait("Category", BrokerTests.Trait)]
public sealed class DropInRecoveryTests(PrivateNode node) : IClassFixture<PrivateNode>
{
    [BrokerFact]
    public Task A_forced_close_recovers_topology_consumers_and_server_named_queues() =>
        DropInTests.Compare((factory, name) => RecoverAsync(factory, name, () => node.CtlAsync("close_all_connections \"drop-in recovery\"")), node.Uri, FastRecovery);

    [BrokerFact]
    public async Task A_dropped_socket_recovers_the_same_way()
    {
        int port = new Uri(node.Uri).Port;
        await using var proxy = new ChaosProxy(new IPEndPoint(IPAddress.Loopback, port));
        string viaProxy = new UriBuilder(node.Uri) { Port = proxy.Port }.Uri.ToString();
        await DropInTests.Compare((factory, name) => RecoverAsync(factory, name, () =>
        {
            // Every connection the proxy holds: the control's, closed by now, may still be listed.
            var random = new Random(1);
            Assert.True(proxy.CutOne(random), "a connection to cut");
            while (proxy.CutOne(random))
            {
            }

            return Task.CompletedTask;
        }), viaProxy, FastRecovery);
    }

    [BrokerFact]
    public async Task A_dropped_socket_leaves_a_shutdown_report_entry_a_forced_close_none_and_a_recovery_clears_it()
    {
        int port = new Uri(node.Uri).Port;
        await using var proxy = new ChaosProxy(new IPEndPoint(IPAddress.Loopback, port));
        string viaProxy = new UriBuilder(node.Uri) { Port = proxy.Port }.Uri.ToString();
        foreach (bool recover in new[] { false, true })
        {
            await DropInTests.Compare(async (factory, name) =>
            {
                var seen = new List<string>();
                await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
                var shut = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                connection.ConnectionShutdownAsync += (_, _) =>
                {
                    shut.TrySetResult();
                    return Task.CompletedTask;
                };
                connection.RecoverySucceededAsync += (_, _) =>
                {
                    recovered.TrySetResult();
                    return Task.CompletedTask;
                };
                seen.Add($"open: {Report(connection)}");
                var random = new Random(1);
                while (proxy.CutOne(random))
                {
                }

                await shut.Task.WaitAsync(TimeSpan.FromSeconds(30), TestTimeout.Token);
                if (recover)
                {
                    await recovered.Task.WaitAsync(TimeSpan.FromSeconds(30), TestTimeout.Token);
                    seen.Add($"recovered: {Report(connection)}");
                    await node.CtlAsync("close_all_connections \"report\"");
                    await DropInTests.Until(() => !connection.IsOpen);
                    seen.Add($"closed by the broker: {Report(connection)}");
                }
                else
                {
                    // RabbitMQ.Client adds its entry once the shutdown handlers have run; none may come.
                    await Task.WhenAny(DropInTests.Until(() => connection.ShutdownReport.Any()), Task.Delay(TimeSpan.FromSeconds(3), TestTimeout.Token));
                    seen.Add($"cut: {Report(connection)}");
                }

                return string.Join("; ", seen);
            }, viaProxy, factory =>
            {
                FastRecovery(factory);
                if (factory is ConnectionFactory control)
                {
                    control.AutomaticRecoveryEnabled = recover;
                }
                else
                {
                    ((SpanwireConnectionFactory)factory).AutomaticRecoveryEnabled = recover;
                }
            });
        }

        // Each entry's description up to its code, and whether the rest follows RabbitMQ.Client's rule: a socket that
        // ended cleanly is code 0 'End of stream', any other failure code 541 with the exception's words. Which of the
        // two a cut gives depends on how the proxy's reset meets the socket, not on the client, so it is not compared.
        static string Report(IConnection connection) => connection.ShutdownReport.Any()
            ? string.Join(" | ", connection.ShutdownReport.Select(e => $"{e.Description[..Math.Max(0, e.Description.IndexOf(", code=", StringComparison.Ordinal))]} (well formed: {WellFormed(e)})"))
            : "none";

        static bool WellFormed(ShutdownReportEntry entry) => entry.Exception is { } failure
            && entry.Description.Contains(failure is EndOfStreamException
                ? ", code=0, text='End of stream', classId=0, methodId=0, exception="
                : $", code=541, text='{failure.Message}', classId=0, methodId=0, exception=", StringComparison.Ordinal);
    }

    [BrokerFact]
    public Task Recovery_filters_and_exception_handlers_act_as_RabbitMQ_Clients() =>
        DropInTests.Compare(async (factory, name) =>
        {
            // RabbitMQ.Client's own pattern: an exchange redeclared out of band with another type is refused (406) on
            // recovery and put right by the handler; a queue the filter leaves out is not declared again.
            IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
            var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            connection.RecoverySucceededAsync += (_, _) =>
            {
                recovered.TrySetResult();
                return Task.CompletedTask;
            };
            IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
            string troubled = name + ".exception", fine = name + ".fine", kept = name + ".kept", filtered = name + ".filtered";
            await channel.ExchangeDeclareAsync(troubled, ExchangeType.Direct, cancellationToken: TestTimeout.Token);
            await channel.ExchangeDeclareAsync(fine, ExchangeType.Direct, cancellationToken: TestTimeout.Token);
            await channel.QueueDeclareAsync(kept, durable: false, exclusive: false, autoDelete: false, cancellationToken: TestTimeout.Token);
            await channel.QueueDeclareAsync(filtered, durable: false, exclusive: false, autoDelete: false, cancellationToken: TestTimeout.Token);

            var control = new ConnectionFactory { Uri = new Uri(node.Uri) };
            await using (IConnection other = await control.CreateConnectionAsync(TestTimeout.Token))
            await using (IChannel side = await other.CreateChannelAsync(cancellationToken: TestTimeout.Token))
            {
                await side.ExchangeDeleteAsync(fine, cancellationToken: TestTimeout.Token);
                await side.ExchangeDeleteAsync(troubled, cancellationToken: TestTimeout.Token);
                await side.ExchangeDeclareAsync(troubled, ExchangeType.Topic, cancellationToken: TestTimeout.Token);
                await side.QueueDeleteAsync(kept, cancellationToken: TestTimeout.Token);
                await side.QueueDeleteAsync(filtered, cancellationToken: TestTimeout.Token);
            }

            await node.CtlAsync("close_all_connections \"drop-in recovery hooks\"");
            await recovered.Task.WaitAsync(TimeSpan.FromSeconds(30), TestTimeout.Token);

            var seen = new List<string> { $"channel open={channel.IsOpen}" };
            await using (IConnection check = await control.CreateConnectionAsync(TestTimeout.Token))
            {
                async Task Exists(string what, Func<IChannel, Task> probe)
                {
                    await using IChannel c = await check.CreateChannelAsync(cancellationToken: TestTimeout.Token);
                    seen.Add($"{what} {await DropInTests.Outcome(() => probe(c))}");
                }

                await Exists("fine exchange", c => c.ExchangeDeclarePassiveAsync(fine, TestTimeout.Token));
                await Exists("troubled exchange as topic", c => c.ExchangeDeclareAsync(troubled, ExchangeType.Topic, cancellationToken: TestTimeout.Token));
                await Exists("kept queue", c => c.QueueDeclarePassiveAsync(kept, TestTimeout.Token));
                await Exists("filtered queue", c => c.QueueDeclarePassiveAsync(filtered, TestTimeout.Token));
                await Exists("the handler's queue", c => c.QueueDeclarePassiveAsync(troubled + ".handled", TestTimeout.Token));
                await using IChannel cleanup = await check.CreateChannelAsync(cancellationToken: TestTimeout.Token);
                await cleanup.ExchangeDeleteAsync(troubled, cancellationToken: TestTimeout.Token);
                await cleanup.ExchangeDeleteAsync(fine, cancellationToken: TestTimeout.Token);
                await cleanup.QueueDeleteAsync(kept, cancellationToken: TestTimeout.Token);
                await cleanup.QueueDeleteAsync(troubled + ".handled", cancellationToken: TestTimeout.Token);
            }

            await connection.CloseAsync(TestTimeout.Token);
            await connection.DisposeAsync();
            return string.Join("; ", seen);
        }, node.Uri, factory =>
        {
            FastRecovery(factory);
            var filter = new TopologyRecoveryFilter { QueueFilter = q => !q.Name.EndsWith(".filtered", StringComparison.Ordinal) };
            var handler = new TopologyRecoveryExceptionHandler
            {
                ExchangeRecoveryExceptionCondition = (e, ex) => e.Name.EndsWith(".exception", StringComparison.Ordinal)
                    && ex is RabbitMQ.Client.Exceptions.OperationInterruptedException { ShutdownReason.ReplyCode: 406 },
                ExchangeRecoveryExceptionHandlerAsync = async (e, _, connection) =>
                {
                    await using IChannel channel = await connection.CreateChannelAsync();
                    await channel.ExchangeDeleteAsync(e.Name);
                    await channel.ExchangeDeclareAsync(e.Name, ExchangeType.Topic);
                    await channel.QueueDeclareAsync(e.Name + ".handled", durable: false, exclusive: false, autoDelete: false); // shows the handler ran
                    await channel.CloseAsync();
                },
            };
            if (factory is ConnectionFactory control)
            {
                (control.TopologyRecoveryFilter, control.TopologyRecoveryExceptionHandler) = (filter, handler);
            }
            else
            {
                var dropIn = (SpanwireConnectionFactory)factory;
                (dropIn.TopologyRecoveryFilter, dropIn.TopologyRecoveryExceptionHandler) = (filter, handler);
            }
        });

    [BrokerFact]
    public Task RecoveringConsumer_handlers_see_and_change_the_applications_own_arguments() =>
        DropInTests.Compare(async (factory, name) =>
        {
            await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
            var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            int recoveries = 0;
            var recoveredTwice = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            connection.RecoverySucceededAsync += (_, _) =>
            {
                if (Interlocked.Increment(ref recoveries) == 1)
                {
                    recovered.TrySetResult();
                }
                else
                {
                    recoveredTwice.TrySetResult();
                }

                return Task.CompletedTask;
            };
            IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
            await channel.QueueDeclareAsync(name, durable: false, exclusive: false, autoDelete: false, cancellationToken: TestTimeout.Token);
            var arguments = new Dictionary<string, object?> { ["first-argument"] = "some-value" };
            string tag = await channel.BasicConsumeAsync(name, autoAck: true, consumerTag: "", noLocal: false, exclusive: false, arguments,
                new AsyncEventingBasicConsumer(channel), TestTimeout.Token);
            var seen = new List<string>();
            connection.RecoveringConsumerAsync += (_, e) =>
            {
                seen.Add($"tag matches={e.ConsumerTag == tag} argument={e.ConsumerArguments?["first-argument"]}");
                e.ConsumerArguments!["first-argument"] = "event-handler-set-this-value";
                return Task.CompletedTask;
            };

            await node.CtlAsync("close_all_connections \"recovering consumer\"");
            await recovered.Task.WaitAsync(TimeSpan.FromSeconds(30), TestTimeout.Token);
            await node.CtlAsync("close_all_connections \"recovering consumer again\"");
            await recoveredTwice.Task.WaitAsync(TimeSpan.FromSeconds(30), TestTimeout.Token);
            seen.Add($"the application's dictionary says {arguments["first-argument"]}");
            await channel.QueueDeleteAsync(name, cancellationToken: TestTimeout.Token);
            await channel.CloseAsync(TestTimeout.Token);
            return string.Join("; ", seen);
        }, node.Uri, FastRecovery);

    private static void FastRecovery(IConnectionFactory factory)
    {
        if (factory is ConnectionFactory control)
        {
            control.NetworkRecoveryInterval = TimeSpan.FromMilliseconds(200);
        }
        else
        {
            ((SpanwireConnectionFactory)factory).NetworkRecoveryInterval = TimeSpan.FromMilliseconds(200);
        }
    }

    private static async Task<string> RecoverAsync(IConnectionFactory factory, string name, Func<Task> fault)
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        var seen = new List<string>();
        var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        connection.ConnectionShutdownAsync += (_, e) => DropInTests.Note(seen, $"shutdown {e.Initiator}");
        connection.RecoverySucceededAsync += (_, _) =>
        {
            recovered.TrySetResult();
            return DropInTests.Note(seen, "recovered");
        };
        string? renamedFrom = null, renamedTo = null;
        connection.QueueNameChangedAfterRecoveryAsync += (_, e) =>
        {
            (renamedFrom, renamedTo) = (e.NameBefore, e.NameAfter);
            return Task.CompletedTask;
        };

        IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        int channelShutdowns = 0, consumerShutdowns = 0;
        channel.ChannelShutdownAsync += (_, _) =>
        {
            Interlocked.Increment(ref channelShutdowns); // the channel hears the loss too, then comes back
            return Task.CompletedTask;
        };
        await channel.ExchangeDeclareAsync(name, ExchangeType.Direct, durable: false, autoDelete: true, cancellationToken: TestTimeout.Token);
        QueueDeclareOk queue = await channel.QueueDeclareAsync("", durable: false, exclusive: true, autoDelete: true, cancellationToken: TestTimeout.Token);
        await channel.QueueBindAsync(queue.QueueName, name, "k", cancellationToken: TestTimeout.Token);
        await channel.BasicQosAsync(0, 10, false, TestTimeout.Token);
        var bodies = new List<string>();
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ShutdownAsync += (_, _) =>
        {
            Interlocked.Increment(ref consumerShutdowns);
            return Task.CompletedTask;
        };
        consumer.ReceivedAsync += async (_, e) =>
        {
            lock (bodies)
            {
                bodies.Add(e.Body.Span[0].ToString(System.Globalization.CultureInfo.InvariantCulture));
            }

            await channel.BasicAckAsync(e.DeliveryTag, multiple: false);
        };
        await channel.BasicConsumeAsync(queue.QueueName, autoAck: false, consumer, TestTimeout.Token);
        await channel.BasicPublishAsync(name, "k", new byte[] { 1 }, TestTimeout.Token);
        await DropInTests.Until(() => bodies.Count == 1);

        await fault();
        try
        {
            await recovered.Task.WaitAsync(TimeSpan.FromSeconds(30), TestTimeout.Token);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"{factory.GetType().Name} did not recover in 30 s; events: {string.Join(", ", seen)}");
        }

        await channel.BasicPublishAsync(name, "k", new byte[] { 2 }, TestTimeout.Token);
        await DropInTests.Until(() => bodies.Count == 2);
        bool renamed = renamedFrom == queue.QueueName && renamedTo is not null && renamedTo != renamedFrom;
        return $"{string.Join(", ", seen)} | renamed={renamed} | bodies={string.Join(",", bodies)} | channel open={channel.IsOpen} consumer running={consumer.IsRunning}"
            + $" tags={consumer.ConsumerTags.Length} | channel shutdowns={channelShutdowns} consumer shutdowns={consumerShutdowns}";
    }
}

/// <summary>The drop-in over TLS against RabbitMQ.Client over TLS: the same SslOption, the same outcome.</summary>
[Trait("Category", BrokerTests.Trait)]
public sealed class DropInTlsTests(TlsNode node) : IClassFixture<TlsNode>
{
    [BrokerFact]
    public Task A_connection_over_TLS_with_RabbitMQ_Clients_SslOption() => DropInTests.Compare(async (factory, name) =>
    {
        await using IConnection connection = await factory.CreateConnectionAsync(TestTimeout.Token);
        await using IChannel channel = await connection.CreateChannelAsync(cancellationToken: TestTimeout.Token);
        QueueDeclareOk queue = await channel.QueueDeclareAsync(name, durable: false, exclusive: true, autoDelete: false, cancellationToken: TestTimeout.Token);
        await channel.BasicPublishAsync("", name, new byte[] { 42 }, TestTimeout.Token);
        BasicGetResult? got = null;
        while (got is null)
        {
            got = await channel.BasicGetAsync(name, autoAck: true, TestTimeout.Token);
        }

        return $"port={connection.Endpoint.Port == new Uri(node.TlsUri).Port} tls={connection.Endpoint.Ssl.Enabled} body={got.Body.Span[0]}";
    }, node.TlsUri, factory =>
    {
        SslOption ssl = factory is ConnectionFactory control ? control.Ssl : ((SpanwireConnectionFactory)factory).Ssl;
        ssl.CertificateValidationCallback = TrustTestCa;
    });

    /// <summary>The node's certificate, checked against the test CA alone (its name is the node's, not the address dialled).</summary>
    private bool TrustTestCa(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        if (certificate is null)
        {
            return false;
        }

        using var build = new X509Chain();
        build.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        build.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        build.ChainPolicy.CustomTrustStore.Add(X509Certificate2.CreateFromPem(File.ReadAllText(Path.Combine(node.Certificates, "ca.pem"))));
        return build.Build(new X509Certificate2(certificate));
    }
}
