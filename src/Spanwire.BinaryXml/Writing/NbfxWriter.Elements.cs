using System.Xml;

namespace Spanwire.BinaryXml;

public sealed partial class NbfxWriter
{
    /// <summary>
    /// Writes an element start: ShortElement without a prefix, PrefixElement a..z for a one-letter prefix, Element otherwise.
    /// Namespaces are not declared for you: write the xmlns attributes the element needs.
    /// </summary>
    /// <param name="prefix">The prefix, or null for none.</param>
    /// <param name="localName">The local name; a dictionary string is written as its id when the dictionary or the session holds it.</param>
    public void WriteStartElement(string? prefix, string localName)
    {
        ArgumentNullException.ThrowIfNull(localName);
        if (string.IsNullOrEmpty(prefix))
        {
            WriteNode(NbfxRecord.ShortElement);
        }
        else if (TryGetPrefixLetter(prefix, out int letter))
        {
            WriteNode((byte)(NbfxRecord.PrefixElementA + letter));
        }
        else
        {
            WriteNode(NbfxRecord.Element);
            WriteName(prefix);
        }

        WriteName(localName);
        _depth++;
    }

    /// <summary>
    /// Writes an element start whose local name is a dictionary string: the dictionary forms when the name is in the
    /// writer's dictionary or session, the plain forms otherwise.
    /// </summary>
    /// <param name="prefix">The prefix, or null for none.</param>
    /// <param name="localName">The local name; a dictionary string is written as its id when the dictionary or the session holds it.</param>
    public void WriteStartElement(string? prefix, XmlDictionaryString localName)
    {
        ArgumentNullException.ThrowIfNull(localName);
        if (!TryGetKey(localName, out int key))
        {
            WriteStartElement(prefix, localName.Value);
            return;
        }

        if (string.IsNullOrEmpty(prefix))
        {
            WriteNode(NbfxRecord.ShortDictionaryElement);
        }
        else if (TryGetPrefixLetter(prefix, out int letter))
        {
            WriteNode((byte)(NbfxRecord.PrefixDictionaryElementA + letter));
        }
        else
        {
            WriteNode(NbfxRecord.DictionaryElement);
            WriteName(prefix);
        }

        WriteMultiByteInt31(key);
        _depth++;
    }

    /// <summary>
    /// Ends the current element. When the last record was a text record still in the in-box writer's staging buffer, that
    /// record becomes its "with end element" form; otherwise an EndElement record is written.
    /// </summary>
    public void WriteEndElement()
    {
        if (_depth != 0)
        {
            _depth--;
        }
        else if (!_layered)
        {
            ThrowInvalidOperation("There is no open element to end.");
        }

        if (_textRecord >= 0)
        {
            _w.Buffer[_textRecord]++;
            _textRecord = -1;
        }
        else
        {
            WriteNode(NbfxRecord.EndElement);
        }
    }

    /// <summary>Writes an attribute's name; follow it with exactly one text (a string, value, list or dictionary string).</summary>
    /// <param name="prefix">The prefix, or null for none.</param>
    /// <param name="localName">The local name; a dictionary string is written as its id when the dictionary or the session holds it.</param>
    public void WriteStartAttribute(string? prefix, string localName)
    {
        ArgumentNullException.ThrowIfNull(localName);
        if (string.IsNullOrEmpty(prefix))
        {
            WriteNode(NbfxRecord.ShortAttribute);
        }
        else if (TryGetPrefixLetter(prefix, out int letter))
        {
            WriteNode((byte)(NbfxRecord.PrefixAttributeA + letter));
        }
        else
        {
            WriteNode(NbfxRecord.Attribute);
            WriteName(prefix);
        }

        WriteName(localName);
    }

    /// <summary>Writes an attribute's name as a dictionary string when it can; follow it with exactly one text.</summary>
    /// <param name="prefix">The prefix, or null for none.</param>
    /// <param name="localName">The local name; a dictionary string is written as its id when the dictionary or the session holds it.</param>
    public void WriteStartAttribute(string? prefix, XmlDictionaryString localName)
    {
        ArgumentNullException.ThrowIfNull(localName);
        if (!TryGetKey(localName, out int key))
        {
            WriteStartAttribute(prefix, localName.Value);
            return;
        }

        if (string.IsNullOrEmpty(prefix))
        {
            WriteNode(NbfxRecord.ShortDictionaryAttribute);
        }
        else if (TryGetPrefixLetter(prefix, out int letter))
        {
            WriteNode((byte)(NbfxRecord.PrefixDictionaryAttributeA + letter));
        }
        else
        {
            WriteNode(NbfxRecord.DictionaryAttribute);
            WriteName(prefix);
        }

        WriteMultiByteInt31(key);
    }

