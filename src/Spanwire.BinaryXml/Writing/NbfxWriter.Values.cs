using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Xml;

namespace Spanwire.BinaryXml;

public sealed partial class NbfxWriter
{
    /// <summary>Writes an integer with the smallest record: Zero, One, Int8, Int16 or Int32.</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteValue(int value)
    {
        if ((uint)(value + 128) < 256)
        {
            if ((uint)value <= 1)
            {
                WriteTextNode(value == 0 ? NbfxRecord.ZeroText : NbfxRecord.OneText);
                return;
            }

            Span<byte> span = FixedRecord(2);
            span[0] = NbfxRecord.Int8Text;
            span[1] = (byte)value;
            _w.Pos += 2;
        }
        else if ((uint)(value + 32768) < 65536)
        {
            Span<byte> span = FixedRecord(3);
            span[0] = NbfxRecord.Int16Text;
            BinaryPrimitives.WriteInt16LittleEndian(span[1..], (short)value);
            _w.Pos += 3;
        }
        else
        {
            Span<byte> span = FixedRecord(5);
            span[0] = NbfxRecord.Int32Text;
            BinaryPrimitives.WriteInt32LittleEndian(span[1..], value);
            _w.Pos += 5;
        }
    }

    /// <summary>Writes a long with the smallest record; Int64 only outside the int range.</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteValue(long value)
    {
        if (value == (int)value)
        {
            WriteValue((int)value);
        }
        else
        {
            WriteFixed64(NbfxRecord.Int64Text, value);
        }
    }

    /// <summary>Writes a ulong: as a long up to long.MaxValue, UInt64 above.</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    public void WriteValue(ulong value)
    {
        if (value <= long.MaxValue)
        {
            WriteValue((long)value);
        }
        else
        {
            WriteFixed64(NbfxRecord.UInt64Text, (long)value);
        }
    }

    /// <summary>Writes True or False.</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    public void WriteValue(bool value) => WriteTextNode(value ? NbfxRecord.TrueText : NbfxRecord.FalseText);

    /// <summary>Writes a float: an integer record when it is integral and in short range (−0 becomes Zero), Float otherwise.</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteValue(float value)
    {
        if (value >= short.MinValue && value <= short.MaxValue && (short)value == value)
        {
            WriteValue((int)(short)value);
            return;
        }

        Span<byte> span = FixedRecord(5);
        span[0] = NbfxRecord.FloatText;
        BinaryPrimitives.WriteSingleLittleEndian(span[1..], value);
        _w.Pos += 5;
    }

    /// <summary>Writes a double: the float rule when it survives a round trip through float (so infinities are Float), Double otherwise (NaN).</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteValue(double value)
    {
        float single = (float)value;
        if (single == value)
        {
            WriteValue(single);
            return;
        }

        Span<byte> span = FixedRecord(9);
        span[0] = NbfxRecord.DoubleText;
        BinaryPrimitives.WriteDoubleLittleEndian(span[1..], value);
        _w.Pos += 9;
    }

    /// <summary>Writes a Decimal record.</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteValue(decimal value)
    {
        Span<byte> span = FixedRecord(17);
        span[0] = NbfxRecord.DecimalText;
        NbfxPrimitives.WriteDecimal(span[1..], value);
        _w.Pos += 17;
    }

    /// <summary>Writes a DateTime record: the in-box ToBinary form (local times as UTC ticks with the local flag).</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    public void WriteValue(DateTime value) => WriteFixed64(NbfxRecord.DateTimeText, NbfxPrimitives.DateTimeToBinary(value));

    /// <summary>Writes a TimeSpan record (ticks).</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    public void WriteValue(TimeSpan value) => WriteFixed64(NbfxRecord.TimeSpanText, value.Ticks);

    /// <summary>Writes a Guid (UuidText) record, bytes in <see cref="Guid.TryWriteBytes(Span{byte})"/> order.</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    public void WriteValue(Guid value) => WriteGuidRecord(NbfxRecord.UuidText, value);

    /// <summary>Writes a UniqueId: the UniqueId record when it is a GUID, its string form otherwise.</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    public void WriteValue(UniqueId value)
    {
        ArgumentNullException.ThrowIfNull(value);
        if (value.TryGetGuid(out Guid guid))
        {
            WriteGuidRecord(NbfxRecord.UniqueIdText, guid);
        }
        else
        {
            WriteString(value.ToString());
        }
    }

    /// <summary>
    /// Room for a fixed-size text record of <paramref name="size"/> bytes, staged as the in-box writer's request and
    /// marked as the last text record; the caller fills it and moves the position on. One span, so the stores into it
    /// need no bounds checks of their own.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> FixedRecord(int size)
    {
        Ensure(size);
        Stage(size, size);
        _textRecord = _w.Pos;
        return _w.Buffer.AsSpan(_w.Pos, size);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteGuidRecord(byte record, Guid value)
    {
        Span<byte> span = FixedRecord(17);
        span[0] = record;
        bool written = value.TryWriteBytes(span[1..]);
        Debug.Assert(written, "the record's room was ensured");
        _w.Pos += 17;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteFixed64(byte record, long value)
    {
        Span<byte> span = FixedRecord(9);
        span[0] = record;
        BinaryPrimitives.WriteInt64LittleEndian(span[1..], value);
        _w.Pos += 9;
    }
}
