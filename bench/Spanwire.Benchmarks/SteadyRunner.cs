using System.Diagnostics;
using System.Globalization;
using System.Linq.Expressions;
using System.Reflection;
using System.Runtime;
using BenchmarkDotNet.Attributes;

namespace Spanwire.Benchmarks;

/// <summary>
/// The steady mode: every method of a scenario runs in this process, in turn, in short slices, round after round, so
/// the incumbent and Spanwire meet the same machine state (frequency, other load, the collector) within
/// milliseconds of each other. Each round gives every method a time per operation and a ratio to the baseline's
/// time in the same round; a row reports the median over the rounds and the spread of the ratio (the middle half
/// and the extremes). This is what tells a lead from noise on rows of tens of nanoseconds, which BenchmarkDotNet's
/// separate runs on a two-core machine move by more than the lead.
/// </summary>
public static class SteadyRunner
{
    /// <summary>How long a slice runs, and how many rounds: the quick report's steady rows and the --steady mode.</summary>
    public sealed record Settings(TimeSpan Slice, int Rounds, int WarmupRounds)
    {
        public static Settings Quick { get; } = new(TimeSpan.FromMilliseconds(20), 31, 3);

        public static Settings Steady { get; } = new(TimeSpan.FromMilliseconds(25), 41, 5);

        /// <summary>One of the --stable mode's processes: fewer rounds each, as several processes share the work.</summary>
        public static Settings StableProcess { get; } = new(TimeSpan.FromMilliseconds(25), 17, 3);
    }

    /// <summary>
    /// One method of one scenario (class and parameters). <paramref name="Self"/> marks the baseline measured a second
    /// time as if it were another method: its ratio to the baseline is the noise floor of the scenario.
    /// </summary>
    /// <remarks>
    /// <paramref name="Rounds"/> and <paramref name="Times"/> are the per-round ratios and times the figures come from;
    /// <paramref name="ProcessLow"/> and <paramref name="ProcessHigh"/> the lowest and highest of the per-process
    /// median ratios when the row combines several processes (<see cref="Combine"/>), else the median itself.
    /// </remarks>
    public sealed record Row(
        string Scenario, string Parameters, string Method, bool Baseline,
        double MedianNanoseconds, double Ratio, double RatioP25, double RatioP75, double RatioMin, double RatioMax, long AllocatedPerOperation,
        bool Self = false)
    {
        public double[] Rounds { get; init; } = [];

        public double[] Times { get; init; } = [];

        public double ProcessLow { get; init; } = Ratio;

        public double ProcessHigh { get; init; } = Ratio;

        public int Processes { get; init; } = 1;
    }

    /// <summary>
    /// One row per method from the same scenarios run in several processes: the median and quartiles of every round of
    /// every process together, and the range of the processes' own medians (what moves from one run to the next: the
    /// code each process's compiler produced, where its heap and arrays landed).
    /// </summary>
    public static List<Row> Combine(IReadOnlyList<IReadOnlyList<Row>> processes)
    {
        var combined = new List<Row>();
        foreach (Row first in processes[0])
        {
            Row[] same = [.. processes.Select(p => p.FirstOrDefault(r => r.Scenario == first.Scenario && r.Parameters == first.Parameters && r.Method == first.Method)).OfType<Row>()];
            double[] rounds = [.. same.SelectMany(r => r.Rounds).Order()];
            double[] times = [.. same.SelectMany(r => r.Times).Order()];
            double[] medians = [.. same.Select(r => r.Ratio)];
            combined.Add(first with
            {
                MedianNanoseconds = Median(times),
                Ratio = Median(rounds),
                RatioP25 = Quantile(rounds, 0.25),
                RatioP75 = Quantile(rounds, 0.75),
                RatioMin = rounds[0],
                RatioMax = rounds[^1],
                AllocatedPerOperation = same.Select(r => r.AllocatedPerOperation).Order().ElementAt(same.Length / 2),
                Rounds = rounds,
                Times = times,
                ProcessLow = medians.Min(),
                ProcessHigh = medians.Max(),
                Processes = same.Length,
            });
        }

        return combined;
    }

    /// <summary>What the method of the self-comparison row is called: the baseline's name and this.</summary>
    public const string SelfSuffix = " (self)";

