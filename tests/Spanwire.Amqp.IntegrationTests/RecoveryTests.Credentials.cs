using RabbitMQ.Client;
using Spanwire.Amqp.Client;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// Credentials that change while the client runs: a user's password changed on the node, then every connection
/// closed by the node. Recovery must log in with the new password, asked of the credentials provider (RabbitMQ.Client's
/// ICredentialsProvider through the same change is the control) or kept from UpdateSecretAsync.
/// </summary>
public partial class RecoveryTests
{
    [BrokerFact]
    public async Task Password_changed_on_the_node_recovery_asks_the_provider_again_and_logs_in_as_RabbitMQ_Client_does()
    {
        string user = $"rotating-{Guid.NewGuid():N}";
        await node.CtlAsync($"add_user {user} first-password");
        await node.CtlAsync($"set_permissions -p / {user} \".*\" \".*\" \".*\"");
        var password = new CurrentPassword("first-password");
        var endpoint = new Uri(node.Uri);

        AmqpConnectionOptions options = AmqpConnectionOptions.Parse(node.Uri);
        options.CredentialsProvider = new SpanwireProvider(user, password);
        options.RecoveryInterval = TimeSpan.FromMilliseconds(200);
        await using AmqpConnection spanwire = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        var spanwireRecovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        spanwire.RecoverySucceeded += (_, _) => spanwireRecovered.TrySetResult();

        var control = new ControlProvider(user, password);
        var factory = new ConnectionFactory
        {
            HostName = endpoint.Host,
            Port = endpoint.Port,
            CredentialsProvider = control,
            NetworkRecoveryInterval = TimeSpan.FromMilliseconds(200),
        };
        await using IConnection rabbit = await factory.CreateConnectionAsync(TestTimeout.Token);
        var controlRecovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        rabbit.RecoverySucceededAsync += (_, _) =>
        {
            controlRecovered.TrySetResult();
            return Task.CompletedTask;
        };

        await node.CtlAsync($"change_password {user} second-password");
        password.Value = "second-password";
        await node.CtlAsync("close_all_connections \"password rotated\"");
        await Task.WhenAll(spanwireRecovered.Task, controlRecovered.Task).WaitAsync(TimeSpan.FromSeconds(30));

        AmqpChannel channel = await spanwire.OpenChannelAsync(TestTimeout.Token);
        await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        Assert.True(rabbit.IsOpen);
        Expect.Equal(control.Calls > 1, ((SpanwireProvider)options.CredentialsProvider).Calls > 1, "the provider asked again on recovery, as RabbitMQ.Client's");
        await node.CtlAsync($"delete_user {user}");
    }

    [BrokerFact]
    public async Task UpdateSecretAsync_keeps_the_secret_the_next_recovery_logs_in_with_it()
    {
        string user = $"updated-{Guid.NewGuid():N}";
        await node.CtlAsync($"add_user {user} old-secret");
        await node.CtlAsync($"set_permissions -p / {user} \".*\" \".*\" \".*\"");
        var endpoint = new Uri(node.Uri);
        AmqpConnectionOptions options = AmqpConnectionOptions.Parse($"amqp://{user}:old-secret@{endpoint.Host}:{endpoint.Port}/");
        options.RecoveryInterval = TimeSpan.FromMilliseconds(200);
        await using AmqpConnection connection = await AmqpConnection.ConnectAsync(options, TestTimeout.Token);
        var recovered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var failures = new List<string>();
        connection.RecoverySucceeded += (_, _) => recovered.TrySetResult();
        connection.RecoveryFailed += (_, e) => failures.Add(e.Error?.Message ?? "");

        await node.CtlAsync($"change_password {user} new-secret");
        await connection.UpdateSecretAsync("new-secret", "rotated", TestTimeout.Token);
        await node.CtlAsync("close_all_connections \"secret rotated\"");
        await recovered.Task.WaitAsync(TimeSpan.FromSeconds(30));

        Expect.Equal(0, failures.Count, $"failed attempts: {string.Join(" | ", failures)}");
        Assert.DoesNotContain(failures, f => f.Contains("secret", StringComparison.Ordinal)); // no message shows a password
        AmqpChannel channel = await connection.OpenChannelAsync(TestTimeout.Token);
        await channel.QueueDeclareAsync(exclusive: true, cancellationToken: TestTimeout.Token);
        await node.CtlAsync($"delete_user {user}");
    }

    private sealed class CurrentPassword(string value)
    {
        public string Value { get; set; } = value;
    }

    private sealed class SpanwireProvider(string user, CurrentPassword password) : IAmqpCredentialsProvider
    {
        public int Calls;

        public ValueTask<AmqpCredentials> GetCredentialsAsync(CancellationToken cancellationToken)
        {
            Interlocked.Increment(ref Calls);
            return ValueTask.FromResult(new AmqpCredentials(user, password.Value));
        }
    }

    private sealed class ControlProvider(string user, CurrentPassword password) : ICredentialsProvider
    {
        public int Calls;

        public string Name => "control";

        public Task<Credentials> GetCredentialsAsync(CancellationToken cancellationToken = default)
        {
            Interlocked.Increment(ref Calls);
            return Task.FromResult(new Credentials(Name, user, password.Value, null));
        }
    }
}
