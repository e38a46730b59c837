using System.Collections.Concurrent;
using System.Reflection;
using Spanwire.Amqp.Client;

namespace Spanwire;

/// <summary>
/// Every C# block of the READMEs and reference pages runs, and what it makes is checked: against the incumbent where
/// there is one (Utf8JsonWriter's bytes, the in-box binary writer's, WCF's own binding), else against what the page
/// says (the signature of the JSON written, the sum the record reader adds up). A block's check is found by a line it
/// contains (<see cref="s_checks"/>) and runs after the block, with its locals in scope. A block that cannot run on
/// this machine is named with the reason (<see cref="s_compiledOnly"/>); a block with neither fails the test.
/// </summary>
public partial class ReadmeSnippetTests
{
    private const string BrokerUri = "amqp://guest:guest@localhost:5672/";

    // The line a block contains → the check that runs after it. Several may apply to one block.
    private static readonly (string Line, string Check)[] s_checks =
    [
        ("new SigningBufferWriter(",
            """Givens.Equal(Givens.Hmac(key, Givens.Json(order)), signature, "the signature: HMAC-SHA256 of the bytes System.Text.Json writes");"""),
        ("CopyToAsync(networkStream)",
            """Givens.Same(Givens.Json(order), ((MemoryStream)networkStream).ToArray(), "the bytes copied out: what System.Text.Json writes");"""),
        ("CopyToAsync(stream)",
            """Givens.Same(Givens.Json(order), ((MemoryStream)stream).ToArray(), "the bytes copied out: what System.Text.Json writes");"""),
        ("serializer.Serialize(stream, order)",
            """
            Givens.Same(Givens.Json(order), bytes.ToArray(), "the stream's sequence: what the serializer wrote");
            Givens.Equal(16 * 1024, secrets.SegmentSize, "the secrets pool's segment size");
            """),
        ("new SpanwireJsonWriter(buffer, new JsonWriterOptions { Indented = true })",
            """
            var control = new System.Buffers.ArrayBufferWriter<byte>();
            using (var incumbent = new Utf8JsonWriter(control, new JsonWriterOptions { Indented = true }))
            {
                incumbent.WriteStartObject();
                incumbent.WriteString("name", "Ada");
                incumbent.WriteNumber("born", 1815);
                incumbent.WriteEndObject();
            }

            Givens.Same(control.WrittenSpan.ToArray(), buffer.ToArray(), "the JSON: Utf8JsonWriter's bytes for the same calls");
            """),
        ("Nbfx.CreateWriter(bufferWriter, Nbfx.SoapDictionary, session)",
            """Givens.StartsWith(Givens.InBoxDataContract(order), bufferWriter.WrittenSpan.ToArray(), "the binary XML: the in-box writer's bytes for the same object");"""),
        ("Nbfx.CreateReader(bytes, Nbfx.SoapDictionary, quotas, readerSession)",
            """Givens.Equal(order.Id + " " + order.Customer, copy.Id + " " + copy.Customer, "the object read back");"""),
        ("new NbfxWriter(bufferWriter)",
            """Givens.EndsWith(new byte[] { 0x40, 0x03, 0x64, 0x6F, 0x63, 0x89, 0x2A }, bufferWriter.WrittenSpan.ToArray(), "the records the comment shows");"""),
        ("new NbfxReader(sequence",
            """Givens.Equal(42, sum, "the sum of the integer records of <doc>42</doc>");"""),
        ("new SpanwireBinaryMessageEncodingBindingElement()",
            """
            var incumbent = new CustomBinding(new BinaryMessageEncodingBindingElement(), new HttpTransportBindingElement());
            Givens.Equal(incumbent.MessageVersion, binding.MessageVersion, "the binding's message version, as with WCF's encoder");
            Givens.Equal(incumbent.Scheme, binding.Scheme, "the binding's scheme");
            Givens.Equal(true, orders is not null, "a channel was made");
            """),

        // Ends by cancellation when the first delivery is handled; the runner checks what was delivered.
        ($"AmqpConnection.ConnectAsync(\"{BrokerUri}\")", ""),
        ($"new SpanwireConnectionFactory {{ Uri = new Uri(\"{BrokerUri}\") }}",
            """
            BasicGetResult? got = await channel.BasicGetAsync("jobs", autoAck: true);
            Givens.Same(body.ToArray(), got?.Body.ToArray() ?? [], "the message published through RabbitMQ.Client's interfaces on the drop-in");
            """),
        ($"options.ConnectionString = \"{BrokerUri}\"",
            """
            Givens.Equal(true, connection.IsOpen, "the connection the container made");
            Givens.Equal(true, ReferenceEquals(connection, provider.GetRequiredService<IConnection>()), "one connection, shared");
            """),
    ];