    /// <summary>Every parameter combination of <paramref name="type"/>, each as (display text, setter).</summary>
    public static IEnumerable<(string Display, Action<object> Apply)> Combinations(Type type)
    {
        var axes = new List<(PropertyInfo Property, object?[] Values)>();
        foreach (PropertyInfo property in type.GetProperties(BindingFlags.Public | BindingFlags.Instance))
        {
            if (property.GetCustomAttribute<ParamsAttribute>() is { } values)
            {
                axes.Add((property, values.Values));
            }
            else if (property.GetCustomAttribute<ParamsSourceAttribute>() is { } source)
            {
                axes.Add((property, SourceValues(type, source.Name)));
            }
        }

        IEnumerable<List<(PropertyInfo, object?)>> product = [[]];
        foreach ((PropertyInfo property, object?[] values) in axes)
        {
            product = product.SelectMany(prefix => values.Select(v => new List<(PropertyInfo, object?)>(prefix) { (property, v) }));
        }

        foreach (List<(PropertyInfo Property, object? Value)> combination in product)
        {
            string display = string.Join(", ", combination.Select(c => $"{c.Property.Name}={Display(c.Value)}"));
            yield return (display, instance =>
            {
                foreach ((PropertyInfo property, object? value) in combination)
                {
                    property.SetValue(instance, value);
                }
            }
            );
        }
    }

    private static object?[] SourceValues(Type type, string name)
    {
        // FlattenHierarchy: a static source on a base class (JsonWriterBenchmarkBase.FormattedValues) counts too.
        const BindingFlags Any = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static | BindingFlags.Instance | BindingFlags.FlattenHierarchy;
        object? holder = Activator.CreateInstance(type);
        object? values = type.GetProperty(name, Any)?.GetValue(holder) ?? type.GetMethod(name, Any, Type.EmptyTypes)?.Invoke(holder, null);
        return values is System.Collections.IEnumerable items ? [.. items.Cast<object?>()] : [];
    }

    private static string Display(object? value) => value switch
    {
        null => "null",
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };

    /// <summary>
    /// A second incumbent for a scenario: the same class compiled against another version of the incumbent (a copy
    /// of the benchmark assembly in another AssemblyLoadContext), whose baseline method runs in the same rounds.
    /// </summary>
    /// <param name="Type">The class in the other context.</param>
    /// <param name="Label">What the row's method name is followed by, such as " (System.Text.Json 11.0.0)".</param>
    public sealed record OtherIncumbent(Type Type, string Label);

    /// <summary>
    /// Runs every combination of <paramref name="type"/> (or those <paramref name="include"/> accepts). With
    /// <paramref name="other"/>, its baseline runs beside this one and every other method's ratio is to whichever of
    /// the two incumbents was faster in the same round, so the slower never hides the faster.
    /// </summary>
    public static List<Row> Run(Type type, Settings settings, TextWriter log, Func<string, bool>? include = null, OtherIncumbent? other = null)
    {
        var rows = new List<Row>();
        foreach ((string display, Action<object> apply) in Combinations(type))
        {
            if (include is null || include(display))
            {
                rows.AddRange(RunScenario(type, display, apply, settings, log, other));
            }
        }

        return rows;
    }

    private static MethodInfo[] BenchmarkMethods(Type type) =>
        [.. type.GetMethods(BindingFlags.Public | BindingFlags.Instance)
            .Where(m => m.GetCustomAttribute<BenchmarkAttribute>() is not null && m.GetParameters().Length == 0)];

    /// <summary>Sets on <paramref name="target"/> the parameter values <paramref name="source"/> was given, by name.</summary>
    private static void CopyParameters(object source, object target)
    {
        foreach (PropertyInfo property in source.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Where(p => p.GetCustomAttribute<ParamsAttribute>() is not null || p.GetCustomAttribute<ParamsSourceAttribute>() is not null))
        {
            target.GetType().GetProperty(property.Name)!.SetValue(target, property.GetValue(source));
        }
    }

