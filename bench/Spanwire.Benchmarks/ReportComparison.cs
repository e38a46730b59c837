using System.Globalization;
using System.Text;

namespace Spanwire.Benchmarks;

/// <summary>
/// <c>scripts/bench.sh --compare A B</c>: the ratio rows of two saved reports (markdown written by this program, such
/// as artifacts/benchmarks/steady-report.md or docs/performance.md) side by side, each with its change, how many
/// rows moved by more than 5% and 10%, and which rows with a target (<see cref="Targets"/>) moved by more than 5%.
/// </summary>
public static class ReportComparison
{
    /// <summary>A ratio row of a saved report.</summary>
    public sealed record Entry(string Scenario, string Parameters, string Method, double Ratio, string Spread, bool Unstable, bool Self);

    /// <summary>The report's header lines (date, commit) and its ratio rows, baselines left out.</summary>
    public static (string Date, string Commit, List<Entry> Rows) Parse(string markdown)
    {
        string date = "", commit = "";
        var rows = new List<Entry>();
        foreach (string line in markdown.Split('\n'))
        {
            if (line.StartsWith("- Date: ", StringComparison.Ordinal) && date.Length == 0)
            {
                date = line["- Date: ".Length..].Trim();
            }
            else if (line.StartsWith("- Commit: ", StringComparison.Ordinal) && commit.Length == 0)
            {
                commit = line["- Commit: ".Length..].Trim();
            }

            // | Scenario | Params | Method | Time | Ratio | Spread | Allocated | How |
            string[] cells = line.Split('|');
            if (cells.Length != 10 || cells[0].Length != 0 || cells[1].Trim().Length == 0 || cells[1].StartsWith("---", StringComparison.Ordinal))
            {
                continue;
            }

            string method = cells[3].Trim();
            string ratioCell = cells[5].Trim();
            string number = ratioCell.Split(' ')[0];
            if (method.EndsWith(" *", StringComparison.Ordinal)
                || !double.TryParse(number, NumberStyles.Float, CultureInfo.InvariantCulture, out double ratio))
            {
                continue;
            }

            rows.Add(new Entry(cells[1].Trim(), cells[2].Trim(), method, ratio, cells[6].Trim(),
                ratioCell.Contains("unstable", StringComparison.Ordinal), method.EndsWith(SteadyRunner.SelfSuffix, StringComparison.Ordinal)));
        }

        return (date, commit, rows);
    }

    /// <summary>The comparison as markdown: a header with the counts, then every row found in both.</summary>
    public static string Render(string pathA, string a, string pathB, string b)
    {
        (string dateA, string commitA, List<Entry> rowsA) = Parse(a);
        (string dateB, string commitB, List<Entry> rowsB) = Parse(b);
        Dictionary<string, Entry> byKey = [];
        foreach (Entry entry in rowsB)
        {
            byKey.TryAdd(KeyOf(entry), entry);
        }

        var pairs = new List<(Entry A, Entry B, double Change)>();
        foreach (Entry entry in rowsA)
        {
            if (byKey.TryGetValue(KeyOf(entry), out Entry? other))
            {
                pairs.Add((entry, other, (other.Ratio / entry.Ratio) - 1));
            }
        }

        var measured = pairs.Where(p => !p.A.Self).ToList();
        int over10 = measured.Count(p => Math.Abs(p.Change) > 0.10);
        int over5 = measured.Count(p => Math.Abs(p.Change) > 0.05);
        var keysA = rowsA.Select(KeyOf).ToHashSet();
        int onlyA = rowsA.Count(e => !byKey.ContainsKey(KeyOf(e)));
        int onlyB = rowsB.Count(e => !keysA.Contains(KeyOf(e)));

        var text = new StringBuilder();
        text.AppendLine("## Benchmark comparison");
        text.AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"- A: {pathA} ({dateA}, {commitA})");
        text.AppendLine(CultureInfo.InvariantCulture, $"- B: {pathB} ({dateB}, {commitB})");
        text.AppendLine(CultureInfo.InvariantCulture,
            $"- {measured.Count} ratio rows in both (baselines and self-comparisons left out): {over10} moved more than 10% ({Share(over10, measured.Count)}), {over5} more than 5% ({Share(over5, measured.Count)}); {measured.Count - over10} of {measured.Count} ({Share(measured.Count - over10, measured.Count)}) held within 10%.");
        var targeted = measured.Where(p => Targets.Find(p.A.Scenario, p.A.Method) is not null).ToList();
        var targetedMoved = targeted.Where(p => Math.Abs(p.Change) > 0.05).ToList();
        if (targeted.Count > 0)
        {
            text.AppendLine(CultureInfo.InvariantCulture,
                $"- Rows with a target: {targeted.Count}; {targeted.Count - targetedMoved.Count} held within 5%, {targetedMoved.Count} moved more than 5% ({targetedMoved.Count(p => p.A.Unstable || p.B.Unstable)} of them marked unstable in A or B){(targetedMoved.Count > 0 ? ": " + string.Join("; ", targetedMoved.Select(p => Named(p.A, p.Change))) : "")}.");
        }

        if (onlyA + onlyB > 0)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"- Rows only in A: {onlyA}; only in B: {onlyB}.");
        }

        text.AppendLine("- Change = B's ratio / A's - 1; rows that moved more than 10% are marked **moved**.");
        text.AppendLine();
        text.AppendLine("| Scenario | Params | Method | A | B | Change | |");
        text.AppendLine("|---|---|---|---:|---:|---:|---|");
        foreach ((Entry x, Entry y, double change) in pairs)
        {
            string flag = x.Self ? "noise floor" : Math.Abs(change) > 0.10 ? "**moved**" : "";
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {x.Scenario} | {x.Parameters} | {x.Method} | {Cell(x)} | {Cell(y)} | {change:+0.0%;-0.0%;0.0%} | {flag} |");
        }

        return text.ToString();
    }

    /// <summary>A row by name with its change, for a list in the header.</summary>
    private static string Named(Entry e, double change) =>
        string.Join(' ', new[] { e.Scenario, e.Parameters, e.Method }.Where(part => part.Length > 0))
        + string.Create(CultureInfo.InvariantCulture, $" {change:+0.0%;-0.0%}");

    private static string KeyOf(Entry e) => RatioReport.Key(e.Scenario, e.Parameters) + "|" + e.Method;

    private static string Cell(Entry e) =>
        string.Create(CultureInfo.InvariantCulture, $"{e.Ratio:0.00} ({e.Spread}){(e.Unstable ? " unstable" : "")}");

    private static string Share(int part, int whole) =>
        whole == 0 ? "-" : ((double)part / whole).ToString("0%", CultureInfo.InvariantCulture);
}
