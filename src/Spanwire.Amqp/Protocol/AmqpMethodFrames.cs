using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Amqp.Protocol;

// The writers and the argument views are generated from the method table (gen/Spanwire.Generators).
internal static partial class AmqpMethodFrames
{
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static void ThrowNotMethod(AmqpMethod actual, AmqpMethod expected) =>
        throw new ArgumentException($"The reader holds {actual.Name}, not {expected.Name}.", "reader");
}
