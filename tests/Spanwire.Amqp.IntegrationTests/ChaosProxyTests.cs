using System.Diagnostics;
using System.Net;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.IntegrationTests;

[CollectionDefinition(nameof(ChaosProxyTests), DisableParallelization = true)]
public sealed class ChaosProxyCollection;

/// <summary>
/// Publishers with confirms and an acknowledging consumer (the fault run's clients) through a proxy that resets a
/// connection at random every few hundred milliseconds: every connection recovers by itself, no confirmed message is
/// lost, no call hangs. The summary goes to artifacts/chaos-proxy.md; a connection still down at the end is reported
/// with what it went through. It runs alone: next to the cluster tests booting their nodes on two cores, recovery
/// attempts time out on the machine's load, and the 30 s window would measure that.
/// </summary>
[Collection(nameof(ChaosProxyTests))]
public class ChaosProxyTests
{
    [BrokerFact]
    public async Task Connections_cut_at_random_every_client_recovers_no_confirmed_message_lost_no_call_hangs()
    {
        await using var proxy = new ChaosProxy(new IPEndPoint(IPAddress.Loopback, Broker.Options().Port));
        string uri = $"amqp://guest:guest@127.0.0.1:{proxy.Port}/";
        string queue = Broker.Name("chaos");
        var clients = new SpanwireFaultClients();
        var ledger = new FaultLedger();
        using var stop = new CancellationTokenSource();
        await clients.DeclareQuorumQueueAsync(uri, queue);
        List<IFaultClient> connections = [await clients.StartConsumerAsync(uri, queue, ledger)];
        for (int p = 0; p < 4; p++)
        {
            connections.Add(await clients.StartPublisherAsync(uri, queue, p, ledger, stop.Token));
        }

        var random = new Random(20261124);
        for (int i = 0; i < 40; i++)
        {
            await Task.Delay(random.Next(100, 400));
            proxy.CutOne(random);
        }

        stop.Cancel();
        var settle = Stopwatch.StartNew();
        while ((connections.Any(c => !c.IsOpen) || ledger.Confirmed.Keys.Any(id => !ledger.Received.ContainsKey(id))) && settle.Elapsed < TimeSpan.FromSeconds(30))
        {
            await Task.Delay(100);
        }

        bool allOpen = connections.All(c => c.IsOpen);
        string stuck = string.Join(" | ", connections.Where(c => !c.IsOpen).Select(c => c.History));
        long lost = ledger.Confirmed.Keys.Count(id => !ledger.Received.ContainsKey(id));
        long duplicates = ledger.Received.Values.Sum(n => n - 1L);
        foreach (IFaultClient connection in connections)
        {
            await connection.DisposeAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(30));
        }

        await using (AmqpConnection cleanup = await Broker.ConnectAsync())
        {
            AmqpChannel channel = await cleanup.OpenChannelAsync(TestTimeout.Token);
            await channel.QueueDeleteAsync(queue, cancellationToken: TestTimeout.Token);
        }

        string summary = $"{proxy.Cuts} cuts; confirmed {ledger.Confirmed.Count}, received {ledger.Received.Count} distinct, lost {lost}, duplicates {duplicates}";
        await NodeScript.WriteArtifactAsync("chaos-proxy.md", summary + Environment.NewLine);
        Assert.True(allOpen, $"a connection did not recover within 30 s of the last cut; {summary}; {stuck}");
        Expect.Equal(0L, lost, summary);
        Assert.True(proxy.Cuts >= 30 && ledger.Confirmed.Count > 300, summary);
    }
}
