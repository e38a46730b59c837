using System.Buffers;
using BenchmarkDotNet.Attributes;
using Spanwire.Buffers;

namespace Spanwire.Benchmarks.Buffers;

/// <summary>
/// The measurement behind the segment source: rent and return one 64 KiB segment from ArrayPool&lt;byte&gt;.Shared
/// and from Spanwire's bounded pool (which adds bounded retention, clearing and metrics).
/// </summary>
[MemoryDiagnoser]
public class SegmentSourceBenchmarks
{
    private readonly SegmentPool _pool = SegmentPool.Shared;

    [Benchmark(Baseline = true)]
    public int ArrayPoolShared()
    {
        byte[] segment = ArrayPool<byte>.Shared.Rent(SegmentPool.DefaultSegmentSize);
        ArrayPool<byte>.Shared.Return(segment);
        return segment.Length;
    }

    [Benchmark]
    public int SegmentPoolShared()
    {
        byte[] segment = _pool.Rent();
        _pool.Return(segment);
        return segment.Length;
    }
}
