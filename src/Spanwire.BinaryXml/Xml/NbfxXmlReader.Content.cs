using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Text;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

// Reading content as bytes, as in-box. A value held as bytes, or as UTF-8 base64 in whole blocks, is taken where it is;
// other content is read as characters (what is taken is gone from the node, as with ReadValueChunk) and decoded, the
// characters past the last whole block and the bytes past the caller's room kept for the next call.
internal sealed partial class NbfxXmlReader
{
    // As in-box, content read as bytes keeps what one call could not hand out for the next call, on whatever node it
    // comes: characters past the last whole block, and bytes decoded past the caller's room.
    private char[]? _trailChars;
    private int _trailCharCount;
    private byte[]? _trailBytes;
    private int _trailByteCount;

    public override bool CanReadBinaryContent => true;

    public override bool CanReadValueChunk => true;

    /// <summary>
    /// As in-box: the next characters of the current node's value. A text record (UTF-8 or UTF-16) whose value has not
    /// been read as a string is handed out from its bytes (UTF-8 never splitting a surrogate pair, so a call with room
    /// for one character before a pair gives none), and what it has handed out is gone from the node; an attribute's
    /// text keeps what is left with the attribute; any other value is made a string first, and what is left is the
    /// value until the reader moves.
    /// </summary>
    public override int ReadValueChunk(char[] buffer, int index, int count)
    {
        ArrayArguments.Check(buffer, index, count);
        bool onAttribute = _attributeIndex >= 0;
        bool asString = onAttribute ? _attributeValueSeen || _attributeValueOverride is not null : _value is not null;
        NbfxValueType type = onAttribute ? _attributes[_attributeIndex].ValueType : _nodeType is XmlNodeType.Text or XmlNodeType.Comment ? CurrentValueType : NbfxValueType.None;
        if (!asString && !onAttribute && type is NbfxValueType.Chars or NbfxValueType.UnicodeChars && !_valueFromItem)
        {
            return ReadTextChunk(buffer.AsSpan(index, count), type);
        }

        // An xmlns attribute's value is its namespace, not a text: it is made a string, as any other value.
        if (!asString && !(_onAttributeValue && _attributeValueHandedOver) && type is NbfxValueType.Chars or NbfxValueType.UnicodeChars
            && !_attributes[_attributeIndex].IsXmlns)
        {
            AttributeNode a = _attributes[_attributeIndex];
            a.ChunkText ??= AttributeValue(_attributeIndex);
            ReadOnlySpan<char> whole = a.ChunkText.AsSpan(a.ChunkTaken);
            int take = Math.Min(count, whole.Length);
            if (type == NbfxValueType.Chars && take < whole.Length && take > 0 && char.IsHighSurrogate(whole[take - 1]))
            {
                take--;
            }

            whole[..take].CopyTo(buffer.AsSpan(index));
            a.ChunkTaken += take;
            return take;
        }

        _nodeTouched = true;
        if (onAttribute)
        {
            string value = Value;
            int taken = Math.Min(count, value.Length);
            value.CopyTo(0, buffer, index, taken);
            _attributeValueOverride = value[taken..];
            return taken;
        }

        // What is left is the value from _valueTaken on: a count, so handing a long value out in pieces copies nothing.
        _value ??= Value;
        int n = Math.Min(count, _value.Length - _valueTaken);
        _value.CopyTo(_valueTaken, buffer, index, n);
        _valueTaken += n;
        return n;
    }

    /// <summary>The next characters of the current text record's value, decoded from the bytes not yet handed out.</summary>
    private int ReadTextChunk(Span<char> destination, NbfxValueType type)
    {
        ReadOnlySpan<byte> rest = CurrentValue.Payload;
        int bytes, chars;
        if (type == NbfxValueType.UnicodeChars)
        {
            // As in-box: UTF-16 is handed out a char at a time, a surrogate pair split if the buffer ends between them.
            chars = Math.Min(destination.Length, rest.Length / 2);
            bytes = chars * 2;
            for (int i = 0; i < chars; i++)
            {
                destination[i] = (char)System.Buffers.Binary.BinaryPrimitives.ReadUInt16LittleEndian(rest[(2 * i)..]);
            }
        }
        else
        {
            // The decoder stops before a scalar that does not fit; bytes that are not UTF-8 are refused when reached,
            // as Value refuses them.
            OperationStatus status = System.Text.Unicode.Utf8.ToUtf16(rest, destination, out bytes, out chars, replaceInvalidSequences: false);
            if (status == OperationStatus.InvalidData && chars == 0)
            {
                throw new NbfxFormatException("text that is not valid UTF-8", CurrentValue.Offset + bytes);
            }
        }

        HandOutPayload(bytes);
        return chars;
    }

