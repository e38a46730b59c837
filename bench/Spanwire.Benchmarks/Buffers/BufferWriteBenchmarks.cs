using System.Buffers;
using BenchmarkDotNet.Attributes;
using Microsoft.IO;
using Spanwire.Buffers;

namespace Spanwire.Benchmarks.Buffers;

/// <summary>
/// Write 1 MiB in pieces, then copy it to a stream that discards everything: the buffer each serializer would
/// write into before sending. A fresh container per operation, as a request would have.
/// </summary>
[MemoryDiagnoser]
public class BufferWriteBenchmarks
{
    private const int TotalBytes = 1 << 20;

    private byte[] _piece = [];
    private int _pieces;
    private RecyclableMemoryStreamManager _manager = null!;

    [Params(100, 4096)]
    public int PieceSize { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _piece = new byte[PieceSize];
        new Random(1).NextBytes(_piece);
        _pieces = TotalBytes / PieceSize;
        _manager = new RecyclableMemoryStreamManager(); // the package's defaults, as most users run it
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
