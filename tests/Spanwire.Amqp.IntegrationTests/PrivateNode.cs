namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// A RabbitMQ node of a test class's own (scripts/rabbitmq.sh in a temporary folder), for faults that must not touch
/// the node every other test shares: closing every connection, stopping, killing and restarting it.
/// </summary>
public class PrivateNode : IAsyncLifetime
{
    private readonly string _startArguments;

    public PrivateNode()
        : this("")
    {
    }

    /// <param name="startArguments">What follows the folder on <c>rabbitmq.sh start</c> (" --tls", say).</param>
    protected PrivateNode(string startArguments) => _startArguments = startArguments;

    public string Uri { get; private set; } = "";

    /// <summary>The node's folder (its data, logs and, for a TLS node, certificates).</summary>
    protected string Folder { get; } = Directory.CreateTempSubdirectory("spanwire-node-").FullName;

    /// <summary>The lines the script printed when the node last started: the amqp:// URI first.</summary>
    protected IReadOnlyList<string> StartLines { get; private set; } = [];

    // With the broker tests skipped (BrokerTests), the node is not started: the machine may have no RabbitMQ.
    public Task InitializeAsync() => BrokerTests.SkipReason is null ? StartAsync() : Task.CompletedTask;

    public async Task DisposeAsync()
    {
        if (BrokerTests.SkipReason is not null)
        {
            Directory.Delete(Folder, recursive: true);
            return;
        }

        await NodeScript.RunAsync($"stop {Folder}", TimeSpan.FromSeconds(60), check: false);
        Directory.Delete(Folder, recursive: true);
    }

    /// <summary>rabbitmqctl against this node.</summary>
    public Task<string> CtlAsync(string arguments) => NodeScript.RunAsync($"ctl {Folder} {arguments}", TimeSpan.FromSeconds(60));

    /// <summary>Kills the node (kill -9): its connections drop without a word.</summary>
    public Task KillAsync() => NodeScript.RunAsync($"kill {Folder}", TimeSpan.FromSeconds(30));

    /// <summary>Starts the node (again: on its port, name and data).</summary>
    public async Task StartAsync()
    {
        StartLines = (await NodeScript.RunAsync($"start {Folder}{_startArguments}", TimeSpan.FromSeconds(120)))
            .Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Uri = StartLines[0];
    }
}
