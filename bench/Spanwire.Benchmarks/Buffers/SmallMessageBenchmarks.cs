using System.Buffers;
using BenchmarkDotNet.Attributes;
using Microsoft.IO;
using Spanwire.Buffers;

namespace Spanwire.Benchmarks.Buffers;

/// <summary>The small-message case: create a buffer, write 100 bytes, dispose it.</summary>
[MemoryDiagnoser]
public class SmallMessageBenchmarks
{
    private readonly byte[] _message = new byte[100];
    private RecyclableMemoryStreamManager _manager = null!;

    [GlobalSetup]
    public void Setup() => _manager = new RecyclableMemoryStreamManager();

    [Benchmark(Baseline = true)]
    public long MemoryStream()
    {
        using var stream = new MemoryStream();
        stream.Write(_message, 0, _message.Length);
        return stream.Length;
    }

    [Benchmark]
    public long RecyclableMemoryStream()
    {
        using var stream = _manager.GetStream();
        stream.Write(_message, 0, _message.Length);
        return stream.Length;
    }

    [Benchmark]
    public long PooledStream()
    {
        using var stream = new PooledStream();
        stream.Write(_message, 0, _message.Length);
        return stream.Length;
    }

    [Benchmark]
    public long ArrayBufferWriter()
    {
        var writer = new ArrayBufferWriter<byte>();
        writer.Write(_message);
        return writer.WrittenCount;
    }

    [Benchmark]
    public long PooledBufferWriter()
    {
        using var writer = new PooledBufferWriter();
        writer.Write(_message);
        return writer.WrittenCount;
    }
}
