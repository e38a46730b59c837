using System.Xml;

namespace Spanwire.BinaryXml.Xml;

// Reading content as bytes: a Bytes record is copied as it is, any other text is decoded from base64.
internal sealed partial class NbfxXmlReader
{
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
                if (_attributeIndex >= 0 || _nodeType is not (XmlNodeType.Text or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace or XmlNodeType.Comment))
                {
                    break;
                }
                if (_nodeType == XmlNodeType.Comment)
                {
                    Read();
                    continue;
                }
                _base64 = !_valueFromItem && _c.ValueType == NbfxValueType.Bytes
                    ? Window.Slice(_c.ValueStart, _c.ValueLength).ToArray()
                    : DecodeBase64(Value);
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
                Read(); // the node is used up: move on, as XmlReader's content methods do
            }
        }
        return total;
    }

    private byte[] DecodeBase64(string text)
    {
        try
        {
            return Convert.FromBase64String(text);
        }
        catch (FormatException)
        {
            throw new XmlException($"The text '{(text.Length > 32 ? text[..32] + "…" : text)}' is not base64.");
        }
    }
}