    // Blocks that only compile here, and why.
    private static readonly (string Line, string Why)[] s_compiledOnly =
    [
        ("AmqpConnectionOptions.Parse(\"amqps://node1,node2,node3/orders\")", "needs a three-node cluster over TLS and a password file"),
        ("AmqpConnectionOptions.Parse(\"amqps://broker.example.com/\")", "needs a broker that takes a client certificate's user"),
    ];

    public static TheoryData<string, int> BlocksToRun() => RunnableBlocks(broker: false);

    public static TheoryData<string, int> BrokerBlocksToRun() => RunnableBlocks(broker: true);

    [Fact]
    public void Every_block_has_a_check_or_says_why_it_only_compiles()
    {
        var unmatched = ReadmeNames()
            .SelectMany(readme => Blocks(readme).Select((code, i) => (readme, code, i)))
            .Where(b => !s_checks.Any(c => b.code.Contains(c.Line, StringComparison.Ordinal))
                && !s_compiledOnly.Any(c => b.code.Contains(c.Line, StringComparison.Ordinal)))
            .Select(b => $"{b.readme} block {b.i + 1}: {b.code.Split('\n').FirstOrDefault(l => !IsUsingDirective(l) && l.Length > 0)}")
            .ToList();
        Assert.True(unmatched.Count == 0,
            "blocks with no check and no reason to only compile (add one to s_checks or s_compiledOnly):"
            + Environment.NewLine + string.Join(Environment.NewLine, unmatched));
    }

    [Fact]
    public void The_README_is_at_most_150_lines()
    {
        int lines = File.ReadAllLines(Path.Combine(RepositoryRoot, "README.md")).Length;
        Assert.True(lines <= 150, $"README.md has {lines} lines: it is what each package is, the quick starts and links; the rest belongs in docs/");
    }

    [Theory]
    [MemberData(nameof(BlocksToRun))]
    public Task README_code_runs_and_does_what_it_says(string readme, int block) => RunBlock(readme, block, brokerUri: null);

    [BrokerTheory]
    [Trait("Category", BrokerTests.Trait)]
    [MemberData(nameof(BrokerBlocksToRun))]
    public async Task README_AMQP_code_runs_on_a_broker(string readme, int block)
    {
        string uri = Environment.GetEnvironmentVariable("SPANWIRE_AMQP_URI") ?? throw new InvalidOperationException("SPANWIRE_AMQP_URI is not set");
        await using (AmqpConnection connection = await AmqpConnection.ConnectAsync(uri))
        {
            AmqpChannel channel = await connection.OpenChannelAsync();
            await channel.QueueDeleteAsync("jobs"); // what an earlier run left would be delivered first
        }

        await RunBlock(readme, block, uri);
    }

    private static TheoryData<string, int> RunnableBlocks(bool broker)
    {
        var data = new TheoryData<string, int>();
        foreach (string readme in ReadmeNames())
        {
            List<string> blocks = Blocks(readme);
            for (int i = 0; i < blocks.Count; i++)
            {
                if (!s_compiledOnly.Any(c => blocks[i].Contains(c.Line, StringComparison.Ordinal)) && NeedsBroker(blocks[i]) == broker)
                {
                    data.Add(readme, i + 1);
                }
            }
        }

        return data;
    }

    private static bool NeedsBroker(string block) => block.Contains(BrokerUri, StringComparison.Ordinal);

    private static readonly ConcurrentDictionary<string, Assembly> s_compiled = new();

    private static async Task RunBlock(string readme, int block, string? brokerUri)
    {
        // The page compiled once with every block's check, the broker's address put in place of the page's.
        List<string> blocks = Blocks(readme);
        Assembly snippets = s_compiled.GetOrAdd(readme + "|" + brokerUri, _ => Assembly.Load(Compile(
            readme,
            [.. blocks.Select(code => brokerUri is null ? code : code.Replace(BrokerUri, brokerUri, StringComparison.Ordinal))],
            code => string.Join(Environment.NewLine, s_checks.Where(c => code.Contains(c.Line, StringComparison.Ordinal)).Select(c => c.Check)))));
        Type givens = snippets.GetType("Givens")!;
        var args = (object?[])givens.GetMethod("Create")!.Invoke(null, null)!;
        var stop = (CancellationTokenSource)givens.GetField("Stop")!.GetValue(null)!;
        stop.CancelAfter(TimeSpan.FromSeconds(30));
        var run = (Task)snippets.GetType($"Block{block}")!.GetMethod("Run")!.Invoke(null, args)!;
        try
        {
            await run;
        }
        catch (OperationCanceledException) when (brokerUri is not null && stop.IsCancellationRequested)
        {
            // The consumer loop ends when its token is cancelled: the first delivery handled cancels it.
        }
        catch (Exception e) when (e.GetType().Name == "CheckFailed")
        {
            Assert.Fail($"{readme} block {block}: {e.Message}");
        }

        if (brokerUri is not null && blocks[block - 1].Contains("Handle(", StringComparison.Ordinal))
        {
            var handled = (List<byte[]>)givens.GetField("Deliveries")!.GetValue(null)!;
            var body = (ReadOnlyMemory<byte>)args[Array.FindIndex(s_given, g => g.EndsWith(" body", StringComparison.Ordinal))]!;
            Expect.Equal(Convert.ToHexString(body.Span), handled.Count > 0 ? Convert.ToHexString(handled[0]) : "nothing delivered in 30 s",
                $"{readme} block {block}: the body handled is the body published");
        }
    }