    /// <summary>Counts <paramref name="bytes"/> more of the current text record's payload as handed out (see _chunkedBytes).</summary>
    private void HandOutPayload(int bytes)
    {
        if (_chunkedToken != _c.TokenOffset)
        {
            _chunkedToken = _c.TokenOffset;
            _chunkedBytes = 0;
        }

        _chunkedBytes += bytes;
        _nodeTouched = true;
    }

    /// <summary>As in-box: the element's text (comments and other non-text nodes inside are passed over, not refused).</summary>
    public override string ReadElementString()
    {
        if (MoveToContent() != XmlNodeType.Element)
        {
            throw new XmlException($"'{NodeType}' is an invalid XmlNodeType.");
        }

        if (IsEmptyElement)
        {
            Read();
            return "";
        }

        Read();
        string result = ReadString();
        ReadEndElement();
        return result;
    }

    public override string ReadElementString(string name)
    {
        if (MoveToContent() != XmlNodeType.Element || Name != name)
        {
            throw new XmlException($"Element '{name}' was not found.");
        }

        return ReadElementString();
    }

    public override string ReadElementString(string localname, string ns)
    {
        if (MoveToContent() != XmlNodeType.Element || LocalName != localname || NamespaceURI != ns)
        {
            throw new XmlException($"Element '{localname}' with namespace name '{ns}' was not found.");
        }

        return ReadElementString();
    }

    /// <summary>
    /// As in-box's reader over input given whole: on a text held as bytes, how many bytes it and the Bytes texts right
    /// after it in its element hold. False on any other node, in an array, and for input read from a stream or a
    /// sequence in pieces (as in-box's reader over a stream answers).
    /// </summary>
    public override bool TryGetBase64ContentLength(out int length)
    {
        length = 0;
        if (!_inputInPlace || _fromStream || _arrayStep != ArrayStep.None || _attributeIndex >= 0 || _nodeType != XmlNodeType.Text
            || _valueFromItem || _c.ValueType != NbfxValueType.Bytes)
        {
            return false;
        }

        int total = CurrentValue.Payload.Length;
        if (!NbfxCursor.TryAddBytesTextLengths(Input, _c.ValueStart + _c.ValueLength, ref total))
        {
            return false;
        }

        length = total;
        return true;
    }

    /// <summary>
    /// As in-box: a text that ends its element is taken whole and the reader moves past it; other content whose length
    /// <see cref="TryGetBase64ContentLength"/> knows is read to exactly that length, which leaves the reader on the
    /// last text, used up; any other content is read until it ends.
    /// </summary>
    public override byte[] ReadContentAsBase64()
    {
        if (OnAtomicText && _trailByteCount == 0 && _trailCharCount == 0)
        {
            if (_valueFromItem || _c.ValueType != NbfxValueType.Bytes)
            {
                return base.ReadContentAsBase64(); // decoded to its end, as in-box decodes it whole
            }

            byte[] whole = CurrentValue.Payload.ToArray();
            CheckArrayQuota(whole.Length);
            Read();
            return whole;
        }

        if (TryGetBase64ContentLength(out int length) && length <= _inputLength)
        {
            CheckArrayQuota(length);

            byte[] bytes = new byte[length];
            for (int read = 0, n; read < length; read += n)
            {
                n = ReadContentAsBase64(bytes, read, length - read);
                if (n == 0)
                {
                    throw new XmlException("Base64 encoded data expected.");
                }
            }

            return bytes;
        }

        return base.ReadContentAsBase64();
    }

    private void CheckArrayQuota(int length)
    {
        if (length > _quotas.MaxArrayLength)
        {
            throw new XmlException($"The maximum array length quota ({_quotas.MaxArrayLength}) has been exceeded while reading XML data: {length} bytes.");
        }
    }

    public override int ReadContentAsBase64(byte[] buffer, int index, int count) => ReadContentAsBytes(buffer, index, count, binHex: false);

