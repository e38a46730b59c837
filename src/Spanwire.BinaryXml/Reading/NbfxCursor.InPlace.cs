using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Xml;

namespace Spanwire.BinaryXml.Reading;

// The span fast path of the cursor's step, for input that is one span: the commonest records (an element whose name
// is short ASCII or a dictionary string, a content text, an end element) parsed where they are, the element's name
// handed back in locals rather than through the token fields. The step takes its record whole or changes nothing and
// answers NotTaken, and the caller then reads the record through Read, which makes every check and throws what a
// malformed record deserves. Attributes are always read through Read.
internal partial struct NbfxCursor
{
    /// <summary>True when the next record can be taken by the in-place steps: no array or list under way.</summary>
    public readonly bool AtPlainRecord => ((int)_arrayPhase | (int)_list | _arrayRemaining | _splitLength) == 0;

    /// <summary>
    /// Takes the next record of <paramref name="w"/> (the whole input) when it is one of the commonest kinds: an end
    /// element (one a text record carried included), a content text, or an element named as
    /// <see cref="TryStartElementInPlace"/> takes it.
    /// </summary>
    /// <returns>What was taken; <see cref="NbfxInPlace.NotTaken"/>, with nothing changed, otherwise.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public NbfxInPlace ReadInPlace(ReadOnlySpan<byte> w, out NbfxElementName name)
    {
        name = default;
        if (_pendingEnd)
        {
            TakePendingEnd();
            return NbfxInPlace.EndElement;
        }

        int p = _pos;
        if ((uint)p >= (uint)w.Length)
        {
            return NbfxInPlace.NotTaken;
        }

        byte record = w[p];
        if (record == NbfxRecord.EndElement)
        {
            return TryEndElementInPlace(p) ? NbfxInPlace.EndElement : NbfxInPlace.NotTaken;
        }

        if (record >= NbfxRecord.ZeroText)
        {
            return record <= NbfxRecord.MaxText && TryContentTextInPlace(w, p, record) ? NbfxInPlace.Text : NbfxInPlace.NotTaken;
        }

        if (record is >= NbfxRecord.ShortElement and <= NbfxRecord.PrefixElementZ && TryStartElementInPlace(w, p, record, out name, out bool attributesFollow))
        {
            return attributesFollow ? NbfxInPlace.StartTag : NbfxInPlace.StartElement;
        }

        return NbfxInPlace.NotTaken;
    }

    /// <summary>
    /// The value of the text that is the whole content of the element whose start tag was just read, read where it is
    /// without taking it: a text record with end element, or, when <paramref name="endRecord"/> allows, a text record
    /// and then an EndElement record (the in-box writer folds the end into a text only when it wrote the text whole
    /// into its buffer, so longer strings come that way). The record must be whole and a fixed-size value (a valid
    /// one: a record the general step would refuse is left to it) or a UTF-8 text of up to 65,535 bytes handed out
    /// whole. A typed read of the element converts the value and then takes the records with
    /// <see cref="TakeTextWithEnd"/>. Nothing is changed, and nothing is thrown.
    /// </summary>
    /// <param name="w">The whole input.</param>
    /// <param name="endRecord">
    /// Whether a text followed by an EndElement record is taken too. The in-box reader converts such a text as
    /// XmlReader does, not as its own typed reads do: only a read of the text as a string takes it this way.
    /// </param>
    /// <param name="value">The text's value, its payload in <paramref name="w"/>.</param>
    /// <param name="end">Where the records end.</param>
    /// <returns>False otherwise: <see cref="Read"/> then reads the record, or refuses it.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool TryPeekTextWithEnd(ReadOnlySpan<byte> w, bool endRecord, out NbfxValue value, out int end)
    {
        value = default;
        end = 0;
        int p = _pos;
        if (!AtPlainRecord || (uint)p >= (uint)w.Length)
        {
            return false;
        }

        byte record = w[p];
        if (!NbfxRecord.IsText(record) || ((record & 1) == 0 && !endRecord) || (record | 1) is NbfxRecord.StartListText + 1 or NbfxRecord.EndListText + 1)
        {
            return false;
        }

        int start = p + 1;
        int length = FixedPayloadSize(record, out NbfxValueType type);
        if (length >= 0)
        {
            if (length > w.Length - start || !IsValidFixedSizeValue(type, w.Slice(start, length)))
            {
                return false;
            }
        }
        else if (!TryCharsPayload(w, p, record, wide: true, out start, out length) || length > _splitTextAbove)
        {
            return false;
        }

        int after = start + length;
        if ((record & 1) == 0)
        {
            if ((uint)after >= (uint)w.Length || w[after] != NbfxRecord.EndElement)
            {
                return false;
            }

            after++;
        }

        value = new NbfxValue(type, w.Slice(start, length), null, 0, _windowOffset + start);
        end = after;
        return true;
    }

