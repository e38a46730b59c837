namespace Spanwire.Amqp.Client;

/// <summary>
/// A publisher confirm from the broker (basic.ack or basic.nack), for <see cref="AmqpChannel.Acked"/> and
/// <see cref="AmqpChannel.Nacked"/>: a struct, so raising it allocates nothing.
/// </summary>
/// <param name="DeliveryTag">The publish sequence number confirmed.</param>
/// <param name="Multiple">Whether every publish up to <paramref name="DeliveryTag"/> is confirmed with it.</param>
public readonly record struct AmqpConfirm(ulong DeliveryTag, bool Multiple);
