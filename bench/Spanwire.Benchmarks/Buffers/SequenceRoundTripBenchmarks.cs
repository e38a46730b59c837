using System.Buffers;
using BenchmarkDotNet.Attributes;
using Microsoft.IO;
using Spanwire.Buffers;

namespace Spanwire.Benchmarks.Buffers;

/// <summary>
/// Write 64 KiB in 1 KiB pieces, then read it back as a ReadOnlySequence and copy it to a stream that discards
/// everything: a message built, then sent. A fresh container per operation.
/// </summary>
[MemoryDiagnoser]
public class SequenceRoundTripBenchmarks
{
    private const int TotalBytes = 64 * 1024;
    private const int PieceSize = 1024;

    private readonly byte[] _piece = new byte[PieceSize];
    private RecyclableMemoryStreamManager _manager = null!;
    private RecyclableMemoryStreamManager _recommended = null!;

    [GlobalSetup]
    public void Setup()
    {
        new Random(2).NextBytes(_piece);
        _manager = BufferPeers.DefaultManager();
        _recommended = BufferPeers.RecommendedManager();
    }

    [Benchmark(Baseline = true)]
    public long MemoryStream()
    {
        using var stream = new MemoryStream();
        StreamPieces(stream);
        return BufferPeers.CopyTo(new ReadOnlySequence<byte>(stream.GetBuffer(), 0, (int)stream.Length), Stream.Null);
    }

    [Benchmark]
    public long RecyclableMemoryStream()
    {
        using var stream = _manager.GetStream();
        StreamPieces(stream);
        return BufferPeers.CopyTo(stream.GetReadOnlySequence(), Stream.Null);
    }

    [Benchmark]
    public long RecyclableMemoryStreamRecommended()
    {
        using var stream = _recommended.GetStream();
        StreamPieces(stream);
        return BufferPeers.CopyTo(stream.GetReadOnlySequence(), Stream.Null);
    }

    [Benchmark]
    public long PooledStream()
    {
        using var stream = new PooledStream();
        StreamPieces(stream);
        return BufferPeers.CopyTo(stream.GetReadOnlySequence(), Stream.Null);
    }

    [Benchmark]
    public long ArrayBufferWriter()
    {
        var writer = new ArrayBufferWriter<byte>();
        WritePieces(writer);
        return BufferPeers.CopyTo(new ReadOnlySequence<byte>(writer.WrittenMemory), Stream.Null);
    }

    [Benchmark]
    public long PooledBufferWriter()
    {
        using var writer = new PooledBufferWriter();
        WritePieces(writer);
        return BufferPeers.CopyTo(writer.WrittenSequence, Stream.Null);
    }

    [Benchmark]
    public long NerdbankSequence()
    {
        using var sequence = BufferPeers.NewSequence();
        WritePieces(sequence);
        return BufferPeers.CopyTo(sequence.AsReadOnlySequence, Stream.Null);
    }

    [Benchmark]
    public long Pipe()
    {
        var pipe = new System.IO.Pipelines.Pipe(BufferPeers.NeverPause);
        WritePieces(pipe.Writer);
        return BufferPeers.DrainTo(pipe, Stream.Null);
    }

    [Benchmark]
    public long ArrayPoolBufferWriter()
    {
        using var writer = BufferPeers.NewArrayPoolBufferWriter();
        WritePieces(writer);
        return BufferPeers.CopyTo(new ReadOnlySequence<byte>(writer.WrittenMemory), Stream.Null);
    }

    private void StreamPieces(Stream stream)
    {
        for (int i = 0; i < TotalBytes / PieceSize; i++)
        {
            stream.Write(_piece, 0, PieceSize);
        }
    }

    private void WritePieces(IBufferWriter<byte> writer)
    {
        for (int i = 0; i < TotalBytes / PieceSize; i++)
        {
            writer.Write(_piece);
        }
    }
}
