using System.Buffers;
using System.IO.Pipelines;
using CommunityToolkit.HighPerformance.Buffers;
using Microsoft.IO;
using Nerdbank.Streams;

namespace Spanwire.Benchmarks.Buffers;

/// <summary>
/// How each peer of the pooled buffers is set up, once for all buffer scenarios: RecyclableMemoryStream with its
/// defaults (as most users run it) and as its README recommends (pools bounded, sized for the working set of the
/// scenario, 1 MiB streams here; buffers returned as soon as they are done with; call stacks off, which the README
/// keeps for debugging), and a Pipe that never pauses its writer (the scenarios write everything before reading).
/// </summary>
internal static class BufferPeers
{
    public static RecyclableMemoryStreamManager DefaultManager() => new();

    public static RecyclableMemoryStreamManager RecommendedManager() => new(new RecyclableMemoryStreamManager.Options
    {
        // Unbounded free pools (the defaults) are what the README warns against; bound them above the working set
        // (a 1 MiB stream is eight 128 KiB blocks) so that a steady load is served from the pool.
        MaximumSmallPoolFreeBytes = 16L * 1024 * 1024,
        MaximumLargePoolFreeBytes = 64L * 1024 * 1024,
        AggressiveBufferReturn = true,
    });

    public static readonly PipeOptions NeverPause = new(pauseWriterThreshold: 0, resumeWriterThreshold: 0, useSynchronizationContext: false);

    public static Sequence<byte> NewSequence() => new(ArrayPool<byte>.Shared);

    public static ArrayPoolBufferWriter<byte> NewArrayPoolBufferWriter() => new();

    /// <summary>Everything a pipe holds, read as one sequence, copied to <paramref name="destination"/>, then consumed.</summary>
    public static long DrainTo(Pipe pipe, Stream destination)
    {
        pipe.Writer.FlushAsync().GetAwaiter().GetResult();
        pipe.Writer.Complete();
        pipe.Reader.TryRead(out ReadResult result);
        ReadOnlySequence<byte> buffer = result.Buffer;
        long length = buffer.Length;
        foreach (ReadOnlyMemory<byte> segment in buffer)
        {
            destination.Write(segment.Span);
        }

        pipe.Reader.AdvanceTo(buffer.End);
        pipe.Reader.Complete();
        return length;
    }

    /// <summary>Every segment of <paramref name="sequence"/> written to <paramref name="destination"/>.</summary>
    public static long CopyTo(in ReadOnlySequence<byte> sequence, Stream destination)
    {
        foreach (ReadOnlyMemory<byte> segment in sequence)
        {
            destination.Write(segment.Span);
        }

        return sequence.Length;
    }
}
