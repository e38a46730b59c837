using System.Collections.Immutable;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// The definition of one AMQP 0-9-1 method: ids, name, whether content follows it, and its arguments in order.
/// Every method is one entry in <see cref="AmqpMethods"/>; encoding and decoding are driven by these definitions.
/// </summary>
public sealed class AmqpMethod
{
    internal AmqpMethod(ushort classId, ushort methodId, string name, bool hasContent, ImmutableArray<AmqpArgument> arguments)
    {
        ClassId = classId;
        MethodId = methodId;
        Name = name;
        HasContent = hasContent;
        Arguments = arguments;
        ArgumentTypes = [.. arguments.Select(a => a.Type)];
        (BoundedArgumentsSize, VariableArgumentCount) = Bound(ArgumentTypes);
    }

    /// <summary>The class id (for example 60 for basic).</summary>
    public ushort ClassId { get; }

    /// <summary>The method id within the class (for example 40 for publish).</summary>
    public ushort MethodId { get; }

    /// <summary>Class and method ids in one number: <c>ClassId &lt;&lt; 16 | MethodId</c>.</summary>
    public uint Id => ((uint)ClassId << 16) | MethodId;

    /// <summary>The name as "class.method", for example "basic.publish".</summary>
    public string Name { get; }

    /// <summary>True for the methods a content header and body follow (basic.publish, return, deliver, get-ok).</summary>
    public bool HasContent { get; }

    /// <summary>The arguments in wire order.</summary>
    public ImmutableArray<AmqpArgument> Arguments { get; }

    // The argument domains alone, for the encode and decode loops.
    internal AmqpArgumentType[] ArgumentTypes { get; }

    /// <summary>The most bytes the arguments of a bounded size can take: every shortstr at its full 256 bytes, bits packed eight to an octet.</summary>
    public int BoundedArgumentsSize { get; }

    /// <summary>How many arguments have no bound of their own (longstr and table).</summary>
    public int VariableArgumentCount { get; }

    /// <summary>
    /// The most bytes this method's arguments can take, for <see cref="AmqpFrameWriter.BeginMethod(System.Buffers.IBufferWriter{byte}, ushort, AmqpMethod, int)"/>:
    /// the bounded arguments at their largest, plus <paramref name="variableArgumentsSize"/> for the longstr and table
    /// arguments (each with its 4-byte length).
    /// </summary>
    /// <param name="variableArgumentsSize">The encoded size of the longstr and table arguments, length prefixes included.</param>
    /// <returns>The bound to ask the output for.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="variableArgumentsSize"/> is negative, or not 0 for a method without longstr or table arguments.</exception>
    public int GetMaxArgumentsSize(int variableArgumentsSize = 0)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(variableArgumentsSize);
        if (VariableArgumentCount == 0 && variableArgumentsSize != 0)
        {
            throw new ArgumentOutOfRangeException(nameof(variableArgumentsSize), variableArgumentsSize, $"{Name} has no longstr or table argument.");
        }

        return checked(BoundedArgumentsSize + variableArgumentsSize);
    }

    private static (int Bounded, int Variable) Bound(AmqpArgumentType[] types)
    {
        int bounded = 0, variable = 0, bits = 0;
        foreach (AmqpArgumentType type in types)
        {
            if (type == AmqpArgumentType.Bit)
            {
                bounded += bits++ % 8 == 0 ? 1 : 0; // consecutive bits share octets
                continue;
            }

            bits = 0;
            switch (type)
            {
                case AmqpArgumentType.Octet: bounded += 1; break;
                case AmqpArgumentType.Short: bounded += 2; break;
                case AmqpArgumentType.Long: bounded += 4; break;
                case AmqpArgumentType.LongLong or AmqpArgumentType.Timestamp: bounded += 8; break;
                case AmqpArgumentType.ShortString: bounded += 1 + 255; break;
                default: variable++; break;
            }
        }

        return (bounded, variable);
    }

    /// <summary>The index of the argument named <paramref name="name"/>, or -1.</summary>
    /// <param name="name">The argument name as the specification spells it (for example <c>routing-key</c>).</param>
    /// <returns>The argument's position, or -1 when the method has no such argument.</returns>
    public int IndexOf(string name)
    {
        for (int i = 0; i < Arguments.Length; i++)
        {
            if (Arguments[i].Name == name)
            {
                return i;
            }
        }

        return -1;
    }

    /// <inheritdoc/>
    public override string ToString() => Name;
}