    private static List<Row> RunScenario(Type type, string display, Action<object> apply, Settings settings, TextWriter log, OtherIncumbent? other)
    {
        object instance = Activator.CreateInstance(type)!;
        apply(instance);
        Invoke<GlobalSetupAttribute>(instance);
        object? otherInstance = null;
        try
        {
            MethodInfo[] methods = BenchmarkMethods(type);
            string[] names = [.. methods.Select(m => m.Name)];
            // A class without a baseline (no incumbent to run, as AmqpMethodBenchmarks) still gets its times; its
            // ratios are NaN, shown as "-".
            int baseline = Array.FindIndex(methods, m => m.GetCustomAttribute<BenchmarkAttribute>()!.Baseline);
            var loopList = methods.Select(m => Loop(instance, m)).ToList();
            int self = -1, second = -1;
            if (baseline >= 0)
            {
                // The baseline once more, as one more method in the same rounds: whatever its ratio strays from 1 is
                // noise, the floor under which no other row's lead means anything.
                self = loopList.Count;
                loopList.Add(Loop(instance, methods[baseline]));
                names = [.. names, names[baseline] + SelfSuffix];
                methods = [.. methods, methods[baseline]];
            }

            if (other is not null && baseline >= 0)
            {
                otherInstance = Activator.CreateInstance(other.Type)!;
                CopyParameters(instance, otherInstance);
                Invoke<GlobalSetupAttribute>(otherInstance);
                MethodInfo otherBaseline = BenchmarkMethods(other.Type).Single(m => m.Name == methods[baseline].Name);
                second = loopList.Count;
                loopList.Add(Loop(otherInstance, otherBaseline));
                names = [.. names, names[baseline] + other.Label];
                methods = [.. methods, otherBaseline];
            }

            Action<long>[] loops = [.. loopList];

            // Tiered compilation moves methods called often enough to optimized code in the background, after a quiet
            // spell, in two steps with profiling between them: run everything for a while, then pause, at least three
            // times and until a pass compiles nothing new (in a fresh process the first scenario needs more passes
            // than the rest, and measured too early it reads up to twice its steady time).
            long compiled = -1;
            for (int pass = 0; pass < 3 || (JitInfo.GetCompiledMethodCount() != compiled && pass < 30); pass++)
            {
                compiled = JitInfo.GetCompiledMethodCount();
                foreach (Action<long> loop in loops)
                {
                    WarmUp(loop);
                }

                Thread.Sleep(200);
            }

            long[] counts = [.. loops.Select(loop => Calibrate(loop, settings.Slice))];
            var nanoseconds = new List<double>[methods.Length];
            var allocated = new List<long>[methods.Length];
            for (int i = 0; i < methods.Length; i++)
            {
                nanoseconds[i] = [];
                allocated[i] = [];
            }

            var ratios = new List<double>[methods.Length];
            for (int i = 0; i < methods.Length; i++)
            {
                ratios[i] = [];
            }

            var random = new Random(12345);
            int[] order = [.. Enumerable.Range(0, methods.Length)];
            var perOperation = new double[methods.Length];
            for (int round = -settings.WarmupRounds; round < settings.Rounds; round++)
            {
                // Each round starts from a collected heap, so a collection that one method's garbage brings on lands
                // on that method's slice, not on whichever slice happens to cross the threshold.
                GC.Collect();
                GC.WaitForPendingFinalizers();
                random.Shuffle(order); // no method always runs first, or right after the same other
                foreach (int i in order)
                {
                    long before = GC.GetAllocatedBytesForCurrentThread();
                    long start = Stopwatch.GetTimestamp();
                    loops[i](counts[i]);
                    long ticks = Stopwatch.GetTimestamp() - start;
                    long bytes = GC.GetAllocatedBytesForCurrentThread() - before;
                    perOperation[i] = ticks * (1e9 / Stopwatch.Frequency) / counts[i];
                    if (round >= 0)
                    {
                        nanoseconds[i].Add(perOperation[i]);
                        allocated[i].Add(bytes / counts[i]);
                    }
                }

                if (round >= 0)
                {
                    // The incumbents' rows against the first; every other row against the faster of them this round.
                    double fastest = second < 0 || baseline < 0 ? double.NaN : Math.Min(perOperation[baseline], perOperation[second]);
                    for (int i = 0; i < methods.Length; i++)
                    {
                        ratios[i].Add(
                            baseline < 0 ? double.NaN
                            : second < 0 || i == baseline || i == self || i == second ? perOperation[i] / perOperation[baseline]
                            : perOperation[i] / fastest);
                    }
                }
            }

            var rows = new List<Row>();
            for (int i = 0; i < methods.Length; i++)
            {
                double[] r = [.. ratios[i].Order()];
                double[] t = [.. nanoseconds[i].Order()];
                rows.Add(new Row(type.Name, display, names[i], i == baseline,
                    Median(t), Median(r), Quantile(r, 0.25), Quantile(r, 0.75), r[0], r[^1],
                    allocated[i].Order().ElementAt(allocated[i].Count / 2), Self: i == self)
                { Rounds = r, Times = t });
            }

            log.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"steady {type.Name} [{display}]: {string.Join("; ", rows.Select(x => $"{x.Method} {x.MedianNanoseconds:0.0} ns ({x.Ratio:0.00})"))}"));
            log.Flush();
            return rows;
        }
        finally
        {
            Invoke<GlobalCleanupAttribute>(instance);
            if (otherInstance is not null)
            {
                Invoke<GlobalCleanupAttribute>(otherInstance);
            }
        }
    }

    private static void Invoke<TAttribute>(object instance)
        where TAttribute : Attribute
    {
        foreach (MethodInfo method in instance.GetType().GetMethods().Where(m => m.GetCustomAttribute<TAttribute>() is not null))
        {
            method.Invoke(instance, null);
        }
    }

    /// <summary>
    /// A compiled loop calling <paramref name="method"/> n times on <paramref name="instance"/>, storing each result in
    /// a static field of its type so nothing is optimized away and no value is boxed.
    /// </summary>
    private static Action<long> Loop(object instance, MethodInfo method)
    {
        ParameterExpression n = Expression.Parameter(typeof(long), "n");
        ParameterExpression i = Expression.Variable(typeof(long), "i");
        Expression call = Expression.Call(Expression.Constant(instance, instance.GetType()), method);
        if (method.ReturnType != typeof(void))
        {
            FieldInfo sink = typeof(Sink<>).MakeGenericType(method.ReturnType).GetField(nameof(Sink<int>.Value))!;
            call = Expression.Assign(Expression.Field(null, sink), call);
        }

        LabelTarget done = Expression.Label();
        BlockExpression body = Expression.Block(
            [i],
            Expression.Assign(i, Expression.Constant(0L)),
            Expression.Loop(
                Expression.IfThenElse(
                    Expression.LessThan(i, n),
                    Expression.Block(call, Expression.PostIncrementAssign(i)),
                    Expression.Break(done)),
                done));
        return Expression.Lambda<Action<long>>(body, n).Compile();
    }

    private static class Sink<T>
    {
#pragma warning disable CA2211, CS0649 // written by the compiled loops, never read: it only keeps results alive
        public static T? Value;
#pragma warning restore CA2211, CS0649
    }

    /// <summary>Calls enough times for tiered compilation to count the method hot (at least 50 calls, or 200 ms).</summary>
    private static void WarmUp(Action<long> loop)
    {
        long start = Stopwatch.GetTimestamp();
        for (int calls = 0; calls < 50 && Stopwatch.GetElapsedTime(start) < TimeSpan.FromMilliseconds(200); calls++)
        {
            loop(1);
        }

        Calibrate(loop, TimeSpan.FromMilliseconds(20));
    }

    /// <summary>How many calls fill one slice (at least one).</summary>
    private static long Calibrate(Action<long> loop, TimeSpan slice)
    {
        long count = 1;
        while (true)
        {
            long start = Stopwatch.GetTimestamp();
            loop(count);
            TimeSpan elapsed = Stopwatch.GetElapsedTime(start);
            if (elapsed >= slice / 8 || count >= 1L << 40)
            {
                return Math.Max(1, (long)(count * (slice.Ticks / (double)Math.Max(elapsed.Ticks, 1))));
            }

            count *= 2;
        }
    }

    private static double Median(double[] sorted) => Quantile(sorted, 0.5);

    private static double Quantile(double[] sorted, double q)
    {
        double at = q * (sorted.Length - 1);
        int low = (int)Math.Floor(at);
        int high = Math.Min(low + 1, sorted.Length - 1);
        return sorted[low] + ((sorted[high] - sorted[low]) * (at - low));
    }
}
