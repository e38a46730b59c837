using System.Buffers;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Buffers;

/// <summary>
/// The storage behind <see cref="PooledBufferWriter"/> and <see cref="PooledStream"/>: pooled segments in order,
/// appended at the tail. A segment other than the tail may end before its array does (a span request that did not
/// fit in the room left started a new segment rather than copying), so positions map to segments through each
/// segment's <see cref="Segment.Start"/> and length, never by division.
/// </summary>
/// <remarks>
/// A mutable struct held in a field of its owner and only ever used in place: it costs no extra object and no
/// indirection. Not thread-safe; its owners are single-owner types. Most writers and streams never leave their first
/// segment, so a chain of one segment holds it as the tail alone, with no table of slots; the table is taken (from
/// the per-thread cache) when a second segment is added or segments are rented ahead.
/// </remarks>
internal struct SegmentChain
{
    private SegmentPool _pool;

    // Everything a chain of one segment does not need (the table, the tail's offset, a temporary buffer handed out);
    // none for most chains, which keeps their owners small: every owner is allocated, and on a small message its size
    // is much of its cost.
    private SegmentSlots? _slots;

    // Segments in use; -1 once released for good (the owner is disposed).
    private int _count;

    // The tail: where appends go. _tail is the tail segment's array (an empty array while there is no segment),
    // _tailUsed its live content length; its offset in the whole content is TailStart.
    private byte[] _tail;
    private int _tailUsed;

    /// <summary>
    /// Sets up an empty chain over <paramref name="pool"/>, in place in the owner's field: assigning a new chain would
    /// copy the whole struct through the runtime's write-barrier copy.
    /// </summary>
    public void Init(SegmentPool pool)
    {
        _pool = pool;
        _tail = [];
    }

    public readonly SegmentPool Pool => _pool;

    /// <summary>Whether <see cref="Release"/> ended the chain: its owner is disposed.</summary>
    public readonly bool IsReleased => _count < 0;

    /// <summary>Bytes of content.</summary>
    public readonly long Length => TailStart + _tailUsed;

    /// <summary>Offset of the tail in the whole content: 0 unless the chain has had more than one segment.</summary>
    private readonly long TailStart => _slots is { } slots ? slots.TailStart : 0;

    /// <summary>Whether a temporary buffer is handed out and not yet committed.</summary>
    public readonly bool IsTemporaryHandedOut => _slots is { Temporary.IsHandedOut: true };

    /// <summary>Segments holding content or room.</summary>
    public readonly int Count => _count;

    /// <summary>Bytes that can be held without renting another segment.</summary>
    public readonly long Capacity => TailStart + _tail.Length + ((long)Reserved * _pool.SegmentSize);

    /// <summary>
    /// Rents, ahead of need, the segments that bring <see cref="Capacity"/> to at least <paramref name="capacity"/>;
    /// appends then take them in order instead of renting. All or nothing: a pool that fails leaves the chain as it was.
    /// </summary>
    public void Reserve(long capacity)
    {
        int before = Reserved;
        bool hadTail = _count > 0;
        try
        {
            if (_count == 0 && capacity > 0)
            {
                AddSegment(); // the first becomes the tail at once
            }

            while (Capacity < capacity)
            {
                SegmentSlots slots = EnsureTable();
                int slot = _count + slots.Reserved;
                while (slot >= slots.Table.Capacity)
                {
                    slots.Table.Grow();
                }

                byte[] array = RentChecked();
                Segment s = slots.Table[slot] ??= new Segment();
                s.Array = array;
                s.Start = 0;
                s.Length = 0;
                slots.Reserved++;
            }
        }
        catch
        {
            ReleaseReserved(keep: before);
            if (!hadTail)
            {
                Clear();
            }

            throw;
        }
    }

    /// <summary>Gives back segments rented ahead beyond the <paramref name="keep"/> first of them.</summary>
    public readonly void ReleaseReserved(int keep = 0)
    {
        if (_slots is not { } slots)
        {
            return;
        }

        for (int i = _count + slots.Reserved - 1; i >= _count + keep; i--)
        {
            ReleaseSlot(i);
        }

        slots.Reserved = Math.Min(slots.Reserved, keep);
    }

