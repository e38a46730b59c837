using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Json;

/// <summary>Cold throw paths of the JSON writer: the same exception types Utf8JsonWriter throws.</summary>
internal static class JsonThrow
{
    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void InvalidOperation(string message) => throw new InvalidOperationException(message);

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void Argument(string message) => throw new ArgumentException(message);

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void Disposed() => throw new ObjectDisposedException(nameof(SpanwireJsonWriter));

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void NotFinite(double value) =>
        throw new ArgumentException($".NET number values such as positive and negative infinity cannot be written as valid JSON ({value}).");

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void TooLarge(int length) =>
        throw new ArgumentException($"The JSON value of length {length} is too large and not supported.");
}
