using System.Diagnostics.Tracing;

namespace Spanwire.Amqp.Client;

/// <summary>
/// Connection, recovery and consumer events for <c>dotnet-trace</c>, <c>dotnet-monitor</c> or an in-process
/// <see cref="EventListener"/> (the hosting package forwards them to ILogger). Nothing is formatted unless a listener is
/// enabled. Messages carry endpoints, channel numbers, tags and exception messages, never credentials.
/// </summary>
[EventSource(Name = AmqpTelemetry.EventSourceName)]
internal sealed class AmqpEventSource : EventSource
{
    public static readonly AmqpEventSource Log = new();

    private AmqpEventSource()
    {
    }

    [Event(1, Level = EventLevel.Informational, Message = "Connected to {0}")]
    public void ConnectionOpened(string endpoint)
    {
        if (IsEnabled())
        {
            WriteEvent(1, endpoint);
        }
    }

    [Event(2, Level = EventLevel.Warning, Message = "The connection to {0} was lost, recovery begins: {1}")]
    public void ConnectionLost(string endpoint, string reason)
    {
        if (IsEnabled())
        {
            WriteEvent(2, endpoint, reason);
        }
    }

    [Event(3, Level = EventLevel.Informational, Message = "Recovery attempt {0} to {1}")]
    public void RecoveryStarted(int attempt, string endpoint)
    {
        if (IsEnabled())
        {
            WriteEvent(3, attempt, endpoint);
        }
    }

    [Event(4, Level = EventLevel.Informational, Message = "Recovered on attempt {0}, connected to {1}")]
    public void RecoverySucceeded(int attempt, string endpoint)
    {
        if (IsEnabled())
        {
            WriteEvent(4, attempt, endpoint);
        }
    }

    [Event(5, Level = EventLevel.Warning, Message = "Recovery attempt {0} to {1} failed: {2}")]
    public void RecoveryFailed(int attempt, string endpoint, string error)
    {
        if (IsEnabled())
        {
            WriteEvent(5, attempt, endpoint, error);
        }
    }

    [Event(6, Level = EventLevel.Informational, Message = "The connection to {0} closed: {1}")]
    public void ConnectionClosed(string endpoint, string reason)
    {
        if (IsEnabled())
        {
            WriteEvent(6, endpoint, reason);
        }
    }

    [Event(7, Level = EventLevel.Warning, Message = "The broker closed channel {1} on {0}: {2} {3}")]
    public void ChannelClosedByBroker(string endpoint, int channel, int replyCode, string replyText)
    {
        if (IsEnabled())
        {
            WriteEvent(7, endpoint, channel, replyCode, replyText);
        }
    }

    [Event(8, Level = EventLevel.Warning, Message = "The broker cancelled consumer {2} on channel {1} of {0}")]
    public void ConsumerCancelledByBroker(string endpoint, int channel, string consumerTag)
    {
        if (IsEnabled())
        {
            WriteEvent(8, endpoint, channel, consumerTag);
        }
    }

    [Event(9, Level = EventLevel.Error, Message = "The handler of consumer {2} on channel {1} of {0} threw {3}: {4}")]
    public void CallbackException(string endpoint, int channel, string consumerTag, string exceptionType, string message)
    {
        if (IsEnabled())
        {
            WriteEvent(9, endpoint, channel, consumerTag, exceptionType, message);
        }
    }
}