    // The given types, and the givens with values the checks know, made afresh for each run.
    private const string GivenTypes = """
        using System.Runtime.Serialization;
        using System.Security.Cryptography;
        using System.Text.Json;
        using System.Xml;

        public sealed class Order { public int Id { get; set; } public string? Customer { get; set; } }
        public sealed class Serializer { public void Serialize<T>(System.IO.Stream stream, T value) => JsonSerializer.Serialize(stream, value); }
        public sealed class Logger { public List<string> Lines { get; } = new(); public void LogWarning(string message, params object?[] args) => Lines.Add(message); public void LogInformation(string message, params object?[] args) => Lines.Add(message); }
        public sealed class HostBuilder { public HostServices Services { get; } = new(); }
        public sealed class HostServices { public Telemetry AddOpenTelemetry() => new(); }
        public sealed class Telemetry { public Telemetry WithTracing(System.Action<Sources> configure) => this; public Telemetry WithMetrics(System.Action<Meters> configure) => this; }
        public sealed class Sources { public Sources AddSource(params string[] names) => this; }
        public sealed class Meters { public Meters AddMeter(params string[] names) => this; }
        [System.ServiceModel.ServiceContract] public interface IOrders { [System.ServiceModel.OperationContract] int Count(); }
        public sealed class CheckFailed(string message) : Exception(message);

        public static class Givens
        {
            public static CancellationTokenSource Stop = new();
            public static List<byte[]> Deliveries = new();

            public static void Handled(byte[] delivery)
            {
                Deliveries.Add(delivery);
                Stop.Cancel();
            }

            // In the order of the blocks' parameters.
            public static object?[] Create()
            {
                Stop = new CancellationTokenSource();
                Deliveries = new List<byte[]>();
                var order = new Order { Id = 7, Customer = "Ada" };
                return
                [
                    order, new MemoryStream(), new Serializer(), Enumerable.Range(1, 32).Select(i => (byte)i).ToArray(), order, order,
                    new MemoryStream(), new MemoryStream(), new System.Buffers.ArrayBufferWriter<byte>(),
                    new XmlBinaryWriterSession(), InBoxDataContract(order, null), XmlDictionaryReaderQuotas.Max,
                    new XmlBinaryReaderSession(), new System.Buffers.ReadOnlySequence<byte>(new byte[] { 0x40, 0x03, 0x64, 0x6F, 0x63, 0x89, 0x2A }),
                    new ReadOnlyMemory<byte>("a job from the README"u8.ToArray()), Stop.Token, new HostBuilder(), new Logger(), 0,
                ];
            }

            public static byte[] Json<T>(T value) => JsonSerializer.SerializeToUtf8Bytes(value);

            public static string Hmac(byte[] key, byte[] data) => Convert.ToHexStringLower(HMACSHA256.HashData(key, data));

            public static byte[] InBoxDataContract(Order order) => InBoxDataContract(order, new XmlBinaryWriterSession());

            public static byte[] InBoxDataContract(Order order, XmlBinaryWriterSession? session)
            {
                var bytes = new MemoryStream();
                using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(bytes, Spanwire.BinaryXml.Nbfx.SoapDictionary, session))
                {
                    new DataContractSerializer(typeof(Order)).WriteObject(writer, order);
                }

                return bytes.ToArray();
            }

            public static void Equal<T>(T expected, T actual, string what)
            {
                if (!EqualityComparer<T>.Default.Equals(expected, actual))
                {
                    throw new CheckFailed($"{what}{Environment.NewLine}Expected: {expected}{Environment.NewLine}Actual:   {actual}");
                }
            }

            public static void Same(byte[] expected, byte[] actual, string what) => Equal(Convert.ToHexString(expected), Convert.ToHexString(actual), what);

            public static void StartsWith(byte[] expected, byte[] actual, string what) => Same(expected, actual.AsSpan(0, Math.Min(expected.Length, actual.Length)).ToArray(), what);

            public static void EndsWith(byte[] expected, byte[] actual, string what) => Same(expected, actual.AsSpan(Math.Max(0, actual.Length - expected.Length)).ToArray(), what);
        }
        """;
}
