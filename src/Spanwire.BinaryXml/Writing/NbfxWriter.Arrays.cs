using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Xml;
using Spanwire.BinaryXml.Xml;

namespace Spanwire.BinaryXml;

[GenerateArrayOverloads]
public sealed partial class NbfxWriter
{
    /// <summary>
    /// Starts an Array record. Follow it with the element start (and any xmlns attributes), then one
    /// <c>WriteArrayValues</c> call, which ends the element and writes the type, count and values.
    /// </summary>
    public void WriteStartArray() => WriteNode(NbfxRecord.Array);

    /// <summary>The Array record and the element start of a non-empty array (the typed WriteArray overloads are generated).</summary>
    private bool StartArray(string? prefix, string localName, int count)
    {
        if (count == 0)
        {
            return false;
        }

        WriteStartArray();
        WriteStartElement(prefix, localName);
        return true;
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
    public void WriteArrayValues(ReadOnlySpan<short> values) => WriteRawArrayValues(NbfxRecord.Int16Text + 1, values, stageEach: false);

    /// <summary>Ends the array's element start and writes Int32 values.</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<int> values) => WriteRawArrayValues(NbfxRecord.Int32Text + 1, values, stageEach: false);

    /// <summary>Ends the array's element start and writes Int64 values.</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<long> values) => WriteRawArrayValues(NbfxRecord.Int64Text + 1, values, stageEach: false);

    /// <summary>Ends the array's element start and writes float values.</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<float> values) => WriteRawArrayValues(NbfxRecord.FloatText + 1, values, stageEach: false);

    /// <summary>Ends the array's element start and writes double values.</summary>
    /// <param name="values">The values, written as one array record.</param>
    public void WriteArrayValues(ReadOnlySpan<double> values) => WriteRawArrayValues(NbfxRecord.DoubleText + 1, values, stageEach: false);

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
    public void WriteArrayValues(ReadOnlySpan<TimeSpan> values) => WriteRawArrayValues(NbfxRecord.TimeSpanText + 1, values, stageEach: true);

    /// <summary>
    /// Items whose little-endian bytes are their record's: copied as one block on a little-endian machine, else item by
    /// item with the bytes turned round; staged as the in-box writer stages them, as one block or (DateTime and
    /// TimeSpan) item by item.
    /// </summary>
    private void WriteRawArrayValues<T>(int record, ReadOnlySpan<T> values, bool stageEach)
        where T : unmanaged
    {
        int size = Unsafe.SizeOf<T>();
        WriteArrayInfo(record, values.Length);
        if (stageEach)
        {
            StageEach(values.Length, size);
        }
        else
        {
            StageBlock(values.Length * size);
        }

        if (BitConverter.IsLittleEndian)
        {
            WriteRawBytes(MemoryMarshal.AsBytes(values));
            return;
        }

        foreach (T v in values)
        {
            Ensure(size);
            Span<byte> item = _w.Buffer.AsSpan(_w.Pos, size);
            MemoryMarshal.Write(item, in v);
            item.Reverse();
            _w.Pos += size;
        }
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

        // The end, the value type and the count: room made once, staged as the in-box writer's three requests.
        Ensure(2 + NbfxPrimitives.MaxMultiByteInt31Length);
        Stage(1, 1);
        Stage(1, 1);
        byte[] buffer = _w.Buffer;
        int pos = _w.Pos;
        buffer[pos] = NbfxRecord.EndElement;
        buffer[pos + 1] = (byte)record;
        int written = NbfxPrimitives.WriteMultiByteInt31(buffer.AsSpan(pos + 2), count);
        Stage(NbfxPrimitives.MaxMultiByteInt31Length, written);
        _w.Pos = pos + 2 + written;
        _textRecord = -1;
    }
}