    /// <summary>
    /// The Int32 of the text record with end element right after the start tag just read, when it is whole and is one
    /// of the integer records an Int32 holds (Zero, One, Int8, Int16, Int32): the commonest typed read, its payload
    /// read where it is, as <see cref="TryPeekTextWithEnd"/> reads it.
    /// </summary>
    /// <param name="w">The whole input.</param>
    /// <param name="value">The integer.</param>
    /// <param name="end">Where the record ends: <see cref="TakeTextWithEnd"/> takes it.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool TryPeekInt32TextWithEnd(ReadOnlySpan<byte> w, out int value, out int end)
    {
        value = 0;
        end = 0;
        int p = _pos;
        if (!AtPlainRecord || (uint)p >= (uint)w.Length)
        {
            return false;
        }

        byte record = w[p];
        if ((record & 1) == 0 || record is < NbfxRecord.ZeroText or > NbfxRecord.Int32Text + 1)
        {
            return false;
        }

        int q = p + 1;
        int size = FixedPayloadSize(record, out NbfxValueType type);
        if (type is NbfxValueType.False or NbfxValueType.True || size > w.Length - q)
        {
            return false;
        }

        // Straight from the payload: an NbfxValue made here would live on the stack.
        value = type switch
        {
            NbfxValueType.One => 1,
            NbfxValueType.Int8 => (sbyte)w[q],
            NbfxValueType.Int16 => BinaryPrimitives.ReadInt16LittleEndian(w[q..]),
            NbfxValueType.Int32 => BinaryPrimitives.ReadInt32LittleEndian(w[q..]),
            _ => 0,
        };
        end = q + size;
        return true;
    }

    /// <summary>
    /// The DateTime of the text record with end element right after the start tag just read, when it is whole and
    /// valid (a DateTime record the general step would refuse is left to it), read where it is.
    /// </summary>
    /// <param name="w">The whole input.</param>
    /// <param name="value">The date and time.</param>
    /// <param name="end">Where the record ends: <see cref="TakeTextWithEnd"/> takes it.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool TryPeekDateTimeTextWithEnd(ReadOnlySpan<byte> w, out DateTime value, out int end)
    {
        value = default;
        end = 0;
        int p = _pos;
        int q = p + 1;
        if (!AtPlainRecord || (uint)p >= (uint)w.Length || w[p] != NbfxRecord.DateTimeText + 1 || w.Length - q < sizeof(long)
            || !NbfxPrimitives.TryDateTimeFromBinary(BinaryPrimitives.ReadInt64LittleEndian(w[q..]), out value))
        {
            return false;
        }

        end = q + sizeof(long);
        return true;
    }

    /// <summary>
    /// As in-box's reader over whole input measures base64 content: adds to <paramref name="total"/> the lengths of
    /// the Bytes text records from <paramref name="p"/> on, up to one that ends its element, an end element, or the
    /// end of <paramref name="w"/>. False, with <paramref name="total"/> unspecified, at any other record, a length
    /// that is not whole or not valid, or a total past <see cref="int.MaxValue"/>.
    /// </summary>
    /// <param name="w">The whole input.</param>
    /// <param name="p">Where the record after the current text starts.</param>
    /// <param name="total">The bytes counted so far (the current text's).</param>
    public static bool TryAddBytesTextLengths(ReadOnlySpan<byte> w, int p, ref int total)
    {
        while ((uint)p < (uint)w.Length)
        {
            byte record = w[p++];
            if (record == NbfxRecord.EndElement)
            {
                return true;
            }

            int sizeBytes = (record & ~1) switch
            {
                NbfxRecord.Bytes8Text => 1,
                NbfxRecord.Bytes16Text => 2,
                NbfxRecord.Bytes32Text => 4,
                _ => 0,
            };
            if (sizeBytes == 0 || w.Length - p < sizeBytes)
            {
                return false;
            }

            int length = sizeBytes switch
            {
                1 => w[p],
                2 => BinaryPrimitives.ReadUInt16LittleEndian(w[p..]),
                _ => BinaryPrimitives.ReadInt32LittleEndian(w[p..]),
            };
            if (length < 0 || total > int.MaxValue - length)
            {
                return false;
            }

            total += length;
            if ((record & 1) != 0)
            {
                return true; // the record ends its element
            }

            p += sizeBytes;
            p = length > w.Length - p ? w.Length : p + length;
        }

        return true;
    }