    /// <summary>Segments rented ahead and not yet in use.</summary>
    public readonly int Reserved => _slots?.Reserved ?? 0;

    /// <summary>The table of slots, for a chain that has one (more than one segment, or segments rented ahead).</summary>
    private readonly ref ChunkedTable<Segment> Table => ref _slots!.Table;

    /// <summary>A span of at least <paramref name="sizeHint"/> bytes (at least one) at the end of the content.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Span<byte> GetTailSpan(int sizeHint)
    {
        byte[] tail = _tail;
        int used = _tailUsed;
        if ((uint)sizeHint <= (uint)(tail.Length - used) && used < tail.Length && !IsTemporaryHandedOut)
        {
            return tail.AsSpan(used);
        }

        return GetTailMemorySlow(sizeHint).Span;
    }

    /// <summary>As <see cref="GetTailSpan"/>, as memory.</summary>
    public Memory<byte> GetTailMemory(int sizeHint)
    {
        byte[] tail = _tail;
        int used = _tailUsed;
        if ((uint)sizeHint <= (uint)(tail.Length - used) && used < tail.Length && !IsTemporaryHandedOut)
        {
            return tail.AsMemory(used);
        }

        return GetTailMemorySlow(sizeHint);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private Memory<byte> GetTailMemorySlow(int sizeHint)
    {
        if (sizeHint < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(sizeHint), $"sizeHint must not be negative; it was {sizeHint}.");
        }

        // A second request before the first was committed abandons that request's bytes, as the IBufferWriter
        // contract allows.
        AbandonTemporary();

        sizeHint = Math.Max(sizeHint, 1);
        if (sizeHint <= _tail.Length - _tailUsed)
        {
            return _tail.AsMemory(_tailUsed);
        }

        if (sizeHint <= _pool.SegmentSize)
        {
            AddSegment();
            return _tail.AsMemory();
        }

        // Larger than any segment: the one case served through a temporary buffer.
        return RentTemporary(sizeHint);
    }

    /// <summary>Commits <paramref name="count"/> bytes of the span last handed out by GetTailSpan/GetTailMemory.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void AdvanceTail(int count)
    {
        int room = _tail.Length - _tailUsed;
        if ((uint)count <= (uint)room && !IsTemporaryHandedOut)
        {
            _tailUsed += count;
            return;
        }

        AdvanceTailSlow(count);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void AdvanceTailSlow(int count)
    {
        if (count < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(count), $"count must not be negative; it was {count}.");
        }

        if (!IsTemporaryHandedOut)
        {
            ThrowHelper.ThrowAdvancedTooFar(count, _tail.Length - _tailUsed);
        }

        byte[] taken = TakeTemporary(count);
        try
        {
            Append(taken.AsSpan(0, count));
        }
        finally
        {
            TemporaryBuffer.Return(taken);
        }
    }

    /// <summary>Appends bytes at the end of the content.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Append(ReadOnlySpan<byte> source)
    {
        int used = _tailUsed;
        if (source.Length <= _tail.Length - used)
        {
            source.CopyTo(_tail.AsSpan(used));
            _tailUsed = used + source.Length;
            return;
        }

        AppendSlow(source);
    }

    /// <remarks>All or nothing: if the pool fails to hand out a segment, what this call appended is taken back.</remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void AppendSlow(ReadOnlySpan<byte> source)
    {
        if (_count == 0 && _slots is null && (uint)(source.Length - 1) < (uint)_pool.SegmentSize)
        {
            // The first write of most writers and streams: one segment, nothing to take back if the pool throws.
            byte[] first = RentChecked();
            source.CopyTo(first);
            _tail = first;
            _tailUsed = source.Length;
            _count = 1;
            return;
        }

        AppendAcrossSegmentsAtomically(source);
    }

    private void AppendAcrossSegmentsAtomically(ReadOnlySpan<byte> source)
    {
        long before = Length;
        try
        {
            AppendAcrossSegments(source);
        }
        catch
        {
            Truncate(before);
            throw;
        }
    }

