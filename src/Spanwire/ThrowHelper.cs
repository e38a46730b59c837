using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire;

/// <summary>Cold throw paths, kept out of callers so their hot paths stay small and inlinable.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowObjectDisposed(string? objectName) => throw new ObjectDisposedException(objectName);

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowArgumentOutOfRange(string paramName, string message) =>
        throw new ArgumentOutOfRangeException(paramName, message);

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowArgument(string paramName, string message) => throw new ArgumentException(message, paramName);

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowInvalidOperation(string message) => throw new InvalidOperationException(message);

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowIO(string message) => throw new IOException(message);

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowNotSupported(string message) => throw new NotSupportedException(message);

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowAdvancedTooFar(int count, int available) =>
        throw new ArgumentOutOfRangeException(nameof(count), count,
            $"Cannot advance by {count} bytes: only {available} bytes were handed out by the last GetSpan/GetMemory call.");
}
