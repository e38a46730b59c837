using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;
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

    private int ParseRecord(ReadOnlySpan<byte> w, out int needed)
    {
        needed = 0;
        int p = _pos;
        byte record = w[p];
        long at = _windowOffset + p;

        if (_arrayPhase == ArrayPhase.Attributes && !IsAttributeRecord(record))
        {
            return ParseArrayValues(w, out needed);
        }
        if (_list != ListPhase.None)
        {
            return ParseListItem(w, record, out needed);
        }
        if (IsAttributeRecord(record))
        {
            if (!_inStartTag)
            {
                ThrowFormat($"attribute record 0x{record:X2} outside a start tag", at);
            }
            return ParseAttribute(w, record, out needed);
        }
        _inStartTag = false;
        if (record is >= NbfxRecord.ShortElement and <= NbfxRecord.PrefixElementZ)
        {
            return ParseElement(w, p, p + 1, record, isArray: false, out needed);
        }
        if (NbfxRecord.IsText(record))
        {
            return ParseContentText(w, record, out needed);
        }
        switch (record)
        {
            case NbfxRecord.EndElement:
                if (_depth == 0)
                {
                    ThrowFormat("end element record with no open element", at);
                }
                _depth--;
                Token = NbfxTokenType.EndElement;
                TokenDepth = _depth;
                TokenOffset = at;
                Record = record;
                return 1;
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
                    ThrowFormat($"an array record must start with an element record, not 0x{element:X2}", at + 1);
                }
                return ParseElement(w, p, p + 2, element, isArray: true, out needed);
            }
            default:
                ThrowFormat($"record 0x{record:X2} is not a valid record here", at);
                return 0;
        }
    }

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
        long at = _windowOffset + p;
        if (!TryRecordName(w, ref q, element, NbfxRecord.ShortElement, NbfxRecord.PrefixDictionaryElementA, NbfxRecord.PrefixElementA, "an element", at, out QualifiedName qname, ref needed))
        {
            return 0;
        }
        if (_depth >= _maxDepth)
        {
            ThrowFormat($"elements nest deeper than the MaxDepth quota ({_maxDepth})", at);
        }
        SetToken(NbfxTokenType.StartElement, element, at, _depth);
        IsArrayElement = isArray;
        SetName(qname);
        _depth++;
        _inStartTag = true;
        _arrayPhase = isArray ? ArrayPhase.Attributes : ArrayPhase.None;
        return q - p;
    }

    private void SetName(in QualifiedName name)
    {
        PrefixLetter = name.PrefixLetter;
        PrefixStart = name.PrefixStart;
        PrefixLength = name.PrefixLength;
        NameStart = name.NameStart;
        NameLength = name.NameLength;
        NameString = name.Name;
    }

    /// <summary>The six ways element and attribute records give a name, in the order of their record bytes.</summary>
    private enum NameForm : byte { Short, Prefixed, ShortDictionary, PrefixedDictionary, LetterDictionary, Letter }

    private struct QualifiedName
    {
        public int PrefixLetter, PrefixStart, PrefixLength, NameStart, NameLength;
        public XmlDictionaryString? Name;
    }

    /// <summary>
    /// Reads the prefix and local name of an element or attribute record. Both families lay out their forms alike:
    /// short, prefixed, short dictionary, prefixed dictionary from <paramref name="shortRecord"/>, then the a..z
    /// dictionary forms and the a..z name forms.
    /// </summary>
    private readonly bool TryRecordName(ReadOnlySpan<byte> w, ref int q, int record, int shortRecord, int letterDictionaryA, int letterA, string what, long at, out QualifiedName name, ref int needed)
    {
        NameForm form = record >= letterA ? NameForm.Letter : record >= letterDictionaryA ? NameForm.LetterDictionary : (NameForm)(record - shortRecord);
        name = new QualifiedName { PrefixLetter = form == NameForm.Letter ? record - letterA : form == NameForm.LetterDictionary ? record - letterDictionaryA : -1 };
        if (form is NameForm.Prefixed or NameForm.PrefixedDictionary
            && !TryName(w, ref q, out name.PrefixStart, out name.PrefixLength, checkQuota: true, ref needed))
        {
            return false;
        }
        bool done = form is NameForm.ShortDictionary or NameForm.PrefixedDictionary or NameForm.LetterDictionary
            ? TryDictionary(w, ref q, out name.Name, ref needed)
            : TryName(w, ref q, out name.NameStart, out name.NameLength, checkQuota: true, ref needed);
        if (done && name.Name is null && name.NameLength == 0)
        {
            ThrowFormat($"{what} has an empty name", at);
        }
        return done;
    }

    private int ParseAttribute(ReadOnlySpan<byte> w, byte record, out int needed)
    {
        needed = 0;
        int p = _pos;
        int q = p + 1;
        if (record is >= NbfxRecord.ShortXmlnsAttribute and <= NbfxRecord.DictionaryXmlnsAttribute)
        {
            return ParseNamespaceDeclaration(w, record, out needed);
        }
        long at = _windowOffset + p;
        if (!TryRecordName(w, ref q, record, NbfxRecord.ShortAttribute, NbfxRecord.PrefixDictionaryAttributeA, NbfxRecord.PrefixAttributeA, "an attribute", at, out QualifiedName qname, ref needed))
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
            ThrowFormat($"record 0x{text:X2} is not a valid attribute value", _windowOffset + q);
        }
        int valueEnd = ParseTextPayload(w, q, text, out needed);
        if (valueEnd < 0)
        {
            return 0;
        }
        XmlDictionaryString? valueString = ValueString;
        int qnameLetter = QNamePrefixLetter;
        NbfxValueType type = ValueType;
        int vs = ValueStart, vl = ValueLength;
        SetToken(NbfxTokenType.Attribute, record, at, _depth);
        SetName(qname);
        SetValue(type, vs, vl);
        ValueString = valueString;
        QNamePrefixLetter = qnameLetter;
        if (type == NbfxValueType.StartList)
        {
            _list = ListPhase.Attribute;
        }
        return valueEnd - p;
    }

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
        SetToken(NbfxTokenType.NamespaceDeclaration, record, _windowOffset + p, _depth);
        SetName(new QualifiedName { PrefixLetter = -1, PrefixStart = prefixStart, PrefixLength = prefixLength });
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
            ThrowFormat($"record 0x{record:X2} is not valid outside a list", at);
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
        return end - p;
    }

    private int ParseListItem(ReadOnlySpan<byte> w, byte record, out int needed)
    {
        int p = _pos;
        long at = _windowOffset + p;
        if (!NbfxRecord.IsText(record) || (record & 1) != 0 && record != NbfxRecord.EndListText + 1 || record == NbfxRecord.StartListText)
        {
            ThrowFormat($"record 0x{record:X2} is not a valid list item", at);
        }
        bool withEnd = record == NbfxRecord.EndListText + 1;
        if (withEnd && _list != ListPhase.Content)
        {
            ThrowFormat("a list in an attribute cannot end its element", at);
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
            ThrowFormat($"an array's element must end (0x01) before its values, not 0x{w[p]:X2}", at);
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
            ThrowFormat($"0x{typeRecord:X2} is not an array value type", at + 1);
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
            ThrowFormat($"an array of {count} items exceeds the MaxArrayLength quota ({_maxArrayLength})", at + 2);
        }
        int headerLength = 2 + countLength;
        long valuesLeft = _length - (at + headerLength);
        if ((long)count * size > valuesLeft)
        {
            ThrowFormat($"an array of {count} items of {size} bytes runs past the end of the input", at + headerLength);
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
    private int ParseTextPayload(ReadOnlySpan<byte> w, int p, byte record, out int needed)
    {
        needed = 0;
        int kindIndex = (record - 0x80) >> 1;
        var type = (NbfxValueType)TextKinds[kindIndex];
        int q = p + 1;
        long at = _windowOffset + p;
        ValueString = null;
        int size = FixedSizes[kindIndex];
        if (size != 0xFF)
        {
            if (q + size > w.Length)
            {
                needed = q + size - _pos;
                return -1;
            }
            CheckFixedSizeValue(type, w.Slice(q, size), at + 1);
            SetValue(type, q, size);
            return q + size;
        }
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
                    ThrowFormat($"a text of {length} bytes runs past the end of the input", at);
                }
                if (type == NbfxValueType.UnicodeChars && (length & 1) != 0)
                {
                    ThrowFormat("UTF-16 text with an odd byte length", at + 1);
                }
                if (type == NbfxValueType.Bytes && length > _maxArrayLength)
                {
                    ThrowFormat($"{length} bytes exceed the MaxArrayLength quota ({_maxArrayLength})", at);
                }
                if (q + length > w.Length)
                {
                    needed = (int)(q + length - _pos);
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
                    ThrowFormat($"QName prefix letter {letter} is past 'z'", at + 1);
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
    private readonly bool TryMultiByteInt31(ReadOnlySpan<byte> w, int q, string what, out int value, out int consumed, ref int needed)
    {
        OperationStatus status = NbfxPrimitives.TryReadMultiByteInt31(w[q..], out value, out consumed);
        if (status == OperationStatus.NeedMoreData)
        {
            needed = w.Length - _pos + 1;
            return false;
        }
        if (status != OperationStatus.Done)
        {
            ThrowFormat($"invalid MB31 {what}", _windowOffset + q);
        }
        return true;
    }

    /// <summary>Reads a Name (MB31 byte length, UTF-8) at <paramref name="q"/>; on a short window sets <paramref name="needed"/> from the record start.</summary>
    private readonly bool TryName(ReadOnlySpan<byte> w, ref int q, out int start, out int length, bool checkQuota, ref int needed)
    {
        start = 0;
        length = 0;
        long at = _windowOffset + q;
        if (!TryMultiByteInt31(w, q, "length", out int value, out int consumed, ref needed))
        {
            return false;
        }
        int s = q + consumed;
        if (value > _length - (_windowOffset + s))
        {
            ThrowFormat($"a name of {value} bytes runs past the end of the input", at);
        }
        if (checkQuota && value > _maxNameLength && Encoding.UTF8.GetCharCount(w.Slice(s, Math.Min(value, w.Length - s))) > _maxNameLength)
        {
            ThrowFormat($"a name longer than the MaxNameTableCharCount quota ({_maxNameLength})", at);
        }
        if (s + value > w.Length)
        {
            needed = s + value - _pos;
            return false;
        }
        if (!Utf8.IsValid(w.Slice(s, value)))
        {
            ThrowFormat("a name that is not valid UTF-8", at);
        }
        start = s;
        length = value;
        q = s + value;
        return true;
    }

    /// <summary>Reads an MB31 dictionary id and looks it up: even ids in the static dictionary, odd ids in the session.</summary>
    private readonly bool TryDictionary(ReadOnlySpan<byte> w, ref int q, out XmlDictionaryString? value, ref int needed)
    {
        value = null;
        long at = _windowOffset + q;
        if (!TryMultiByteInt31(w, q, "dictionary id", out int id, out int consumed, ref needed))
        {
            return false;
        }
        bool found = (id & 1) == 0
            ? _dictionary is not null && _dictionary.TryLookup(id >> 1, out value)
            : _session is not null && _session.TryLookup(id >> 1, out value);
        if (!found || value is null)
        {
            ThrowFormat((id & 1) == 0
                ? $"dictionary id {id} (key {id >> 1}) is not in the static dictionary"
                : $"dictionary id {id} (session key {id >> 1}) is not in the session", at);
        }
        q += consumed;
        return true;
    }

    private readonly void CheckStringQuota(ReadOnlySpan<byte> text, bool utf16, long at)
    {
        int max = _maxStringContentLength;
        int chars = utf16 ? text.Length / 2 : text.Length <= max ? text.Length : Encoding.UTF8.GetCharCount(text);
        if (chars > max)
        {
            ThrowFormat($"a string of {chars} chars exceeds the MaxStringContentLength quota ({max})", at);
        }
    }
}
