using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Perfolizer.Horology;

namespace Spanwire.Benchmarks;

/// <summary>
/// Runs the benchmarks and prints one table of ratios against each scenario's baseline (the incumbent).
/// <list type="bullet">
/// <item><c>--quick</c> (the default): every scenario by the steady loop (<see cref="SteadyRunner"/>) with short
/// settings: the incumbent and Spanwire alternately in this process, 31 rounds of 20 ms slices; a few minutes.</item>
/// <item><c>--steady</c>: the same loop, 41 rounds of 25 ms slices.</item>
/// <item><c>--stable</c>: the same loop in three processes per scenario, 17 rounds each, combined: the figures to
/// compare from one run to the next, with the range of the processes' medians; a row whose processes disagree is
/// marked unstable.</item>
/// <item><c>--full</c>: BenchmarkDotNet's default job, out of process, with its memory diagnoser.</item>
/// <item><c>--filter TEXT</c>: only the classes whose name contains TEXT; repeat it for several.</item>
/// <item><c>--publish</c>: also write the table to docs/performance.md, the file the README's figures come from.</item>
/// <item><c>--compare A B</c>: instead of running anything, two saved reports side by side with each row's change
/// and the count of rows that moved more than 10% (<see cref="ReportComparison"/>).</item>
/// <item><c>--faults</c>: instead of the benchmarks, the node-fault run on a three-node cluster of its own for
/// Spanwire and RabbitMQ.Client side by side (confirmed messages lost, duplicates, recovery time per fault); written
/// to artifacts/benchmarks/cluster-faults.md, and with <c>--publish</c> to docs/cluster-faults.md.</item>
/// </list>
/// The steady loop is the default because BenchmarkDotNet's separate short runs move rows of tens of nanoseconds by
/// more than their differences on a two-core machine, and take far longer for every peer of every scenario.
/// Every steady-loop mode runs each scenario (a class with one combination of its parameters) in a fresh process of its own.
/// The table is also written as markdown to artifacts/benchmarks/{quick,full,steady,stable}-report.md; the log of the run
/// goes to artifacts/benchmarks/{mode}-log.txt.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "--compare")
        {
            return Compare(args);
        }

        if (args.Length == 5 && args[0] == ScenarioProcess)
        {
            return RunScenarioProcess(args[1], args[2], args[3], args[4]);
        }

        bool full = args.Contains("--full");
        bool stable = args.Contains("--stable");
        bool steady = args.Contains("--steady");
        bool publish = args.Contains("--publish");
        if (args.Contains("--faults"))
        {
            return RunFaults(publish);
        }

        // Read by parameter sources (NbfxStringBenchmarks.Lengths) here and in the benchmark processes, which inherit it.
        Environment.SetEnvironmentVariable("SPANWIRE_BENCH_FULL", full ? "1" : null);
        if (args.Length > 0 && args[^1] == "--filter")
        {
            Console.Error.WriteLine("benchmarks: --filter needs a TEXT (part of a benchmark class name)");
            return 2;
        }
        // --filter may be given more than once: a class runs when its name contains any of them.
        string[] filters = args.Where((a, i) => i > 0 && args[i - 1] == "--filter").ToArray();
        string unknown = args.Where((a, i) => a is not ("--full" or "--quick" or "--steady" or "--stable" or "--publish" or "--filter" or "--faults") && (i == 0 || args[i - 1] != "--filter"))
            .FirstOrDefault() ?? "";
        if (unknown.Length > 0)
        {
            Console.Error.WriteLine($"benchmarks: unknown argument '{unknown}' (use --quick, --full, --steady, --stable, --publish, --filter TEXT, --compare A B)");
            return 2;
        }

        if ((full ? 1 : 0) + (steady ? 1 : 0) + (stable ? 1 : 0) > 1)
        {
            Console.Error.WriteLine("benchmarks: --full, --steady and --stable are three modes; choose one");
            return 2;
        }

        bool Selected(string name) => filters.Length == 0 || filters.Any(f => name.Contains(f, StringComparison.OrdinalIgnoreCase));

        Type[] classes = Assembly.GetExecutingAssembly().GetTypes()
            .Where(t => t.IsPublic && !t.IsAbstract && t.GetMethods().Any(m => m.GetCustomAttribute<BenchmarkAttribute>() is not null))
            .Where(t => Selected(t.Name))
            .OrderBy(t => t.Namespace).ThenBy(t => t.Name)
            .ToArray();
        bool broker = Selected(nameof(Amqp.BrokerThroughput));
        if (classes.Length == 0 && !broker)
        {
            Console.Error.WriteLine($"benchmarks: no benchmark class matches '{string.Join("' or '", filters)}'");
            return 2;
        }

        string mode = full ? "full" : stable ? "stable" : steady ? "steady" : "quick";
        string outDir = Path.Combine(FindRepositoryRoot(), "artifacts", "benchmarks");
        Directory.CreateDirectory(outDir);
        string logPath = Path.Combine(outDir, $"{mode}-log.txt");
        using var log = new StreamWriter(logPath);

        Console.WriteLine($"running {classes.Length} benchmark classes ({mode}); full log in {logPath}");
        bool clean = true;
        List<RatioReport.Row> rows;
        string method;
        if (!full)
        {
            // Each scenario (a class with one combination of its parameters) runs in a fresh process of its own (several
            // for --stable), as BenchmarkDotNet runs each benchmark: in one shared process the runtime compiles a method
            // once, with the profile of whichever scenario called it first, and a later scenario measures code tuned for
            // another's inputs (a class's later parameter values read up to twice their own process's time).
            string settingsName = stable ? "stable" : steady ? "steady" : "quick";
            SteadyRunner.Settings settings = SettingsNamed(settingsName);
            int processes = stable ? StableProcesses : 1;
            var perProcess = new List<SteadyRunner.Row>[processes];
            for (int p = 0; p < processes; p++)
            {
                perProcess[p] = [];
                foreach (Type type in classes)
                {
                    // Process by process over every class, so a class's processes are minutes apart, not back to back.
                    Console.WriteLine(processes == 1 ? $"{mode}: {type.Name}" : $"{mode}: {type.Name} (process {p + 1} of {processes})");
                    foreach ((string parameters, _) in SteadyRunner.Combinations(type))
                    {
                        try
                        {
                            perProcess[p].AddRange(RunInChildProcess(type, parameters, settingsName, log));
                        }
                        catch (InvalidOperationException ex)
                        {
                            Console.Error.WriteLine($"benchmarks: {ex.Message}");
                            clean = false;
                        }
                    }
                }
            }

            rows = RatioReport.FromSteady(SteadyRunner.Combine(perProcess));
            method = processes == 1
                ? string.Create(CultureInfo.InvariantCulture,
                    $"steady loop: each scenario (class and parameters) in a fresh process, its methods in turn, {settings.Rounds} rounds of {settings.Slice.TotalMilliseconds:0} ms slices after warm-up passes until tiered compilation is quiet and {settings.WarmupRounds} warm-up rounds, in a shuffled order per round; the median time and the median of the per-round ratios")
                : string.Create(CultureInfo.InvariantCulture,
                    $"steady loop in {processes} fresh processes per scenario (class and parameters), started one after the other over all classes: in each, the scenario's methods in turn, {settings.Rounds} rounds of {settings.Slice.TotalMilliseconds:0} ms slices after warm-up passes until tiered compilation is quiet and {settings.WarmupRounds} warm-up rounds, in a shuffled order per round; the median time and the median of the per-round ratios of all processes together, with the range of the processes' own medians");
            method += JsonPackageContext.Instance is null
                ? ". JSON: only the in-box Utf8JsonWriter (System.Text.Json 11.0.0's files were not beside the program)"
                : $". JSON: the in-box Utf8JsonWriter (.NET {Environment.Version}) is the baseline, and System.Text.Json {JsonPackageContext.PackageVersion} (the package, in a load context of its own) runs in the same rounds; Spanwire's JSON rows are ratios to whichever of the two was faster in each round";
        }
        else
        {
            Summary[] summaries = classes.Length == 0 ? [] : BenchmarkRunner.Run(classes, CreateConfig(full, new ProgressLogger(log)));
            foreach (Summary summary in summaries.Where(s => s.HasCriticalValidationErrors || s.Reports.Any(r => !r.Success)))
            {
                Console.Error.WriteLine($"benchmarks: {summary.Title} did not run cleanly; see {logPath}");
                clean = false;
            }

            rows = RatioReport.FromSummaries(summaries);
            method = "BenchmarkDotNet's default job, each benchmark in its own process, with its memory diagnoser";
        }

        string markdown = RatioReport.Render(rows, mode, method)
            + (broker ? RunBrokerComparison(full, log) : "");
        Console.WriteLine();
        Console.WriteLine(markdown);
        string reportPath = Path.Combine(outDir, $"{mode}-report.md");
        File.WriteAllText(reportPath, markdown);
        // A copy per run, so two runs one after the other can be set side by side with --compare.
        string kept = Path.Combine(outDir, string.Create(CultureInfo.InvariantCulture, $"{mode}-report-{DateTime.UtcNow:yyyyMMdd-HHmmss}.md"));
        File.WriteAllText(kept, markdown);
        Console.WriteLine($"written to {Path.GetRelativePath(Environment.CurrentDirectory, reportPath)} and {Path.GetRelativePath(Environment.CurrentDirectory, kept)}");
        if (publish)
        {
            string docs = Path.Combine(FindRepositoryRoot(), "docs", "performance.md");
            File.WriteAllText(docs, "# Performance\n\nGenerated by `scripts/bench.sh " + string.Join(' ', args) + "`; do not edit by hand.\n\n" + markdown);
            Console.WriteLine($"published to {Path.GetRelativePath(Environment.CurrentDirectory, docs)}");
        }

        return clean ? 0 : 1;
    }

    private const string ScenarioProcess = "--scenario-process";

    // NaN: the ratios of a class without a baseline.
    private static readonly JsonSerializerOptions s_rowJson = new() { NumberHandling = System.Text.Json.Serialization.JsonNumberHandling.AllowNamedFloatingPointLiterals };

    /// <summary>How many processes the --stable mode runs each scenario in.</summary>
    private const int StableProcesses = 3;

    private static SteadyRunner.Settings SettingsNamed(string name) => name switch
    {
        "stable" => SteadyRunner.Settings.StableProcess,
        "steady" => SteadyRunner.Settings.Steady,
        _ => SteadyRunner.Settings.Quick,
    };

    /// <summary>
    /// Runs one scenario, <paramref name="type"/> with the <paramref name="parameters"/> <see cref="SteadyRunner.Combinations"/>
    /// names, in a process of its own (this program with <see cref="ScenarioProcess"/>) and reads its rows back.
    /// </summary>
    private static List<SteadyRunner.Row> RunInChildProcess(Type type, string parameters, string settings, TextWriter log)
    {
        string output = Path.GetTempFileName();
        try
        {
            var start = new ProcessStartInfo(Environment.ProcessPath!) { RedirectStandardOutput = true, RedirectStandardError = true };
            if (Path.GetFileNameWithoutExtension(Environment.ProcessPath) == "dotnet")
            {
                start.ArgumentList.Add(typeof(Program).Assembly.Location);
            }

            start.ArgumentList.Add(ScenarioProcess);
            start.ArgumentList.Add(settings);
            start.ArgumentList.Add(type.FullName!);
            start.ArgumentList.Add(parameters);
            start.ArgumentList.Add(output);
            using Process child = Process.Start(start)!;
            Task<string> stdout = child.StandardOutput.ReadToEndAsync();
            string stderr = child.StandardError.ReadToEnd();
            child.WaitForExit();
            log.Write(stdout.Result);
            if (child.ExitCode != 0)
            {
                throw new InvalidOperationException($"the process measuring {type.Name} [{parameters}] failed (exit {child.ExitCode}): {stderr.Trim().Split('\n')[0]}");
            }

            return JsonSerializer.Deserialize<List<SteadyRunner.Row>>(File.ReadAllText(output), s_rowJson)!;
        }
        finally
        {
            File.Delete(output);
        }
    }

    /// <summary>The child side of <see cref="RunInChildProcess"/>: one scenario, its rows written as JSON to <paramref name="output"/>.</summary>
    private static int RunScenarioProcess(string settings, string typeName, string parameters, string output)
    {
        Type type = typeof(Program).Assembly.GetType(typeName, throwOnError: true)!;
        List<SteadyRunner.Row> rows = SteadyRunner.Run(type, SettingsNamed(settings), Console.Out, include: p => p == parameters, other: JsonPackageIncumbent(type));
        File.WriteAllText(output, JsonSerializer.Serialize(rows, s_rowJson));
        return 0;
    }

    /// <summary>
    /// For a JSON scenario, the same class bound to System.Text.Json's newest package, so the writer a user can reference
    /// runs beside the runtime's own; null for other scenarios or when the package's files are missing.
    /// </summary>
    private static SteadyRunner.OtherIncumbent? JsonPackageIncumbent(Type type)
    {
        if (type.Namespace != typeof(Json.JsonWriterBenchmarkBase).Namespace || JsonPackageContext.Instance is not { } context)
        {
            return null;
        }

        Type copy = context.LoadCopyOf(typeof(Program).Assembly).GetType(type.FullName!, throwOnError: true)!;
        return new SteadyRunner.OtherIncumbent(copy, $" (System.Text.Json {JsonPackageContext.PackageVersion})");
    }

    /// <summary>--compare A B: two saved reports side by side (<see cref="ReportComparison"/>).</summary>
    private static int Compare(string[] args)
    {
        if (args.Length != 3)
        {
            Console.Error.WriteLine("benchmarks: --compare takes two saved reports, e.g. --compare docs/performance.md artifacts/benchmarks/quick-report.md");
            return 2;
        }

        foreach (string path in args[1..])
        {
            if (!File.Exists(path))
            {
                Console.Error.WriteLine($"benchmarks: --compare: no report at '{path}'");
                return 2;
            }
        }

        string markdown = ReportComparison.Render(args[1], File.ReadAllText(args[1]), args[2], File.ReadAllText(args[2]));
        Console.WriteLine(markdown);
        return 0;
    }

    /// <summary>Spanwire and RabbitMQ.Client through the same node faults on one cluster, one after the other.</summary>
    private static int RunFaults(bool publish)
    {
        Console.WriteLine("starting a three-node cluster (scripts/rabbitmq.sh cluster)");
        Spanwire.Amqp.ClusterControl cluster = Spanwire.Amqp.ClusterControl.StartAsync().GetAwaiter().GetResult();
        try
        {
            List<Spanwire.Amqp.FaultResult> results = [];
            foreach (Spanwire.Amqp.IFaultClientFactory client in new Spanwire.Amqp.IFaultClientFactory[] { new Spanwire.Amqp.RabbitMqClientFaultClients(), new Spanwire.Amqp.SpanwireFaultClients() })
            {
                Console.WriteLine($"{client.Name}: 8 publishers with confirms, 2 consumers, 6 node faults");
                results.Add(Spanwire.Amqp.ClusterFaultRun.RunAsync(client, cluster, publishers: 8, consumers: 2, faults: 6, Console.Out).GetAwaiter().GetResult());
            }

            string markdown = string.Create(CultureInfo.InvariantCulture,
                $"## Node faults on a three-node cluster ({DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {Environment.ProcessorCount} cores, RabbitMQ.Client {Amqp.BrokerThroughput.RabbitMqClientVersion})\n\n")
                + "8 publishers with confirms (each message published again until confirmed) and 2 consumers acknowledging each delivery, on a quorum queue; "
                + "six faults, kill -9 and stop by turns, each on the node holding the most clients; recovery interval 0.5 s for both clients. "
                + "\"Recovered in\": from the fault until every client that was on the node is open on another (for stop, the node's own shutdown time included).\n\n"
                + Spanwire.Amqp.ClusterFaultRun.Render(results);
            Console.WriteLine();
            Console.WriteLine(markdown);
            string outDir = Path.Combine(FindRepositoryRoot(), "artifacts", "benchmarks");
            Directory.CreateDirectory(outDir);
            File.WriteAllText(Path.Combine(outDir, "cluster-faults.md"), markdown);
            if (publish)
            {
                File.WriteAllText(Path.Combine(FindRepositoryRoot(), "docs", "cluster-faults.md"),
                    "# Node faults\n\nGenerated by `scripts/bench.sh --faults --publish`; do not edit by hand.\n\n" + markdown);
            }

            return results.All(r => r.Lost == 0) ? 0 : 1;
        }
        finally
        {
            cluster.DisposeAsync().GetAwaiter().GetResult();
        }
    }

    /// <summary>The client side by side against a real broker: SPANWIRE_AMQP_URI (scripts/bench.sh starts a private node when it can).</summary>
    private static string RunBrokerComparison(bool full, TextWriter log)
    {
        string? uri = Environment.GetEnvironmentVariable("SPANWIRE_AMQP_URI");
        if (string.IsNullOrEmpty(uri))
        {
            const string Missing = "Not measured: no RabbitMQ broker. Install rabbitmq-server (scripts/rabbitmq.sh install) so scripts/bench.sh can start a private node, or set SPANWIRE_AMQP_URI.";
            Console.Error.WriteLine($"benchmarks: AMQP client against RabbitMQ: {Missing}");
            return $"\n### AMQP client against RabbitMQ\n\n{Missing}\n";
        }

        int messages = full ? 200_000 : 20_000;
        Console.WriteLine($"running the AMQP client comparison against {uri} ({messages} messages per scenario)");
        try
        {
            List<Amqp.BrokerThroughput.Row> rows = Amqp.BrokerThroughput.RunAsync(uri, messages, full ? 3 : 1, log).GetAwaiter().GetResult();
            return "\n" + Amqp.BrokerThroughput.Render(rows, messages, uri);
        }
        catch (Exception ex)
        {
            Console.Error.WriteLine($"benchmarks: the AMQP client comparison failed: {ex.Message}");
            return $"\n### AMQP client against RabbitMQ\n\nFailed: {ex.GetType().Name}: {ex.Message}\n";
        }
    }

    private static IConfig CreateConfig(bool full, ILogger logger)
    {
        Job job = full
            ? Job.Default.WithId("Full")
            : Job.Default // out of process, so no benchmark inherits another's heap
                .WithLaunchCount(1)
                .WithWarmupCount(10) // 1 s: with 3, millisecond-long cases were often measured before their code was fully optimized
                .WithIterationCount(8)
                .WithIterationTime(TimeInterval.FromMilliseconds(100))
                .WithId("Quick");

        return ManualConfig.CreateEmpty()
            .AddJob(job)
            .AddLogger(logger)
            .AddColumnProvider(DefaultColumnProviders.Instance)
            .AddDiagnoser(MemoryDiagnoser.Default)
            .WithArtifactsPath(Path.Combine(FindRepositoryRoot(), "artifacts", "benchmarks", "bdn"));
    }

    private static string FindRepositoryRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Spanwire.slnx")))
            {
                return dir.FullName;
            }
        }

        return Environment.CurrentDirectory;
    }
}
