namespace Spanwire.Amqp.Client;

/// <summary>The broker's answer to queue.declare.</summary>
/// <param name="Name">The queue's name (the broker's choice when the name was empty).</param>
/// <param name="MessageCount">Messages ready in the queue.</param>
/// <param name="ConsumerCount">Active consumers.</param>
public readonly record struct AmqpQueueInfo(string Name, uint MessageCount, uint ConsumerCount);
