using System.Buffers;
using System.Xml;

namespace Spanwire.BinaryXml.Xml;

// The node layer between the writer's rules and the records, as the in-box binary node writer behaves: inside an
// attribute, text is collected (pieces joined; bytes kept as bytes until text arrives) and written when the attribute
// ends, while a typed value is written at once, and only one may be (any number inside a list).
internal sealed partial class NbfxXmlWriter
{
    private bool _nodeInAttribute;
    private bool _wroteAttributeValue;
    private bool _nodeInList;

    // The collected text of the attribute being written. The in-box writer does not clear it when the attribute got
    // a typed value instead, so it becomes the value of the next attribute that gets none; kept as it does.
    private string? _captureText;
    private XmlDictionaryString? _captureDictionary;
    private ArrayBufferWriter<byte>? _captureBytes;
    private bool _capturingBytes;

    private void ResetNode()
    {
        _nodeInAttribute = false;
        _nodeInList = false;
        _wroteAttributeValue = false;
        _captureText = null;
        _captureDictionary = null;
        _capturingBytes = false;
        _captureBytes?.Clear();
    }

    private void NodeStartElement(string prefix, string localName) => _writer.WriteStartElement(prefix, localName);

    private void NodeStartElement(string prefix, XmlDictionaryString localName) => _writer.WriteStartElement(prefix, localName);

    private void NodeStartAttribute(string prefix, string localName)
    {
        _writer.WriteStartAttribute(prefix, localName);
        _nodeInAttribute = true;
        _wroteAttributeValue = false;
    }

    private void NodeStartAttribute(string prefix, XmlDictionaryString localName)
    {
        _writer.WriteStartAttribute(prefix, localName);
        _nodeInAttribute = true;
        _wroteAttributeValue = false;
    }

    private void NodeEndAttribute()
    {
        _nodeInAttribute = false;
        if (!_wroteAttributeValue)
        {
            if (_captureText is not null)
            {
                _writer.WriteString(_captureText);
                _captureText = null;
            }
            else if (_captureDictionary is not null)
            {
                _writer.WriteString(_captureDictionary);
                _captureDictionary = null;
            }
            else if (_capturingBytes)
            {
                _writer.WriteBase64(_captureBytes!.WrittenSpan);
                _captureBytes.Clear();
                _capturingBytes = false;
            }
            else
            {
                _writer.WriteString(ReadOnlySpan<char>.Empty);
            }
        }

        _writer.WriteEndAttribute();
    }

    /// <summary>A typed record is about to be written: inside an attribute it is its value, and only one is allowed.</summary>
    private void NodeWroteTypedValue()
    {
        if (_nodeInAttribute)
        {
            if (_wroteAttributeValue && !_nodeInList)
            {
                ThrowSecondTypedValue();
            }

            _wroteAttributeValue = true;
        }
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowSecondTypedValue() =>
        throw new InvalidOperationException("Only a single typed value may be written inside an attribute or content.");

    private void NodeText(ReadOnlySpan<char> text)
    {
        if (_nodeInAttribute)
        {
            CaptureText(text.ToString());
            return;
        }

        _writer.WriteString(text);
    }

    private void NodeText(string text)
    {
        if (_nodeInAttribute)
        {
            CaptureText(text);
            return;
        }

        _writer.WriteString(text);
    }

    private void NodeText(XmlDictionaryString text)
    {
        if (_nodeInAttribute)
        {
            if (_captureText is not null || _capturingBytes)
            {
                CaptureText(text.Value);
            }
            else
            {
                _captureDictionary = text;
            }

            return;
        }

        _writer.WriteString(text);
    }

    private void NodeBase64(ReadOnlySpan<byte> trail, ReadOnlySpan<byte> bytes)
    {
        if (_nodeInAttribute)
        {
            if (_captureText is not null || _captureDictionary is not null)
            {
                if (!trail.IsEmpty)
                {
                    CaptureText(Convert.ToBase64String(trail));
                }

                CaptureText(Convert.ToBase64String(bytes));
                return;
            }

            _captureBytes ??= new ArrayBufferWriter<byte>();
            _captureBytes.Write(trail);
            _captureBytes.Write(bytes);
            _capturingBytes = true;
            return;
        }

        _writer.WriteBase64(trail, bytes);
    }

    private void NodeQualifiedName(string prefix, XmlDictionaryString localName)
    {
        if (prefix.Length == 0)
        {
            NodeText(localName);
        }
        else if (prefix.Length == 1 && char.IsAsciiLetterLower(prefix[0]) && _writer.TryGetKey(localName, out _))
        {
            NodeWroteTypedValue();
            _writer.WriteQualifiedName(prefix, localName);
        }
        else
        {
            NodeText(prefix);
            NodeText(":");
            NodeText(localName);
        }
    }

    private void NodeStartList()
    {
        _nodeInList = true;
        _writer.WriteStartList();
    }

    private void NodeEndList()
    {
        _nodeInList = false;
        _wroteAttributeValue = true;
        _writer.WriteEndList();
    }

    /// <summary>Collects an attribute's text: pieces are joined, and bytes become base64 text once text arrives.</summary>
    private void CaptureText(string text)
    {
        if (_capturingBytes)
        {
            _captureText = Convert.ToBase64String(_captureBytes!.WrittenSpan);
            _captureBytes.Clear();
            _capturingBytes = false;
        }

        if (_captureDictionary is not null)
        {
            _captureText = _captureDictionary.Value;
            _captureDictionary = null;
        }

        _captureText = string.IsNullOrEmpty(_captureText) ? text : _captureText + text;
    }
}
