using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

// Input that is one array is read without the cursor's general step for the records nearly every document is made
// of: an element with no attributes, a content text, an end element. Their nodes are made straight from the
// record, and an element's next record is not read ahead (a typed read that needs it reads it then). Anything else,
// and any record that is not well formed, goes the general way, which throws what the in-box reader would.
internal sealed partial class NbfxXmlReader
{
    /// <summary>Reads the next node in place when its record is one of the common kinds; false, with nothing read, otherwise.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryReadNodeInPlace()
    {
        ReadOnlySpan<byte> w = Input;
        if (_c.TextEndsElement)
        {
            _c.TakePendingEnd();
            MoveToEndElementNode();
            return true;
        }

        int p = _c.NextRecord;
        if ((uint)p >= (uint)w.Length)
        {
            return false;
        }

        byte record = w[p];
        if (record == NbfxRecord.EndElement)
        {
            if (!_c.TryEndElementInPlace(p))
            {
                return false;
            }

            MoveToEndElementNode();
            return true;
        }

        if (record >= NbfxRecord.ZeroText)
        {
            if (record > NbfxRecord.MaxText || !_c.TryContentTextInPlace(w, p, record))
            {
                return false;
            }

            SetNode(XmlNodeType.Text, _frameCount);
            _atomic = (record & 1) != 0;
            return true;
        }

        if (record is >= NbfxRecord.ShortElement and <= NbfxRecord.PrefixElementZ
            && _c.TryStartElementInPlace(w, p, record, out int prefixLetter, out int nameStart, out int nameLength, out XmlDictionaryString? nameString, out bool attributesFollow))
        {
            if (attributesFollow)
            {
                return StartTagWithAttributesInPlace(p, prefixLetter, nameStart, nameLength, nameString);
            }

            StartElementInPlace(prefixLetter, nameStart, nameLength, nameString);
            return true;
        }

        return false;
    }

    /// <summary>
    /// The element node of a start tag whose element record was taken in place, with its attributes and namespace
    /// declarations; false, with the element record put back and nothing else changed, when one of them is not for
    /// the in-place step or no record follows the tag.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool StartTagWithAttributesInPlace(int p, int prefixLetter, int nameStart, int nameLength, XmlDictionaryString? nameString)
    {
        ReadOnlySpan<byte> w = Input;
        int bindingsBefore = _bindingCount;
        int nameTop = _nameTop;
        int attributesStart = _c.NextRecord;
        _attributeCount = 0;
        _attributePayloadTop = 0;
        int next;
        do
        {
            if (!_c.TryAttributeInPlace(w))
            {
                return PutBackStartTag(p, bindingsBefore);
            }

            AddAttributeOrDeclaration(ref w);
            next = _c.NextRecord;
        }
        while (next < w.Length && w[next] is >= NbfxRecord.ShortAttribute and <= NbfxRecord.PrefixAttributeZ);
        if (next >= w.Length)
        {
            return PutBackStartTag(p, bindingsBefore);
        }

        CheckBytesPerRead(attributesStart, next);
        FinishStartTag(LetterPrefix(prefixLetter), InPlaceName(nameStart, nameLength, nameString), bindingsBefore, nameTop);
        return true;
    }

    /// <summary>Undoes what <see cref="StartTagWithAttributesInPlace"/> read, for the general step to read the tag.</summary>
    private bool PutBackStartTag(int p, int bindingsBefore)
    {
        _c.PutBackStartElementInPlace(p);
        _attributeCount = 0;
        _attributePayloadTop = 0;
        _bindingCount = bindingsBefore;
        return false;
    }

    /// <summary>The element node of a start tag with no attributes, its name where the record has it.</summary>
    private void StartElementInPlace(int prefixLetter, int nameStart, int nameLength, XmlDictionaryString? nameString)
    {
        string prefix = LetterPrefix(prefixLetter);
        int binding = FindBinding(prefix);
        _attributeCount = 0;
        _attributePayloadTop = 0;
        EnterElement(prefix, InPlaceName(nameStart, nameLength, nameString), binding, _bindingCount, _nameTop);
    }

    /// <summary>The prefix of an element record taken in place: a letter's shared string, or none.</summary>
    private static string LetterPrefix(int prefixLetter) => prefixLetter >= 0 ? NbfxReader.LetterPrefixes[prefixLetter] : "";

    /// <summary>The name of an element record taken in place: its dictionary string, or where its bytes are in the input.</summary>
    private NameHandle InPlaceName(int nameStart, int nameLength, XmlDictionaryString? nameString) => nameString is not null
        ? new NameHandle { Dictionary = nameString }
        : new NameHandle { Start = _inputOffset + nameStart, Length = nameLength };

    /// <summary>
    /// On an element, reads its next record ahead once (the in-place step does not): typed reads of an element look
    /// at it to read a text that is the element's whole content straight from its record.
    /// </summary>
    private bool PeekAfterStartTag()
    {
        if (!_peeked)
        {
            // As for Read: a malformed record leaves the reader in the Error state.
            ReadState state = _state;
            _state = ReadState.Error;
            if (PeekTextInPlace())
            {
                _peekedHas = true;
            }
            else
            {
                ReadOnlySpan<byte> window = Window;
                _peekedHas = _c.Read(ref window);
            }

            _peeked = true;
            _state = state;
        }

        return _peekedHas;
    }

