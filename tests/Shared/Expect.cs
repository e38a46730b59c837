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

    /// <summary>Fails at the first line where <paramref name="actual"/> differs from <paramref name="expected"/>, printing that line of each.</summary>
    public static void SameLines(IReadOnlyList<string> expected, IReadOnlyList<string> actual, string context)
    {
        for (int i = 0; i < Math.Max(expected.Count, actual.Count); i++)
        {
            string? e = i < expected.Count ? expected[i] : null, a = i < actual.Count ? actual[i] : null;
            if (e != a)
            {
                Fail(Show(e), Show(a), $"{context}, line {i} of {expected.Count}");
            }
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
