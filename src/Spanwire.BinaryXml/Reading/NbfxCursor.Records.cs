using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Text;
using System.Text.Unicode;
using System.Xml;

namespace Spanwire.BinaryXml.Reading;

// Parsing one record at the current position. A parse that runs out of window returns 0 and says how many bytes
// (from the record's start) it needs at least; nothing is changed until the whole record is present.
internal partial struct NbfxCursor
{
    /// <summary>Text record kinds by (record − 0x80) / 2.</summary>
    private static ReadOnlySpan<byte> TextKinds =>
    [
        (byte)NbfxValueType.Zero, (byte)NbfxValueType.One, (byte)NbfxValueType.False, (byte)NbfxValueType.True,
        (byte)NbfxValueType.Int8, (byte)NbfxValueType.Int16, (byte)NbfxValueType.Int32, (byte)NbfxValueType.Int64,
        (byte)NbfxValueType.Float, (byte)NbfxValueType.Double, (byte)NbfxValueType.Decimal, (byte)NbfxValueType.DateTime,
        (byte)NbfxValueType.Chars, (byte)NbfxValueType.Chars, (byte)NbfxValueType.Chars,
        (byte)NbfxValueType.Bytes, (byte)NbfxValueType.Bytes, (byte)NbfxValueType.Bytes,
        (byte)NbfxValueType.StartList, (byte)NbfxValueType.EndList, (byte)NbfxValueType.Empty, (byte)NbfxValueType.Dictionary,
        (byte)NbfxValueType.UniqueId, (byte)NbfxValueType.TimeSpan, (byte)NbfxValueType.Guid, (byte)NbfxValueType.UInt64,
        (byte)NbfxValueType.Bool,
        (byte)NbfxValueType.UnicodeChars, (byte)NbfxValueType.UnicodeChars, (byte)NbfxValueType.UnicodeChars,
        (byte)NbfxValueType.QNameDictionary,
    ];

    /// <summary>Payload bytes of the fixed-size text records by (record − 0x80) / 2; 0xFF for the others.</summary>
    private static ReadOnlySpan<byte> FixedSizes =>
    [
        0, 0, 0, 0, 1, 2, 4, 8, 4, 8, 16, 8,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0, 0, 0, 0xFF,
        16, 8, 16, 8, 1,
        0xFF, 0xFF, 0xFF, 0xFF,
    ];

    /// <summary>The value type of text record <paramref name="record"/>, and its payload's size when fixed (lists: 0); −1 for a payload with a length or a dictionary id.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int FixedPayloadSize(byte record, out NbfxValueType type)
    {
        int kindIndex = (record - NbfxRecord.ZeroText) >> 1;
        type = (NbfxValueType)TextKinds[kindIndex];
        int size = FixedSizes[kindIndex];
        return size == 0xFF ? -1 : size;
    }

    /// <summary>False for the payloads <see cref="CheckFixedSizeValue"/> refuses: a decimal's flags, a DateTime's ticks.</summary>
    private static bool IsValidFixedSizeValue(NbfxValueType type, ReadOnlySpan<byte> payload) => type switch
    {
        NbfxValueType.Decimal => NbfxPrimitives.IsValidDecimal(payload),
        NbfxValueType.DateTime => NbfxPrimitives.IsValidDateTimeBinary(BinaryPrimitives.ReadInt64LittleEndian(payload)),
        _ => true,
    };

    /// <summary>Bytes per item of the array value types, by value type; 0 for types arrays do not have.</summary>
    internal static int ArrayItemSizeOf(NbfxValueType type) => type switch
    {
        NbfxValueType.Bool => 1,
        NbfxValueType.Int16 => 2,
        NbfxValueType.Int32 or NbfxValueType.Float => 4,
        NbfxValueType.Int64 or NbfxValueType.Double or NbfxValueType.DateTime or NbfxValueType.TimeSpan => 8,
        NbfxValueType.Decimal or NbfxValueType.Guid => 16,
        _ => 0,
    };

