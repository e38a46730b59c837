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

    /// <summary>The index of the argument named <paramref name="name"/>, or -1.</summary>
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
