namespace Spanwire.Amqp.Client;

/// <summary>One attempt of a connection's automatic recovery.</summary>
/// <param name="attempt">The attempt's number since the link was lost, from 1.</param>
/// <param name="endpoint">The endpoint the attempt connects to.</param>
/// <param name="error">Why the attempt failed, or null.</param>
public sealed class AmqpRecoveryEventArgs(int attempt, AmqpEndpoint endpoint, Exception? error) : EventArgs
{
    /// <summary>The attempt's number since the link was lost, from 1.</summary>
    public int Attempt { get; } = attempt;

    /// <summary>The endpoint the attempt connects to.</summary>
    public AmqpEndpoint Endpoint { get; } = endpoint;

    /// <summary>Why the attempt failed (<see cref="AmqpConnection.RecoveryFailed"/>), or null.</summary>
    public Exception? Error { get; } = error;
}
