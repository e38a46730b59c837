namespace Spanwire.BinaryXml;

/// <summary>
/// An output that can take a large block without it being copied into its buffer first: a stream, as the in-box
/// writer writes large array and base64 blocks to its stream directly.
/// </summary>
internal interface IDirectWriteTarget
{
    /// <summary>Writes everything buffered so far, then <paramref name="bytes"/>, in that order.</summary>
    /// <returns>The memory the next bytes go in, as GetMemory would give it: the writer goes on without asking again.</returns>
    Memory<byte> WriteDirect(ReadOnlySpan<byte> bytes);
}
