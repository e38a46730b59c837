using System.Globalization;
using System.Text;

namespace Spanwire.Benchmarks;

/// <summary>
/// The rows that have a performance target, and the target: a ratio to the incumbent to stay at or under, or the peers
/// of a scenario to stay ahead of. The report marks such a row unstable at a tighter bound than the others (a target
/// read off a figure that moves by more than the margin means nothing) and lists every one with whether it is met.
/// </summary>
public static class Targets
{
    /// <summary>A targeted row measured in several processes whose processes' medians lie further apart than this, relative to the median, is unstable.</summary>
    public const double UnstableProcesses = 0.05;

    /// <summary>A targeted row measured in one process whose middle half of per-round ratios is wider than this is unstable.</summary>
    public const double UnstableSpread = 0.05;

    /// <summary>
    /// One target. <paramref name="AtMost"/>: the highest ratio that meets it; <paramref name="Peers"/>: instead, the
    /// row must be faster than every other row of its scenario except those named here (its own package's rows).
    /// <paramref name="Floor"/>: the method of the scenario's floor row, if it has one: the least any implementation
    /// over the same layers does, measured in the same rounds, shown beside the target.
    /// </summary>
    public sealed record Target(string Text, Func<string, bool> Scenario, Func<string, bool> Method, double? AtMost, string[]? Peers = null, string? Floor = null);

    private static readonly string[] s_pooledRows = ["PooledStream", "PooledBufferWriter"];

    private static readonly Target[] s_all =
    [
        new("JSON: every row at most 0.80 of the faster incumbent", s => s.StartsWith("Json", StringComparison.Ordinal),
            m => !m.Contains("System.Text.Json", StringComparison.Ordinal), 0.80),
        new("AMQP: properties write at most 0.80", Is("AmqpPropertiesWriteBenchmarks"), Is("Spanwire"), 0.80),
        new("AMQP: short strings at most 0.80", Is("AmqpShortStringBenchmarks"), Is("Spanwire"), 0.80),
        new("AMQP: table to a dictionary at most 0.80", Is("AmqpTableReadBenchmarks"), Is("SpanwireToDictionary"), 0.80),
        new("AMQP: dictionary to a table at most 0.80", Is("AmqpTableWriteBenchmarks"), Is("SpanwireFromDictionary"), 0.80),
        new("AMQP: 512 B pre-encoded publish at most 1.20 of the body copy", Is("AmqpPublishBenchmarks"), Is("Template512"), 1.20, Floor: "CopyHeadAndBody512"),
        new("Small message: ahead of every peer", Is("SmallMessageBenchmarks"), m => s_pooledRows.Contains(m), null, s_pooledRows),
        new("Binary XML: drop-in raw read at most 0.70", Is("NbfxReadBenchmarks"), Is("DropIn"), 0.70, Floor: "NodeFloor"),
        new("Binary XML: DataContract read at most 0.80", Is("DataContractReadBenchmarks"), Is("DropIn"), 0.80),
        new("Binary XML: DataContract write at most 0.80", Is("DataContractWriteBenchmarks"), Is("DropIn"), 0.80),
        new("Binary XML: drop-in value and array writes at most 0.90", Is("NbfxValueBenchmarks"), Is("DropIn"), 0.90),
        new("WCF encoder round trip at most 0.75", Is("MessageEncoderBenchmarks"), Is("Spanwire"), 0.75),
    ];

    /// <summary>The target of a row, if it has one (never for self-comparisons; callers leave baselines out).</summary>
    public static Target? Find(string scenario, string method) =>
        method.EndsWith(SteadyRunner.SelfSuffix, StringComparison.Ordinal)
            ? null
            : s_all.FirstOrDefault(t => t.Scenario(scenario) && t.Method(method));

