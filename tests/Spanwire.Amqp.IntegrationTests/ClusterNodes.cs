namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// A three-node RabbitMQ cluster of the tests' own on 127.0.0.1 (scripts/rabbitmq.sh cluster), for node faults:
/// each node can be stopped, killed and started again, and rejoins by itself.
/// </summary>
public sealed class ClusterNodes : IAsyncLifetime
{
    private readonly string _folder = Directory.CreateTempSubdirectory("spanwire-cluster-").FullName;

    /// <summary>amqp://guest:guest@127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/</summary>
    public string Uri { get; private set; } = "";

    public async Task InitializeAsync() => Uri = (await NodeScript.RunAsync($"cluster {_folder}", TimeSpan.FromSeconds(300))).Trim();

    public async Task DisposeAsync()
    {
        await NodeScript.RunAsync($"cluster-stop {_folder}", TimeSpan.FromSeconds(120), check: false);
        Directory.Delete(_folder, recursive: true);
    }

    /// <summary>The port of node <paramref name="node"/> (1 to 3).</summary>
    public int Port(int node) => int.Parse(File.ReadAllText(Path.Combine(_folder, $"n{node}", "port")).Trim(), System.Globalization.CultureInfo.InvariantCulture);

    public Task StopAsync(int node) => NodeScript.RunAsync($"stop {_folder}/n{node}", TimeSpan.FromSeconds(90));

    public Task KillAsync(int node) => NodeScript.RunAsync($"kill {_folder}/n{node}", TimeSpan.FromSeconds(30));

    public Task StartAsync(int node) => NodeScript.RunAsync($"start {_folder}/n{node}", TimeSpan.FromSeconds(120));
}
