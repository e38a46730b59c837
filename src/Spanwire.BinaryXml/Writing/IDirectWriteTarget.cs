namespace Spanwire.BinaryXml;

/// <summary>
/// An output that can take a large block without it being copied into its buffer first: a stream, as the in-box
/// writer writes large array and base64 blocks to its stream directly.
/// </summary>
internal interface IDirectWriteTarget
{
    /// <summary>
    /// Takes the <paramref name="pending"/> bytes written into the memory last handed out (as Advance would), writes
    /// everything buffered, then <paramref name="bytes"/>, in that order.
    /// </summary>
    /// <returns>The buffer the next bytes go in, empty again from its start, as GetMemory would give it: the writer goes on without asking again.</returns>
    byte[] WriteDirect(int pending, ReadOnlySpan<byte> bytes);
}