    private void AppendAcrossSegments(ReadOnlySpan<byte> source)
    {
        while (!source.IsEmpty)
        {
            int room = _tail.Length - _tailUsed;
            if (room == 0)
            {
                AddSegment(); // the first segment of an empty chain, too
                continue;
            }

            int n = Math.Min(room, source.Length);
            source[..n].CopyTo(_tail.AsSpan(_tailUsed));
            _tailUsed += n;
            source = source[n..];
        }
    }

    /// <summary>Appends one byte.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void AppendByte(byte value)
    {
        byte[] tail = _tail;
        int used = _tailUsed;
        if ((uint)used < (uint)tail.Length)
        {
            tail[used] = value;
            _tailUsed = used + 1;
            return;
        }

        AppendSlow([value]);
    }

    /// <summary>Appends <paramref name="count"/> zero bytes; all or nothing, as <see cref="Append"/>.</summary>
    public void AppendZeros(long count)
    {
        long before = Length;
        try
        {
            AppendZerosAcrossSegments(count);
        }
        catch
        {
            Truncate(before);
            throw;
        }
    }

    private void AppendZerosAcrossSegments(long count)
    {
        while (count > 0)
        {
            int room = _tail.Length - _tailUsed;
            if (room == 0)
            {
                AddSegment();
                continue;
            }

            int n = (int)Math.Min(room, count);
            _tail.AsSpan(_tailUsed, n).Clear();
            _tailUsed += n;
            count -= n;
        }
    }

    /// <summary>Shortens the content to <paramref name="newLength"/> bytes and returns the segments past it.</summary>
    public void Truncate(long newLength)
    {
        Debug.Assert(newLength >= 0 && newLength <= Length);
        if (newLength == Length)
        {
            return;
        }

        if (newLength == 0)
        {
            Clear();
            return;
        }

        // The segment that holds the last byte kept becomes the tail; its whole array is room again. Segments rented
        // ahead go back too: they sit in the slots right after the last in use, which are about to move.
        ReleaseReserved();
        int keep = FindSegment(newLength - 1);
        if (keep == _count - 1)
        {
            _tailUsed = (int)(newLength - TailStart); // within the tail (the one case without a table)
            return;
        }

        for (int i = _count - 1; i > keep; i--)
        {
            ReleaseSlot(i);
        }

        _count = keep + 1;
        Segment last = Table[keep];
        _tail = last.Array!;
        _slots!.TailStart = last.Start;
        _tailUsed = (int)(newLength - last.Start);
    }

    /// <summary>Index of the segment holding the byte at <paramref name="position"/> (0 ≤ position &lt; Length).</summary>
    public readonly int FindSegment(long position)
    {
        Debug.Assert(position >= 0 && position < Length);
        if (position >= TailStart)
        {
            return _count - 1;
        }

        // Largest i with Start ≤ position; non-tail segments are never empty, so that segment holds the byte.
        int lo = 0, hi = _count - 2;
        while (lo < hi)
        {
            int mid = (lo + hi + 1) >>> 1;
            if (Table[mid].Start <= position)
            {
                lo = mid;
            }
            else
            {
                hi = mid - 1;
            }
        }

        return lo;
    }

    /// <summary>The content of segment <paramref name="index"/> and its offset in the whole.</summary>
    public readonly Span<byte> SegmentContent(int index, out long start)
    {
        if (index == _count - 1)
        {
            start = TailStart;
            return _tail.AsSpan(0, _tailUsed);
        }

        Segment s = Table[index];
        start = s.Start;
        return s.Array.AsSpan(0, s.Length);
    }

    /// <summary>
    /// The room of segment <paramref name="index"/> for overwriting and, at the tail, appending: its content length
    /// for a sealed segment, its whole array for the tail.
    /// </summary>
    public readonly Span<byte> SegmentWritable(int index, out long start)
    {
        if (index == _count - 1)
        {
            start = TailStart;
            return _tail.AsSpan();
        }

        Segment s = Table[index];
        start = s.Start;
        return s.Array.AsSpan(0, s.Length);
    }

