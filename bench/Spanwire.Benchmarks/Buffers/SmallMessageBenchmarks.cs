using System.Buffers;
using BenchmarkDotNet.Attributes;
using Microsoft.IO;
using Spanwire.Buffers;

namespace Spanwire.Benchmarks.Buffers;

/// <summary>The small-message case: create a buffer, write 100 bytes, dispose it; the peers of BufferWriteBenchmarks too.</summary>
[MemoryDiagnoser]
public class SmallMessageBenchmarks
{
    private readonly byte[] _message = new byte[100];
    private RecyclableMemoryStreamManager _manager = null!;
    private RecyclableMemoryStreamManager _recommended = null!;

    [GlobalSetup]
    public void Setup()
    {
        _manager = BufferPeers.DefaultManager();
        _recommended = BufferPeers.RecommendedManager();
    }

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
    public long RecyclableMemoryStreamRecommended()
    {
        using var stream = _recommended.GetStream();
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

    [Benchmark]
    public long NerdbankSequence()
    {
        using var sequence = BufferPeers.NewSequence();
        sequence.Write(_message);
        return sequence.Length;
    }

    [Benchmark]
    public long Pipe()
    {
        var pipe = new System.IO.Pipelines.Pipe(BufferPeers.NeverPause);
        pipe.Writer.Write(_message);
        return BufferPeers.DrainTo(pipe, Stream.Null);
    }

    [Benchmark]
    public long ArrayPoolBufferWriter()
    {
        using var writer = BufferPeers.NewArrayPoolBufferWriter();
        writer.Write(_message);
        return writer.WrittenCount;
    }
}
