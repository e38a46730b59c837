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

    /// <summary>Fails unless <paramref name="order"/> is 0, 1, 2, ...: says how many are out of place and shows the first.</summary>
    public static void InOrder(IReadOnlyList<int> order, string what)
    {
        int outOfOrder = 0;
        int first = -1;
        for (int i = 0; i < order.Count; i++)
        {
            if (order[i] != i)
            {
                outOfOrder++;
                first = first < 0 ? i : first;
            }
        }

        Assert.True(outOfOrder == 0,
            $"{outOfOrder} of {order.Count} {what} out of order; the first at position {first}: {string.Join(", ", order.Skip(Math.Max(0, first - 3)).Take(8))}");
    }
}