    /// <summary>
    /// Records that the tail now holds <paramref name="used"/> bytes, after a caller wrote into the tail through
    /// <see cref="SegmentWritable"/>. Never shrinks the content.
    /// </summary>
    public void ExtendTailTo(int used)
    {
        Debug.Assert(used <= _tail.Length);
        if (used > _tailUsed)
        {
            _tailUsed = used;
        }
    }

    /// <summary>The content as a sequence. Valid until the chain next changes segments (append past the tail, truncate, clear).</summary>
    public readonly ReadOnlySequence<byte> AsSequence()
    {
        if (_count <= 1)
        {
            return _count == 0 ? ReadOnlySequence<byte>.Empty : new ReadOnlySequence<byte>(_tail, 0, _tailUsed);
        }

        Segment last = Table[_count - 1];
        last.Link(_tailUsed, null);
        Segment next = last;
        for (int i = _count - 2; i >= 0; i--)
        {
            Segment s = Table[i];
            s.Link(s.Length, next);
            next = s;
        }

        return new ReadOnlySequence<byte>(Table[0], 0, last, _tailUsed);
    }

    /// <summary>Copies the content from <paramref name="fromPosition"/> on into <paramref name="destination"/>.</summary>
    public readonly void CopyTo(Stream destination, long fromPosition = 0)
    {
        if (fromPosition >= Length)
        {
            return;
        }

        int first = FindSegment(fromPosition);
        for (int i = first; i < _count; i++)
        {
            Span<byte> content = SegmentContent(i, out long start);
            destination.Write(i == first ? content[(int)(fromPosition - start)..] : content);
        }
    }

    /// <summary>Asynchronous <see cref="CopyTo(Stream, long)"/>. The chain must not change until the task ends.</summary>
    public readonly async Task CopyToAsync(Stream destination, long fromPosition, CancellationToken cancellationToken)
    {
        // A struct cannot be captured by an async method: work from a copy of the fields that matter.
        SegmentSlots? slots = _slots;
        int count = _count;
        byte[] tail = _tail;
        int tailUsed = _tailUsed;
        long tailStart = TailStart;
        if (fromPosition >= Length)
        {
            return;
        }

        int first = FindSegment(fromPosition);
        for (int i = first; i < count; i++)
        {
            (byte[]? array, int length, long start) = i == count - 1 ? (tail, tailUsed, tailStart) : Sealed(slots!.Table[i]);
            int skip = i == first ? (int)(fromPosition - start) : 0;
            await destination.WriteAsync(array.AsMemory(skip, length - skip), cancellationToken).ConfigureAwait(false);
        }

        static (byte[]? Array, int Length, long Start) Sealed(Segment s) => (s.Array, s.Length, s.Start);
    }

    /// <summary>Copies <paramref name="destination"/>.Length bytes of content starting at <paramref name="position"/>.</summary>
    public readonly void CopyTo(long position, Span<byte> destination)
    {
        if (destination.IsEmpty)
        {
            return;
        }

        int i = FindSegment(position);
        while (!destination.IsEmpty)
        {
            Span<byte> content = SegmentContent(i, out long start);
            content = content[(int)(position - start)..];
            int n = Math.Min(content.Length, destination.Length);
            content[..n].CopyTo(destination);
            destination = destination[n..];
            position += n;
            i++;
        }
    }

    /// <summary>A new array holding a copy of the whole content.</summary>
    /// <exception cref="InvalidOperationException">The content is larger than an array can hold.</exception>
    public readonly byte[] ToArray()
    {
        long length = Length;
        if (length > Array.MaxLength)
        {
            ThrowHelper.ThrowInvalidOperation($"The content has {length} bytes; an array holds at most {Array.MaxLength}.");
        }

        if (length == 0)
        {
            return [];
        }

        byte[] result = GC.AllocateUninitializedArray<byte>((int)length);
        CopyTo(0, result);
        return result;
    }

    /// <summary>Returns every segment to the pool and the table of slots to the per-thread cache: the owner is done with the chain.</summary>
    public void Release()
    {
        Clear();
        if (_slots is { } emptied)
        {
            _slots = null;
            SegmentTableCache.Return(emptied);
        }

        _count = -1;
    }

