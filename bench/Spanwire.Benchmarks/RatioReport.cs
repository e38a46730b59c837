using System.Globalization;
using System.Text;
using BenchmarkDotNet.Reports;

namespace Spanwire.Benchmarks;

/// <summary>One markdown table for every scenario: each row's mean as a ratio to its scenario's baseline row.</summary>
public static class RatioReport
{
    public static string Render(IReadOnlyList<Summary> summaries, string mode)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"## Spanwire benchmarks ({mode})");
        text.AppendLine();
        if (summaries.Count > 0)
        {
            var host = summaries[0].HostEnvironmentInfo;
            var cpu = host.Cpu.Value;
            text.AppendLine(CultureInfo.InvariantCulture,
                $"Machine: {cpu?.ProcessorName ?? "unknown CPU"}, {cpu?.LogicalCoreCount?.ToString(CultureInfo.InvariantCulture) ?? "?"} logical cores; {host.Os.Value}; {host.RuntimeVersion}; {host.Architecture}.");
            text.AppendLine("Ratio = mean time / the baseline's (the incumbent, marked *) in the same run; lower is faster. Allocated is per operation; Gen2 is collections per 1000 operations.");
            if (mode.Contains("quick", StringComparison.OrdinalIgnoreCase))
            {
                text.AppendLine("In the quick job a millisecond-long operation runs only a few times, so its Allocated also carries the runtime's own background allocations (up to a few hundred bytes) spread over them; the full job's figures do not.");
            }
            text.AppendLine();
        }

        text.AppendLine("| Scenario | Params | Method | Mean | Ratio | Allocated | Gen2/1k |");
        text.AppendLine("|---|---|---|---:|---:|---:|---:|");
        foreach (Summary summary in summaries)
        {
            foreach (var group in summary.Reports.GroupBy(r => (r.BenchmarkCase.Descriptor.Type.Name, r.BenchmarkCase.Parameters.DisplayInfo)))
            {
                double? baseline = group.FirstOrDefault(r => r.BenchmarkCase.Descriptor.Baseline)?.ResultStatistics?.Mean;
                foreach (BenchmarkReport report in group)
                {
                    var bc = report.BenchmarkCase;
                    double? mean = report.ResultStatistics?.Mean;
                    string ratio = mean is { } m && baseline is { } b && b > 0 ? (m / b).ToString("0.00", CultureInfo.InvariantCulture) : "-";
                    // Not GetBytesAllocatedPerOperation: BenchmarkDotNet 0.14 does not know .NET 10 and so treats it as an
                    // old runtime, reporting any total under its 8 KB allocation quantum as 0 B, which hides a small
                    // allocation per operation in a run of few operations (the quick job's).
                    long? total = report.GcStats.GetTotalAllocatedBytes(excludeAllocationQuantumSideEffects: false);
                    long? allocated = total is { } bytes && report.GcStats.TotalOperations > 0
                        ? (long)Math.Round((double)bytes / report.GcStats.TotalOperations)
                        : null;
                    double gen2 = report.GcStats.TotalOperations > 0
                        ? report.GcStats.Gen2Collections * 1000.0 / report.GcStats.TotalOperations
                        : 0;
                    string method = bc.Descriptor.WorkloadMethod.Name + (bc.Descriptor.Baseline ? " *" : "");
                    string parameters = bc.HasParameters ? bc.Parameters.DisplayInfo.Trim('[', ']') : "";
                    text.AppendLine(CultureInfo.InvariantCulture,
                        $"| {group.Key.Name} | {parameters} | {method} | {Time(mean)} | {ratio} | {Bytes(allocated)} | {gen2.ToString("0.##", CultureInfo.InvariantCulture)} |");
                }
            }
        }

        return text.ToString();
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
