namespace Spanwire;

/// <summary>
/// The one switch for long runs of the differential and fuzz tests: SPANWIRE_LONG_TESTS=N multiplies every such
/// test's count by N (unset: 1, the unit tier that finishes in minutes).
/// </summary>
internal static class LongRuns
{
    /// <summary>The multiplier from SPANWIRE_LONG_TESTS, at least 1.</summary>
    public static int Factor { get; } =
        int.TryParse(Environment.GetEnvironmentVariable("SPANWIRE_LONG_TESTS"), out int factor) && factor > 1 ? factor : 1;

    /// <summary><paramref name="count"/> times <see cref="Factor"/>.</summary>
    public static int Scale(int count) => (int)Math.Min(int.MaxValue, (long)count * Factor);
}
