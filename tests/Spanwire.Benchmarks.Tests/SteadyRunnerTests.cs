using System.Globalization;
using BenchmarkDotNet.Attributes;

namespace Spanwire.Benchmarks.Tests;

/// <summary>The steady loop's bookkeeping (never its timings): every method measured, ratios to the baseline, a spread that brackets the median.</summary>
public sealed class SteadyRunnerTests
{
    public class TwoMethods
    {
        private readonly byte[] _data = new byte[64];

        [Params(1, 2)]
        public int Times { get; set; }

        public int SetupCalls { get; private set; }

        [GlobalSetup]
        public void Setup() => SetupCalls++;

        [Benchmark(Baseline = true)]
        public int Sum()
        {
            int sum = 0;
            for (int t = 0; t < Times; t++)
            {
                foreach (byte b in _data)
                {
                    sum += b;
                }
            }

            return sum;
        }

        [Benchmark]
        public byte[] Allocate() => new byte[Times * 16];
    }

    [Fact]
    public void Every_combination_and_method_gets_a_row_with_a_ratio_to_the_baseline()
    {
        var settings = new SteadyRunner.Settings(TimeSpan.FromMilliseconds(1), Rounds: 5, WarmupRounds: 1);
        List<SteadyRunner.Row> rows = SteadyRunner.Run(typeof(TwoMethods), settings, TextWriter.Null);

        Assert.Equal(6, rows.Count); // two methods and the baseline's self-comparison, per combination
        Assert.Equal(["Times=1", "Times=2"], rows.Select(r => r.Parameters).Distinct());
        Assert.All(rows.Where(r => r.Self), r => Assert.Equal(nameof(TwoMethods.Sum) + SteadyRunner.SelfSuffix, r.Method));
        Assert.Equal(2, rows.Count(r => r.Self));
        foreach (SteadyRunner.Row row in rows)
        {
            Assert.True(row.RatioMin <= row.RatioP25 && row.RatioP25 <= row.Ratio && row.Ratio <= row.RatioP75 && row.RatioP75 <= row.RatioMax,
                $"{row.Method} [{row.Parameters}]: {row.RatioMin} {row.RatioP25} {row.Ratio} {row.RatioP75} {row.RatioMax}");
            Assert.True(row.MedianNanoseconds > 0);
        }

        Assert.All(rows.Where(r => r.Baseline), r => Assert.Equal(1.0, r.Ratio));
        Assert.All(rows.Where(r => r.Method == nameof(TwoMethods.Allocate)), r => Assert.True(r.AllocatedPerOperation > 0, $"{r.AllocatedPerOperation}"));
        Assert.All(rows.Where(r => r.Method == nameof(TwoMethods.Sum)), r => Assert.Equal(0, r.AllocatedPerOperation));
    }

    private static SteadyRunner.Row Steady(string method, double ratio, double p25, double p75, bool baseline = false, bool self = false, string parameters = "N=1") =>
        new("Scenario", parameters, method, baseline, 10, ratio, p25, p75, p25, p75, 0, self);

    [Theory]
    [InlineData(0.80, 0.78, 0.82, 1.00, false)] // a narrow spread and a quiet self-comparison: a plain figure
    [InlineData(0.80, 0.70, 0.84, 1.00, true)] // the middle half spans 17.5% of the median (one process)
    [InlineData(0.80, 0.79, 0.81, 1.07, true)] // the baseline strays from itself by 7%: nothing in the scenario holds
    [InlineData(0.80, 0.79, 0.81, 0.96, false)] // 4% off itself is within the 5% allowed
    public void A_row_is_unstable_when_its_spread_or_its_scenarios_self_comparison_is_wide(double ratio, double p25, double p75, double self, bool unstable)
    {
        List<RatioReport.Row> rows = RatioReport.FromSteady([
            Steady("Incumbent", 1, 1, 1, baseline: true),
            Steady("Spanwire", ratio, p25, p75),
            Steady("Incumbent" + SteadyRunner.SelfSuffix, self, self, self, self: true),
        ]);

        Expect.Equal(unstable, rows.Single(r => r.Method == "Spanwire").Unstable, $"ratio {ratio} ({p25}-{p75}), self {self}");
        Assert.False(rows.Single(r => r.Baseline).Unstable);
    }

