using System.Numerics;
using System.Runtime.CompilerServices;

namespace Spanwire.Buffers;

/// <summary>
/// A growable table of <typeparamref name="T"/> kept in chunks of at most <see cref="MaxChunkBytes"/> each, so that
/// no array it allocates lands on the large object heap however many entries it holds (the array of further chunks
/// stays below 85,000 bytes up to 10,000 chunks: tens of millions of entries). The first chunk grows by doubling from
/// a few entries and is held directly, so a small table is one array.
/// </summary>
/// <remarks>A mutable struct used in place in a field of its owner. Not thread-safe.</remarks>
internal struct ChunkedTable<T>
{
    /// <summary>The most bytes one chunk takes (plus the array header), well under the 85,000-byte threshold.</summary>
    public const int MaxChunkBytes = 32 * 1024;

    private static readonly int s_shift = BitOperations.Log2((uint)Math.Max(1, MaxChunkBytes / Unsafe.SizeOf<T>()));
    private static readonly int s_chunkLength = 1 << s_shift;

    private T[]? _first;
    private T[][]? _more; // chunks after the first, once the first is full
    private int _capacity;

    /// <summary>A table starting from <paramref name="first"/> as its first chunk (its length a power of two, at most a chunk).</summary>
    public ChunkedTable(T[] first)
    {
        _first = first;
        _capacity = first.Length;
    }

    /// <summary>Entries the table can hold before it grows.</summary>
    public readonly int Capacity => _capacity;

    /// <summary>The first chunk, when it is the only one (for reuse); else null.</summary>
    public readonly T[]? SingleChunk => _more is null ? _first : null;

    /// <summary>The entry at <paramref name="index"/> (0 ≤ index &lt; <see cref="Capacity"/>).</summary>
    public readonly ref T this[int index]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            T[] first = _first!;
            if ((uint)index < (uint)first.Length)
            {
                return ref first[index];
            }

            return ref _more![(index >> s_shift) - 1][index & (s_chunkLength - 1)];
        }
    }

    /// <summary>Makes room for at least one more entry than <see cref="Capacity"/>: doubles the first chunk, then adds chunks.</summary>
    public void Grow()
    {
        if (_first is null || _first.Length == 0)
        {
            _first = new T[Math.Min(8, s_chunkLength)];
            _capacity = _first.Length;
            return;
        }

        if (_capacity < s_chunkLength)
        {
            Array.Resize(ref _first, Math.Min(_capacity * 2, s_chunkLength));
            _capacity = _first.Length;
            return;
        }

        int further = (_capacity >> s_shift) - 1; // full chunks after the first
        if (_more is null || further == _more.Length)
        {
            Array.Resize(ref _more, Math.Max(4, further * 2));
        }

        _more[further] = new T[s_chunkLength];
        _capacity += s_chunkLength;
    }

    /// <summary>The size of the largest array the table holds (its chunks and the array of chunks), in bytes without headers.</summary>
    internal readonly long LargestArrayBytes()
    {
        long largest = (long)(_first?.Length ?? 0) * Unsafe.SizeOf<T>();
        if (_more is not null)
        {
            largest = Math.Max(largest, (long)_more.Length * IntPtr.Size);
            foreach (T[]? chunk in _more)
            {
                largest = Math.Max(largest, (long)(chunk?.Length ?? 0) * Unsafe.SizeOf<T>());
            }
        }

        return largest;
    }

    /// <summary>Sets the first <paramref name="count"/> entries to default (drops references).</summary>
    public readonly void Clear(int count)
    {
        if (_first is null)
        {
            return;
        }

        int n = Math.Min(count, _first.Length);
        _first.AsSpan(0, n).Clear();
        count -= n;
        for (int chunk = 0; count > 0 && _more is not null && chunk < _more.Length; chunk++)
        {
            T[] entries = _more[chunk];
            int m = Math.Min(count, entries.Length);
            entries.AsSpan(0, m).Clear();
            count -= m;
        }
    }
}
