using System.Buffers;
using System.Globalization;
using System.ServiceModel;
using System.ServiceModel.Channels;

namespace Spanwire.ServiceModel;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> over one buffer of a WCF <see cref="BufferManager"/>: the message is written
/// from an offset the transport keeps free, a larger buffer is taken (and the smaller one given back) when it runs
/// out, and more than the quota written is a <see cref="QuotaExceededException"/>, as WCF's buffered writer reports it.
/// </summary>
internal sealed class BufferManagerWriter : IBufferWriter<byte>
{
    private BufferManager _manager;
    private int _offset;
    private int _maxSize;
    private byte[]? _buffer;
    private int _position;
    private readonly bool _incoming;

    /// <param name="manager">Where the buffers come from and go back to.</param>
    /// <param name="offset">The room kept before the message.</param>
    /// <param name="maxSize">The quota of the message's bytes.</param>
    /// <param name="expectedSize">The first buffer's room for the message.</param>
    /// <param name="incoming">True for a message received (decompressed): the quota is MaxReceivedMessageSize's.</param>
    public BufferManagerWriter(BufferManager manager, int offset, int maxSize, int expectedSize, bool incoming = false)
    {
        _manager = manager;
        _incoming = incoming;
        Open(manager, offset, maxSize, expectedSize);
    }

    /// <summary>Takes a buffer for the next message: this writer is kept with a pooled XML writer between messages.</summary>
    [System.Diagnostics.CodeAnalysis.MemberNotNull(nameof(_manager))]
    public void Open(BufferManager manager, int offset, int maxSize, int expectedSize)
    {
        _manager = manager;
        _offset = offset;
        _maxSize = maxSize;
        long initial = Math.Min((long)offset + Math.Max(expectedSize, 256), Array.MaxLength);
        _buffer = manager.TakeBuffer((int)initial);
        _position = offset;
    }

    public int WrittenCount => _position - _offset;

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        byte[] buffer = _buffer ?? throw new ObjectDisposedException(nameof(BufferManagerWriter));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, buffer.Length - _position);
        _position += count;
        if (_position - _offset > _maxSize)
        {
            ThrowQuotaExceeded(_maxSize, _incoming);
        }
    }

    public Memory<byte> GetMemory(int sizeHint = 0) => Ensure(sizeHint).AsMemory(_position);

    public Span<byte> GetSpan(int sizeHint = 0) => Ensure(sizeHint).AsSpan(_position);

    private byte[] Ensure(int sizeHint)
    {
        byte[] buffer = _buffer ?? throw new ObjectDisposedException(nameof(BufferManagerWriter));
        int needed = Math.Max(sizeHint, 1);
        return buffer.Length - _position >= needed ? buffer : Grow(needed);
    }

    private byte[] Grow(int needed)
    {
        byte[] old = _buffer!;
        long size = Math.Max((long)_position + needed, Math.Min((long)old.Length * 2, Array.MaxLength));
        if (size > Array.MaxLength)
        {
            ThrowQuotaExceeded(_maxSize, _incoming);
        }

        byte[] bigger = _manager.TakeBuffer((int)size);
        old.AsSpan(_offset, _position - _offset).CopyTo(bigger.AsSpan(_offset));
        _buffer = bigger;
        _manager.ReturnBuffer(old);
        return bigger;
    }

    /// <summary>Hands the buffer over: the message from the offset; this writer no longer owns it.</summary>
    public ArraySegment<byte> Detach()
    {
        byte[] buffer = _buffer ?? throw new ObjectDisposedException(nameof(BufferManagerWriter));
        _buffer = null;
        return new ArraySegment<byte>(buffer, _offset, _position - _offset);
    }

    /// <summary>Gives the buffer back to the manager, when the message could not be written.</summary>
    public void Abandon()
    {
        byte[]? buffer = _buffer;
        _buffer = null;
        if (buffer is not null)
        {
            _manager.ReturnBuffer(buffer);
        }
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static void ThrowQuotaExceeded(int maxSize, bool incoming = false) => throw new QuotaExceededException(string.Format(CultureInfo.InvariantCulture,
        incoming
            ? "The maximum message size quota for incoming messages ({0}) has been exceeded. To increase the quota, use the MaxReceivedMessageSize property on the appropriate binding element."
            : "The maximum message size quota for outgoing messages ({0}) has been exceeded.",
        maxSize));
}