    [Fact]
    public void Rows_from_several_processes_pool_their_rounds_and_are_unstable_when_the_processes_disagree()
    {
        SteadyRunner.Row Process(double spanwire) => Steady("Spanwire", spanwire, spanwire, spanwire) with { Rounds = [spanwire, spanwire, spanwire], Times = [10, 10, 10] };
        SteadyRunner.Row Baseline() => Steady("Incumbent", 1, 1, 1, baseline: true) with { Rounds = [1, 1, 1], Times = [12, 12, 12] };

        List<SteadyRunner.Row> agreeing = SteadyRunner.Combine([[Baseline(), Process(0.80)], [Baseline(), Process(0.82)], [Baseline(), Process(0.84)]]);
        SteadyRunner.Row row = agreeing.Single(r => r.Method == "Spanwire");
        Expect.Equal((0.82, 0.80, 0.84, 3, 9), (Math.Round(row.Ratio, 2), row.ProcessLow, row.ProcessHigh, row.Processes, row.Rounds.Length), "median, process range, processes and rounds");
        Assert.False(RatioReport.FromSteady(agreeing).Single(r => r.Method == "Spanwire").Unstable);

        List<SteadyRunner.Row> disagreeing = SteadyRunner.Combine([[Baseline(), Process(0.68)], [Baseline(), Process(0.82)], [Baseline(), Process(0.84)]]);
        RatioReport.Row unstable = RatioReport.FromSteady(disagreeing).Single(r => r.Method == "Spanwire");
        Assert.True(unstable.Unstable, "processes 0.68 to 0.84 are 20% apart");
        Assert.Contains("| 0.82 (unstable) | 0.68–0.84 (runs 0.68–0.84) |", RatioReport.Render(RatioReport.FromSteady(disagreeing), "stable", "test"), StringComparison.Ordinal);
    }

