using System.Diagnostics;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// A broker stopped mid-stream: a node of the test's own (scripts/rabbitmq.sh), so stopping it does not take the
/// shared node away from the other tests.
/// </summary>
public class BrokerStopTests
{
    [BrokerFact]
    public async Task Broker_stopped_mid_stream_pending_confirms_fault_connection_reports_failure_no_call_hangs()
    {
        string folder = Directory.CreateTempSubdirectory("spanwire-node-").FullName;
        try
        {
            string uri = (await NodeScript.RunAsync($"start {folder}", TimeSpan.FromSeconds(120))).Trim();
            AmqpConnectionOptions options = AmqpConnectionOptions.Parse(uri);
            options.Heartbeat = 2;
            options.AutomaticRecovery = false; // this test is about how the connection ends
            await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
            AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
            AmqpQueueInfo queue = await channel.QueueDeclareAsync(durable: false, cancellationToken: TestTimeout.Token);
            await channel.EnableConfirmsAsync(TestTimeout.Token);

            // Publish continuously, awaiting confirms in windows, until the stop breaks the stream.
            using var stopPublishing = new CancellationTokenSource();
            Task<Exception?> publishing = Task.Run<Exception?>(async () =>
            {
                var body = new byte[256];
                try
                {
                    while (true)
                    {
                        var window = new ValueTask[100];
                        for (int i = 0; i < window.Length; i++)
                        {
                            window[i] = channel.PublishConfirmedAsync("", queue.Name, default, body);
                        }

                        foreach (ValueTask confirm in window)
                        {
                            await confirm;
                        }
                    }
                }
                catch (Exception ex)
                {
                    return ex;
                }
            });

            await Task.Delay(500);
            if (publishing.IsCompleted)
            {
                Assert.Fail($"Publishing stopped before the broker did: {await publishing}");
            }

            var watch = Stopwatch.StartNew();
            Task stopping = NodeScript.RunAsync($"stop {folder}", TimeSpan.FromSeconds(60));

            Exception reason = await connection.Completion.WaitAsync(TimeSpan.FromSeconds(2 * options.Heartbeat + 30));
            Exception? publishError = await publishing.WaitAsync(TimeSpan.FromSeconds(10));
            await stopping;
            // A node shutting down closes its connections with 320 connection-forced, and that reason is kept even though
            // the socket goes at once. While the client is still publishing, the node closes its socket with our frames
            // unread, so its kernel may answer with a reset that drops the close frame still queued to send: then the
            // only thing to report is the lost socket, as a connection closed with code 0 and the socket error inside.
            var closed = Assert.IsType<AmqpConnectionClosedException>(reason);
            if (closed.ReplyCode != AmqpReplyCode.ConnectionForced)
            {
                Expect.Equal((ushort)0, closed.ReplyCode, closed.Message);
                Assert.True(closed.InnerException is IOException or System.Net.Sockets.SocketException, closed.ToString());
            }

            Assert.True(publishError is AmqpClosedException, publishError?.ToString());
            Assert.False(connection.IsOpen);
            await Assert.ThrowsAnyAsync<AmqpClosedException>(() => channel.QueuePurgeAsync(queue.Name, TestTimeout.Token));
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(60), $"took {watch.Elapsed}");
        }
        finally
        {
            await NodeScript.RunAsync($"stop {folder}", TimeSpan.FromSeconds(60), check: false);
            Directory.Delete(folder, recursive: true);
        }
    }

    [BrokerFact]
    public async Task Node_restarted_in_its_folder_is_the_same_node_durable_queue_and_persistent_message_survive()
    {
        string folder = Directory.CreateTempSubdirectory("spanwire-node-").FullName;
        try
        {
            string uri = (await NodeScript.RunAsync($"start {folder}", TimeSpan.FromSeconds(120))).Trim();
            string queue = Broker.Name("restart");
            await using (AmqpConnection connection = await AmqpConnection.ConnectAsync(uri, TestTimeout.Token))
            {
                AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
                await channel.QueueDeclareAsync(queue, durable: true, cancellationToken: TestTimeout.Token);
                await channel.EnableConfirmsAsync(TestTimeout.Token);
                await channel.PublishConfirmedAsync("", queue, new BasicProperties { DeliveryMode = 2 }, "kept"u8.ToArray(), cancellationToken: TestTimeout.Token);
            }

            await NodeScript.RunAsync($"stop {folder}", TimeSpan.FromSeconds(60));
            string again = (await NodeScript.RunAsync($"start {folder}", TimeSpan.FromSeconds(120))).Trim();

            Expect.Equal(uri, again, "the same port and node name after a restart");
            await using AmqpConnection reconnected = await AmqpConnection.ConnectAsync(again, TestTimeout.Token);
            AmqpChannel reader = await reconnected.OpenChannelAsync(TestTimeout.Token);
            AmqpDelivery? message = await reader.GetAsync(queue, autoAck: true, TestTimeout.Token);
            Assert.NotNull(message);
            Assert.Equal("kept"u8.ToArray(), message.Body.ToArray());
        }
        finally
        {
            await NodeScript.RunAsync($"stop {folder}", TimeSpan.FromSeconds(60), check: false);
            Directory.Delete(folder, recursive: true);
        }
    }
}
