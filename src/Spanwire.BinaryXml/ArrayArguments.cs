using System.Runtime.CompilerServices;

namespace Spanwire.BinaryXml;

/// <summary>The checks of an (array, offset, count) argument triple, naming the caller's own parameters as the BCL does.</summary>
internal static class ArrayArguments
{
    /// <exception cref="ArgumentNullException"><paramref name="array"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The offset or count is negative, or they run past the array.</exception>
    public static void Check(Array array, int offset, int count,
        [CallerArgumentExpression(nameof(array))] string? arrayName = null,
        [CallerArgumentExpression(nameof(offset))] string? offsetName = null,
        [CallerArgumentExpression(nameof(count))] string? countName = null)
    {
        ArgumentNullException.ThrowIfNull(array, arrayName);
        ArgumentOutOfRangeException.ThrowIfNegative(offset, offsetName);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(offset, array.Length, offsetName);
        ArgumentOutOfRangeException.ThrowIfNegative(count, countName);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, array.Length - offset, countName);
    }
}
