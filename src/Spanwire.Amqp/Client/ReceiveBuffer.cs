using System.Buffers;
using Spanwire.Buffers;

namespace Spanwire.Amqp.Client;

/// <summary>
/// Received bytes in a chain of pooled segments, read as one <see cref="ReadOnlySequence{T}"/> so a frame larger than
/// a segment (frame_max may exceed the large-object threshold) is decoded where it lies, never copied to join it.
/// Segments wholly consumed go back to the pool.
/// </summary>
internal sealed class ReceiveBuffer : IDisposable
{
    // Receive into the tail only while it has at least this much room; otherwise start a segment.
    private const int MinReceiveSize = 4096;

    private readonly SegmentPool _pool;
    private readonly Stack<Node> _spareNodes = new();
    private Node? _head;
    private Node? _tail;
    private int _headOffset;

    public ReceiveBuffer(SegmentPool pool) => _pool = pool;

    /// <summary>The unconsumed bytes.</summary>
    public ReadOnlySequence<byte> Data =>
        _head is null ? ReadOnlySequence<byte>.Empty : new ReadOnlySequence<byte>(_head, _headOffset, _tail!, _tail!.Written);

    /// <summary>Room to receive into at the end of the chain.</summary>
    public Memory<byte> GetReceiveMemory()
    {
        if (_tail is null || _tail.Array.Length - _tail.Written < MinReceiveSize)
        {
            if (_tail is not null && _head == _tail && _headOffset == _tail.Written)
            {
                // Everything consumed: reuse the segment from its start.
                _headOffset = 0;
                _tail.SetWritten(0);
            }
            else
            {
                Append();
            }
        }

        return _tail!.Array.AsMemory(_tail.Written);
    }

    /// <summary>Commits <paramref name="count"/> received bytes.</summary>
    public void Commit(int count) => _tail!.SetWritten(_tail.Written + count);

    /// <summary>Drops everything before <paramref name="consumed"/> (a position within <see cref="Data"/>).</summary>
    public void AdvanceTo(SequencePosition consumed)
    {
        var node = (Node?)consumed.GetObject();
        if (node is null)
        {
            return;
        }

        while (_head != node)
        {
            Node done = _head!;
            _head = (Node?)done.Next;
            Recycle(done);
        }

        _headOffset = consumed.GetInteger();
    }

    public void Dispose()
    {
        while (_head is not null)
        {
            Node done = _head;
            _head = (Node?)done.Next;
            Recycle(done);
        }

        _tail = null;
    }

    private void Append()
    {
        Node node = _spareNodes.Count > 0 ? _spareNodes.Pop() : new Node();
        node.Attach(_pool.Rent(), _tail is null ? 0 : _tail.RunningIndex + _tail.Written);
        if (_tail is null)
        {
            _head = node;
            _headOffset = 0;
        }
        else
        {
            _tail.LinkTo(node);
        }

        _tail = node;
    }

    private void Recycle(Node node)
    {
        _pool.Return(node.Detach());
        if (_tail == node)
        {
            _tail = null;
        }

        _spareNodes.Push(node);
    }

    /// <summary>A received-data node: the shared sequence node with the pooled array under it and how much of it is filled.</summary>
    private sealed class Node : SequenceNode
    {
        public byte[] Array { get; private set; } = [];

        public int Written { get; private set; }

        public void Attach(byte[] array, long runningIndex)
        {
            Array = array;
            Set(default, runningIndex, null);
            SetWritten(0);
        }

        public byte[] Detach()
        {
            byte[] array = Array;
            Array = [];
            Clear();
            return array;
        }

        public void SetWritten(int written)
        {
            Written = written;
            SetMemory(Array.AsMemory(0, written));
        }
    }
}
