using System.Diagnostics.CodeAnalysis;
using Xunit.Sdk;

namespace Spanwire;

/// <summary>
/// Comparisons that say on failure what was expected, what came, and in what context (a seed, a document, a call),
/// for the checks where xunit's own Assert.Equal would lose the context. Shared by every test project.
/// </summary>
internal static class Expect
{
    /// <summary>Fails unless <paramref name="actual"/> equals <paramref name="expected"/>, printing both and <paramref name="context"/>.</summary>
    public static void Equal<T>(T expected, T actual, string context)
    {
        if (!EqualityComparer<T>.Default.Equals(expected, actual))
        {
            Fail(Show(expected), Show(actual), context);
        }
    }

    [DoesNotReturn]
    private static void Fail(string expected, string actual, string context) =>
        throw new XunitException($"{context}{Environment.NewLine}Expected: {expected}{Environment.NewLine}Actual:   {actual}");

    private static string Show<T>(T value) => value switch
    {
        null => "null",
        string s => $"\"{s}\"",
        _ => value.ToString() ?? "",
    };
}
