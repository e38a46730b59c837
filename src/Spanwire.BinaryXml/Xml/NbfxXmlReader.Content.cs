using System.Diagnostics.CodeAnalysis;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

// Reading content as bytes. The content is one base64 stream across its text nodes, as in-box: a text whose length is
// not a multiple of 4 leaves its last characters to be joined with the next text's. A Bytes record, met on a block
// boundary, is copied as it is.
internal sealed partial class NbfxXmlReader
{
    private string? _base64Carry; // up to 3 base64 characters left from the text before

    public override bool CanReadBinaryContent => true;

    public override int ReadContentAsBase64(byte[] buffer, int index, int count)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, buffer.Length - index);
        int total = 0;
        while (count > 0)
        {
            if (_base64 is null)
            {
                if (_state == ReadState.Initial || _attributeIndex < 0 && _nodeType == XmlNodeType.Comment)
                {
                    // Nothing read yet, or a comment: move on, as the in-box reader does (from the start, to the root).
                    if (!ReadKeepingCarry())
                    {
                        break;
                    }
                    continue;
                }
                if (_attributeIndex >= 0)
                {
                    // On an attribute or its value: its bytes as they are, or its text decoded.
                    AttributeNode a = _attributes[_attributeIndex];
                    _base64 = a.Binding < 0 && a.ValueType == NbfxValueType.Bytes && _base64Carry is null
                        ? _attributePayloads.AsSpan(a.PayloadStart, a.PayloadLength).ToArray()
                        : DecodeJoined(AttributeValue(_attributeIndex));
                }
                else if (_nodeType is XmlNodeType.Text or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace)
                {
                    _base64 = !_valueFromItem && _c.ValueType == NbfxValueType.Bytes && _base64Carry is null
                        ? Window.Slice(_c.ValueStart, _c.ValueLength).ToArray()
                        : DecodeJoined(Value);
                }
                else
                {
                    if (_base64Carry is { } left)
                    {
                        _base64Carry = null;
                        ThrowNotBase64(left);
                    }
                    break;
                }
                _base64Offset = 0;
            }
            int n = Math.Min(count, _base64.Length - _base64Offset);
            _base64.AsSpan(_base64Offset, n).CopyTo(buffer.AsSpan(index));
            _base64Offset += n;
            index += n;
            count -= n;
            total += n;
            if (_base64Offset == _base64.Length)
            {
                // The node is used up: move on, as XmlReader's content methods do. From an attribute that is the node
                // after its element's start, as in-box: its content, if text, is read on.
                MoveToElement();
                ReadKeepingCarry();
            }
        }
        return total;
    }

    /// <summary>Read, keeping the characters carried from the text before (Read forgets them, for any other caller).</summary>
    private bool ReadKeepingCarry()
    {
        string? carry = _base64Carry;
        bool more = Read();
        _base64Carry = carry;
        return more;
    }

    /// <summary>Decodes the whole 4-character blocks of the carried characters and <paramref name="text"/>; carries the rest.</summary>
    private byte[] DecodeJoined(string text)
    {
        if (_base64Carry is not null)
        {
            text = _base64Carry + text;
        }
        if (text.AsSpan().IndexOfAny(" \t\r\n") >= 0)
        {
            text = string.Concat(text.Split([' ', '\t', '\r', '\n'], StringSplitOptions.RemoveEmptyEntries));
        }
        int whole = text.Length / 4 * 4;
        _base64Carry = whole < text.Length ? text[whole..] : null;
        try
        {
            return Convert.FromBase64String(whole < text.Length ? text[..whole] : text);
        }
        catch (FormatException)
        {
            _base64Carry = null;
            return ThrowNotBase64(text);
        }
    }

    [DoesNotReturn]
    private static byte[] ThrowNotBase64(string text) =>
        throw new XmlException($"The text '{(text.Length > 32 ? text[..32] + "…" : text)}' is not base64.");
}
