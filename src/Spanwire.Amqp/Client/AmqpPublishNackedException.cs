namespace Spanwire.Amqp.Client;

/// <summary>The broker refused (nacked) one or more publishes.</summary>
public sealed class AmqpPublishNackedException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="count">How many publishes the broker refused.</param>
    public AmqpPublishNackedException(long count)
        : base(count == 1 ? "The broker nacked the publish." : $"The broker nacked {count} publishes.")
    {
        Count = count;
    }

    /// <summary>How many publishes were nacked.</summary>
    public long Count { get; }

    /// <summary>The publish sequence number of an awaited publish that was nacked; 0 for a batch wait.</summary>
    public ulong PublishSequenceNumber { get; init; }
}
