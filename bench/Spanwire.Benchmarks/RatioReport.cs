using System.Diagnostics;
using System.Globalization;
using System.Text;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Reports;

namespace Spanwire.Benchmarks;

/// <summary>
/// One markdown table for every scenario: each row's time as a ratio to its scenario's baseline (the incumbent), with
/// the ratio's spread, and how it was measured. A header says when, on what machine, at which commit, and how.
/// </summary>
public static class RatioReport
{
    /// <summary>
    /// One row of the table, from BenchmarkDotNet or from the steady loop. <paramref name="Unstable"/>: the row's
    /// figure cannot be trusted to repeat (see <see cref="FromSteady"/>), so it is printed as such.
    /// </summary>
    public sealed record Row(
        string Scenario, string Parameters, string Method, bool Baseline, double? Nanoseconds, double? Ratio,
        double? SpreadLow, double? SpreadHigh, long? Allocated, string How, bool Unstable = false, bool Self = false)
    {
        /// <summary>The lowest of the processes' median ratios, for a row measured in several processes.</summary>
        public double? ProcessLow { get; init; }

        /// <summary>The highest of the processes' median ratios.</summary>
        public double? ProcessHigh { get; init; }
    }

    /// <summary>
    /// A row measured in one process whose middle half of per-round ratios is wider than this, relative to its median,
    /// is unstable.
    /// </summary>
    public const double UnstableSpread = 0.15;

    /// <summary>A row measured in several processes whose processes' medians lie further apart than this, relative to the median, is unstable.</summary>
    public const double UnstableProcesses = 0.15;

    /// <summary>A scenario whose baseline strays from itself by more than this is unstable in every row.</summary>
    public const double UnstableSelf = 0.05;

    /// <summary>The rows of BenchmarkDotNet's summaries; the spread is the range of the ratios of paired iterations.</summary>
    public static List<Row> FromSummaries(IEnumerable<Summary> summaries)
    {
        var rows = new List<Row>();
        foreach (Summary summary in summaries)
        {
            foreach (var group in summary.Reports.GroupBy(r => (r.BenchmarkCase.Descriptor.Type.Name, r.BenchmarkCase.Parameters.DisplayInfo)))
            {
                BenchmarkReport? baseline = group.FirstOrDefault(r => r.BenchmarkCase.Descriptor.Baseline);
                double[] baseIterations = Iterations(baseline);
                double? baseMean = baseline?.ResultStatistics?.Mean;
                foreach (BenchmarkReport report in group)
                {
                    var bc = report.BenchmarkCase;
                    double? mean = report.ResultStatistics?.Mean;
                    double[] iterations = Iterations(report);
                    int pairs = Math.Min(iterations.Length, baseIterations.Length);
                    double[] paired = [.. Enumerable.Range(0, pairs).Select(i => iterations[i] / baseIterations[i]).Order()];
                    long? total = report.GcStats.GetTotalAllocatedBytes(excludeAllocationQuantumSideEffects: false);
                    long? allocated = total is { } bytes && report.GcStats.TotalOperations > 0
                        ? (long)Math.Round((double)bytes / report.GcStats.TotalOperations)
                        : null;
                    rows.Add(new Row(
                        group.Key.Name,
                        bc.HasParameters ? bc.Parameters.DisplayInfo.Trim('[', ']') : "",
                        bc.Descriptor.WorkloadMethod.Name,
                        bc.Descriptor.Baseline,
                        mean,
                        mean is { } m && baseMean is { } b && b > 0 ? m / b : null,
                        paired.Length > 0 ? paired[0] : null,
                        paired.Length > 0 ? paired[^1] : null,
                        allocated,
                        "BDN"));
                }
            }
        }

        return rows;
    }

    /// <summary>Nanoseconds per operation of each measured iteration, in order.</summary>
    private static double[] Iterations(BenchmarkReport? report) =>
        report is null
            ? []
            : [.. report.AllMeasurements
                .Where(m => m.IterationMode == IterationMode.Workload && m.IterationStage == IterationStage.Result)
                .Select(m => m.Nanoseconds / m.Operations)];

