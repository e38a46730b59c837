namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// Eight publishers with confirms and two acknowledging consumers on a quorum queue of a three-node cluster of the
/// tests' own (scripts/rabbitmq.sh cluster), while nodes are killed (kill -9) and stopped by turns, and started again.
/// At-least-once must hold: no confirmed message is lost (duplicates are allowed, counted and reported), every client
/// on a dead node is open on another within 10 s without user code, and no call hangs (a publish that does not
/// complete within 30 s fails the run). The table goes to artifacts/cluster-faults.md.
/// </summary>
public class ClusterFaultTests
{
    [BrokerFact]
    public async Task Nodes_killed_and_stopped_in_turn_no_confirmed_message_lost_clients_recover_within_10s_no_call_hangs()
    {
        ClusterControl cluster = await ClusterControl.StartAsync();
        try
        {
            FaultResult result = await ClusterFaultRun.RunAsync(new SpanwireFaultClients(), cluster, publishers: 8, consumers: 2, faults: 6);

            string table = ClusterFaultRun.Render([result]);
            await NodeScript.WriteArtifactAsync("cluster-faults.md", table);

            Expect.Equal(0L, result.Lost, $"confirmed messages never received{Environment.NewLine}{table}");
            foreach (FaultRow fault in result.Faults)
            {
                Assert.True(fault.ClientsOnNode == 0 || (fault.Recovered && fault.Recovery < TimeSpan.FromSeconds(10)),
                    $"{fault.Fault} n{fault.Node}: the clients on it were not open on another node within 10 s{Environment.NewLine}{table}");
            }

            Assert.True(result.Faults.Sum(f => f.ClientsOnNode) >= 10, $"the faults hit clients{Environment.NewLine}{table}");
            Assert.True(result.Confirmed > 1000, $"the publishers kept publishing{Environment.NewLine}{table}");
        }
        finally
        {
            await cluster.DisposeAsync();
        }
    }
}
