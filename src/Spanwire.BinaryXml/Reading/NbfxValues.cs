using System.Buffers.Binary;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Unicode;
using System.Xml;

namespace Spanwire.BinaryXml.Reading;

/// <summary>
/// A text value as the record holds it: its kind, its payload bytes and, for dictionary kinds, the looked-up string.
/// Conversions read the payload directly; only <see cref="ToText"/> makes a string.
/// </summary>
internal readonly ref struct NbfxValue
{
    public readonly NbfxValueType Type;
    public readonly ReadOnlySpan<byte> Payload;
    public readonly XmlDictionaryString? DictionaryString;
    public readonly int QNamePrefixLetter;
    public readonly long Offset;

    public NbfxValue(NbfxValueType type, ReadOnlySpan<byte> payload, XmlDictionaryString? dictionaryString, int qnamePrefixLetter, long offset)
    {
        Type = type;
        Payload = payload;
        DictionaryString = dictionaryString;
        QNamePrefixLetter = qnamePrefixLetter;
        Offset = offset;
    }

    /// <summary>True for the integer kinds (Zero, One, Int8..Int64).</summary>
    public bool IsInteger => Type is NbfxValueType.Zero or NbfxValueType.One or NbfxValueType.Int8 or NbfxValueType.Int16
        or NbfxValueType.Int32 or NbfxValueType.Int64;

    /// <summary>True for the kinds whose value is characters (Chars, UnicodeChars, Empty, Dictionary).</summary>
    public bool IsCharacters => Type is NbfxValueType.Chars or NbfxValueType.UnicodeChars or NbfxValueType.Empty or NbfxValueType.Dictionary;

    public long ToInt64() => Type switch
    {
        NbfxValueType.Zero => 0,
        NbfxValueType.One => 1,
        NbfxValueType.Int8 => (sbyte)Payload[0],
        NbfxValueType.Int16 => BinaryPrimitives.ReadInt16LittleEndian(Payload),
        NbfxValueType.Int32 => BinaryPrimitives.ReadInt32LittleEndian(Payload),
        NbfxValueType.Int64 => BinaryPrimitives.ReadInt64LittleEndian(Payload),
        NbfxValueType.UInt64 when BinaryPrimitives.ReadUInt64LittleEndian(Payload) <= long.MaxValue => (long)BinaryPrimitives.ReadUInt64LittleEndian(Payload),
        _ => ThrowNotA<long>("an Int64"),
    };

    public int ToInt32()
    {
        long value = ToInt64();
        return value is >= int.MinValue and <= int.MaxValue ? (int)value : ThrowNotA<int>("an Int32");
    }

    public ulong ToUInt64() => Type == NbfxValueType.UInt64 ? BinaryPrimitives.ReadUInt64LittleEndian(Payload)
        : IsInteger && ToInt64() >= 0 ? (ulong)ToInt64() : ThrowNotA<ulong>("a UInt64");

    public double ToDouble() => Type switch
    {
        NbfxValueType.Double => BinaryPrimitives.ReadDoubleLittleEndian(Payload),
        NbfxValueType.Float => BinaryPrimitives.ReadSingleLittleEndian(Payload),
        NbfxValueType.UInt64 => BinaryPrimitives.ReadUInt64LittleEndian(Payload),
        _ => IsInteger ? ToInt64() : ThrowNotA<double>("a Double"),
    };

    public float ToSingle() => Type switch
    {
        NbfxValueType.Float => BinaryPrimitives.ReadSingleLittleEndian(Payload),
        NbfxValueType.Double => (float)BinaryPrimitives.ReadDoubleLittleEndian(Payload),
        NbfxValueType.UInt64 => BinaryPrimitives.ReadUInt64LittleEndian(Payload),
        _ => IsInteger ? ToInt64() : ThrowNotA<float>("a Single"),
    };

    public decimal ToDecimal()
    {
        if (Type == NbfxValueType.Decimal)
        {
            bool valid = NbfxPrimitives.TryReadDecimal(Payload, out decimal value);
            Debug.Assert(valid, "validated when the record was parsed");
            return value;
        }

        return Type == NbfxValueType.UInt64 ? BinaryPrimitives.ReadUInt64LittleEndian(Payload)
            : IsInteger ? ToInt64() : ThrowNotA<decimal>("a Decimal");
    }

    public bool ToBoolean() => Type switch
    {
        NbfxValueType.True => true,
        NbfxValueType.False => false,
        NbfxValueType.Bool => Payload[0] != 0,
        _ => ThrowNotA<bool>("a Boolean"),
    };

    public DateTime ToDateTime()
    {
        if (Type != NbfxValueType.DateTime)
        {
            return ThrowNotA<DateTime>("a DateTime");
        }

        bool valid = NbfxPrimitives.TryDateTimeFromBinary(BinaryPrimitives.ReadInt64LittleEndian(Payload), out DateTime value);
        Debug.Assert(valid, "validated when the record was parsed");
        return value;
    }

    public TimeSpan ToTimeSpan() => Type == NbfxValueType.TimeSpan
        ? new TimeSpan(BinaryPrimitives.ReadInt64LittleEndian(Payload))
        : ThrowNotA<TimeSpan>("a TimeSpan");

    public Guid ToGuid() => Type is NbfxValueType.Guid or NbfxValueType.UniqueId
        ? new Guid(Payload)
        : ThrowNotA<Guid>("a Guid");

    public UniqueId ToUniqueId() => Type is NbfxValueType.UniqueId or NbfxValueType.Guid
        ? new UniqueId(new Guid(Payload))
        : new UniqueId(ToText());

    /// <summary>The number of UTF-16 chars of a characters value (Chars, UnicodeChars, Empty, Dictionary).</summary>
    public int GetCharCount() => Type switch
    {
        // Checked first: counting text that is not UTF-8 would allocate for every bad sequence, and its string is refused anyway.
        NbfxValueType.Chars => Utf8.IsValid(Payload) ? Encoding.UTF8.GetCharCount(Payload) : ThrowInvalidUtf8Count(),
        NbfxValueType.UnicodeChars => Payload.Length / 2,
        NbfxValueType.Dictionary => DictionaryString!.Value.Length,
        NbfxValueType.Empty => 0,
        _ => ThrowNotA<int>("characters"),
    };

    /// <summary>Copies a characters value into <paramref name="destination"/>; returns the chars written.</summary>
    public int CopyChars(scoped Span<char> destination)
    {
        switch (Type)
        {
            case NbfxValueType.Chars:
                if (Utf8.ToUtf16(Payload, destination, out _, out int written, replaceInvalidSequences: false) != System.Buffers.OperationStatus.Done)
                {
                    ThrowInvalidUtf8();
                }

                return written;
            case NbfxValueType.UnicodeChars:
                ReadOnlySpan<byte> bytes = Payload;
                if (destination.Length < bytes.Length / 2)
                {
                    throw new ArgumentException("The destination is too short for the text.", nameof(destination));
                }

                for (int i = 0; i < bytes.Length / 2; i++)
                {
                    destination[i] = (char)BinaryPrimitives.ReadUInt16LittleEndian(bytes[(2 * i)..]);
                }

                CheckUtf16(destination[..(bytes.Length / 2)]);
                return bytes.Length / 2;
            case NbfxValueType.Dictionary:
                DictionaryString!.Value.CopyTo(destination);
                return DictionaryString.Value.Length;
            case NbfxValueType.Empty:
                return 0;
            default:
                return ThrowNotA<int>("characters");
        }
    }

    /// <summary>The value as the in-box reader shows it in <see cref="XmlReader.Value"/>.</summary>
    public string ToText() => Type switch
    {
        NbfxValueType.Chars => Utf8ToString(),
        NbfxValueType.UnicodeChars => BitConverter.IsLittleEndian
            ? CheckUtf16(new string(MemoryMarshal.Cast<byte, char>(Payload)))
            : string.Create(Payload.Length / 2, this.Payload.ToArray(), static (d, b) => new NbfxValue(NbfxValueType.UnicodeChars, b, null, 0, 0).CopyChars(d)),
        NbfxValueType.Empty or NbfxValueType.StartList or NbfxValueType.EndList => "",
        NbfxValueType.Dictionary => DictionaryString!.Value,
        NbfxValueType.Zero => "0",
        NbfxValueType.One => "1",
        NbfxValueType.False => "false",
        NbfxValueType.True => "true",
        NbfxValueType.Bool => ToBoolean() ? "true" : "false",
        NbfxValueType.Int8 or NbfxValueType.Int16 or NbfxValueType.Int32 or NbfxValueType.Int64 => ToInt64().ToString(CultureInfo.InvariantCulture),
        NbfxValueType.UInt64 => ToUInt64().ToString(CultureInfo.InvariantCulture),
        NbfxValueType.Float => XmlConvert.ToString(ToSingle()),
        NbfxValueType.Double => XmlConvert.ToString(ToDouble()),
        NbfxValueType.Decimal => XmlConvert.ToString(ToDecimal()),
        NbfxValueType.DateTime => XmlConvert.ToString(ToDateTime(), XmlDateTimeSerializationMode.RoundtripKind),
        NbfxValueType.TimeSpan => XmlConvert.ToString(ToTimeSpan()),
        NbfxValueType.Guid => ToGuid().ToString(),
        NbfxValueType.UniqueId => ToUniqueId().ToString(),
        NbfxValueType.Bytes => Convert.ToBase64String(Payload),
        NbfxValueType.QNameDictionary => string.Concat(((char)('a' + QNamePrefixLetter)).ToString(), ":", DictionaryString!.Value),
        _ => "",
    };

    /// <summary>The CLR type the in-box reader gives a kind of value (its ValueType and ReadContentAsObject).</summary>
    public static Type ClrTypeOf(NbfxValueType type) => type switch
    {
        NbfxValueType.False or NbfxValueType.True or NbfxValueType.Bool => typeof(bool),
        NbfxValueType.Zero or NbfxValueType.One or NbfxValueType.Int8 or NbfxValueType.Int16 or NbfxValueType.Int32 => typeof(int),
        NbfxValueType.Int64 => typeof(long),
        NbfxValueType.UInt64 => typeof(ulong),
        NbfxValueType.Float => typeof(float),
        NbfxValueType.Double => typeof(double),
        NbfxValueType.Decimal => typeof(decimal),
        NbfxValueType.DateTime => typeof(DateTime),
        NbfxValueType.TimeSpan => typeof(TimeSpan),
        NbfxValueType.Guid => typeof(Guid),
        NbfxValueType.UniqueId => typeof(UniqueId),
        NbfxValueType.Bytes => typeof(byte[]),
        NbfxValueType.StartList => typeof(object[]),
        _ => typeof(string),
    };

    /// <summary>The value as an object of its <see cref="ClrTypeOf"/> type.</summary>
    public object ToObject() => Type switch
    {
        NbfxValueType.False or NbfxValueType.True or NbfxValueType.Bool => ToBoolean(),
        NbfxValueType.Zero or NbfxValueType.One or NbfxValueType.Int8 or NbfxValueType.Int16 or NbfxValueType.Int32 => ToInt32(),
        NbfxValueType.Int64 => ToInt64(),
        NbfxValueType.UInt64 => ToUInt64(),
        NbfxValueType.Float => ToSingle(),
        NbfxValueType.Double => ToDouble(),
        NbfxValueType.Decimal => ToDecimal(),
        NbfxValueType.DateTime => ToDateTime(),
        NbfxValueType.TimeSpan => ToTimeSpan(),
        NbfxValueType.Guid => ToGuid(),
        NbfxValueType.UniqueId => ToUniqueId(),
        NbfxValueType.Bytes => Payload.ToArray(),
        _ => ToText(),
    };

    /// <summary>
    /// Rejects UTF-16 text with a lone surrogate, as the in-box reader does (it reads such a record as malformed); the
    /// common text, with no surrogates at all, is one vectorized search.
    /// </summary>
    private string CheckUtf16(string text)
    {
        CheckUtf16(text.AsSpan());
        return text;
    }

    private void CheckUtf16(ReadOnlySpan<char> text)
    {
        int i = text.IndexOfAnyInRange('\uD800', '\uDFFF');
        if (i < 0)
        {
            return;
        }

        for (; i < text.Length; i++)
        {
            if (char.IsHighSurrogate(text[i]) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
            {
                i++;
            }
            else if (char.IsSurrogate(text[i]))
            {
                ThrowLoneSurrogate();
            }
        }
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowLoneSurrogate() => throw new NbfxFormatException("UTF-16 text with a lone surrogate", Offset);

    private const int ShortText = 128;

    private static readonly UTF8Encoding s_strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>The text: short ASCII widened as it is, anything else checked and decoded in one pass.</summary>
    private string Utf8ToString()
    {
        // Most text is short ASCII: one check and one widening copy, without the decoder's count-then-transcode setup.
        ReadOnlySpan<byte> payload = Payload;
        if (payload.Length <= ShortText && Ascii.IsValid(payload))
        {
            return string.Create(payload.Length, payload, static (chars, bytes) => Ascii.ToUtf16(bytes, chars, out _));
        }

        try
        {
            return s_strictUtf8.GetString(payload);
        }
        catch (DecoderFallbackException)
        {
            ThrowInvalidUtf8();
            return "";
        }
    }

    private int ThrowInvalidUtf8Count()
    {
        ThrowInvalidUtf8();
        return 0;
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowInvalidUtf8() => throw new NbfxFormatException("text that is not valid UTF-8", Offset);

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T ThrowNotA<T>(string what) =>
        throw new InvalidOperationException($"The value at byte offset {Offset} is {Type}, not {what}.");
}