    // The hot path keeps its frame small: the common records (text, element, attribute, end element) are parsed by
    // methods that write the token fields directly, and everything rare sits behind a call.
    private int ParseRecord(ReadOnlySpan<byte> w, out int needed)
    {
        int p = _pos;
        byte record = w[p];
        if (((int)_arrayPhase | (int)_list) != 0)
        {
            return ParseInArrayOrList(w, record, out needed);
        }

        if (NbfxRecord.IsText(record))
        {
            _inStartTag = false;
            return ParseContentText(w, record, out needed);
        }

        if (record is >= NbfxRecord.ShortElement and <= NbfxRecord.PrefixElementZ)
        {
            _inStartTag = false;
            return ParseElement(w, p, p + 1, record, isArray: false, out needed);
        }

        if (IsAttributeRecord(record))
        {
            return ParseAttribute(w, record, out needed);
        }

        _inStartTag = false;
        if (record == NbfxRecord.EndElement)
        {
            needed = 0;
            if (_depth == 0)
            {
                ThrowFormat("end element record with no open element", _windowOffset + p);
            }

            _depth--;
            Token = NbfxTokenType.EndElement;
            TokenDepth = _depth;
            TokenOffset = _windowOffset + p;
            Record = record;
            return 1;
        }

        return ParseRareRecord(w, record, out needed);
    }

    /// <summary>Inside a list, or between an array record's element and its values.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int ParseInArrayOrList(ReadOnlySpan<byte> w, byte record, out int needed)
    {
        // A list in an attribute of an array's element runs to its end before the array's values.
        if (_list != ListPhase.None)
        {
            return ParseListItem(w, record, out needed);
        }

        return IsAttributeRecord(record) ? ParseAttribute(w, record, out needed) : ParseArrayValues(w, out needed);
    }

    /// <summary>Comments, array records, and the bytes that are no record.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int ParseRareRecord(ReadOnlySpan<byte> w, byte record, out int needed)
    {
        needed = 0;
        int p = _pos;
        long at = _windowOffset + p;
        switch (record)
        {
            case NbfxRecord.Comment:
                {
                    int q = p + 1;
                    if (!TryName(w, ref q, out int start, out int length, checkQuota: false, ref needed))
                    {
                        return 0;
                    }

                    CheckStringQuota(w.Slice(start, length), utf16: false, _windowOffset + start);
                    SetToken(NbfxTokenType.Comment, record, at, _depth);
                    SetValue(NbfxValueType.Chars, start, length);
                    return q - p;
                }
            case NbfxRecord.Array:
                {
                    if (p + 2 > w.Length)
                    {
                        needed = 2;
                        return 0;
                    }

                    byte element = w[p + 1];
                    if (element is < NbfxRecord.ShortElement or > NbfxRecord.PrefixElementZ)
                    {
                        ThrowFormat("an array record must start with an element record, not 0x{0:X2}", element, at + 1);
                    }

                    return ParseElement(w, p, p + 2, element, isArray: true, out needed);
                }
            default:
                ThrowFormat("record 0x{0:X2} is not a valid record here", record, at);
                return 0;
        }
    }