    /// <summary>Ends an attribute's value: an attribute's text never folds into an end element.</summary>
    public void WriteEndAttribute() => _textRecord = -1;

    /// <summary>Writes an attribute and its string value.</summary>
    /// <param name="prefix">The prefix, or null for none.</param>
    /// <param name="localName">The local name; a dictionary string is written as its id when the dictionary or the session holds it.</param>
    /// <param name="value">The text.</param>
    public void WriteAttributeString(string? prefix, string localName, string value)
    {
        WriteStartAttribute(prefix, localName);
        WriteString(value);
        WriteEndAttribute();
    }

    /// <summary>Declares a namespace: ShortXmlnsAttribute for the default namespace, XmlnsAttribute for a prefix (never the letter forms).</summary>
    /// <param name="prefix">The prefix, or null for none.</param>
    /// <param name="namespaceUri">The namespace URI.</param>
    public void WriteXmlnsAttribute(string? prefix, string namespaceUri)
    {
        ArgumentNullException.ThrowIfNull(namespaceUri);
        if (string.IsNullOrEmpty(prefix))
        {
            WriteNode(NbfxRecord.ShortXmlnsAttribute);
        }
        else
        {
            WriteNode(NbfxRecord.XmlnsAttribute);
            WriteName(prefix);
        }

        WriteName(namespaceUri);
    }

    /// <summary>Declares a namespace given as a dictionary string, with the dictionary forms when it is in the dictionary or session.</summary>
    /// <param name="prefix">The prefix, or null for none.</param>
    /// <param name="namespaceUri">The namespace URI.</param>
    public void WriteXmlnsAttribute(string? prefix, XmlDictionaryString namespaceUri)
    {
        ArgumentNullException.ThrowIfNull(namespaceUri);
        if (!TryGetKey(namespaceUri, out int key))
        {
            WriteXmlnsAttribute(prefix, namespaceUri.Value);
            return;
        }

        if (string.IsNullOrEmpty(prefix))
        {
            WriteNode(NbfxRecord.ShortDictionaryXmlnsAttribute);
        }
        else
        {
            WriteNode(NbfxRecord.DictionaryXmlnsAttribute);
            WriteName(prefix);
        }

        WriteMultiByteInt31(key);
    }

    /// <summary>Writes a comment record.</summary>
    /// <param name="text">The comment text.</param>
    public void WriteComment(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        WriteNode(NbfxRecord.Comment);
        WriteName(text);
    }

    /// <summary>Starts a list of texts (an attribute value made of several typed values); end it with <see cref="WriteEndList"/>.</summary>
    public void WriteStartList() => WriteNode(NbfxRecord.StartListText);

    /// <summary>Ends a list of texts.</summary>
    public void WriteEndList() => WriteNode(NbfxRecord.EndListText);

    private static bool TryGetPrefixLetter(string prefix, out int letter)
    {
        letter = prefix[0] - 'a';
        return prefix.Length == 1 && (uint)letter < 26;
    }

    /// <summary>
    /// The id of a dictionary string on the wire: key × 2 in the static dictionary, session key × 2 + 1 in the session
    /// (added on first use), as the in-box writer decides.
    /// </summary>
    internal bool TryGetKey(XmlDictionaryString value, out int key)
    {
        if (_dictionary is not null)
        {
            if (ReferenceEquals(value.Dictionary, _dictionary))
            {
                key = value.Key * 2;
                return true;
            }

            if (_dictionary.TryLookup(value, out XmlDictionaryString? found))
            {
                key = found.Key * 2;
                return true;
            }
        }

        if (_session is not null && WriterSessions.TryGetOrAdd(_session, value, out int sessionKey))
        {
            key = sessionKey * 2 + 1;
            return true;
        }

        key = -1;
        return false;
    }
}
