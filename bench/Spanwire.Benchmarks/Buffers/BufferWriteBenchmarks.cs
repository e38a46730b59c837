using System.Buffers;
using BenchmarkDotNet.Attributes;
using Microsoft.IO;
using Spanwire.Buffers;

namespace Spanwire.Benchmarks.Buffers;

/// <summary>
/// Write 1 MiB in pieces, then copy it to a stream that discards everything: the buffer each serializer would
/// write into before sending. A fresh container per operation, as a request would have. The peers a user would pick
/// instead of a pooled buffer are here too: RecyclableMemoryStream (defaults, and as its README recommends),
/// Nerdbank.Streams' Sequence, System.IO.Pipelines' Pipe and CommunityToolkit's ArrayPoolBufferWriter.
/// </summary>
[MemoryDiagnoser]
public class BufferWriteBenchmarks
{
    private const int TotalBytes = 1 << 20;

    private byte[] _piece = [];
    private int _pieces;
    private RecyclableMemoryStreamManager _manager = null!;
    private RecyclableMemoryStreamManager _recommended = null!;

    [Params(100, 4096)]
    public int PieceSize { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _piece = new byte[PieceSize];
        new Random(1).NextBytes(_piece);
        _pieces = TotalBytes / PieceSize;
        _manager = BufferPeers.DefaultManager();
        _recommended = BufferPeers.RecommendedManager();
    }

    [Benchmark(Baseline = true)]
    public long MemoryStream()
    {
        using var stream = new MemoryStream();
        return WriteAndCopy(stream);
    }

    [Benchmark]
    public long RecyclableMemoryStream()
    {
        using var stream = _manager.GetStream();
        return WriteAndCopy(stream);
    }

    [Benchmark]
    public long RecyclableMemoryStreamRecommended()
    {
        using var stream = _recommended.GetStream();
        return WriteAndCopy(stream);
    }

    [Benchmark]
    public long PooledStream()
    {
        using var stream = new PooledStream();
        return WriteAndCopy(stream);
    }

    [Benchmark]
    public long ArrayBufferWriter()
    {
        var writer = new ArrayBufferWriter<byte>();
        for (int i = 0; i < _pieces; i++)
        {
            writer.Write(_piece);
        }

        Stream.Null.Write(writer.WrittenSpan);
        return writer.WrittenCount;
    }

    [Benchmark]
    public long PooledBufferWriter()
    {
        using var writer = new PooledBufferWriter();
        for (int i = 0; i < _pieces; i++)
        {
            writer.Write(_piece);
        }

        writer.CopyTo(Stream.Null);
        return writer.WrittenCount;
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
        Stream.Null.Write(writer.WrittenSpan);
        return writer.WrittenCount;
    }

    private void WritePieces(IBufferWriter<byte> writer)
    {
        ReadOnlySpan<byte> piece = _piece;
        for (int i = 0; i < _pieces; i++)
        {
            writer.Write(piece);
        }
    }

    private long WriteAndCopy(Stream stream)
    {
        byte[] piece = _piece;
        for (int i = 0; i < _pieces; i++)
        {
            stream.Write(piece, 0, piece.Length);
        }

        stream.Position = 0;
        stream.CopyTo(Stream.Null);
        return stream.Length;
    }
}