    /// <summary>Past the text and end that <see cref="TryPeekTextWithEnd"/> parsed, ending at <paramref name="end"/>: its element ends.</summary>
    public void TakeTextWithEnd(int end)
    {
        _pos = end;
        _depth--;
        _inStartTag = false;
    }

    /// <summary>Takes the content text right after the start tag just read, when it is whole; false, with nothing changed, otherwise.</summary>
    public bool TryTextAfterStartTagInPlace(ReadOnlySpan<byte> w)
    {
        int p = _pos;
        return AtPlainRecord && (uint)p < (uint)w.Length && NbfxRecord.IsText(w[p]) && TryContentTextInPlace(w, p, w[p]);
    }

    /// <summary>
    /// Takes the element record at <paramref name="p"/> when it names itself without a prefix string, its name is short
    /// ASCII or a dictionary string, it is within the depth quota and a record follows it (input that ends after a
    /// start tag is refused there, as in-box, by the general step). When the record after it is an attribute
    /// (<c>attributesFollow</c>), the caller reads the attributes through <see cref="Read"/>.
    /// </summary>
    /// <returns>False, with nothing changed, for any other element.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryStartElementInPlace(ReadOnlySpan<byte> w, int p, byte record, out NbfxElementName name, out bool attributesFollow)
    {
        attributesFollow = false;
        int q = p + 1;
        XmlDictionaryString? nameString = null;
        int nameStart = 0, nameLength = 0;
        int prefixLetter = -1;
        name = default;
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
                return false; // the general step refuses an element with an empty name
            }
        }

        _pos = q;
        _depth++;
        _inStartTag = true;
        TokenOffset = p;
        name = new NbfxElementName { PrefixLetter = prefixLetter, NameStart = nameStart, NameLength = nameLength, NameString = nameString };
        return true;
    }

    /// <summary>Takes the end element record at <paramref name="p"/> when an element is open.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryEndElementInPlace(int p)
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

    /// <summary>
    /// Takes the content text record at <paramref name="p"/> inside an element (not a list's start), setting the value
    /// fields as <see cref="Read"/> does.
    /// </summary>
    /// <returns>False, with nothing changed but the value fields, when the record is not whole or not such a text.</returns>
    [MethodImpl(MethodImplOptions.NoInlining)] // a call from each Read, not the text parser inlined into every caller of Read
    private bool TryContentTextInPlace(ReadOnlySpan<byte> w, int p, byte record)
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
}

/// <summary>What <see cref="NbfxCursor.ReadInPlace"/> took.</summary>
internal enum NbfxInPlace : byte
{
    /// <summary>Nothing: the record is for <see cref="NbfxCursor.Read"/>.</summary>
    NotTaken,

    /// <summary>An end element record, or the end element a text record carried.</summary>
    EndElement,

    /// <summary>A content text: the token and value fields are set, as by <see cref="NbfxCursor.Read"/>.</summary>
    Text,

    /// <summary>An element with content after it and no attribute.</summary>
    StartElement,

    /// <summary>An element whose attributes follow, to be read through <see cref="NbfxCursor.Read"/>.</summary>
    StartTag,
}

/// <summary>An element's name as <see cref="NbfxCursor.ReadInPlace"/> found it: a prefix letter or none, and the name's bytes in the input or its dictionary string.</summary>
internal struct NbfxElementName
{
    /// <summary>The prefix letter (0 for a), or −1 for none.</summary>
    public int PrefixLetter;

    /// <summary>Where the name's UTF-8 bytes start in the input, when it has no dictionary string.</summary>
    public int NameStart;

    /// <summary>The name's length in bytes.</summary>
    public int NameLength;

    /// <summary>The name's dictionary string, or null.</summary>
    public XmlDictionaryString? NameString;
}
