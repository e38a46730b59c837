namespace Spanwire;

/// <summary>A cancellation token per test step, so a regression fails the test instead of hanging the suite.</summary>
internal static class TestTimeout
{
    public static CancellationToken Token => new CancellationTokenSource(TimeSpan.FromSeconds(60)).Token;
}
