using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Xml;
using Spanwire.Buffers;

namespace Spanwire.BinaryXml;

/// <summary>
/// Writes MC-NBFX records straight into an <see cref="IBufferWriter{T}"/>, with every encoding choice of the in-box binary
/// writer (<see cref="XmlDictionaryWriter.CreateBinaryWriter(Stream)"/>): for the same node calls the bytes are the same.
/// </summary>
/// <remarks>
/// <para>This is the record layer: the caller says which prefix an element has and declares namespaces itself
/// (<see cref="WriteXmlnsAttribute(string?, string)"/>). <c>Nbfx.CreateWriter</c>
/// adds the namespace bookkeeping of an <see cref="XmlDictionaryWriter"/> on top.</para>
/// <para>Bytes are committed to the output when the writer needs more room and on <see cref="Flush"/>. The in-box writer
/// turns the last text record of an element into its "with end element" form only while that record is still in its
/// 512-byte staging buffer; this writer keeps a model of that buffer so the choice, and so the bytes, are the same.</para>
/// <example><code>
/// var output = new ArrayBufferWriter&lt;byte&gt;();
/// var writer = new NbfxWriter(output);
/// writer.WriteStartElement(null, "doc");
/// writer.WriteValue(42);
/// writer.WriteEndElement();
/// writer.Flush(); // output now holds 40 03 64 6F 63 89 2A
/// </code></example>
/// </remarks>
public sealed partial class NbfxWriter
{
    /// <summary>The in-box writer's staging buffer length, modelled for the end-element patch.</summary>
    private const int StagingLength = 512;
    private const int MinimumChunk = 256;

    private IBufferWriter<byte> _output;
    private IXmlDictionary? _dictionary;
    private XmlBinaryWriterSession? _session;

    // The current chunk (see BufferWindow): array-backed memory from the output, or a pooled array staged for it.
    private BufferWindow _w = new();

    // The in-box staging model: its offset, and where our last text record's type byte is while it is still patchable.
    private int _stage;
    private int _textRecord = -1;

    // Set when the drop-in XmlDictionaryWriter drives this writer: it keeps the element structure itself (and, as the
    // in-box writer, may write an end after a start that threw), so the record layer does not check it again.
    private bool _layered;

    private long _committed;
    private int _depth;

    /// <summary>Creates a writer over <paramref name="output"/>, with an optional static dictionary and session.</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <param name="dictionary">Strings of this dictionary are written as even ids.</param>
    /// <param name="session">Other <see cref="XmlDictionaryString"/>s are added here and written as odd ids.</param>
    public NbfxWriter(IBufferWriter<byte> output, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
    {
        ArgumentNullException.ThrowIfNull(output);
        _output = output;
        _dictionary = dictionary;
        _session = session;
    }

    /// <summary>Whether the element structure is kept by the layer above (the drop-in writer), not checked here.</summary>
    internal bool Layered
    {
        get => _layered;
        set => _layered = value;
    }

    /// <summary>Bytes committed to the output so far.</summary>
    public long BytesCommitted => _committed;

    /// <summary>Bytes written but not yet committed to the output.</summary>
    public int BytesPending => _w.Pos - _w.Start;

    /// <summary>Open elements.</summary>
    public int CurrentDepth => _depth;

    /// <summary>The static dictionary this writer uses, if any.</summary>
    public IXmlDictionary? Dictionary => _dictionary;

    /// <summary>The session this writer adds strings to, if any.</summary>
    public XmlBinaryWriterSession? Session => _session;

    /// <summary>
    /// Commits everything written to the output. Like the in-box writer's Flush, this also ends the chance to fold a
    /// pending text record into the next end element.
    /// </summary>
    public void Flush()
    {
        Commit();
        _stage = 0;
        _textRecord = -1;
    }

    /// <summary>Points the writer at a new output with a clean state, keeping its dictionary and session.</summary>
    /// <param name="output">Where the bytes go.</param>
    public void Reset(IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        ReleaseChunk();
        _output = output;
        _committed = 0;
        _stage = 0;
        _textRecord = -1;
        _depth = 0;
    }

    /// <summary>Points the writer at a new output with a clean state and another dictionary and session.</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="session">The session other dictionary strings are added to (as odd ids), or null for none.</param>
    public void Reset(IBufferWriter<byte> output, IXmlDictionary? dictionary, XmlBinaryWriterSession? session)
    {
        Reset(output);
        _dictionary = dictionary;
        _session = session;
    }

    /// <summary>Makes room for <paramref name="count"/> bytes at the window's position.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Ensure(int count)
    {
        if (_w.End - _w.Pos < count)
        {
            Grow(count);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Grow(int count)
    {
        // A text record that may still be folded into an end element travels with us into the new chunk.
        int keepFrom = _textRecord >= 0 ? _textRecord : _w.Pos;
        int carry = _w.Pos - keepFrom;
        byte[]? carried = null;
        if (carry > 0)
        {
            carried = ArrayPool<byte>.Shared.Rent(carry);
            _w.Buffer.AsSpan(keepFrom, carry).CopyTo(carried);
        }

        _w.Pos = keepFrom;
        Commit();

        int want = Math.Max(count + carry, MinimumChunk);
        _w.Take(_output.GetMemory(want), stagingMinimum: 4096, limitToMemory: false);
        _w.Pos = _w.Start;
        if (carried is not null)
        {
            carried.AsSpan(0, carry).CopyTo(_w.Buffer.AsSpan(_w.Pos));
            ArrayPool<byte>.Shared.Return(carried);
            _textRecord = _w.Pos;
            _w.Pos += carry;
        }
    }

    private void Commit()
    {
        _committed += _w.Commit(_output);
        _textRecord = -1; // committed bytes can no longer be patched
    }

    private void ReleaseChunk() => _w.Release();

    // ---- The in-box staging model ----

    /// <summary>The in-box writer asks for <paramref name="request"/> bytes, flushing first when they do not fit, then uses <paramref name="written"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Stage(int request, int written)
    {
        int stage = _stage;
        if (stage + request > StagingLength)
        {
            stage = 0;
            _textRecord = -1;
        }

        _stage = stage + written;
    }

    /// <summary>The in-box writer flushed its staging buffer (a large copy goes straight to the stream).</summary>
    private void StageFlush()
    {
        _stage = 0;
        _textRecord = -1;
    }

    /// <summary>Writes a one-byte non-text record.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteNode(byte record)
    {
        Ensure(1);
        Stage(1, 1);
        _textRecord = -1;
        _w.Buffer[_w.Pos++] = record;
    }

    /// <summary>Writes one byte that is part of a record (no effect on the patch other than a modelled flush).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteRawByte(byte value)
    {
        Ensure(1);
        Stage(1, 1);
        _w.Buffer[_w.Pos++] = value;
    }

    /// <summary>Writes a one-byte text record that may later be folded into an end element.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteTextNode(byte record)
    {
        Ensure(1);
        Stage(1, 1);
        _textRecord = _w.Pos;
        _w.Buffer[_w.Pos++] = record;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteMultiByteInt31(int value)
    {
        Ensure(NbfxPrimitives.MaxMultiByteInt31Length);
        int written = NbfxPrimitives.WriteMultiByteInt31(_w.Buffer.AsSpan(_w.Pos), value);
        Stage(NbfxPrimitives.MaxMultiByteInt31Length, written);
        _w.Pos += written;
    }

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowInvalidOperation(string message) => throw new InvalidOperationException(message);
}
