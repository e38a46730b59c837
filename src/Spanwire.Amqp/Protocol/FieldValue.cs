using System.Buffers.Binary;
using System.Text;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// One typed value of a field table or array, read in place: no boxing, no copy. Ask for the type it is
/// (<see cref="Type"/>); asking for another throws <see cref="InvalidOperationException"/>.
/// </summary>
public readonly ref struct FieldValue
{
    private readonly ReadOnlySpan<byte> _raw;

    internal FieldValue(FieldValueType type, ReadOnlySpan<byte> raw, long offset)
    {
        Type = type;
        _raw = raw;
        Offset = offset;
    }

    /// <summary>The value's type.</summary>
    public FieldValueType Type { get; }

    /// <summary>The stream offset of the value's bytes (after the type octet, and after the length of a sized value).</summary>
    public long Offset { get; }

    /// <summary>The value's bytes as on the wire, after the type octet and any length prefix.</summary>
    public ReadOnlySpan<byte> RawBytes => _raw;

    /// <summary>The boolean of a <c>t</c> value.</summary>
    /// <returns>The value.</returns>
    public bool GetBoolean() => Expect(FieldValueType.Boolean, "a boolean")[0] != 0;

    /// <summary>The value of a <c>b</c> value.</summary>
    /// <returns>The value.</returns>
    public sbyte GetSByte() => (sbyte)Expect(FieldValueType.SByte, "an sbyte")[0];

    /// <summary>The value of a <c>B</c> value.</summary>
    /// <returns>The value.</returns>
    public byte GetByte() => Expect(FieldValueType.Byte, "a byte")[0];

    /// <summary>The value of an <c>s</c> value.</summary>
    /// <returns>The value.</returns>
    public short GetInt16() => BinaryPrimitives.ReadInt16BigEndian(Expect(FieldValueType.Int16, "an int16"));

    /// <summary>The value of a <c>u</c> value.</summary>
    /// <returns>The value.</returns>
    public ushort GetUInt16() => BinaryPrimitives.ReadUInt16BigEndian(Expect(FieldValueType.UInt16, "a uint16"));

    /// <summary>The value of an <c>I</c> value.</summary>
    /// <returns>The value.</returns>
    public int GetInt32() => BinaryPrimitives.ReadInt32BigEndian(Expect(FieldValueType.Int32, "an int32"));

    /// <summary>The value of an <c>i</c> value.</summary>
    /// <returns>The value.</returns>
    public uint GetUInt32() => BinaryPrimitives.ReadUInt32BigEndian(Expect(FieldValueType.UInt32, "a uint32"));

    /// <summary>The value of an <c>l</c> or <c>L</c> value.</summary>
    /// <returns>The value.</returns>
    public long GetInt64()
    {
        if (Type != FieldValueType.Int64 && Type != FieldValueType.Int64Legacy)
        {
            AmqpThrow.WrongValueType(Type, "an int64");
        }

        return BinaryPrimitives.ReadInt64BigEndian(_raw);
    }

    /// <summary>Any integer type (b B s u I i l L) widened to 64 bits; false for other types.</summary>
    /// <param name="value">The value, when there is one.</param>
    /// <returns>True when it succeeded; otherwise false (the out values are then default).</returns>
    public bool TryGetInteger(out long value)
    {
        switch (Type)
        {
            case FieldValueType.SByte: value = (sbyte)_raw[0]; return true;
            case FieldValueType.Byte: value = _raw[0]; return true;
            case FieldValueType.Int16: value = BinaryPrimitives.ReadInt16BigEndian(_raw); return true;
            case FieldValueType.UInt16: value = BinaryPrimitives.ReadUInt16BigEndian(_raw); return true;
            case FieldValueType.Int32: value = BinaryPrimitives.ReadInt32BigEndian(_raw); return true;
            case FieldValueType.UInt32: value = BinaryPrimitives.ReadUInt32BigEndian(_raw); return true;
            case FieldValueType.Int64 or FieldValueType.Int64Legacy: value = BinaryPrimitives.ReadInt64BigEndian(_raw); return true;
            default: value = 0; return false;
        }
    }

    /// <summary>The value of an <c>f</c> value.</summary>
    /// <returns>The value.</returns>
    public float GetSingle() => BinaryPrimitives.ReadSingleBigEndian(Expect(FieldValueType.Single, "a float"));

    /// <summary>The value of a <c>d</c> value.</summary>
    /// <returns>The value.</returns>
    public double GetDouble() => BinaryPrimitives.ReadDoubleBigEndian(Expect(FieldValueType.Double, "a double"));

    /// <summary>The value of a <c>D</c> value.</summary>
    /// <returns>The value.</returns>
    public AmqpDecimal GetDecimal()
    {
        ReadOnlySpan<byte> raw = Expect(FieldValueType.Decimal, "a decimal");
        return new AmqpDecimal(raw[0], BinaryPrimitives.ReadInt32BigEndian(raw[1..]));
    }

    /// <summary>The value of a <c>T</c> value.</summary>
    /// <returns>The value.</returns>
    public AmqpTimestamp GetTimestamp() => new(BinaryPrimitives.ReadInt64BigEndian(Expect(FieldValueType.Timestamp, "a timestamp")));

    /// <summary>The bytes of an <c>S</c> value (a longstr: usually UTF-8 text, but any bytes).</summary>
    /// <returns>The value.</returns>
    public ReadOnlySpan<byte> GetLongString() => Expect(FieldValueType.LongString, "a longstr");

    /// <summary>The bytes of an <c>S</c> value decoded as UTF-8 (invalid sequences become U+FFFD). Allocates the string.</summary>
    /// <returns>The value.</returns>
    public string GetString() => Encoding.UTF8.GetString(GetLongString());

    /// <summary>The bytes of an <c>x</c> value.</summary>
    /// <returns>The value.</returns>
    public ReadOnlySpan<byte> GetByteArray() => Expect(FieldValueType.ByteArray, "a byte array");

    /// <summary>The nested table of an <c>F</c> value.</summary>
    /// <returns>The value.</returns>
    public FieldTableReader GetTable() => new(Expect(FieldValueType.Table, "a table"), Offset);

    /// <summary>The array of an <c>A</c> value.</summary>
    /// <returns>The value.</returns>
    public FieldArrayReader GetArray() => new(Expect(FieldValueType.Array, "an array"), Offset);

    private ReadOnlySpan<byte> Expect(FieldValueType type, string name)
    {
        if (Type != type)
        {
            AmqpThrow.WrongValueType(Type, name);
        }

        return _raw;
    }
}
