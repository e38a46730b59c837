namespace Spanwire.Amqp.Protocol;

/// <summary>One argument of a method: its name in the specification and its domain.</summary>
/// <param name="Name">The specification's name, such as "routing-key".</param>
/// <param name="Type">The domain.</param>
public readonly record struct AmqpArgument(string Name, AmqpArgumentType Type);
