using BenchmarkDotNet.Attributes;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Benchmarks.Amqp;

/// <summary>
/// basic.publish framing (method, content header with AppId and MessageId, body frames) against the cost of copying
/// the 512-byte body into the same output: the yardstick is "within 2x of the copy". RabbitMQ.Client's
/// framing is internal, so its published figure (41 ns, 0 B) stands beside these in the README.
/// </summary>
[MemoryDiagnoser]
public class AmqpPublishBenchmarks
{
    private readonly byte[] _body = new byte[512];
    private readonly FixedBufferWriter _output = new(8192);
    private readonly BasicProperties _properties = new() { AppId = "Application id", MessageId = "Random message id" };

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

    private long Publish(ReadOnlySpan<byte> body)
    {
        _output.Reset();
        return AmqpFrameWriter.WriteBasicPublish(_output, 1, AmqpInputs.ExchangeOrRoutingKey, AmqpInputs.ExchangeOrRoutingKey,
            mandatory: false, immediate: false, _properties, body, AmqpInputs.FrameMax);
    }
}