    /// <summary>
    /// The rows of the steady loop; the spread is the middle half of the per-round ratios (and, for rows from several
    /// processes, the range of the processes' medians). A row is unstable when its processes' medians lie further apart
    /// than <see cref="UnstableProcesses"/> of its median (from one process: when the middle half is wider than
    /// <see cref="UnstableSpread"/>), or when its scenario's self-comparison (the baseline against itself) is off 1 by
    /// more than <see cref="UnstableSelf"/>. A row with a target (<see cref="Targets"/>) is held to the targets' tighter
    /// bounds instead.
    /// </summary>
    public static List<Row> FromSteady(IEnumerable<SteadyRunner.Row> steady)
    {
        SteadyRunner.Row[] all = [.. steady];
        var noisyScenarios = all.Where(s => s.Self && Math.Abs(s.Ratio - 1) > UnstableSelf).Select(s => Key(s.Scenario, s.Parameters)).ToHashSet();
        return [.. all.Select(s => new Row(s.Scenario, s.Parameters, s.Method, s.Baseline, s.MedianNanoseconds, Known(s.Ratio),
            Known(s.RatioP25), Known(s.RatioP75), s.AllocatedPerOperation, s.Processes > 1 ? "stable" : "steady",
            Unstable: !s.Baseline && !double.IsNaN(s.Ratio)
                && (Loose(s) || noisyScenarios.Contains(Key(s.Scenario, s.Parameters))),
            Self: s.Self)
        {
            ProcessLow = s.Processes > 1 ? Known(s.ProcessLow) : null,
            ProcessHigh = s.Processes > 1 ? Known(s.ProcessHigh) : null,
        })];
    }

    /// <summary>
    /// Whether a row's processes' medians lie further apart than the bound, relative to its median (from one process:
    /// its middle half of rounds); the targets' tighter bounds for a row with a target.
    /// </summary>
    private static bool Loose(SteadyRunner.Row s)
    {
        bool targeted = Targets.Find(s.Scenario, s.Method) is not null;
        return s.Processes > 1
            ? (s.ProcessHigh - s.ProcessLow) / s.Ratio > (targeted ? Targets.UnstableProcesses : UnstableProcesses)
            : (s.RatioP75 - s.RatioP25) / s.Ratio > (targeted ? Targets.UnstableSpread : UnstableSpread);
    }

    // NaN: a class without a baseline has no ratio.
    private static double? Known(double value) => double.IsNaN(value) ? null : value;

    /// <summary>Parameters as a canonical key (the pairs sorted), so both sources' spellings of one scenario match.</summary>
    public static string Key(string scenario, string parameters) =>
        scenario + "|" + string.Join(",", parameters.Split(", ", StringSplitOptions.RemoveEmptyEntries).Order(StringComparer.Ordinal));

