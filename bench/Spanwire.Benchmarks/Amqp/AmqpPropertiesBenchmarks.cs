using BenchmarkDotNet.Attributes;
using RabbitMQ.Client;
using Spanwire.Amqp.Protocol;
using BasicProperties = Spanwire.Amqp.Protocol.BasicProperties;
using Rmq = RabbitMQ.Client;

namespace Spanwire.Benchmarks.Amqp;

/// <summary>Basic properties {persistent, AppId "AppId", ContentEncoding "content"}: RabbitMQ.Client 7's public write and read.</summary>
[MemoryDiagnoser]
public class AmqpPropertiesWriteBenchmarks
{
    private readonly byte[] _buffer = new byte[1024];
    private readonly Rmq.BasicProperties _theirs = new() { Persistent = true, AppId = "AppId", ContentEncoding = "content" };
    private readonly BasicProperties _ours = new() { DeliveryMode = 2, AppId = "AppId", ContentEncoding = "content" };

    /// <summary>The bytes the last row wrote (for the test that every row writes the same).</summary>
    public byte[] LastWritten(int length) => _buffer[..length];

    [Benchmark(Baseline = true)]
    public int RabbitMqClient() => ((IAmqpWriteable)_theirs).WriteTo(_buffer);

    [Benchmark]
    public int Spanwire() => _ours.WriteTo(_buffer);
}

/// <summary>Reading the same properties: RabbitMQ.Client decodes into strings; Spanwire reads in place (and, for a like-for-like, into strings).</summary>
[MemoryDiagnoser]
public class AmqpPropertiesReadBenchmarks
{
    private byte[] _properties = [];
    private byte[] _payload = [];

    [GlobalSetup]
    public void Setup()
    {
        var ours = new BasicProperties { DeliveryMode = 2, AppId = "AppId", ContentEncoding = "content" };
        _properties = new byte[ours.GetEncodedSize()];
        ours.WriteTo(_properties);
        _payload = new byte[AmqpContentHeader.GetEncodedSize(ours)];
        AmqpContentHeader.Write(_payload, 60, 512, ours);
    }

    [Benchmark(Baseline = true)]
    public int RabbitMqClient()
    {
        var properties = new ReadOnlyBasicProperties(_properties);
        return properties.AppId!.Length + properties.ContentEncoding!.Length + (int)properties.DeliveryMode;
    }

    [Benchmark]
    public int SpanwireInPlace()
    {
        AmqpContentHeader header = AmqpContentHeader.Parse(_payload);
        header.TryGetDeliveryMode(out byte mode);
        return header.AppId.Length + header.ContentEncoding.Length + mode;
    }

    [Benchmark]
    public int SpanwireToStrings()
    {
        BasicProperties properties = AmqpContentHeader.Parse(_payload).ToBasicProperties();
        return properties.AppId!.Length + properties.ContentEncoding!.Length + properties.DeliveryMode!.Value;
    }
}