    /// <summary>
    /// The report's section on targets: each targeted row with its ratio, its range (the processes' medians, or the
    /// middle half of its rounds from one process), its goal, whether it meets it, and whether the figure holds. The
    /// goal is met when the whole range meets it and not met when none of it does; a range across the goal leaves it
    /// undecided. A row far from its goal is judged even when its figure does not hold to 5%.
    /// </summary>
    public static string Render(IReadOnlyList<RatioReport.Row> rows)
    {
        var targeted = rows.Where(r => !r.Baseline && r.Ratio is not null)
            .Select(r => (Row: r, Target: Find(r.Scenario, r.Method)))
            .Where(p => p.Target is not null)
            .ToList();
        if (targeted.Count == 0)
        {
            return "";
        }

        var text = new StringBuilder();
        int met = 0, notMet = 0, holding = 0;
        var lines = new List<string>();
        foreach ((RatioReport.Row row, Target? target) in targeted)
        {
            double ratio = row.Ratio!.Value;
            double bound = target!.AtMost ?? PeerBound(rows, row, target.Peers!);
            (double low, double high) = Range(row);
            bool Meets(double value) => target.AtMost is null ? value < bound : value <= bound;
            string status = Meets(Math.Max(high, ratio)) ? "met" : !Meets(Math.Min(low, ratio)) ? "not met" : "undecided";
            met += status == "met" ? 1 : 0;
            notMet += status == "not met" ? 1 : 0;
            holding += row.Unstable ? 0 : 1;
            string goal = target.AtMost is { } most
                ? string.Create(CultureInfo.InvariantCulture, $"≤ {most:0.00}")
                : string.Create(CultureInfo.InvariantCulture, $"< {bound:0.00} (fastest peer)");
            lines.Add(string.Create(CultureInfo.InvariantCulture,
                $"| {target.Text} | {row.Scenario} | {row.Parameters} | {row.Method} | {ratio:0.00} | {low:0.00}–{high:0.00} | {goal} | {status} | {(row.Unstable ? "no" : "yes")} | {FloorText(rows, row, target.Floor)} |"));
        }

        text.AppendLine();
        text.AppendLine("### Targets");
        text.AppendLine();
        text.AppendLine(string.Create(CultureInfo.InvariantCulture,
            $"- {targeted.Count} rows have a target: {met} met, {notMet} not met, {targeted.Count - met - notMet} undecided (the range crosses the goal). Range: the processes' medians (one process: the middle half of its rounds). Holds: the figure is a plain one, its processes' medians within {UnstableProcesses:0%} of each other (one process: the middle half within {UnstableSpread:0%}) and its scenario's baseline steady; {holding} of {targeted.Count} hold. Floor: the scenario's floor row, where it has one, with its range: the least any implementation over the same layers does, so a goal below all of it cannot be met by the row's own code."));
        text.AppendLine();
        text.AppendLine("| Target | Scenario | Params | Method | Ratio | Range | Goal | Status | Holds | Floor |");
        text.AppendLine("|---|---|---|---|---:|---:|---:|---|---|---:|");
        foreach (string line in lines)
        {
            text.AppendLine(line);
        }

        return text.ToString();
    }

    /// <summary>The ratio and range of the row's floor row in its scenario and parameters, or nothing.</summary>
    private static string FloorText(IReadOnlyList<RatioReport.Row> rows, RatioReport.Row row, string? floorMethod)
    {
        RatioReport.Row? floor = floorMethod is null ? null
            : rows.FirstOrDefault(r => r.Scenario == row.Scenario && r.Parameters == row.Parameters && r.Method == floorMethod && r.Ratio is not null);
        if (floor is null)
        {
            return "";
        }

        (double low, double high) = Range(floor);
        return string.Create(CultureInfo.InvariantCulture, $"{floor.Ratio!.Value:0.00} ({low:0.00}–{high:0.00})");
    }

    /// <summary>A row's range: its processes' medians, or the middle half of its rounds when measured in one process.</summary>
    private static (double Low, double High) Range(RatioReport.Row row)
    {
        double ratio = row.Ratio!.Value;
        return row.ProcessLow is { } first && row.ProcessHigh is { } last ? (first, last) : (row.SpreadLow ?? ratio, row.SpreadHigh ?? ratio);
    }

    /// <summary>The lowest ratio among a row's peers in its scenario and parameters (the baseline's 1 included).</summary>
    private static double PeerBound(IReadOnlyList<RatioReport.Row> rows, RatioReport.Row row, string[] own) =>
        rows.Where(r => r.Scenario == row.Scenario && r.Parameters == row.Parameters && !r.Self && r.Ratio is not null
                && !own.Contains(r.Method))
            .Select(r => r.Ratio!.Value)
            .DefaultIfEmpty(1)
            .Min();

    private static Func<string, bool> Is(string name) => value => value == name;
}
