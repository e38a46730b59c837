using System.Buffers;

namespace Spanwire.Buffers;

/// <summary>
/// A node of a <see cref="ReadOnlySequence{T}"/> whose memory, position and successor can be set again, so nodes can
/// be kept and reused while the memory under them changes. <see cref="ReadOnlySequenceSegment{T}"/> leaves its setters
/// to derived types; this is the one such type the Spanwire libraries use (pooled segments, borrowed pieces, received
/// data), and it serves any code that builds sequences over memory of its own.
/// </summary>
/// <example>
/// <code>
/// var first = new SequenceNode(header, 0);
/// SequenceNode last = first.Append(body);
/// var sequence = new ReadOnlySequence&lt;byte&gt;(first, 0, last, last.Memory.Length);
/// </code>
/// </example>
public class SequenceNode : ReadOnlySequenceSegment<byte>
{
    /// <summary>Creates an empty node at position 0.</summary>
    public SequenceNode()
    {
    }

    /// <summary>Creates a node over <paramref name="memory"/>.</summary>
    /// <param name="memory">The node's bytes.</param>
    /// <param name="runningIndex">The position of the node's first byte in the whole sequence.</param>
    public SequenceNode(ReadOnlyMemory<byte> memory, long runningIndex)
    {
        Memory = memory;
        RunningIndex = runningIndex;
    }

    /// <summary>Sets everything a sequence reads from the node.</summary>
    /// <param name="memory">The node's bytes.</param>
    /// <param name="runningIndex">The position of the node's first byte in the whole sequence.</param>
    /// <param name="next">The node after this one, or null for the last.</param>
    public void Set(ReadOnlyMemory<byte> memory, long runningIndex, SequenceNode? next)
    {
        Memory = memory;
        RunningIndex = runningIndex;
        Next = next;
    }

    /// <summary>Sets the node's bytes, keeping its position and successor (a node whose memory grows in place).</summary>
    /// <param name="memory">The node's bytes.</param>
    public void SetMemory(ReadOnlyMemory<byte> memory) => Memory = memory;

    /// <summary>Sets the node after this one.</summary>
    /// <param name="next">The next node, or null to make this one the last.</param>
    public void LinkTo(SequenceNode? next) => Next = next;

    /// <summary>Creates the node after this one, over <paramref name="memory"/>, placed right after this node's bytes.</summary>
    /// <param name="memory">The next node's bytes.</param>
    /// <returns>The new last node.</returns>
    public SequenceNode Append(ReadOnlyMemory<byte> memory)
    {
        var next = new SequenceNode(memory, RunningIndex + Memory.Length);
        Next = next;
        return next;
    }

    /// <summary>Forgets the node's bytes and successor (a node going back to a pool must not keep a view of its memory).</summary>
    public void Clear()
    {
        Memory = default;
        Next = null;
    }
}
