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

        Assert.Equal(4, rows.Count);
        Assert.Equal(["Times=1", "Times=2"], rows.Select(r => r.Parameters).Distinct());
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
