using System.Buffers;
using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Spanwire.Buffers;

/// <summary>
/// The window a format writer writes into: one piece of memory from its <see cref="IBufferWriter{T}"/>, held as an
/// array so the hot paths index it directly, the bytes written but not yet handed to the output, and the staging of
/// memory that is not an array (written into a pooled array, copied over on commit). Built once and compiled into each
/// writer's assembly; the writers keep the policy (how much to ask for, what to carry across a commit).
/// </summary>
internal struct BufferWindow
{
    /// <summary>The held memory is <c>Buffer[Start..End)</c>; all empty while none is held.</summary>
    public byte[] Buffer;

    public int Start;

    /// <summary>Where the next byte goes.</summary>
    public int Pos;

    public int End;

    // Made on first need and kept: most outputs hand out arrays, and a writer should not grow for the ones that do not.
    private Staging? _staging;

    public BufferWindow() => Buffer = [];

    /// <summary>The bytes written into the window and not yet committed.</summary>
    public readonly int Pending => Pos - Start;

    /// <summary>Whether memory is held (the output's memory is never empty once taken).</summary>
    public readonly bool IsHeld => End != 0;

    /// <summary>
    /// Holds <paramref name="memory"/>, just taken from the output: its array in place, or a pooled array of at least
    /// <paramref name="stagingMinimum"/> bytes to stage in. With <paramref name="limitToMemory"/> the staged window is
    /// no larger than the memory (the commit is one copy and one Advance); without, it may be, and a larger commit is
    /// written to the output piece by piece.
    /// </summary>
    public void Take(Memory<byte> memory, int stagingMinimum, bool limitToMemory)
    {
        if (MemoryMarshal.TryGetArray<byte>(memory, out ArraySegment<byte> segment) && segment.Array is not null)
        {
            Buffer = segment.Array;
            Start = Pos = segment.Offset;
            End = segment.Offset + segment.Count;
            return;
        }

        Staging staging = _staging ??= new Staging();
        staging.Target = memory;
        staging.Active = true;
        Buffer = ArrayPool<byte>.Shared.Rent(Math.Max(memory.Length, stagingMinimum));
        Start = Pos = 0;
        End = limitToMemory ? memory.Length : Buffer.Length;
    }

    /// <summary>
    /// Goes on from the start of <paramref name="array"/>, an output's whole buffer handed back once the pending bytes
    /// were taken by other means than <see cref="Commit"/>. Only for outputs that hand out arrays (nothing is staged).
    /// </summary>
    public void Restart(byte[] array)
    {
        Debug.Assert(_staging is not { Active: true }, "a staged window is committed, not restarted");
        if (!ReferenceEquals(Buffer, array))
        {
            Buffer = array; // the same array comes back every time but the first: no reference store
        }

        Start = Pos = 0;
        End = array.Length;
    }

    /// <summary>Hands the pending bytes to <paramref name="output"/> and lets go of the memory; returns how many.</summary>
    public int Commit(IBufferWriter<byte> output)
    {
        int pending = Pos - Start;
        if (pending != 0)
        {
            if (_staging is not { Active: true } staging)
            {
                output.Advance(pending);
            }
            else if (pending <= staging.Target.Length)
            {
                Buffer.AsSpan(Start, pending).CopyTo(staging.Target.Span);
                output.Advance(pending);
            }
            else
            {
                output.Write(Buffer.AsSpan(Start, pending));
            }
        }

        Release();
        return pending;
    }

    /// <summary>Lets go of the memory without committing (what was written is dropped).</summary>
    public void Release()
    {
        if (_staging is { Active: true } staging)
        {
            ArrayPool<byte>.Shared.Return(Buffer);
            staging.Target = default;
            staging.Active = false;
        }

        Buffer = [];
        Start = Pos = End = 0;
    }

    private sealed class Staging
    {
        public Memory<byte> Target;
        public bool Active;
    }
}
