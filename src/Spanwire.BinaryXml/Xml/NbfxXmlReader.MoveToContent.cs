using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

// MoveToContent and ReadEndElement as the in-box binary reader has them, which differ from XmlReader's: whitespace-only
// text is skipped like a comment, not returned as content (checked on the record's bytes, so no string is made for
// it), unless bytes decoded by a content read are still to be handed out, and ending an element when none is open is
// an InvalidOperationException.
internal sealed partial class NbfxXmlReader
{
    public override XmlNodeType MoveToContent()
    {
        // On an element or end element already, as nearly every call from a serializer is.
        XmlNodeType type = _nodeType;
        if (_attributeIndex < 0 && type is XmlNodeType.Element or XmlNodeType.EndElement)
        {
            return type;
        }

        return MoveToContentFromHere();
    }

    private XmlNodeType MoveToContentFromHere()
    {
        do
        {
            if (_attributeIndex >= 0)
            {
                if (_onAttributeValue && !IsWhitespace(AttributeValueForContent()))
                {
                    return XmlNodeType.Text;
                }

                if (!_onAttributeValue)
                {
                    MoveToElement();
                    return XmlNodeType.Element;
                }
            }
            else if (_nodeType is XmlNodeType.Element or XmlNodeType.EndElement
                || _nodeType == XmlNodeType.Text && (_trailByteCount > 0 || !IsWhitespaceText()))
            {
                return _nodeType;
            }
        }
        while (Read());
        return _nodeType;
    }

    /// <summary>
    /// As in-box: with no element open to end (at the top level, or nothing read yet), an InvalidOperationException;
    /// otherwise XmlReader's own check and read.
    /// </summary>
    public override void ReadEndElement()
    {
        if (MoveToContent() == XmlNodeType.EndElement)
        {
            Read();
            return;
        }

        if (Depth == 0)
        {
            throw new InvalidOperationException("No corresponding start element is open.");
        }

        base.ReadEndElement(); // not on an end element: XmlReader's own exception
    }

    /// <summary>
    /// The attribute value node's text as MoveToContent weighs it, as in-box: what is left of it (ReadValueChunk and
    /// content reads may have handed some or all of it out), and for a namespace declaration nothing until its Value
    /// has been asked for (the in-box node holds the namespace elsewhere, so it looks empty, and the reader moves on).
    /// </summary>
    private string AttributeValueForContent()
    {
        if (_attributeValueHandedOver)
        {
            return "";
        }

        if (_attributeValueOverride is { } left)
        {
            return left;
        }

        return _attributes[_attributeIndex].IsXmlns && !_attributeValueSeen ? "" : AttributeValueLeft(_attributeIndex);
    }

    /// <summary>True when the current text node's value is empty or only XML whitespace.</summary>
    private bool IsWhitespaceText()
    {
        if (ValueLeft() is { } made)
        {
            return IsWhitespace(made);
        }

        if (_valueFromItem)
        {
            return false; // array items are numbers, dates, Guids and the like
        }

        NbfxValue value = CurrentValue;
        switch (value.Type)
        {
            case NbfxValueType.Empty:
                return true;
            case NbfxValueType.Chars:
                return value.Payload.IndexOfAnyExcept(" \t\r\n"u8) < 0; // UTF-8: whitespace is ASCII, no other byte is
            case NbfxValueType.UnicodeChars:
                for (int i = 0; i + 1 < value.Payload.Length; i += 2)
                {
                    if (value.Payload[i + 1] != 0 || value.Payload[i] is not ((byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n'))
                    {
                        return false;
                    }
                }

                return true;
            case NbfxValueType.Dictionary:
                return IsWhitespace(value.DictionaryString!.Value);
            case NbfxValueType.Bytes:
                return value.Payload.IsEmpty; // base64 of no bytes is ""
            default:
                return false;
        }
    }
}
