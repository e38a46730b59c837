using System.Buffers;
using System.Runtime.CompilerServices;
using BenchmarkDotNet.Attributes;
using Spanwire.Amqp.Protocol;
using Spanwire.Buffers;

namespace Spanwire.Benchmarks.Amqp;

/// <summary>
/// basic.publish framing (method, content header with AppId and MessageId, body frames) against the cost of copying
/// the 512-byte body into the same output: the yardstick is "within 2x of the copy". The Template rows write
/// the head from an <see cref="AmqpPublishTemplate"/> (names and properties encoded once, as RabbitMQ.Client's own
/// publish benchmark pre-encodes its names); the other rows encode every string per call. RabbitMQ.Client's framing is
/// internal, so its published figure (41 ns, 0 B) stands beside these in the README.
/// </summary>
[MemoryDiagnoser]
public class AmqpPublishBenchmarks
{
    private readonly byte[] _body = new byte[512];
    private readonly FixedBufferWriter _output = new(8192);
    private readonly BasicProperties _properties = new() { AppId = "Application id", MessageId = "Random message id" };
    private AmqpPublishTemplate _template = null!;

    private byte[] _headBytes = [];

    [GlobalSetup]
    public void Setup()
    {
        _template = new AmqpPublishTemplate(AmqpInputs.ExchangeOrRoutingKey, AmqpInputs.ExchangeOrRoutingKey, _properties);
        _headBytes = new byte[_template.HeadLength];
    }

    [Benchmark(Baseline = true)]
    public int CopyBody512()
    {
        _output.Reset();
        _body.AsSpan().CopyTo(_output.GetSpan(512));
        _output.Advance(512);
        return _output.WrittenCount;
    }

    [Benchmark]
    public long PublishFrames512() =>
        Publish(_body);

    [Benchmark]
    public long PublishFramesEmptyBody() =>
        Publish([]);

    [Benchmark]
    public long Template512()
    {
        _output.Reset();
        return AmqpFrameWriter.WriteBasicPublish(_output, 1, _template, _body.AsSpan(), AmqpInputs.FrameMax);
    }

    /// <summary>
    /// The floor under Template512: the same number of head bytes and the body copied into one span of the output
    /// through the interface, as the template's write does, with no frame written, patched or checked.
    /// </summary>
    [Benchmark]
    public long CopyHeadAndBody512()
    {
        _output.Reset();
        return CopyHeadAndBody(_output, _headBytes, _body);
    }

    [Benchmark]
    public long TemplateEmptyBody()
    {
        _output.Reset();
        return AmqpFrameWriter.WriteBasicPublish(_output, 1, _template, ReadOnlySpan<byte>.Empty, AmqpInputs.FrameMax);
    }

    // A call boundary and an interface, as the frame writer's static method has.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long CopyHeadAndBody(IBufferWriter<byte> output, byte[] head, ReadOnlySpan<byte> body)
    {
        int total = head.Length + body.Length + AmqpFraming.FrameOverhead;
        Span<byte> span = output.GetSpan(total);
        head.CopyTo(span);
        body.CopyTo(span[(head.Length + AmqpFraming.FrameHeaderSize)..]);
        output.Advance(total);
        return total;
    }

    /// <summary>The bytes the last row wrote (for the rows-agree tests).</summary>
    public byte[] LastWritten() => _output.WrittenSpan.ToArray();

    private long Publish(ReadOnlySpan<byte> body)
    {
        _output.Reset();
        return AmqpFrameWriter.WriteBasicPublish(_output, 1, AmqpInputs.ExchangeOrRoutingKey, AmqpInputs.ExchangeOrRoutingKey,
            mandatory: false, immediate: false, _properties, body, AmqpInputs.FrameMax);
    }
}

/// <summary>
/// A 64 KiB body (two body frames under frame_max 0xFFFF) against copying it: framed by copy into a plain output, and
/// framed by reference into a <see cref="GatherBufferWriter"/>, where the body is borrowed rather than copied.
/// </summary>
[MemoryDiagnoser]
public class AmqpPublishLargeBodyBenchmarks
{
    private readonly byte[] _body = new byte[64 * 1024];
    private readonly FixedBufferWriter _output = new(80 * 1024);
    private readonly GatherBufferWriter _gather = new();
    private readonly AmqpPublishTemplate _template =
        new(AmqpInputs.ExchangeOrRoutingKey, AmqpInputs.ExchangeOrRoutingKey, new BasicProperties { AppId = "Application id", MessageId = "Random message id" });

    [GlobalCleanup]
    public void Cleanup() => _gather.Dispose();

    [Benchmark(Baseline = true)]
    public int CopyBody64K()
    {
        _output.Reset();
        _body.AsSpan().CopyTo(_output.GetSpan(_body.Length));
        _output.Advance(_body.Length);
        return _output.WrittenCount;
    }

    [Benchmark]
    public long TemplateCopied64K()
    {
        _output.Reset();
        return AmqpFrameWriter.WriteBasicPublish(_output, 1, _template, _body.AsSpan(), AmqpInputs.FrameMax);
    }

    /// <summary>What the copied row wrote, what the borrowed row holds, and how much of it is borrowed (for the rows-agree tests).</summary>
    public byte[] LastCopied() => _output.WrittenSpan.ToArray();

    /// <inheritdoc cref="LastCopied"/>
    public byte[] LastBorrowed() => _gather.ToArray();

    /// <inheritdoc cref="LastCopied"/>
    public long BorrowedCount => _gather.BorrowedCount;

    [Benchmark]
    public long TemplateBorrowed64K()
    {
        _gather.Reset();
        return AmqpFrameWriter.WriteBasicPublish(_gather, 1, _template, _body.AsMemory(), AmqpInputs.FrameMax);
    }
}
