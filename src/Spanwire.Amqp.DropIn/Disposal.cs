using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Amqp.DropIn;

/// <summary>RabbitMQ.Client's refusal of a call on a disposed channel or connection.</summary>
internal static class Disposal
{
    /// <summary>Throws <see cref="ObjectDisposedException"/> naming <paramref name="owner"/>'s type when <paramref name="disposed"/>.</summary>
    public static void ThrowIf(bool disposed, object owner)
    {
        if (disposed)
        {
            Throw(owner);
        }
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Throw(object owner) => throw new ObjectDisposedException(owner.GetType().FullName);
}
