using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Xml;

namespace Spanwire.BinaryXml;

public sealed partial class NbfxWriter
{
    /// <summary>
    /// Starts an Array record. Follow it with the element start (and any xmlns attributes), then one
    /// <c>WriteArrayValues</c> call, which ends the element and writes the type, count and values.
    /// </summary>
    public void WriteStartArray() => WriteNode(NbfxRecord.Array);

    /// <summary>Writes <c>&lt;localName&gt;</c> repeated for every value as one Array record; an empty span writes nothing, as in-box.</summary>
    /// <param name="prefix">The prefix, or null for none.</param>
    /// <param name="localName">The local name; a dictionary string is written as its id when the dictionary or the session holds it.</param>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArray(string? prefix, string localName, ReadOnlySpan<bool> values)
    {
        if (values.IsEmpty) return;
        WriteStartArray();
        WriteStartElement(prefix, localName);
        WriteArrayValues(values);
    }

    /// <inheritdoc cref="WriteArray(string?, string, ReadOnlySpan{bool})"/>
    public void WriteArray(string? prefix, string localName, ReadOnlySpan<short> values)
    {
        if (values.IsEmpty) return;
        WriteStartArray();
        WriteStartElement(prefix, localName);
        WriteArrayValues(values);
    }

    /// <inheritdoc cref="WriteArray(string?, string, ReadOnlySpan{bool})"/>
    public void WriteArray(string? prefix, string localName, ReadOnlySpan<int> values)
    {
        if (values.IsEmpty) return;
        WriteStartArray();
        WriteStartElement(prefix, localName);
        WriteArrayValues(values);
    }

    /// <inheritdoc cref="WriteArray(string?, string, ReadOnlySpan{bool})"/>
    public void WriteArray(string? prefix, string localName, ReadOnlySpan<long> values)
    {
        if (values.IsEmpty) return;
        WriteStartArray();
        WriteStartElement(prefix, localName);
        WriteArrayValues(values);
    }

    /// <inheritdoc cref="WriteArray(string?, string, ReadOnlySpan{bool})"/>
    public void WriteArray(string? prefix, string localName, ReadOnlySpan<float> values)
    {
        if (values.IsEmpty) return;
        WriteStartArray();
        WriteStartElement(prefix, localName);
        WriteArrayValues(values);
    }

    /// <inheritdoc cref="WriteArray(string?, string, ReadOnlySpan{bool})"/>
    public void WriteArray(string? prefix, string localName, ReadOnlySpan<double> values)
    {
        if (values.IsEmpty) return;
        WriteStartArray();
        WriteStartElement(prefix, localName);
        WriteArrayValues(values);
    }

    /// <inheritdoc cref="WriteArray(string?, string, ReadOnlySpan{bool})"/>
    public void WriteArray(string? prefix, string localName, ReadOnlySpan<decimal> values)
    {
        if (values.IsEmpty) return;
        WriteStartArray();
        WriteStartElement(prefix, localName);
        WriteArrayValues(values);
    }

    /// <inheritdoc cref="WriteArray(string?, string, ReadOnlySpan{bool})"/>
    public void WriteArray(string? prefix, string localName, ReadOnlySpan<DateTime> values)
    {
        if (values.IsEmpty) return;
        WriteStartArray();
        WriteStartElement(prefix, localName);
        WriteArrayValues(values);
    }

    /// <inheritdoc cref="WriteArray(string?, string, ReadOnlySpan{bool})"/>
    public void WriteArray(string? prefix, string localName, ReadOnlySpan<Guid> values)
    {
        if (values.IsEmpty) return;
        WriteStartArray();
        WriteStartElement(prefix, localName);
        WriteArrayValues(values);
    }

    /// <inheritdoc cref="WriteArray(string?, string, ReadOnlySpan{bool})"/>
    public void WriteArray(string? prefix, string localName, ReadOnlySpan<TimeSpan> values)
    {
        if (values.IsEmpty) return;
        WriteStartArray();
        WriteStartElement(prefix, localName);
        WriteArrayValues(values);
    }

    /// <summary>Ends the array's element start and writes bool values (one byte each).</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<bool> values)
    {
        WriteArrayInfo(NbfxRecord.BoolText + 1, values.Length);
        StageBlock(values.Length);
        WriteRawBytes(MemoryMarshal.AsBytes(values));
    }

    /// <summary>Ends the array's element start and writes Int16 values.</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<short> values)
    {
        WriteArrayInfo(NbfxRecord.Int16Text + 1, values.Length);
        StageBlock(values.Length * Unsafe.SizeOf<short>());
        if (BitConverter.IsLittleEndian) { WriteRawBytes(MemoryMarshal.AsBytes(values)); return; }

        foreach (short v in values) { Ensure(2); BinaryPrimitives.WriteInt16LittleEndian(_w.Buffer.AsSpan(_w.Pos), v); _w.Pos += 2; }
    }

    /// <summary>Ends the array's element start and writes Int32 values.</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<int> values)
    {
        WriteArrayInfo(NbfxRecord.Int32Text + 1, values.Length);
        StageBlock(values.Length * Unsafe.SizeOf<int>());
        if (BitConverter.IsLittleEndian) { WriteRawBytes(MemoryMarshal.AsBytes(values)); return; }

        foreach (int v in values) { Ensure(4); BinaryPrimitives.WriteInt32LittleEndian(_w.Buffer.AsSpan(_w.Pos), v); _w.Pos += 4; }
    }