    /// <summary>As in-box: the content's text decoded as pairs of hex digits, whitespace ignored, across text nodes.</summary>
    public override int ReadContentAsBinHex(byte[] buffer, int index, int count) => ReadContentAsBytes(buffer, index, count, binHex: true);

    private int ReadContentAsBytes(byte[] buffer, int index, int count, bool binHex)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, buffer.Length - index);
        if (count == 0)
        {
            return 0;
        }

        // As in-box: a value held as bytes, or as UTF-8 base64 in whole blocks, is handed out straight from its record,
        // a piece per call, and moved past by the call that finds it used up.
        if (!binHex && _trailByteCount == 0 && _trailCharCount == 0 && !HasValueString)
        {
            while (NodeType != XmlNodeType.Comment && TryReadValueBytes(buffer.AsSpan(index, count), out int n))
            {
                if (n != 0)
                {
                    return n;
                }

                Read();
            }
        }

        // As in-box, base64 stops at an element before handing out bytes waiting from an earlier call; BinHex hands them out first.
        return !binHex && NodeType is XmlNodeType.Element or XmlNodeType.EndElement
            ? 0
            : ReadCharsAsBytes(buffer, index, Math.Min(count, MaxBytesPerContentRead), binHex, readContent: true);
    }

    /// <summary>
    /// As in-box: the element's content decoded from base64 a piece per call, from its start tag on (an empty element
    /// gives 0 at once); the call that gives 0 reads the end tag.
    /// </summary>
    public override int ReadElementContentAsBase64(byte[] buffer, int index, int count) => ReadElementContentAsBytes(buffer, index, count, binHex: false);

    /// <summary>As <see cref="ReadElementContentAsBase64"/>, the content decoded as pairs of hex digits.</summary>
    public override int ReadElementContentAsBinHex(byte[] buffer, int index, int count) => ReadElementContentAsBytes(buffer, index, count, binHex: true);

    private int ReadElementContentAsBytes(byte[] buffer, int index, int count, bool binHex)
    {
        if (!_readingElement)
        {
            if (IsEmptyElement)
            {
                Read();
                return 0;
            }

            ReadStartElement();
            _readingElement = true;
        }

        int n = ReadContentAsBytes(buffer, index, count, binHex);
        if (n == 0)
        {
            ReadEndElement();
            _readingElement = false;
        }

        return n;
    }

    // As in-box: one call decodes at most this many bytes from characters.
    private const int MaxBytesPerContentRead = 512;

    /// <summary>True when the current node's value has been made a string (by Value, or what ReadValueChunk left of it).</summary>
    private bool HasValueString => _attributeIndex >= 0 ? _attributeValueSeen || _attributeValueOverride is not null : _value is not null;

    /// <summary>
    /// As in-box, the next bytes of the current text's or attribute's value taken where it is: a Bytes value's bytes,
    /// or a UTF-8 text's next whole base64 blocks when the caller has room for three bytes or more and what is left of
    /// the text is whole blocks (a text used up gives 0 bytes). What is taken is gone from the value. False, with
    /// nothing taken, for any other value or characters that do not decode as they are.
    /// </summary>
    private bool TryReadValueBytes(Span<byte> destination, out int written)
    {
        written = 0;
        if (_attributeIndex >= 0)
        {
            return TryReadAttributeValueBytes(_attributes[_attributeIndex], destination, out written);
        }

        if (_nodeType != XmlNodeType.Text || _valueFromItem || _c.ValueType is not (NbfxValueType.Bytes or NbfxValueType.Chars))
        {
            return false;
        }

        ReadOnlySpan<byte> rest = CurrentValue.Payload;
        int taken;
        if (_c.ValueType == NbfxValueType.Bytes)
        {
            taken = written = Math.Min(destination.Length, rest.Length);
            rest[..written].CopyTo(destination);
        }
        else if (!TryDecodeUtf8Blocks(rest, destination, out taken, out written))
        {
            return false;
        }

        HandOutPayload(taken);
        return true;
    }

    /// <summary><see cref="TryReadValueBytes"/> on an attribute: what is taken is gone from the attribute's value, as in-box.</summary>
    private bool TryReadAttributeValueBytes(AttributeNode a, Span<byte> destination, out int written)
    {
        written = 0;
        if (a.IsXmlns || a.Binding >= 0)
        {
            return false;
        }

        if (a.ValueType == NbfxValueType.Bytes)
        {
            written = Math.Min(destination.Length, a.PayloadLength);
            _attributePayloads.AsSpan(a.PayloadStart, written).CopyTo(destination);
            a.PayloadStart += written;
            a.PayloadLength -= written;
            a.Value = null; // made again from what is left
            return true;
        }

        if (a.ValueType != NbfxValueType.Chars)
        {
            return false;
        }

        a.ChunkText ??= AttributeValue(_attributeIndex);
        ReadOnlySpan<char> rest = a.ChunkText.AsSpan(a.ChunkTaken);
        int taken = WholeBlocksToTake(destination.Length, rest.Length);
        if (taken < 0 || !Ascii.IsValid(rest))
        {
            return false; // in-box decodes the UTF-8 bytes in whole blocks; other characters are not base64
        }

        ReadOnlySpan<char> blocks = rest[..taken];
        if (blocks.IndexOfAny(s_xmlWhitespaceSearch) >= 0 || !Convert.TryFromBase64Chars(blocks, destination, out written))
        {
            written = 0;
            return false;
        }

        a.ChunkTaken += taken;
        return true;
    }

    /// <summary>
    /// As in-box, how many base64 characters a value read where it is gives a call with <paramref name="room"/> bytes:
    /// as many whole blocks as fit, when the room is three bytes or more and the <paramref name="left"/> characters are
    /// whole blocks; −1 otherwise.
    /// </summary>
    private static int WholeBlocksToTake(int room, int left) => room < 3 || left % 4 != 0 ? -1 : Math.Min(room / 3 * 4, left);

    /// <summary>
    /// As in-box: up to <paramref name="destination"/>'s room of the base64 in <paramref name="utf8"/> decoded, when the
    /// room is three bytes or more and <paramref name="utf8"/> is whole blocks with no whitespace; false otherwise.
    /// </summary>
    private static bool TryDecodeUtf8Blocks(ReadOnlySpan<byte> utf8, Span<byte> destination, out int taken, out int written)
    {
        written = 0;
        taken = WholeBlocksToTake(destination.Length, utf8.Length);
        if (taken < 0)
        {
            taken = 0;
            return false;
        }

        ReadOnlySpan<byte> blocks = utf8[..taken];
        if (blocks.IndexOfAny(" \t\r\n"u8) >= 0
            || System.Buffers.Text.Base64.DecodeFromUtf8(blocks, destination, out int consumed, out written) != OperationStatus.Done || consumed != taken)
        {
            taken = written = 0;
            return false;
        }

        return true;
    }

    /// <summary>
    /// As in-box: bytes decoded from characters taken until a whole block is read, from the content a node at a time
    /// through ReadContentAsChars (<paramref name="readContent"/>), or from the current value alone through
    /// ReadValueChunk; either way what is taken is gone from the node. Characters past the last whole block, and bytes
    /// decoded past what the caller has room for, are kept for the next call, on whatever node it comes; between
    /// content texts a lone line feed is passed over, and other whitespace is removed when the characters do not
    /// decode with it.
    /// </summary>
    private int ReadCharsAsBytes(byte[] buffer, int index, int byteCount, bool binHex, bool readContent)
    {
        if (_trailByteCount > 0)
        {
            return TakeTrailBytes(buffer.AsSpan(index, byteCount));
        }

        if (NodeType is XmlNodeType.Element or XmlNodeType.EndElement)
        {
            return 0;
        }

        int byteBlock = binHex ? 1 : 3, charBlock = binHex ? 2 : 4;
        int maxChars = byteCount < byteBlock ? charBlock : byteCount / byteBlock * charBlock;
        char[] chars = ArrayPool<char>.Shared.Rent(maxChars);
        try
        {
            int charCount = 0;
            while (true)
            {
                if (_trailCharCount > 0)
                {
                    _trailChars.AsSpan(0, _trailCharCount).CopyTo(chars.AsSpan(charCount));
                    charCount += _trailCharCount;
                    _trailCharCount = 0;
                }

                while (charCount < charBlock)
                {
                    int read = readContent ? ReadContentAsChars(chars, charCount, maxChars - charCount) : ReadValueChunk(chars, charCount, maxChars - charCount);
                    if (readContent && read == 1 && chars[charCount] == '\n')
                    {
                        continue;
                    }

                    if (read == 0)
                    {
                        break;
                    }

                    charCount += read;
                }

                if (charCount >= charBlock)
                {
                    int trail = charCount % charBlock;
                    if (trail > 0)
                    {
                        charCount -= trail;
                        chars.AsSpan(charCount, trail).CopyTo(_trailChars ??= new char[4]);
                        _trailCharCount = trail;
                    }
                }

                ReadOnlySpan<char> text = chars.AsSpan(0, charCount);
                if (text.IndexOfAny(s_xmlWhitespaceSearch) < 0)
                {
                    if (byteCount >= byteBlock)
                    {
                        return DecodeBlocks(text, buffer.AsSpan(index), binHex);
                    }

                    _trailByteCount = DecodeBlocks(text, _trailBytes ??= new byte[3], binHex);
                    return TakeTrailBytes(buffer.AsSpan(index, byteCount));
                }

                // Whitespace inside: decode without it, reading on to make up whole blocks.
                int kept = 0;
                foreach (char c in text)
                {
                    if (!s_xmlWhitespaceSearch.Contains(c))
                    {
                        chars[kept++] = c;
                    }
                }

                charCount = kept;
            }
        }
        finally
        {
            ArrayPool<char>.Shared.Return(chars);
        }
    }

    private static readonly SearchValues<char> s_xmlWhitespaceSearch = SearchValues.Create(" \t\r\n");

    /// <summary>Decodes whole blocks of base64 or hex digits; the reader's exception for anything else.</summary>
    private static int DecodeBlocks(ReadOnlySpan<char> text, Span<byte> destination, bool binHex)
    {
        if (binHex)
        {
            if (text.Length % 2 == 0 && Convert.FromHexString(text, destination[..(text.Length / 2)], out _, out int hexWritten) == OperationStatus.Done)
            {
                return hexWritten;
            }
        }
        else if (text.Length % 4 == 0 && Convert.TryFromBase64Chars(text, destination, out int written))
        {
            return written;
        }

        ThrowNotBytes(text, binHex);
        return 0;
    }

    /// <summary>Hands out the bytes decoded past the room of an earlier call.</summary>
    private int TakeTrailBytes(Span<byte> destination)
    {
        int n = Math.Min(_trailByteCount, destination.Length);
        _trailBytes.AsSpan(0, n).CopyTo(destination);
        _trailBytes.AsSpan(n, _trailByteCount - n).CopyTo(_trailBytes);
        _trailByteCount -= n;
        return n;
    }

    /// <summary>
    /// As in-box: the current text's or attribute's value as bytes, a piece per call, without moving on (0 once all
    /// are given, or on a node with no value). A Bytes value, or a UTF-8 text's whole base64 blocks, is taken where
    /// it is, as ReadContentAsBase64 takes it (what either took is gone for both); other text is decoded as it is
    /// taken through ReadValueChunk, at most 512 bytes a call. XmlDictionaryWriter.WriteNode copies a byte[] value
    /// this way.
    /// </summary>
    public override int ReadValueAsBase64(byte[] buffer, int offset, int count)
    {
        ArrayArguments.Check(buffer, offset, count);
        if (count == 0)
        {
            return 0;
        }

        if (_trailByteCount == 0 && _trailCharCount == 0 && !HasValueString && TryReadValueBytes(buffer.AsSpan(offset, count), out int written))
        {
            return written;
        }

        return ReadCharsAsBytes(buffer, offset, Math.Min(count, MaxBytesPerContentRead), binHex: false, readContent: false);
    }

    [DoesNotReturn]
    private static byte[] ThrowNotBytes(ReadOnlySpan<char> text, bool binHex) => binHex
        ? throw new XmlException($"The text '{Shown(text)}' is not a valid BinHex sequence.")
        : ThrowNotBase64(text);

    [DoesNotReturn]
    private static byte[] ThrowNotBase64(ReadOnlySpan<char> text) => throw new XmlException($"The text '{Shown(text)}' is not base64.");

    /// <summary>The start of a text refused, for its message: only that much is copied.</summary>
    private static string Shown(ReadOnlySpan<char> text) => text.Length > 32 ? string.Concat(text[..32], "…") : text.ToString();
}
