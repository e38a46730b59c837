using System.Buffers;

namespace Spanwire.Buffers;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> that can also take memory by reference: a large payload becomes part of the
/// content without being copied, between the bytes written before and after it.
/// </summary>
/// <remarks>
/// Writers of framed formats test their output for this interface and borrow a payload when it is large enough that a
/// reference is cheaper than a copy (the AMQP frame writer does so for bodies). The caller keeps borrowed memory
/// alive and unchanged until the content has been consumed.
/// </remarks>
public interface IGatherBufferWriter : IBufferWriter<byte>
{
    /// <summary>
    /// Appends <paramref name="memory"/> to the content by reference, after every byte committed so far. Do not change
    /// it until the content has been consumed.
    /// </summary>
    void WriteBorrowed(ReadOnlyMemory<byte> memory);
}
