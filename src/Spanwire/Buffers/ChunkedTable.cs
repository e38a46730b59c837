using System.Numerics;
using System.Runtime.CompilerServices;

namespace Spanwire.Buffers;

/// <summary>
/// A growable table of <typeparamref name="T"/> kept in chunks of at most <see cref="MaxChunkBytes"/> each, so that
/// no array it allocates lands on the large object heap however many entries it holds (the array of chunks itself
/// stays below 85,000 bytes up to 10,000 chunks: tens of millions of entries). The first chunk grows by doubling
/// from a few entries, so small tables stay small.
/// </summary>
/// <remarks>A mutable struct used in place in a field of its owner. Not thread-safe.</remarks>
internal struct ChunkedTable<T>
{
    /// <summary>The most bytes one chunk takes (plus the array header), well under the 85,000-byte threshold.</summary>
    public const int MaxChunkBytes = 32 * 1024;

    private static readonly int s_shift = BitOperations.Log2((uint)Math.Max(1, MaxChunkBytes / Unsafe.SizeOf<T>()));
    private static readonly int s_chunkLength = 1 << s_shift;

    private T[][]? _chunks;
    private int _capacity;

    /// <summary>A table starting from <paramref name="first"/> as its first chunk (its length a power of two, at most a chunk).</summary>
    public ChunkedTable(T[] first)
    {
        _chunks = [first];
        _capacity = first.Length;
    }

    /// <summary>Entries the table can hold before it grows.</summary>
    public readonly int Capacity => _capacity;

    /// <summary>Entries per full chunk.</summary>
    public static int ChunkLength => s_chunkLength;

    /// <summary>The first chunk, when it is the only one (for reuse); else null.</summary>
    public readonly T[]? SingleChunk => _chunks is { Length: > 0 } chunks && _capacity == chunks[0].Length ? chunks[0] : null;

    /// <summary>The entry at <paramref name="index"/> (0 ≤ index &lt; <see cref="Capacity"/>).</summary>
    public readonly ref T this[int index]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => ref _chunks![index >> s_shift][index & (s_chunkLength - 1)];
    }

    /// <summary>Makes room for at least one more entry than <see cref="Capacity"/>: doubles the first chunk, then adds chunks.</summary>
    public void Grow()
    {
        if (_chunks is null || _chunks.Length == 0)
        {
            _chunks = [new T[Math.Min(8, s_chunkLength)]];
            _capacity = _chunks[0].Length;
            return;
        }

        if (_capacity < s_chunkLength)
        {
            Array.Resize(ref _chunks[0], Math.Min(_capacity * 2, s_chunkLength));
            _capacity = _chunks[0].Length;
            return;
        }

        int count = _capacity >> s_shift;
        if (count == _chunks.Length)
        {
            Array.Resize(ref _chunks, count * 2);
        }

        _chunks[count] = new T[s_chunkLength];
        _capacity += s_chunkLength;
    }

    /// <summary>The size of the largest array the table holds (its chunks and the array of chunks), in bytes without headers.</summary>
    internal readonly long LargestArrayBytes()
    {
        if (_chunks is null)
        {
            return 0;
        }

        long largest = (long)_chunks.Length * IntPtr.Size;
        foreach (T[]? chunk in _chunks)
        {
            largest = Math.Max(largest, (long)(chunk?.Length ?? 0) * Unsafe.SizeOf<T>());
        }

        return largest;
    }

    /// <summary>Sets the first <paramref name="count"/> entries to default (drops references).</summary>
    public readonly void Clear(int count)
    {
        for (int chunk = 0; count > 0 && _chunks is not null && chunk < _chunks.Length; chunk++)
        {
            T[] entries = _chunks[chunk];
            int n = Math.Min(count, entries.Length);
            entries.AsSpan(0, n).Clear();
            count -= n;
        }
    }
}
