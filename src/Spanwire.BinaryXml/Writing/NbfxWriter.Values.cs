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

            Ensure(2);
            Stage(2, 2);
            _textRecord = _w.Pos;
            _w.Buffer[_w.Pos] = NbfxRecord.Int8Text;
            _w.Buffer[_w.Pos + 1] = (byte)value;
            _w.Pos += 2;
        }
        else if ((uint)(value + 32768) < 65536)
        {
            Ensure(3);
            Stage(3, 3);
            _textRecord = _w.Pos;
            _w.Buffer[_w.Pos] = NbfxRecord.Int16Text;
            BinaryPrimitives.WriteInt16LittleEndian(_w.Buffer.AsSpan(_w.Pos + 1, 2), (short)value);
            _w.Pos += 3;
        }
        else
        {
            Ensure(5);
            Stage(5, 5);
            _textRecord = _w.Pos;
            _w.Buffer[_w.Pos] = NbfxRecord.Int32Text;
            BinaryPrimitives.WriteInt32LittleEndian(_w.Buffer.AsSpan(_w.Pos + 1, 4), value);
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

        Ensure(5);
        Stage(5, 5);
        _textRecord = _w.Pos;
        _w.Buffer[_w.Pos] = NbfxRecord.FloatText;
        BinaryPrimitives.WriteSingleLittleEndian(_w.Buffer.AsSpan(_w.Pos + 1, 4), value);
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

        Ensure(9);
        Stage(9, 9);
        _textRecord = _w.Pos;
        _w.Buffer[_w.Pos] = NbfxRecord.DoubleText;
        BinaryPrimitives.WriteDoubleLittleEndian(_w.Buffer.AsSpan(_w.Pos + 1, 8), value);
        _w.Pos += 9;
    }

    /// <summary>Writes a Decimal record.</summary>
    /// <param name="value">The value, written as its own binary text record.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteValue(decimal value)
    {
        Ensure(17);
        Stage(17, 17);
        _textRecord = _w.Pos;
        _w.Buffer[_w.Pos] = NbfxRecord.DecimalText;
        NbfxPrimitives.WriteDecimal(_w.Buffer.AsSpan(_w.Pos + 1, 16), value);
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

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteGuidRecord(byte record, Guid value)
    {
        Ensure(17);
        Stage(17, 17);
        _textRecord = _w.Pos;
        _w.Buffer[_w.Pos] = record;
        bool written = value.TryWriteBytes(_w.Buffer.AsSpan(_w.Pos + 1, 16));
        Debug.Assert(written, "the record's room was ensured");
        _w.Pos += 17;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteFixed64(byte record, long value)
    {
        Ensure(9);
        Stage(9, 9);
        _textRecord = _w.Pos;
        _w.Buffer[_w.Pos] = record;
        BinaryPrimitives.WriteInt64LittleEndian(_w.Buffer.AsSpan(_w.Pos + 1, 8), value);
        _w.Pos += 9;
    }
}