    /// <summary>Ends the array's element start and writes Int64 values.</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<long> values)
    {
        WriteArrayInfo(NbfxRecord.Int64Text + 1, values.Length);
        StageBlock(values.Length * Unsafe.SizeOf<long>());
        if (BitConverter.IsLittleEndian) { WriteRawBytes(MemoryMarshal.AsBytes(values)); return; }

        foreach (long v in values) { Ensure(8); BinaryPrimitives.WriteInt64LittleEndian(_w.Buffer.AsSpan(_w.Pos), v); _w.Pos += 8; }
    }

    /// <summary>Ends the array's element start and writes float values.</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<float> values)
    {
        WriteArrayInfo(NbfxRecord.FloatText + 1, values.Length);
        StageBlock(values.Length * Unsafe.SizeOf<float>());
        if (BitConverter.IsLittleEndian) { WriteRawBytes(MemoryMarshal.AsBytes(values)); return; }

        foreach (float v in values) { Ensure(4); BinaryPrimitives.WriteSingleLittleEndian(_w.Buffer.AsSpan(_w.Pos), v); _w.Pos += 4; }
    }

    /// <summary>Ends the array's element start and writes double values.</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<double> values)
    {
        WriteArrayInfo(NbfxRecord.DoubleText + 1, values.Length);
        StageBlock(values.Length * Unsafe.SizeOf<double>());
        if (BitConverter.IsLittleEndian) { WriteRawBytes(MemoryMarshal.AsBytes(values)); return; }

        foreach (double v in values) { Ensure(8); BinaryPrimitives.WriteDoubleLittleEndian(_w.Buffer.AsSpan(_w.Pos), v); _w.Pos += 8; }
    }

    /// <summary>Ends the array's element start and writes decimal values (16 bytes each, the Decimal record's layout).</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<decimal> values)
    {
        WriteArrayInfo(NbfxRecord.DecimalText + 1, values.Length);
        StageBlock(values.Length * 16);
        foreach (decimal v in values)
        {
            Ensure(16);
            NbfxPrimitives.WriteDecimal(_w.Buffer.AsSpan(_w.Pos, 16), v);
            _w.Pos += 16;
        }
    }

    /// <summary>Ends the array's element start and writes DateTime values (the in-box ToBinary form).</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<DateTime> values)
    {
        WriteArrayInfo(NbfxRecord.DateTimeText + 1, values.Length);
        foreach (DateTime v in values)
        {
            Ensure(8);
            Stage(8, 8);
            BinaryPrimitives.WriteInt64LittleEndian(_w.Buffer.AsSpan(_w.Pos, 8), NbfxPrimitives.DateTimeToBinary(v));
            _w.Pos += 8;
        }
    }

    /// <summary>Ends the array's element start and writes Guid values.</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<Guid> values)
    {
        WriteArrayInfo(NbfxRecord.UuidText + 1, values.Length);
        StageBlock(values.Length * 16); // on little-endian machines the in-box writer copies Guid items as one block
        if (BitConverter.IsLittleEndian)
        {
            WriteRawBytes(MemoryMarshal.AsBytes(values));
            return;
        }

        foreach (Guid v in values)
        {
            Ensure(16);
            bool written = v.TryWriteBytes(_w.Buffer.AsSpan(_w.Pos, 16));
            Debug.Assert(written, "16 bytes were ensured");
            _w.Pos += 16;
        }
    }

    /// <summary>Ends the array's element start and writes TimeSpan values (ticks).</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<TimeSpan> values)
    {
        WriteArrayInfo(NbfxRecord.TimeSpanText + 1, values.Length);
        StageEach(values.Length, 8);
        if (BitConverter.IsLittleEndian)
        {
            WriteRawBytes(MemoryMarshal.AsBytes(values));
            return;
        }

        foreach (TimeSpan v in values) { Ensure(8); BinaryPrimitives.WriteInt64LittleEndian(_w.Buffer.AsSpan(_w.Pos), v.Ticks); _w.Pos += 8; }
    }

    /// <summary>The in-box writer copies a block of array bytes through its staging buffer when it fits, else flushes and writes it directly.</summary>
    private void StageBlock(int byteCount)
    {
        if (byteCount < StagingLength)
        {
            Stage(byteCount, byteCount);
        }
        else
        {
            StageFlush();
        }
    }

    /// <summary>
    /// The in-box writer copies DateTime and TimeSpan items through its staging buffer one request each: the
    /// items that fit go in; then the buffer is flushed each time it is full, and the last items start one of their
    /// own. Worked out in one step, not item by item (that loop cost more than copying the items).
    /// </summary>
    private void StageEach(int count, int size)
    {
        int fit = Math.Max(0, (StagingLength - _stage) / size);
        if (count <= fit)
        {
            _stage += count * size;
            return;
        }

        int perBuffer = StagingLength / size;
        _stage = (((count - fit - 1) % perBuffer) + 1) * size;
        _textRecord = -1;
    }

    private void WriteArrayInfo(int record, int count)
    {
        if (_depth != 0)
        {
            _depth--;
        }
        else if (!_layered)
        {
            ThrowInvalidOperation("Array values must follow the array's element start.");
        }

        WriteNode(NbfxRecord.EndElement);
        WriteNode((byte)record);
        WriteMultiByteInt31(count);
    }
}
