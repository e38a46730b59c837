using System.Buffers;

namespace Spanwire.Buffers;

/// <summary>
/// One pooled array in a <see cref="SegmentChain"/>, and the node that links it into a
/// <see cref="ReadOnlySequence{T}"/>. Nodes are kept and reused for the life of their chain, so building the
/// sequence view allocates nothing after the first time a slot is used.
/// </summary>
internal sealed class Segment : SequenceNode
{
    /// <summary>The pooled array, or null while the slot is unused.</summary>
    internal byte[]? Array;

    /// <summary>Content bytes in this segment. For the chain's tail this is stale; the chain holds the live count.</summary>
    internal int Length;

    /// <summary>Offset of this segment's first byte in the whole content.</summary>
    internal long Start;

    /// <summary>Refreshes the inherited sequence fields from the chain's bookkeeping.</summary>
    internal void Link(int length, Segment? next)
    {
        _linked = true;
        Set(new ReadOnlyMemory<byte>(Array, 0, length), Start, next);
    }

    /// <summary>Forgets the array and any view of it.</summary>
    internal void Release()
    {
        Array = null;
        Length = 0;
        Start = 0;
        if (_linked)
        {
            // Only a node that was part of a sequence view holds a view of its array.
            _linked = false;
            Clear();
        }
    }

    private bool _linked;
}