    public static string Render(IReadOnlyList<Row> rows, string mode, string method)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"## Spanwire benchmarks ({mode})");
        text.AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"- Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC");
        text.AppendLine(CultureInfo.InvariantCulture, $"- Machine: {Machine()}");
        text.AppendLine(CultureInfo.InvariantCulture, $"- Commit: {Commit()}");
        text.AppendLine(CultureInfo.InvariantCulture, $"- Method: {method}");
        text.AppendLine("- Ratio = time / the baseline's (the incumbent, marked *) in the same run; lower is faster. Spread: for BDN rows the");
        text.AppendLine("  lowest and highest ratio of paired iterations; for steady rows the middle half (25th to 75th percentile) of the");
        text.AppendLine("  per-round ratios, and for rows measured in several processes (\"stable\") the lowest and highest of the");
        text.AppendLine("  processes' own medians after \"runs\". Allocated is per operation.");
        if (rows.Any(r => r.Self))
        {
            text.AppendLine(NoiseFloor(rows));
        }

        text.AppendLine();
        text.AppendLine("| Scenario | Params | Method | Time | Ratio | Spread | Allocated | How |");
        text.AppendLine("|---|---|---|---:|---:|---:|---:|---|");
        foreach (Row row in rows)
        {
            string spread = row.SpreadLow is { } low && row.SpreadHigh is { } high
                ? string.Create(CultureInfo.InvariantCulture, $"{low:0.00}–{high:0.00}")
                : "-";
            if (row.ProcessLow is { } first && row.ProcessHigh is { } last && !row.Baseline)
            {
                spread += string.Create(CultureInfo.InvariantCulture, $" (runs {first:0.00}–{last:0.00})");
            }

            // Three decimals below 0.1, so a comparison of two reports is not made of rounding (0.014 against 0.015).
            string ratio = row.Ratio is { } r ? r.ToString(r < 0.1 ? "0.000" : "0.00", CultureInfo.InvariantCulture) + (row.Unstable ? " (unstable)" : "") : "-";
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {row.Scenario} | {row.Parameters} | {row.Method}{(row.Baseline ? " *" : "")} | {Time(row.Nanoseconds)} | {ratio} | {spread} | {Bytes(row.Allocated)} | {row.How} |");
        }

        text.Append(Targets.Render(rows));
        return text.ToString();
    }

    /// <summary>The header line on the self-comparison rows and the rows marked unstable.</summary>
    private static string NoiseFloor(IReadOnlyList<Row> rows)
    {
        double[] offsets = [.. rows.Where(r => r.Self && r.Ratio is not null).Select(r => Math.Abs(r.Ratio!.Value - 1)).Order()];
        Row worst = rows.Where(r => r.Self && r.Ratio is not null).MaxBy(r => Math.Abs(r.Ratio!.Value - 1))!;
        int measured = rows.Count(r => r.Ratio is not null && !r.Baseline && !r.Self);
        int unstable = rows.Count(r => r.Unstable && !r.Self);
        return string.Create(CultureInfo.InvariantCulture,
            $"- Noise floor: each scenario measures its baseline twice, as two methods (the rows marked{SteadyRunner.SelfSuffix}); that ratio strays from 1 by {offsets[offsets.Length / 2]:0.0%} in the median scenario and {offsets[^1]:0.0%} at most ({worst.Scenario} {worst.Parameters}). A row is marked unstable when its processes' medians lie more than {UnstableProcesses:0%} apart ({Targets.UnstableProcesses:0%} for a row with a target; measured in one process: when the middle half of its per-round ratios spans more than {UnstableSpread:0%} of its median, {Targets.UnstableSpread:0%} with a target) or its scenario's baseline strays from itself by more than {UnstableSelf:0%}: {unstable} of {measured} rows here.");
    }

    private static string Machine()
    {
        string cpu = File.Exists("/proc/cpuinfo")
            ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim() ?? "unknown CPU"
            : "unknown CPU";
        long memory = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes;
        return string.Create(CultureInfo.InvariantCulture,
            $"{cpu}, {Environment.ProcessorCount} logical cores, {memory / (1L << 30)} GiB; {System.Runtime.InteropServices.RuntimeInformation.OSDescription}; .NET {Environment.Version}");
    }

    private static string Commit()
    {
        try
        {
            using var git = Process.Start(new ProcessStartInfo("git", "rev-parse --short HEAD") { RedirectStandardOutput = true, RedirectStandardError = true });
            string? sha = git?.StandardOutput.ReadToEnd().Trim();
            git?.WaitForExit();
            using var status = Process.Start(new ProcessStartInfo("git", "status --porcelain --untracked-files=no") { RedirectStandardOutput = true, RedirectStandardError = true });
            bool dirty = !string.IsNullOrWhiteSpace(status?.StandardOutput.ReadToEnd());
            status?.WaitForExit();
            return string.IsNullOrEmpty(sha) ? "unknown" : sha + (dirty ? " (with uncommitted changes)" : "");
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "unknown (git not found)";
        }
    }

    private static string Time(double? nanoseconds) => nanoseconds switch
    {
        null => "failed",
        < 1_000 => $"{nanoseconds.Value.ToString("0.0", CultureInfo.InvariantCulture)} ns",
        < 1_000_000 => $"{(nanoseconds.Value / 1_000).ToString("0.00", CultureInfo.InvariantCulture)} µs",
        _ => $"{(nanoseconds.Value / 1_000_000).ToString("0.00", CultureInfo.InvariantCulture)} ms",
    };

    private static string Bytes(long? bytes) => bytes switch
    {
        null => "?",
        0 => "0 B",
        < 1024 => $"{bytes} B",
        < 1024 * 1024 => $"{(bytes.Value / 1024.0).ToString("0.0", CultureInfo.InvariantCulture)} KB",
        _ => $"{(bytes.Value / 1048576.0).ToString("0.00", CultureInfo.InvariantCulture)} MB",
    };
}