    [Fact]
    public void The_report_says_its_noise_floor_and_marks_unstable_rows()
    {
        string markdown = RatioReport.Render(RatioReport.FromSteady([
            Steady("Incumbent", 1, 1, 1, baseline: true),
            Steady("Spanwire", 0.8, 0.6, 0.9),
            Steady("Incumbent" + SteadyRunner.SelfSuffix, 1.02, 1.0, 1.03, self: true),
        ]), "steady", "test");

        Assert.Contains("strays from 1 by 2.0% in the median scenario and 2.0% at most", markdown, StringComparison.Ordinal);
        Assert.Contains("| Spanwire | 10.0 ns | 0.80 (unstable) | 0.60–0.90 |", markdown, StringComparison.Ordinal);
        Assert.Contains("1 of 1 rows here", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void Ratios_below_a_tenth_keep_three_decimals_so_two_reports_compare_on_more_than_rounding()
    {
        string markdown = RatioReport.Render(RatioReport.FromSteady([
            Steady("Incumbent", 1, 1, 1, baseline: true),
            Steady("Spanwire", 0.0144, 0.0143, 0.0145),
        ]), "steady", "test");

        Assert.Contains("| Spanwire | 10.0 ns | 0.014 |", markdown, StringComparison.Ordinal);
        Expect.Equal(0.014, ReportComparison.Parse(markdown).Rows.Single().Ratio, "the ratio read back");
    }

    [Fact]
    public void Compare_sets_two_reports_side_by_side_and_counts_the_rows_that_moved()
    {
        string a = RatioReport.Render(RatioReport.FromSteady([
            Steady("Incumbent", 1, 1, 1, baseline: true),
            Steady("Spanwire", 0.80, 0.79, 0.81),
            Steady("Other", 1.20, 1.19, 1.21),
            Steady("Incumbent" + SteadyRunner.SelfSuffix, 1.0, 1.0, 1.0, self: true),
            Steady("Gone", 0.5, 0.5, 0.5),
        ]), "steady", "test");
        string b = RatioReport.Render(RatioReport.FromSteady([
            Steady("Incumbent", 1, 1, 1, baseline: true),
            Steady("Spanwire", 0.90, 0.89, 0.91), // +12.5%: moved
            Steady("Other", 1.25, 1.24, 1.26), // +4.2%: held
            Steady("Incumbent" + SteadyRunner.SelfSuffix, 1.01, 1.0, 1.02, self: true),
        ]), "steady", "test");

        string comparison = ReportComparison.Render("a.md", a, "b.md", b);

        Assert.Contains("2 ratio rows in both (baselines and self-comparisons left out): 1 moved more than 10% (50%)", comparison, StringComparison.Ordinal);
        Assert.Contains("| Scenario | N=1 | Spanwire | 0.80 (0.79–0.81) | 0.90 (0.89–0.91) | +12.5% | **moved** |", comparison, StringComparison.Ordinal);
        Assert.Contains("| Scenario | N=1 | Other | 1.20 (1.19–1.21) | 1.25 (1.24–1.26) | +4.2% |  |", comparison, StringComparison.Ordinal);
        Assert.Contains("noise floor", comparison, StringComparison.Ordinal);
        Assert.Contains("Rows only in A: 1; only in B: 0.", comparison, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("AmqpPropertiesWriteBenchmarks", "Spanwire", 0.78, 0.77, 0.79, false, "met | yes")] // 2.6% apart, under 0.80
    [InlineData("AmqpPropertiesWriteBenchmarks", "Spanwire", 0.78, 0.74, 0.82, true, "undecided | no")] // 10% apart and across 0.80: the target cannot be read off it
    [InlineData("AmqpPropertiesWriteBenchmarks", "Spanwire", 0.60, 0.57, 0.63, true, "met | no")] // 10% apart, but all of it far under 0.80
    [InlineData("AmqpPropertiesWriteBenchmarks", "Spanwire", 0.85, 0.84, 0.86, false, "not met | yes")] // steady, over 0.80
    [InlineData("AmqpTableReadBenchmarks", "SpanwireInPlace", 0.30, 0.29, 0.31, false, null)] // no target: 6.7% apart is within the general 15%
    public void A_row_with_a_target_is_held_to_5_percent_and_listed_with_its_status(string scenario, string method, double ratio, double low, double high, bool unstable, string? status)
    {
        SteadyRunner.Row Process(double r) => Steady(method, r, r, r) with { Scenario = scenario, Rounds = [r, r, r], Times = [10, 10, 10] };
        SteadyRunner.Row Baseline() => Steady("Incumbent", 1, 1, 1, baseline: true) with { Scenario = scenario, Rounds = [1, 1, 1], Times = [12, 12, 12] };
        List<RatioReport.Row> rows = RatioReport.FromSteady(SteadyRunner.Combine([[Baseline(), Process(low)], [Baseline(), Process(ratio)], [Baseline(), Process(high)]]));

        RatioReport.Row row = rows.Single(r => r.Method == method);
        Expect.Equal(unstable, row.Unstable, $"{scenario} {method}: processes {low} to {high}");
        string markdown = RatioReport.Render(rows, "stable", "test");
        if (status is null)
        {
            Assert.DoesNotContain("### Targets", markdown, StringComparison.Ordinal);
        }
        else
        {
            Assert.Contains(string.Create(CultureInfo.InvariantCulture, $"| {method} | {ratio:0.00} | {low:0.00}–{high:0.00} | ≤ 0.80 | {status} |"), markdown, StringComparison.Ordinal);
            Assert.Contains(status.StartsWith("met", StringComparison.Ordinal) ? "1 met, 0 not met, 0 undecided" : status.StartsWith("not", StringComparison.Ordinal) ? "0 met, 1 not met, 0 undecided" : "0 met, 0 not met, 1 undecided", markdown, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void The_small_message_target_is_the_fastest_peer_not_a_fixed_ratio()
    {
        List<RatioReport.Row> rows = RatioReport.FromSteady([
            Steady("MemoryStream", 1, 1, 1, baseline: true) with { Scenario = "SmallMessageBenchmarks", Parameters = "" },
            Steady("PooledBufferWriter", 0.62, 0.62, 0.62) with { Scenario = "SmallMessageBenchmarks", Parameters = "" },
            Steady("PooledStream", 0.55, 0.55, 0.55) with { Scenario = "SmallMessageBenchmarks", Parameters = "" },
            Steady("ArrayPoolBufferWriter", 0.58, 0.58, 0.58) with { Scenario = "SmallMessageBenchmarks", Parameters = "" },
        ]);

        string markdown = RatioReport.Render(rows, "steady", "test");

        Assert.Contains("| PooledBufferWriter | 0.62 | 0.62–0.62 | < 0.58 (fastest peer) | not met | yes |", markdown, StringComparison.Ordinal);
        Assert.Contains("| PooledStream | 0.55 | 0.55–0.55 | < 0.58 (fastest peer) | met | yes |", markdown, StringComparison.Ordinal);
        Assert.Contains("2 rows have a target: 1 met, 1 not met, 0 undecided", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void A_target_with_a_floor_row_shows_the_floor_beside_it()
    {
        SteadyRunner.Row In(string scenario, string method, double ratio) =>
            Steady(method, ratio, ratio, ratio, baseline: ratio == 1) with { Scenario = scenario, Parameters = "" };
        List<RatioReport.Row> rows = RatioReport.FromSteady([
            In("NbfxReadBenchmarks", "InBox", 1), In("NbfxReadBenchmarks", "DropIn", 1.27), In("NbfxReadBenchmarks", "NodeFloor", 0.86),
            In("AmqpPropertiesWriteBenchmarks", "RabbitMqClient", 1), In("AmqpPropertiesWriteBenchmarks", "Spanwire", 0.76),
        ]);

        string markdown = RatioReport.Render(rows, "steady", "test");

        // The raw read's goal (0.70) lies under its floor row; the properties write has no floor row.
        Assert.Contains("| DropIn | 1.27 | 1.27–1.27 | ≤ 0.70 | not met | yes | 0.86 (0.86–0.86) |", markdown, StringComparison.Ordinal);
        Assert.Contains("| Spanwire | 0.76 | 0.76–0.76 | ≤ 0.80 | met | yes |  |", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("| NodeFloor | 0.86 |", markdown[markdown.IndexOf("### Targets", StringComparison.Ordinal)..], StringComparison.Ordinal);
    }

    [Fact]
    public void Compare_names_the_rows_with_a_target_that_moved_more_than_5_percent()
    {
        string Report(double properties, double template) => RatioReport.Render(RatioReport.FromSteady([
            Steady("RabbitMqClient", 1, 1, 1, baseline: true) with { Scenario = "AmqpPropertiesWriteBenchmarks", Parameters = "" },
            Steady("Spanwire", properties, properties, properties) with { Scenario = "AmqpPropertiesWriteBenchmarks", Parameters = "" },
            Steady("CopyBody512", 1, 1, 1, baseline: true) with { Scenario = "AmqpPublishBenchmarks", Parameters = "" },
            Steady("Template512", template, template, template) with { Scenario = "AmqpPublishBenchmarks", Parameters = "" },
        ]), "steady", "test");

        string comparison = ReportComparison.Render("a.md", Report(0.78, 1.40), "b.md", Report(0.80, 1.50));

        // 0.78 to 0.80 is +2.6%; 1.40 to 1.50 is +7.1%.
        Assert.Contains("Rows with a target: 2; 1 held within 5%, 1 moved more than 5% (0 of them marked unstable in A or B): AmqpPublishBenchmarks Template512 +7.1%.", comparison, StringComparison.Ordinal);
    }

    [Fact]
    public void Both_spellings_of_a_scenario_make_the_same_key()
    {
        Assert.Equal(RatioReport.Key("X", "A=1, B=2"), RatioReport.Key("X", "B=2, A=1"));
        Assert.NotEqual(RatioReport.Key("X", "A=1"), RatioReport.Key("Y", "A=1"));
    }

    [Fact]
    public void Every_benchmark_class_has_parameter_combinations_so_none_drops_out_of_the_report()
    {
        // A class with no combination (a parameter source not found: a static one on a base class) gives no rows at
        // all, silently; the JSON scenarios once went missing from the report that way.
        Type[] classes = [.. typeof(Spanwire.Benchmarks.Program).Assembly.GetTypes()
            .Where(t => t.IsPublic && !t.IsAbstract && t.GetMethods().Any(m => m.GetCustomAttributes(typeof(BenchmarkAttribute), true).Length > 0))];
        Assert.NotEmpty(classes);
        foreach (Type type in classes)
        {
            Assert.True(SteadyRunner.Combinations(type).Any(), $"{type.Name}: no parameter combination");
        }
    }
}
