using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

// Reading content as bytes. The content is one base64 stream across its text nodes, as in-box: a text whose length is
// not a multiple of 4 leaves its last characters to be joined with the next text's. A Bytes record, met on a block
// boundary, is copied as it is.
internal sealed partial class NbfxXmlReader
{
    private string? _base64Carry; // up to 3 base64 characters left from an attribute's value before
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
            string whole = _attributes[_attributeIndex].ChunkRest ?? AttributeValue(_attributeIndex);
            int take = Math.Min(count, whole.Length);
            if (type == NbfxValueType.Chars && take < whole.Length && take > 0 && char.IsHighSurrogate(whole[take - 1]))
            {
                take--;
            }

            whole.CopyTo(0, buffer, index, take);
            _attributes[_attributeIndex].ChunkRest = whole[take..];
            return take;
        }

        string value = Value;
        int n = Math.Min(count, value.Length);
        value.CopyTo(0, buffer, index, n);
        _nodeTouched = true;
        if (onAttribute)
        {
            _attributeValueOverride = value[n..];
        }
        else
        {
            _value = value[n..];
        }

        return n;
    }

    /// <summary>The next characters of the current text record's value, decoded from the bytes not yet handed out.</summary>
    private int ReadTextChunk(Span<char> destination, NbfxValueType type)
    {
        if (_chunkedToken != _c.TokenOffset)
        {
            _chunkedToken = _c.TokenOffset;
            _chunkedBytes = 0;
        }

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

        _chunkedBytes += bytes;
        _nodeTouched = true;
        return chars;
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

        if (_attributeIndex >= 0)
        {
            return ReadAttributeBytes(buffer, index, count, binHex);
        }

        // A Bytes record is handed out as it is, a piece per call, and moved past by the call that finds it used up.
        if (!binHex && _trailByteCount == 0 && _trailCharCount == 0 && _value is null)
        {
            while (_nodeType != XmlNodeType.Comment && TryReadRecordBytes(buffer.AsSpan(index, count), out int n))
            {
                if (n != 0)
                {
                    return n;
                }

                Read();
            }
        }

        return _nodeType is XmlNodeType.Element or XmlNodeType.EndElement ? 0 : ReadCharsAsBytes(buffer, index, Math.Min(count, MaxBytesPerContentRead), binHex);
    }

    // As in-box: one call decodes at most this many bytes from characters.
    private const int MaxBytesPerContentRead = 512;

    /// <summary>
    /// The next bytes of the current text when it is a Bytes record: what is left of its payload after the bytes
    /// handed out before (the same count ReadValueChunk keeps, so Value shows the rest). False on any other node.
    /// </summary>
    private bool TryReadRecordBytes(Span<byte> destination, out int written)
    {
        written = 0;
        if (_nodeType != XmlNodeType.Text || _valueFromItem || _c.ValueType != NbfxValueType.Bytes)
        {
            return false;
        }

        if (_chunkedToken != _c.TokenOffset)
        {
            _chunkedToken = _c.TokenOffset;
            _chunkedBytes = 0;
        }

        ReadOnlySpan<byte> rest = CurrentValue.Payload;
        written = Math.Min(destination.Length, rest.Length);
        rest[..written].CopyTo(destination);
        _chunkedBytes += written;
        _nodeTouched = true;
        return true;
    }

    /// <summary>
    /// As in-box: bytes decoded from the content's characters, taken a node at a time through ReadContentAsChars (so
    /// what is taken is gone from the node, as with ReadValueChunk) until a whole block is read. Characters past the
    /// last whole block, and bytes decoded past what the caller has room for, are kept for the next call, on whatever
    /// node it comes; a lone line feed between texts is passed over, and other whitespace is removed when the
    /// characters do not decode with it.
    /// </summary>
    private int ReadCharsAsBytes(byte[] buffer, int index, int byteCount, bool binHex)
    {
        if (_trailByteCount > 0)
        {
            return TakeTrailBytes(buffer.AsSpan(index, byteCount));
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
                    int read = ReadContentAsChars(chars, charCount, maxChars - charCount);
                    if (read == 1 && chars[charCount] == '\n')
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

        ThrowNotBytes(text.ToString(), binHex);
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
    /// On an attribute: its value's bytes, a piece per call (with the characters of an earlier value joined to make a
    /// whole block); the call that finds them used up moves on to the element's content, as in-box.
    /// </summary>
    private int ReadAttributeBytes(byte[] buffer, int index, int count, bool binHex)
    {
        while (true)
        {
            if (_base64 is null)
            {
                if (!LoadValueBytes(binHex, joined: true))
                {
                    if (_base64Carry is { } left)
                    {
                        _base64Carry = null;
                        ThrowNotBytes(left, binHex);
                    }

                    return 0;
                }
            }

            if (_base64Offset == _base64.Length)
            {
                MoveToElement();
                ReadKeepingCarry();
                if (_attributeIndex < 0)
                {
                    return ReadContentAsBytes(buffer, index, count, binHex);
                }

                continue;
            }

            int n = Math.Min(count, _base64.Length - _base64Offset);
            _base64.AsSpan(_base64Offset, n).CopyTo(buffer.AsSpan(index));
            _base64Offset += n;
            return n;
        }
    }

    /// <summary>
    /// As in-box: the current text's or attribute's value as bytes, a piece per call, without moving on (0 once all
    /// are given, or on a node with no value): a Bytes record's bytes as they are, other text decoded from base64.
    /// XmlDictionaryWriter.WriteNode copies a byte[] value this way.
    /// </summary>
    public override int ReadValueAsBase64(byte[] buffer, int offset, int count)
    {
        ArrayArguments.Check(buffer, offset, count);
        if (count == 0)
        {
            return 0;
        }

        if (_base64 is null && !LoadValueBytes(binHex: false, joined: false))
        {
            return 0;
        }

        int n = Math.Min(count, _base64.Length - _base64Offset);
        _base64.AsSpan(_base64Offset, n).CopyTo(buffer.AsSpan(offset));
        _base64Offset += n;
        return n;
    }

    /// <summary>
    /// Takes the current attribute's or text's value as the bytes to hand out: a Bytes record's bytes as they are, other
    /// text decoded from base64 or BinHex, <paramref name="joined"/> with the characters carried from the text before
    /// when content is read across nodes. False on a node with no value.
    /// </summary>
    [MemberNotNullWhen(true, nameof(_base64))]
    private bool LoadValueBytes(bool binHex, bool joined)
    {
        bool asRecorded = !binHex && _base64Carry is null;
        if (_attributeIndex >= 0)
        {
            AttributeNode a = _attributes[_attributeIndex];
            // A value ReadValueChunk has begun to hand out is what it left of it, as in-box.
            string? left = _attributeValueOverride ?? a.ChunkRest;
            _base64 = asRecorded && left is null && a.Binding < 0 && a.ValueType == NbfxValueType.Bytes
                ? _attributePayloads.AsSpan(a.PayloadStart, a.PayloadLength).ToArray()
                : joined ? DecodeJoined(left ?? AttributeValue(_attributeIndex), binHex) : DecodeWhole(left ?? AttributeValue(_attributeIndex));
        }
        else if (_nodeType is XmlNodeType.Text or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace)
        {
            _base64 = asRecorded && !_valueFromItem && _value is null && _c.ValueType == NbfxValueType.Bytes
                ? Window.Slice(_c.ValueStart, _c.ValueLength).ToArray()
                : joined ? DecodeJoined(Value, binHex) : DecodeWhole(Value);
        }
        else
        {
            return false;
        }

        _base64Offset = 0;
        _nodeTouched = true;
        return true;
    }

    /// <summary>All of <paramref name="text"/> decoded from base64 (whitespace ignored), or the reader's exception.</summary>
    private static byte[] DecodeWhole(string text)
    {
        try
        {
            return Convert.FromBase64String(text);
        }
        catch (FormatException)
        {
            return ThrowNotBase64(text);
        }
    }

    /// <summary>Read, keeping the characters carried from the text before (Read forgets them, for any other caller).</summary>
    private bool ReadKeepingCarry()
    {
        string? carry = _base64Carry;
        bool more = Read();
        _base64Carry = carry;
        _nodeTouched = true;
        return more;
    }

    /// <summary>
    /// Decodes the whole blocks (4 characters of base64, or 2 hex digits) of the carried characters and
    /// <paramref name="text"/>, whitespace ignored; carries the rest to the next text node.
    /// </summary>
    private byte[] DecodeJoined(string text, bool binHex)
    {
        if (_base64Carry is not null)
        {
            text = _base64Carry + text;
        }

        if (text.AsSpan().IndexOfAny(" \t\r\n") >= 0)
        {
            text = string.Concat(text.Split([' ', '\t', '\r', '\n'], StringSplitOptions.RemoveEmptyEntries));
        }

        int block = binHex ? 2 : 4;
        int whole = text.Length / block * block;
        _base64Carry = whole < text.Length ? text[whole..] : null;
        _nodeTouched = true;
        try
        {
            string blocks = whole < text.Length ? text[..whole] : text;
            return binHex ? Convert.FromHexString(blocks) : Convert.FromBase64String(blocks);
        }
        catch (FormatException)
        {
            _base64Carry = null;
            return ThrowNotBytes(text, binHex);
        }
    }

    [DoesNotReturn]
    private static byte[] ThrowNotBytes(string text, bool binHex) => binHex
        ? throw new XmlException($"The text '{(text.Length > 32 ? text[..32] + "…" : text)}' is not a valid BinHex sequence.")
        : ThrowNotBase64(text);

    [DoesNotReturn]
    private static byte[] ThrowNotBase64(string text) =>
        throw new XmlException($"The text '{(text.Length > 32 ? text[..32] + "…" : text)}' is not base64.");
}
