using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Xml;

namespace Spanwire.BinaryXml.Reading;

// The node layer's own steps for input that is one span: the commonest records (an element with no attribute after
// it, a content text, an end element) parsed where they are, their results handed back in locals rather than through
// the token fields. Each step either takes its record whole or changes nothing and answers false, and the caller
// then reads the record through Read, which makes every check and throws what a malformed record deserves.
internal partial struct NbfxCursor
{
    /// <summary>True when the next record can be taken by the in-place steps: no array or list under way.</summary>
    public readonly bool AtPlainRecord => ((int)_arrayPhase | (int)_list | _arrayRemaining | _splitLength) == 0;

    /// <summary>The offset of the next record in the input (the window is the whole input).</summary>
    public readonly int NextRecord => _pos;

    /// <summary>
    /// Takes the element record at <paramref name="p"/> when it names itself without a prefix string, its name is short
    /// ASCII or a dictionary string, it is within the depth quota and a record follows it (input that ends after a
    /// start tag is refused there, as in-box, by the general step). When the record after it is an attribute
    /// (<c>attributesFollow</c>), the caller reads them with <see cref="TryAttributeInPlace"/>, or puts the element
    /// back with <see cref="PutBackStartElementInPlace"/>.
    /// </summary>
    /// <returns>False, with nothing changed, for any other element.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryStartElementInPlace(ReadOnlySpan<byte> w, int p, byte record, out int prefixLetter, out int nameStart, out int nameLength, out XmlDictionaryString? nameString, out bool attributesFollow)
    {
        attributesFollow = false;
        int q = p + 1;
        nameString = null;
        nameStart = nameLength = 0;
        prefixLetter = -1;
        if (record >= NbfxRecord.PrefixElementA)
        {
            prefixLetter = record - NbfxRecord.PrefixElementA;
        }
        else if (record >= NbfxRecord.PrefixDictionaryElementA)
        {
            prefixLetter = record - NbfxRecord.PrefixDictionaryElementA;
        }
        else if (record is NbfxRecord.Element or NbfxRecord.DictionaryElement)
        {
            return false;
        }

        bool dictionary = record is NbfxRecord.ShortDictionaryElement || record is >= NbfxRecord.PrefixDictionaryElementA and <= NbfxRecord.PrefixDictionaryElementZ;
        if ((uint)q >= (uint)w.Length)
        {
            return false;
        }

        int n = w[q];
        if (n >= 0x80 || _depth >= _maxDepth)
        {
            return false;
        }

        if (dictionary)
        {
            q++;
        }
        else
        {
            nameStart = q + 1;
            if (n == 0 || n > w.Length - nameStart || n > _maxNameLength || !IsShortAscii(w, nameStart, n))
            {
                return false;
            }

            nameLength = n;
            q = nameStart + n;
        }

        if ((uint)q >= (uint)w.Length)
        {
            return false;
        }

        attributesFollow = IsAttributeRecord(w[q]);
        if (dictionary)
        {
            nameString = Lookup(n, p + 1);
            if (nameString.Value.Length == 0)
            {
                nameString = null;
                return false; // the general step refuses an element with an empty name
            }
        }

        _pos = q;
        _depth++;
        _inStartTag = true;
        TokenOffset = p;
        return true;
    }

    /// <summary>
    /// Undoes <see cref="TryStartElementInPlace"/> of the record at <paramref name="p"/> and any attributes taken after
    /// it, for the general step to read them again. What else they set is token fields, which that step sets anew.
    /// </summary>
    public void PutBackStartElementInPlace(int p)
    {
        _pos = p;
        _depth--;
        _inStartTag = false;
        _list = ListPhase.None; // an attribute's list value starts one
    }

    /// <summary>
    /// Takes the namespace declaration or attribute record at the position, in a start tag taken in place, when it is
    /// whole and (for an attribute) its prefix is none or a letter and its value is not a list; by the general step's
    /// own parse, so a malformed record throws what it would there.
    /// </summary>
    /// <returns>False otherwise; the caller then puts the start tag back (<see cref="PutBackStartElementInPlace"/>).</returns>
    public bool TryAttributeInPlace(ReadOnlySpan<byte> w)
    {
        byte record = w[_pos];
        if (record is NbfxRecord.Attribute or NbfxRecord.DictionaryAttribute)
        {
            return false;
        }

        int consumed = ParseAttribute(w, record, out _);
        if (consumed == 0 || _list != ListPhase.None)
        {
            return false;
        }

        _pos += consumed;
        return true;
    }

    /// <summary>Takes the end element record at <paramref name="p"/> when an element is open.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryEndElementInPlace(int p)
    {
        if (_depth == 0)
        {
            return false;
        }

        _depth--;
        _pos = p + 1;
        _inStartTag = false;
        TokenOffset = p;
        return true;
    }

    /// <summary>The end element a text record with end element carried.</summary>
    public void TakePendingEnd()
    {
        _pendingEnd = false;
        _depth--;
    }

    /// <summary>
    /// Takes the content text record at <paramref name="p"/> inside an element (not a list's start), setting the value
    /// fields as <see cref="Read"/> does.
    /// </summary>
    /// <returns>False, with nothing changed but the value fields, when the record is not whole or not such a text.</returns>
    public bool TryContentTextInPlace(ReadOnlySpan<byte> w, int p, byte record)
    {
        if (_depth == 0 || record >= NbfxRecord.StartListText && record <= NbfxRecord.EndListText + 1)
        {
            return false;
        }

        int end = ParseTextPayload(w, p, record, out _);
        if (end < 0 || IsTextToSplit)
        {
            return false; // a text handed out in pieces goes the general way (SplitTextAsStreamed)
        }

        _pos = end;
        _inStartTag = false;
        _pendingEnd = (record & 1) != 0;
        Token = NbfxTokenType.Text;
        Record = record;
        TokenOffset = p;
        TokenDepth = _depth;
        return true;
    }

    /// <summary>Past a text record with end element that the node layer read itself, ending at <paramref name="end"/>.</summary>
    public void SkipTextWithEndInPlace(int end)
    {
        _pos = end;
        _depth--;
        _inStartTag = false;
    }

    /// <summary>
    /// The value type and payload size of a fixed-size text record (with or without end element), not a list's start
    /// or end; false for the records whose payload has a length or a dictionary id.
    /// </summary>
    public static bool TryFixedSizeText(byte record, out NbfxValueType type, out int size)
    {
        int kindIndex = (record - NbfxRecord.ZeroText) >> 1;
        type = (NbfxValueType)TextKinds[kindIndex];
        size = FixedSizes[kindIndex];
        return size != 0xFF && type is not (NbfxValueType.StartList or NbfxValueType.EndList);
    }

    /// <summary>False for the payloads <see cref="CheckFixedSizeValue"/> refuses: a decimal's flags, a DateTime's ticks.</summary>
    public static bool IsValidFixedSizeValue(NbfxValueType type, ReadOnlySpan<byte> payload) => type switch
    {
        NbfxValueType.Decimal => NbfxPrimitives.IsValidDecimal(payload),
        NbfxValueType.DateTime => NbfxPrimitives.IsValidDateTimeBinary(BinaryPrimitives.ReadInt64LittleEndian(payload)),
        _ => true,
    };
}
