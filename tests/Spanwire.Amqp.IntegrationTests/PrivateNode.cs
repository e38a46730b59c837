namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// A RabbitMQ node of a test class's own (scripts/rabbitmq.sh in a temporary folder), for faults that must not touch
/// the node every other test shares: closing every connection, stopping, killing and restarting it.
/// </summary>
public sealed class PrivateNode : IAsyncLifetime
{
    private readonly string _folder = Directory.CreateTempSubdirectory("spanwire-node-").FullName;

    public string Uri { get; private set; } = "";

    public async Task InitializeAsync() => Uri = (await NodeScript.RunAsync($"start {_folder}", TimeSpan.FromSeconds(120))).Trim();

    public async Task DisposeAsync()
    {
        await NodeScript.RunAsync($"stop {_folder}", TimeSpan.FromSeconds(60), check: false);
        Directory.Delete(_folder, recursive: true);
    }

    /// <summary>rabbitmqctl against this node.</summary>
    public Task<string> CtlAsync(string arguments) => NodeScript.RunAsync($"ctl {_folder} {arguments}", TimeSpan.FromSeconds(60));

    /// <summary>Kills the node (kill -9): its connections drop without a word.</summary>
    public Task KillAsync() => NodeScript.RunAsync($"kill {_folder}", TimeSpan.FromSeconds(30));

    /// <summary>Starts the node again on its port, name and data.</summary>
    public async Task StartAsync() => Uri = (await NodeScript.RunAsync($"start {_folder}", TimeSpan.FromSeconds(120))).Trim();
}
