namespace Spanwire;

/// <summary>
/// When the tests that need RabbitMQ run. They run whenever a broker is named (SPANWIRE_AMQP_URI) and whenever
/// scripts/test.sh runs them: it installs and starts a node, and if it cannot, they fail saying why, so CI never
/// passes by skipping them. A plain <c>dotnet test</c> on a machine with neither skips them, with this reason.
/// Filter them out by trait with <c>--filter Category!=Broker</c>.
/// </summary>
internal static class BrokerTests
{
    public const string Trait = "Broker";

    public static string? SkipReason { get; } =
        Environment.GetEnvironmentVariable("SPANWIRE_AMQP_URI") is { Length: > 0 } || Environment.GetEnvironmentVariable("SPANWIRE_TEST_SCRIPT") == "1"
            ? null
            : "needs RabbitMQ: run scripts/test.sh (it starts a private node) or set SPANWIRE_AMQP_URI";
}

/// <summary>A fact that needs a RabbitMQ broker; see <see cref="BrokerTests"/>.</summary>
internal sealed class BrokerFactAttribute : FactAttribute
{
    public BrokerFactAttribute() => Skip = BrokerTests.SkipReason!;
}

/// <summary>A theory that needs a RabbitMQ broker; see <see cref="BrokerTests"/>.</summary>
internal sealed class BrokerTheoryAttribute : TheoryAttribute
{
    public BrokerTheoryAttribute() => Skip = BrokerTests.SkipReason!;
}