    /// <summary>Reads ahead the text record after a start tag in place, when it is one the in-place step takes.</summary>
    private bool PeekTextInPlace()
    {
        if (!_inputInPlace || !_c.AtPlainRecord)
        {
            return false;
        }

        ReadOnlySpan<byte> w = Input;
        int p = _c.NextRecord;
        return (uint)p < (uint)w.Length && NbfxRecord.IsText(w[p]) && _c.TryContentTextInPlace(w, p, w[p]);
    }

    /// <summary>On an element's start tag read in place from one array, with nothing read after it yet.</summary>
    private bool OnStartTagInPlace => _inputInPlace && !_peeked && _nodeType == XmlNodeType.Element && _attributeIndex < 0
        && _arrayStep == ArrayStep.None && _c.AtPlainRecord;

    /// <summary>On such a start tag, the input and where the record after the tag starts, when the input holds one.</summary>
    /// <param name="input">The whole input.</param>
    /// <param name="at">The record's offset in <paramref name="input"/>.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryRecordAfterStartTag(out ReadOnlySpan<byte> input, out int at)
    {
        input = default;
        at = 0;
        if (!OnStartTagInPlace)
        {
            return false;
        }

        input = Input;
        at = _c.NextRecord;
        return (uint)at < (uint)input.Length;
    }

    /// <summary>
    /// The text record with end element right after the current start tag, as a value, when the input is one array
    /// and the record is one the in-box reader converts directly for a typed element read: a fixed-size record (a
    /// decimal or DateTime only when valid) or UTF-8 text of one length byte. False, with
    /// nothing read, otherwise: the general step then reads the record and refuses it if it is malformed.
    /// </summary>
    /// <param name="value">The value, its payload in the input.</param>
    /// <param name="end">Where the record ends: <see cref="EndElementAfterTextInPlace"/> moves past it.</param>
    private bool TryPeekAtomicValueInPlace(out NbfxValue value, out int end)
    {
        value = default;
        end = 0;
        if (!TryRecordAfterStartTag(out ReadOnlySpan<byte> w, out int p))
        {
            return false;
        }

        byte record = w[p];
        int start = p + 1;
        int length;
        if ((record & 1) == 0 || !NbfxRecord.IsText(record))
        {
            return false;
        }

        if (NbfxCursor.TryFixedSizeText(record, out NbfxValueType type, out length))
        {
            if (length > w.Length - start || !NbfxCursor.IsValidFixedSizeValue(type, w.Slice(start, length)))
            {
                return false;
            }
        }
        else if (record == NbfxRecord.Chars8Text + 1 && start < w.Length
            && w[start] <= w.Length - (start + 1) && w[start] <= _c.SplitTextAbove)
        {
            type = NbfxValueType.Chars;
            length = w[start];
            start++;
        }
        else
        {
            return false;
        }

        value = new NbfxValue(type, w.Slice(start, length), null, 0, start);
        end = start + length;
        return true;
    }

    /// <summary>
    /// The Int32 of the current start tag's text when it is one of the integer records an Int32 holds, with end
    /// element, straight from one array: the commonest typed read, without making its value first.
    /// </summary>
    /// <param name="value">The integer.</param>
    /// <param name="end">Where the record ends: <see cref="EndElementAfterTextInPlace"/> moves past it.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryPeekInt32InPlace(out int value, out int end)
    {
        value = 0;
        end = 0;
        if (!TryRecordAfterStartTag(out ReadOnlySpan<byte> w, out int p))
        {
            return false;
        }

        ReadOnlySpan<byte> payload = w[(p + 1)..];
        switch (w[p])
        {
            case NbfxRecord.ZeroText + 1:
                end = p + 1;
                return true;
            case NbfxRecord.OneText + 1:
                value = 1;
                end = p + 1;
                return true;
            case NbfxRecord.Int8Text + 1 when payload.Length >= 1:
                value = (sbyte)payload[0];
                end = p + 2;
                return true;
            case NbfxRecord.Int16Text + 1 when payload.Length >= 2:
                value = BinaryPrimitives.ReadInt16LittleEndian(payload);
                end = p + 3;
                return true;
            case NbfxRecord.Int32Text + 1 when payload.Length >= 4:
                value = BinaryPrimitives.ReadInt32LittleEndian(payload);
                end = p + 5;
                return true;
            default:
                return false;
        }
    }

    /// <summary>The DateTime of the current start tag's text when it is a valid DateTime record with end element, straight from one array.</summary>
    /// <param name="value">The date and time.</param>
    /// <param name="end">Where the record ends: <see cref="EndElementAfterTextInPlace"/> moves past it.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryPeekDateTimeInPlace(out DateTime value, out int end)
    {
        value = default;
        end = 0;
        if (!TryRecordAfterStartTag(out ReadOnlySpan<byte> w, out int p) || w[p] != NbfxRecord.DateTimeText + 1 || w.Length - (p + 1) < 8)
        {
            return false;
        }

        if (!NbfxPrimitives.TryDateTimeFromBinary(BinaryPrimitives.ReadInt64LittleEndian(w[(p + 1)..]), out value))
        {
            return false; // the general step refuses it
        }

        end = p + 9;
        return true;
    }

    /// <summary>Past a text record with end element that ends at <paramref name="end"/>: the element ends, and the reader moves on.</summary>
    private void EndElementAfterTextInPlace(int end)
    {
        _c.SkipTextWithEndInPlace(end);
        PopFrame();
        Read();
    }
}