    /// <summary>Returns every segment to the pool; the slots stay for reuse.</summary>
    public void Clear()
    {
        if (_slots is null)
        {
            // One segment at most, held as the tail alone.
            if (_count != 0)
            {
                _pool.Return(_tail);
            }
        }
        else
        {
            _slots.Temporary.Abandon();
            ReleaseReserved();
            for (int i = _count - 1; i >= 0; i--)
            {
                ReleaseSlot(i);
            }

            _slots.TailStart = 0;
        }

        _count = 0;
        _tail = [];
        _tailUsed = 0;
    }

    private readonly void ReleaseSlot(int index)
    {
        Segment s = Table[index];
        byte[]? array = s.Array;
        s.Release();
        if (array is not null)
        {
            _pool.Return(array);
        }
    }

    /// <summary>
    /// Seals the tail at its current length and makes a fresh segment the tail. The array is rented (and checked)
    /// before anything changes, so a pool that throws leaves the chain as it was.
    /// </summary>
    private void AddSegment()
    {
        if (_count == 0 && _slots is null)
        {
            // The first segment: the tail alone, no table yet.
            _tail = RentChecked();
            _count = 1;
            _tailUsed = 0;
            return;
        }

        SegmentSlots slots = EnsureTable();
        if (_count == slots.Table.Capacity)
        {
            slots.Table.Grow();
        }

        byte[] array;
        if (slots.Reserved > 0)
        {
            array = slots.Table[_count].Array!; // rented ahead by Reserve
            slots.Reserved--;
        }
        else
        {
            array = RentChecked();
        }

        if (_count > 0)
        {
            slots.Table[_count - 1].Length = _tailUsed;
            slots.TailStart += _tailUsed;
        }

        Segment s = slots.Table[_count] ??= new Segment();
        s.Array = array;
        s.Start = slots.TailStart;
        s.Length = 0;
        _count++;
        _tail = array;
        _tailUsed = 0;
    }

    /// <summary>
    /// Takes a table of slots (from the per-thread cache) when the chain has none, putting in it the one segment held
    /// as the tail alone; returns the chain's table.
    /// </summary>
    private SegmentSlots EnsureTable()
    {
        if (_slots is { } slots)
        {
            return slots;
        }

        slots = SegmentTableCache.Rent();
        _slots = slots;
        if (_count == 1)
        {
            Segment first = slots.Table[0] ??= new Segment();
            first.Array = _tail;
            first.Start = 0;
            first.Length = 0; // stale for the tail, as always: the chain holds the live count
        }

        return slots;
    }

    /// <summary>
    /// Hands out a temporary buffer of at least <paramref name="sizeHint"/> bytes (and at least <paramref name="minimum"/>),
    /// giving back one still out: for a span that cannot be handed out in place (larger than a segment, or for an owner
    /// that writes away from the end). Its committed bytes are taken with <see cref="TakeTemporary"/>.
    /// </summary>
    public Memory<byte> RentTemporary(int sizeHint, int minimum = 1) => EnsureTable().Temporary.Rent(sizeHint, minimum);

    /// <summary>The temporary buffer handed out, whose first <paramref name="count"/> bytes the owner is to write (<see cref="TemporaryBuffer.TakeCommitted"/>).</summary>
    public readonly byte[] TakeTemporary(int count) => _slots!.Temporary.TakeCommitted(count);

    /// <summary>Gives back a temporary buffer handed out and never committed.</summary>
    public readonly void AbandonTemporary() => _slots?.Temporary.Abandon();

    private readonly byte[] RentChecked()
    {
        byte[] array = _pool.Rent();
        if (array.Length != _pool.SegmentSize)
        {
            ThrowWrongSegment(array);
        }

        return array;
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void ThrowWrongSegment(byte[] array)
    {
        _pool.Return(array);
        ThrowHelper.ThrowInvalidOperation($"The segment pool handed out {array.Length} bytes; its SegmentSize is {_pool.SegmentSize}.");
    }
}