    /// <summary>
    /// The bytes a record needs from its start to <paramref name="end"/> (a window index). A record is copied whole
    /// when it straddles segments, so one past 2^31 − 1 bytes cannot be read; before the input's end is known (a
    /// stream) a length field can claim that much.
    /// </summary>
    private readonly int Needed(long end)
    {
        long needed = end - _pos;
        if (needed > Array.MaxLength)
        {
            ThrowFormat("a record of {0} bytes is longer than any array", needed, _windowOffset + _pos);
        }

        return (int)needed;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsAttributeRecord(byte record) => record is >= NbfxRecord.ShortAttribute and <= NbfxRecord.PrefixAttributeZ;

    private void SetToken(NbfxTokenType token, byte record, long at, int depth)
    {
        Token = token;
        Record = record;
        TokenOffset = at;
        TokenDepth = depth;
        IsArrayElement = false;
        NameString = null;
        ValueString = null;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void SetValue(NbfxValueType type, int start, int length)
    {
        ValueType = type;
        ValueStart = start;
        ValueLength = length;
        ValueOffset = _windowOffset + start;
    }

    private int ParseElement(ReadOnlySpan<byte> w, int p, int q, byte element, bool isArray, out int needed)
    {
        needed = 0;
        if (!TryRecordName(w, ref q, element, NbfxRecord.ShortElement, NbfxRecord.PrefixDictionaryElementA, NbfxRecord.PrefixElementA, p, ref needed))
        {
            return 0;
        }

        if (_depth >= _maxDepth)
        {
            ThrowFormat("elements nest deeper than the MaxDepth quota ({0})", _maxDepth, _windowOffset + p);
        }

        Token = NbfxTokenType.StartElement;
        Record = element;
        TokenOffset = _windowOffset + p;
        TokenDepth = _depth;
        IsArrayElement = isArray;
        ValueString = null;
        _depth++;
        _inStartTag = true;
        _arrayPhase = isArray ? ArrayPhase.Attributes : ArrayPhase.None;
        return q - p;
    }

    /// <summary>The six ways element and attribute records give a name, in the order of their record bytes.</summary>
    private enum NameForm : byte { Short, Prefixed, ShortDictionary, PrefixedDictionary, LetterDictionary, Letter }

    /// <summary>
    /// Reads the prefix and local name of the element or attribute record at <paramref name="p"/> into the name
    /// fields. Both families lay out their forms alike: short, prefixed, short dictionary, prefixed dictionary from
    /// <paramref name="shortRecord"/>, then the a..z dictionary forms and the a..z name forms. On a short window the
    /// fields may be half written; the record is parsed again once it is whole.
    /// </summary>
    private bool TryRecordName(ReadOnlySpan<byte> w, ref int q, int record, int shortRecord, int letterDictionaryA, int letterA, int p, ref int needed)
    {
        NameForm form = record >= letterA ? NameForm.Letter : record >= letterDictionaryA ? NameForm.LetterDictionary : (NameForm)(record - shortRecord);
        PrefixLetter = form == NameForm.Letter ? record - letterA : form == NameForm.LetterDictionary ? record - letterDictionaryA : -1;
        PrefixLength = 0;
        NameString = null;
        if (form is NameForm.Prefixed or NameForm.PrefixedDictionary
            && !TryName(w, ref q, out PrefixStart, out PrefixLength, checkQuota: true, ref needed))
        {
            return false;
        }

        if (form is NameForm.ShortDictionary or NameForm.PrefixedDictionary or NameForm.LetterDictionary)
        {
            NameLength = 0;
            if (!TryDictionary(w, ref q, out NameString, ref needed))
            {
                return false;
            }

            if (NameString!.Value.Length == 0 && record >= NbfxRecord.ShortElement)
            {
                ThrowEmptyName(record, _windowOffset + p); // an empty dictionary string names no element either
            }

            return true;
        }

        if (!TryName(w, ref q, out int start, out int length, checkQuota: true, ref needed))
        {
            return false;
        }

        if (length == 0)
        {
            ThrowEmptyName(record, _windowOffset + p);
        }

        NameStart = start;
        NameLength = length;
        return true;
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowEmptyName(int record, long at) =>
        ThrowStricter(record >= NbfxRecord.ShortElement ? "an element has an empty name" : "an attribute has an empty name", at);

    private int ParseAttribute(ReadOnlySpan<byte> w, byte record, out int needed)
    {
        needed = 0;
        int p = _pos;
        if (!_inStartTag)
        {
            ThrowFormat("attribute record 0x{0:X2} outside a start tag", record, _windowOffset + p);
        }

        if (record is >= NbfxRecord.ShortXmlnsAttribute and <= NbfxRecord.DictionaryXmlnsAttribute)
        {
            return ParseNamespaceDeclaration(w, record, out needed);
        }

        int q = p + 1;
        if (!TryRecordName(w, ref q, record, NbfxRecord.ShortAttribute, NbfxRecord.PrefixDictionaryAttributeA, NbfxRecord.PrefixAttributeA, p, ref needed))
        {
            return 0;
        }

        if (q >= w.Length)
        {
            needed = q - p + 1;
            return 0;
        }

        byte text = w[q];
        if (!NbfxRecord.IsText(text) || (text & 1) != 0 || text == NbfxRecord.EndListText)
        {
            ThrowFormat("record 0x{0:X2} is not a valid attribute value", text, _windowOffset + q);
        }

        int valueEnd = ParseTextPayload(w, q, text, out needed);
        if (valueEnd < 0)
        {
            return 0;
        }

        Token = NbfxTokenType.Attribute;
        Record = record;
        TokenOffset = _windowOffset + p;
        TokenDepth = _depth;
        IsArrayElement = false;
        if (ValueType == NbfxValueType.StartList)
        {
            _list = ListPhase.Attribute;
        }

        return valueEnd - p;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private int ParseNamespaceDeclaration(ReadOnlySpan<byte> w, byte record, out int needed)
    {
        needed = 0;
        int p = _pos;
        int q = p + 1;
        int prefixStart = 0, prefixLength = 0;
        if (record is NbfxRecord.XmlnsAttribute or NbfxRecord.DictionaryXmlnsAttribute
            && !TryName(w, ref q, out prefixStart, out prefixLength, checkQuota: true, ref needed))
        {
            return 0;
        }
        // The namespace is the value: a name, or a dictionary string.
        int valueStart = 0, valueLength = 0;
        XmlDictionaryString? ns = null;
        if (record is NbfxRecord.ShortXmlnsAttribute or NbfxRecord.XmlnsAttribute)
        {
            if (!TryName(w, ref q, out valueStart, out valueLength, checkQuota: true, ref needed)) return 0;
        }
        else if (!TryDictionary(w, ref q, out ns, ref needed))
        {
            return 0;
        }

        if (prefixLength > 0 && (ns is null ? valueLength == 0 : ns.Value.Length == 0))
        {
            // xmlns:p="" undeclares nothing in XML 1.0: the in-box reader rejects it too.
            ThrowFormat("a prefix declared with the empty namespace", _windowOffset + p);
        }

        SetToken(NbfxTokenType.NamespaceDeclaration, record, _windowOffset + p, _depth);
        PrefixLetter = -1;
        PrefixStart = prefixStart;
        PrefixLength = prefixLength;
        NameStart = 0;
        NameLength = 0;
        SetValue(ns is null ? NbfxValueType.Chars : NbfxValueType.Dictionary, valueStart, valueLength);
        ValueString = ns;
        return q - p;
    }

    private int ParseContentText(ReadOnlySpan<byte> w, byte record, out int needed)
    {
        int p = _pos;
        long at = _windowOffset + p;
        bool withEnd = (record & 1) != 0;
        if (withEnd && _depth == 0)
        {
            ThrowFormat("a text record with end element outside any element", at);
        }

        if (record is NbfxRecord.EndListText or NbfxRecord.EndListText + 1 || (record == NbfxRecord.StartListText + 1))
        {
            ThrowFormat("record 0x{0:X2} is not valid outside a list", record, at);
        }

        int end = ParseTextPayload(w, p, record, out needed);
        if (end < 0)
        {
            return 0;
        }

        Token = NbfxTokenType.Text;
        Record = record;
        TokenOffset = at;
        TokenDepth = _depth;
        IsArrayElement = false;
        NameString = null;
        if (ValueType == NbfxValueType.StartList)
        {
            _list = ListPhase.Content;
        }

        _pendingEnd = withEnd;
        if (IsTextToSplit)
        {
            StartSplit(w);
        }

        return end - p;
    }

    private int ParseListItem(ReadOnlySpan<byte> w, byte record, out int needed)
    {
        int p = _pos;
        long at = _windowOffset + p;
        if (!NbfxRecord.IsText(record) || (record & 1) != 0 && record != NbfxRecord.EndListText + 1 || record == NbfxRecord.StartListText)
        {
            ThrowFormat("record 0x{0:X2} is not a valid list item", record, at);
        }

        bool withEnd = record == NbfxRecord.EndListText + 1;
        if (withEnd && _list != ListPhase.Content)
        {
            ThrowFormat("a list in an attribute cannot end its element", at);
        }

        if (withEnd && _depth == 0)
        {
            ThrowFormat("a text record with end element outside any element", at);
        }

        int end = ParseTextPayload(w, p, record, out needed);
        if (end < 0)
        {
            return 0;
        }

        Token = NbfxTokenType.Text;
        Record = record;
        TokenOffset = at;
        TokenDepth = _list == ListPhase.Attribute ? _depth + 1 : _depth;
        NameString = null;
        if (ValueType == NbfxValueType.EndList)
        {
            _list = ListPhase.None;
            _pendingEnd = withEnd;
        }

        return end - p;
    }

    private int ParseArrayValues(ReadOnlySpan<byte> w, out int needed)
    {
        needed = 0;
        int p = _pos;
        long at = _windowOffset + p;
        if (w[p] != NbfxRecord.EndElement)
        {
            ThrowFormat("an array's element must end (0x01) before its values, not 0x{0:X2}", w[p], at);
        }

        if (p + 2 > w.Length)
        {
            needed = 2;
            return 0;
        }

        byte typeRecord = w[p + 1];
        NbfxValueType type = (typeRecord & 1) != 0 && NbfxRecord.IsText(typeRecord) ? (NbfxValueType)TextKinds[(typeRecord - 0x80) >> 1] : NbfxValueType.None;
        int size = ArrayItemSizeOf(type);
        if (size == 0)
        {
            ThrowFormat("0x{0:X2} is not an array value type", typeRecord, at + 1);
        }

        OperationStatus status = NbfxPrimitives.TryReadMultiByteInt31(w[(p + 2)..], out int count, out int countLength);
        if (status == OperationStatus.NeedMoreData)
        {
            needed = Math.Max(w.Length - p + 1, 3);
            return 0;
        }

        if (status != OperationStatus.Done)
        {
            ThrowFormat("invalid MB31 array count", at + 2);
        }

        if (count == 0)
        {
            ThrowFormat("an array record with no items", at + 2);
        }

        if (count > _maxArrayLength)
        {
            ThrowFormat("an array of {0} items exceeds the MaxArrayLength quota ({1})", count, _maxArrayLength, at + 2);
        }

        int headerLength = 2 + countLength;
        long valuesLeft = _length - (at + headerLength);
        if ((long)count * size > valuesLeft)
        {
            ThrowFormat("an array of {0} items of {1} bytes runs past the end of the input", count, size, at + headerLength);
        }

        _depth--;
        _inStartTag = false;
        _arrayPhase = ArrayPhase.None;
        Token = NbfxTokenType.Array;
        Record = NbfxRecord.Array;
        TokenOffset = at;
        TokenDepth = _depth;
        ArrayType = type;
        ArrayCount = count;
        _arrayRemaining = count;
        _arrayItemSize = size;
        return headerLength;
    }

    /// <summary>
    /// Parses the text record at <paramref name="p"/> and sets the value fields; returns the offset after it, or −1 with
    /// <paramref name="needed"/> counted, like every other need, from the start of the current record.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int ParseTextPayload(ReadOnlySpan<byte> w, int p, byte record, out int needed)
    {
        // The fixed-size records inline where they are parsed; the others (a length or a dictionary id) are a call.
        int size = FixedPayloadSize(record, out NbfxValueType type);
        if (size < 0)
        {
            if (TryCharsPayload(w, p, record, wide: false, out int start, out int length))
            {
                needed = 0;
                ValueString = null;
                SetValue(NbfxValueType.Chars, start, length);
                return start + length;
            }

            return ParseSizedTextPayload(w, p, record, type, out needed);
        }

        needed = 0;
        int q = p + 1;
        ValueString = null;
        if (q + size > w.Length)
        {
            needed = q + size - _pos;
            return -1;
        }

        CheckFixedSizeValue(type, w.Slice(q, size), _windowOffset + q);
        SetValue(type, q, size);
        return q + size;
    }

    /// <summary>
    /// The payload of a Chars8 record (and, with <paramref name="wide"/>, a Chars16 one) whole in the window and within
    /// the string quota: most texts, for which every check of <see cref="ParseSizedTextPayload"/> holds. False, with
    /// nothing read, for any other record.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly bool TryCharsPayload(ReadOnlySpan<byte> w, int p, byte record, bool wide, out int start, out int length)
    {
        // The Chars8 test comes first and alone: with wide false (the general step) the rest folds away.
        start = p + 2;
        length = 0;
        if ((record | 1) == NbfxRecord.Chars8Text + 1)
        {
            if (start > w.Length)
            {
                return false;
            }

            length = w[p + 1];
        }
        else if (wide && (record | 1) == NbfxRecord.Chars16Text + 1)
        {
            start = p + 3;
            if (start > w.Length)
            {
                return false;
            }

            length = BinaryPrimitives.ReadUInt16LittleEndian(w[(p + 1)..]);
        }
        else
        {
            return false;
        }

        return length <= w.Length - start && length <= _maxStringContentLength;
    }

    /// <summary>The payload of a text record with a length (Chars, Bytes, UnicodeChars) or a dictionary id.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int ParseSizedTextPayload(ReadOnlySpan<byte> w, int p, byte record, NbfxValueType type, out int needed)
    {
        needed = 0;
        int q = p + 1;
        long at = _windowOffset + p;
        ValueString = null;
        switch (type)
        {
            case NbfxValueType.Chars:
            case NbfxValueType.Bytes:
            case NbfxValueType.UnicodeChars:
                {
                    int lengthSize = (record - (type == NbfxValueType.Chars ? NbfxRecord.Chars8Text : type == NbfxValueType.Bytes ? NbfxRecord.Bytes8Text : NbfxRecord.UnicodeChars8Text)) >> 1;
                    lengthSize = 1 << lengthSize; // 1, 2 or 4 bytes
                    if (q + lengthSize > w.Length)
                    {
                        needed = q + lengthSize - _pos;
                        return -1;
                    }

                    long length = lengthSize switch
                    {
                        1 => w[q],
                        2 => BinaryPrimitives.ReadUInt16LittleEndian(w[q..]),
                        _ => BinaryPrimitives.ReadInt32LittleEndian(w[q..]),
                    };
                    if (length < 0)
                    {
                        ThrowFormat("a negative text length", at + 1);
                    }

                    q += lengthSize;
                    if (length > _length - (_windowOffset + q))
                    {
                        ThrowFormat("a text of {0} bytes runs past the end of the input", length, at);
                    }

                    if (type == NbfxValueType.UnicodeChars && (length & 1) != 0)
                    {
                        ThrowFormat("UTF-16 text with an odd byte length", at + 1);
                    }

                    if (type == NbfxValueType.Bytes && length > _maxArrayLength)
                    {
                        ThrowFormat("{0} bytes exceed the MaxArrayLength quota ({1})", length, _maxArrayLength, at);
                    }

                    if (length > w.Length - q)
                    {
                        needed = Needed((long)q + length);
                        return -1;
                    }

                    if (type != NbfxValueType.Bytes)
                    {
                        CheckStringQuota(w.Slice(q, (int)length), type == NbfxValueType.UnicodeChars, at);
                    }

                    SetValue(type, q, (int)length);
                    return q + (int)length;
                }
            case NbfxValueType.Dictionary:
                {
                    if (!TryDictionary(w, ref q, out XmlDictionaryString? value, ref needed))
                    {
                        return -1;
                    }

                    SetValue(type, 0, 0);
                    ValueString = value;
                    return q;
                }
            default: // QNameDictionary
                {
                    if (q >= w.Length)
                    {
                        needed = q + 1 - _pos;
                        return -1;
                    }

                    int letter = w[q];
                    if (letter > 25)
                    {
                        ThrowFormat("QName prefix letter {0} is past 'z'", letter, at + 1);
                    }

                    q++;
                    if (!TryDictionary(w, ref q, out XmlDictionaryString? value, ref needed))
                    {
                        return -1;
                    }

                    SetValue(type, 0, 0);
                    ValueString = value;
                    QNamePrefixLetter = letter;
                    return q;
                }
        }
    }

    /// <summary>
    /// Reads an MB31 at <paramref name="q"/> (the <paramref name="what"/> of a name or dictionary reference); false
    /// with <paramref name="needed"/> set from the record start when the window ends inside it.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly bool TryMultiByteInt31(ReadOnlySpan<byte> w, int q, string what, out int value, out int consumed, ref int needed)
    {
        // Names and dictionary ids under 128 are one byte: nearly all of them.
        if ((uint)q < (uint)w.Length && w[q] < 0x80)
        {
            value = w[q];
            consumed = 1;
            return true;
        }

        return TryLongMultiByteInt31(w, q, what, out value, out consumed, ref needed);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly bool TryLongMultiByteInt31(ReadOnlySpan<byte> w, int q, string what, out int value, out int consumed, ref int needed)
    {
        OperationStatus status = NbfxPrimitives.TryReadMultiByteInt31(w[q..], out value, out consumed);
        if (status == OperationStatus.NeedMoreData)
        {
            needed = w.Length - _pos + 1;
            return false;
        }

        if (status != OperationStatus.Done)
        {
            ThrowFormat("invalid MB31 {0}", what, _windowOffset + q);
        }

        return true;
    }

    /// <summary>Reads a Name (MB31 byte length, UTF-8) at <paramref name="q"/>; on a short window sets <paramref name="needed"/> from the record start.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly bool TryName(ReadOnlySpan<byte> w, ref int q, out int start, out int length, bool checkQuota, ref int needed)
    {
        // Nearly every name is ASCII, under 128 bytes and whole in the window: one length byte, one or two loads.
        int s = q + 1;
        if ((uint)q < (uint)w.Length)
        {
            int n = w[q];
            if (n < 0x80 && n <= w.Length - s && !(checkQuota && n > _maxNameLength) && IsShortAscii(w, s, n))
            {
                start = s;
                length = n;
                q = s + n;
                return true;
            }
        }

        return TryAnyName(w, ref q, out start, out length, checkQuota, ref needed);
    }

    /// <summary>
    /// True when the <paramref name="n"/> bytes at <paramref name="s"/> (inside <paramref name="w"/>) are ASCII and at
    /// most 64 (namespace URIs included); false also when they cannot be checked with whole 8-byte loads.
    /// </summary>
    private static bool IsShortAscii(ReadOnlySpan<byte> w, int s, int n)
    {
        const ulong HighBits = 0x8080808080808080;
        if (n >= 8)
        {
            if (n > 32)
            {
                return n <= 64 && IsAscii33To64(w.Slice(s, n));
            }
            // Overlapping loads: the first and last 8 bytes, and for more than 16 the first and last 16.
            ulong any = BinaryPrimitives.ReadUInt64LittleEndian(w[s..]) | BinaryPrimitives.ReadUInt64LittleEndian(w[(s + n - 8)..]);
            if (n > 16)
            {
                any |= BinaryPrimitives.ReadUInt64LittleEndian(w[(s + 8)..]) | BinaryPrimitives.ReadUInt64LittleEndian(w[(s + n - 16)..]);
            }

            return (any & HighBits) == 0;
        }

        return w.Length - s >= 8 && (BinaryPrimitives.ReadUInt64LittleEndian(w[s..]) & ((1UL << (n * 8)) - 1) & HighBits) == 0;
    }

    /// <summary>Four overlapping 16-byte loads cover 33 to 64 bytes; a general validation costs more to set up than they do.</summary>
    private static bool IsAscii33To64(ReadOnlySpan<byte> name)
    {
        Vector128<byte> any = Vector128.Create(name) | Vector128.Create(name[16..])
            | Vector128.Create(name[^32..]) | Vector128.Create(name[^16..]);
        return any.ExtractMostSignificantBits() == 0;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly bool TryAnyName(ReadOnlySpan<byte> w, ref int q, out int start, out int length, bool checkQuota, ref int needed)
    {
        start = 0;
        length = 0;
        if (!TryMultiByteInt31(w, q, "length", out int value, out int consumed, ref needed))
        {
            return false;
        }

        int s = q + consumed;
        if (value > _length - (_windowOffset + s))
        {
            ThrowFormat("a name of {0} bytes runs past the end of the input", value, _windowOffset + q);
        }

        if (checkQuota && value > _maxNameLength)
        {
            CheckNameQuota(w, s, value, _windowOffset + q);
        }

        if (value > w.Length - s)
        {
            needed = Needed((long)s + value);
            return false;
        }

        if (!Utf8.IsValid(w.Slice(s, value)))
        {
            ThrowStricter("a name that is not valid UTF-8", _windowOffset + q);
        }

        start = s;
        length = value;
        q = s + value;
        return true;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void CheckNameQuota(ReadOnlySpan<byte> w, int s, int length, long at)
    {
        if (Utf16Length(w.Slice(s, Math.Min(length, w.Length - s))) > _maxNameLength)
        {
            ThrowFormat("a name longer than the MaxNameTableCharCount quota ({0})", _maxNameLength, at);
        }
    }

    /// <summary>Reads an MB31 dictionary id and looks it up: even ids in the static dictionary, odd ids in the session.</summary>
    private readonly bool TryDictionary(ReadOnlySpan<byte> w, ref int q, out XmlDictionaryString? value, ref int needed)
    {
        if (!TryMultiByteInt31(w, q, "dictionary id", out int id, out int consumed, ref needed))
        {
            value = null;
            return false;
        }

        value = Lookup(id, _windowOffset + q);
        q += consumed;
        return true;
    }

    // Its own frame: the lookup's out variable is a reference the caller's frame would have to clear on every record.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly XmlDictionaryString Lookup(int id, long at)
    {
        XmlDictionaryString? value = null;
        bool found = (id & 1) == 0
            ? _dictionary is not null && _dictionary.TryLookup(id >> 1, out value)
            : _session is not null && _session.TryLookup(id >> 1, out value);
        if (!found || value is null)
        {
            ThrowFormat((id & 1) == 0
                ? $"dictionary id {id} (key {id >> 1}) is not in the static dictionary"
                : $"dictionary id {id} (session key {id >> 1}) is not in the session", at);
        }

        return value;
    }

    /// <summary>A text within the quota by its byte count alone (nearly all) is not looked at further.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly void CheckStringQuota(ReadOnlySpan<byte> text, bool utf16, long at)
    {
        if (text.Length > _maxStringContentLength)
        {
            CheckLongStringQuota(text, utf16, at);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void CheckLongStringQuota(ReadOnlySpan<byte> text, bool utf16, long at)
    {
        int max = _maxStringContentLength;
        int chars = utf16 ? text.Length / 2 : Utf16Length(text);
        if (chars > max)
        {
            ThrowFormat("a string of {0} chars exceeds the MaxStringContentLength quota ({1})", chars, max, at);
        }
    }

    /// <summary>
    /// The UTF-16 length of UTF-8 bytes, for quotas. Bytes that are not UTF-8 (refused when they are made a string)
    /// are counted a char each, not through the decoder's replacement, which allocates for every bad sequence.
    /// </summary>
    private static int Utf16Length(ReadOnlySpan<byte> utf8)
    {
        if (Utf8.IsValid(utf8))
        {
            return Encoding.UTF8.GetCharCount(utf8);
        }

        int chars = 0;
        foreach (byte b in utf8)
        {
            chars += (b & 0xC0) != 0x80 ? (b >= 0xF0 ? 2 : 1) : 0;
        }

        return chars;
    }
}
