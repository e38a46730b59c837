using System.Buffers;
using Spanwire.Buffers;

namespace Spanwire.Tests.Buffers;

/// <summary>The shared sequence node: sequences built from it read as the bytes they were given, in order, and a
/// node can be set again and reused.</summary>
public sealed class SequenceNodeTests
{
    [Fact]
    public void Appended_nodes_read_as_one_sequence_with_running_positions()
    {
        var first = new SequenceNode(new byte[] { 1, 2, 3 }, 0);
        SequenceNode middle = first.Append(ReadOnlyMemory<byte>.Empty); // an empty node in the middle is allowed
        SequenceNode last = middle.Append(new byte[] { 4, 5 });

        var sequence = new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);

        Assert.Equal(new byte[] { 1, 2, 3, 4, 5 }, sequence.ToArray());
        Expect.Equal(3L, last.RunningIndex, "the last node starts after the three bytes before it");
        Expect.Equal(4L, sequence.Slice(sequence.GetPosition(4)).Length + 3, "positions across nodes");
    }

    [Fact]
    public void A_node_set_again_is_reused_and_cleared_keeps_no_view()
    {
        var a = new SequenceNode();
        var b = new SequenceNode();
        a.Set(new byte[] { 9 }, 0, b);
        b.Set(new byte[] { 8, 7 }, 1, null);
        Assert.Equal(new byte[] { 9, 8, 7 }, new ReadOnlySequence<byte>(a, 0, b, 2).ToArray());

        b.SetMemory(new byte[] { 6 });
        a.LinkTo(null);
        Assert.Equal(new byte[] { 9 }, new ReadOnlySequence<byte>(a, 0, a, 1).ToArray());

        a.Clear();
        Assert.True(a.Memory.IsEmpty && a.Next is null, "a cleared node holds no memory and no successor");
    }
}
