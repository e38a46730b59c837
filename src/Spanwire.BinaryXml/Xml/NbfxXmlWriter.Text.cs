using System.Globalization;
using System.Runtime.CompilerServices;
using System.Xml;

namespace Spanwire.BinaryXml.Xml;

// Text, typed values, base64, comments and qualified names. Each follows the same steps as the in-box writer:
// pending base64 first, the value kept when an xml: or xmlns attribute is open, then (unless it is an xmlns
// attribute, which is not written) the content check and the record.
internal sealed partial class NbfxXmlWriter
{
    public override void WriteString(string? text)
    {
        if (_direct && !string.IsNullOrEmpty(text))
        {
            StartDirectContent();
            _writer.WriteString(text);
            return;
        }

        ThrowIfClosed();
        text ??= "";
        if (text.Length == 0 && !_inList)
        {
            return;
        }

        FlushBase64();
        if (_attributeValue is not null)
        {
            WriteAttributeText(text);
        }

        if (!_isXmlnsAttribute)
        {
            StartContent(text);
            NodeText(text);
        }
    }

    public override void WriteString(XmlDictionaryString? value)
    {
        if (_direct && value is not null && value.Value.Length != 0)
        {
            StartDirectContent();
            _writer.WriteString(value);
            return;
        }

        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(value);
        if (value.Value.Length == 0)
        {
            return;
        }

        FlushBase64();
        if (_attributeValue is not null)
        {
            WriteAttributeText(value.Value);
        }

        if (!_isXmlnsAttribute)
        {
            StartContent(value.Value);
            NodeText(value);
        }
    }

    public override void WriteChars(char[] buffer, int index, int count)
    {
        ThrowIfClosed();
        CheckRange(buffer, index, count);
        if (count > 0)
        {
            WriteTextChars(buffer.AsSpan(index, count));
        }
    }

    public override void WriteRaw(char[] buffer, int index, int count)
    {
        ThrowIfClosed();
        CheckRange(buffer, index, count);
        if (count > 0)
        {
            WriteTextChars(buffer.AsSpan(index, count));
        }
    }

    public override void WriteRaw(string data)
    {
        ThrowIfClosed();
        data ??= "";
        if (data.Length > 0)
        {
            WriteTextChars(data);
        }
    }

    private void WriteTextChars(ReadOnlySpan<char> text)
    {
        FlushBase64();
        if (_attributeValue is not null)
        {
            WriteAttributeText(text.ToString());
        }

        if (!_isXmlnsAttribute)
        {
            StartContent(text);
            NodeText(text);
        }
    }

    public override void WriteCData(string? text)
    {
        ThrowIfClosed();
        if (_writeState == WriteState.Attribute)
        {
            ThrowInvalidState(nameof(WriteCData));
        }

        text ??= "";
        if (text.Length > 0)
        {
            StartContent();
            FlushBase64();
            NodeText(text);
        }
    }

    public override void WriteWhitespace(string? ws)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(ws);
        if (ws.AsSpan().ContainsAnyExcept(" \t\r\n"))
        {
            throw new ArgumentException("Only white space characters should be used.", nameof(ws));
        }

        WriteString(ws);
    }

    public override void WriteCharEntity(char ch)
    {
        ThrowIfClosed();
        if (char.IsSurrogate(ch))
        {
            throw new ArgumentException("The surrogate pair is invalid. Missing a low surrogate character.", nameof(ch));
        }

        if (_attributeValue is not null)
        {
            WriteAttributeText(ch.ToString());
        }

        if (!_isXmlnsAttribute)
        {
            StartContent([ch]);
            FlushBase64();
            NodeText([ch]);
        }
    }

    public override void WriteSurrogateCharEntity(char lowChar, char highChar)
    {
        ThrowIfClosed();
        if (!char.IsSurrogatePair(highChar, lowChar))
        {
            throw new ArgumentException("The surrogate pair is invalid.", nameof(lowChar));
        }

        ReadOnlySpan<char> pair = [highChar, lowChar];
        if (_attributeValue is not null)
        {
            WriteAttributeText(pair.ToString());
        }

        if (!_isXmlnsAttribute)
        {
            StartContent();
            FlushBase64();
            NodeText(pair);
        }
    }

    public override void WriteComment(string? text)
    {
        ThrowIfClosed();
        if (_writeState == WriteState.Attribute)
        {
            ThrowInvalidState(nameof(WriteComment));
        }

        text ??= "";
        if (text.Contains("--", StringComparison.Ordinal) || text.EndsWith('-'))
        {
            throw new ArgumentException("An XML comment cannot contain '--', and '-' cannot be the last character.", nameof(text));
        }

        FlushElement();
        FlushBase64();
        _writer.WriteComment(text);
    }

    public override void WriteQualifiedName(string localName, string? ns)
    {
        ThrowIfClosed();
        ArgumentException.ThrowIfNullOrEmpty(localName);
        string prefix = QualifiedNamePrefix(ns ?? "", null);
        if (prefix.Length != 0)
        {
            WriteString(prefix);
            WriteString(":");
        }

        WriteString(localName);
    }

    public override void WriteQualifiedName(XmlDictionaryString localName, XmlDictionaryString? namespaceUri)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(localName);
        if (localName.Value.Length == 0)
        {
            throw new ArgumentException("The empty string is not a valid local name.", nameof(localName));
        }

        namespaceUri ??= XmlDictionaryString.Empty;
        string prefix = QualifiedNamePrefix(namespaceUri.Value, namespaceUri);
        FlushBase64();
        if (_attributeValue is not null)
        {
            // The in-box writer keeps "prefix:namespace" here (not the local name); kept as it does.
            WriteAttributeText(prefix + ":" + namespaceUri.Value);
        }

        if (!_isXmlnsAttribute)
        {
            StartContent();
            NodeQualifiedName(prefix, localName);
        }
    }

    /// <summary>The prefix bound to <paramref name="ns"/>; inside an attribute one is declared if none is.</summary>
    private string QualifiedNamePrefix(string ns, XmlDictionaryString? dictionaryNs)
    {
        string? prefix = _namespaces.LookupPrefix(ns);
        if (prefix is null)
        {
            if (_writeState != WriteState.Attribute)
            {
                throw new ArgumentException($"The namespace '{ns}' is not defined.", "namespaceUri");
            }

            prefix = GeneratePrefix(ns, dictionaryNs);
        }

        return prefix;
    }

    // ---- base64 ----

    public override void WriteBase64(byte[] buffer, int index, int count)
    {
        ThrowIfClosed();
        CheckRange(buffer, index, count);
        if (count <= 0)
        {
            return;
        }

        ReadOnlySpan<byte> data = buffer.AsSpan(index, count);
        _direct = false; // bytes may be carried
        if (_trailCount > 0)
        {
            while (_trailCount < 3 && !data.IsEmpty)
            {
                _trail[_trailCount++] = data[0];
                data = data[1..];
            }
        }

        int total = _trailCount + data.Length;
        int whole = total - (total % 3);
        if (whole >= 3)
        {
            int fromData = whole - _trailCount;
            if (_attributeValue is not null)
            {
                WriteAttributeText(Convert.ToBase64String(_trail, 0, _trailCount));
                WriteAttributeText(Convert.ToBase64String(data[..fromData]));
            }

            if (!_isXmlnsAttribute)
            {
                StartContent();
                NodeBase64(_trail.AsSpan(0, _trailCount), data[..fromData]);
            }

            data = data[fromData..];
            data.CopyTo(_trail);
            _trailCount = data.Length;
        }
        else
        {
            data.CopyTo(_trail.AsSpan(_trailCount));
            _trailCount += data.Length;
        }
    }

    public override void WriteBinHex(byte[] buffer, int index, int count)
    {
        ThrowIfClosed();
        CheckRange(buffer, index, count);
        WriteRaw(Convert.ToHexString(buffer, index, count));
    }

    /// <summary>Writes base64 bytes still carried, before anything else is written.</summary>
    private void FlushBase64()
    {
        if (_trailCount > 0)
        {
            if (_attributeValue is not null)
            {
                WriteAttributeText(Convert.ToBase64String(_trail, 0, _trailCount));
            }

            if (!_isXmlnsAttribute)
            {
                StartContent();
                NodeBase64(_trail.AsSpan(0, _trailCount), default);
            }

            _trailCount = 0;
        }
    }

    // ---- typed values ----

    /// <summary>
    /// Starts a typed value's record: pending base64 first, then the content check. False when an attribute is open
    /// (its value is text): the caller then goes through <see cref="WriteTypedInAttribute"/>. The common case (see
    /// <see cref="_direct"/>) checks one flag and calls the record writer directly, with no delegate between.
    /// </summary>
    private bool StartTypedRecord()
    {
        if (_direct)
        {
            StartDirectContent();
            return true;
        }

        return StartTypedRecordChecked();
    }

    /// <summary>Content while <see cref="_direct"/> holds: an open start tag ends; the flag still holds after.</summary>
    private void StartDirectContent()
    {
        if (_writeState == WriteState.Element)
        {
            AutoComplete(WriteState.Content);
            _direct = true;
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool StartTypedRecordChecked()
    {
        ThrowIfClosed();
        FlushBase64();
        if (_attributeValue is not null || _isXmlnsAttribute)
        {
            return false;
        }

        StartContent();
        NodeWroteTypedValue();
        _direct = _writeState == WriteState.Content && _depth != 0 && CanWriteDirect;
        return true;
    }

    /// <summary>
    /// A typed value while an attribute is open: its text kept when an xml: or xmlns attribute is open, then,
    /// unless it is an xmlns attribute, the content check and the record.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteTypedInAttribute<T>(T value, Func<T, string> text, Action<NbfxWriter, T> write)
    {
        if (_attributeValue is not null)
        {
            WriteAttributeText(text(value));
        }

        if (!_isXmlnsAttribute)
        {
            StartContent();
            NodeWroteTypedValue();
            write(_writer, value);
        }
    }

    public override void WriteValue(int value)
    {
        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => XmlConvert.ToString(v), static (w, v) => w.WriteValue(v));
        }
    }

    public override void WriteValue(long value)
    {
        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => XmlConvert.ToString(v), static (w, v) => w.WriteValue(v));
        }
    }

    private void WriteValue(ulong value)
    {
        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => XmlConvert.ToString(v), static (w, v) => w.WriteValue(v));
        }
    }

    public override void WriteValue(bool value)
    {
        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => XmlConvert.ToString(v), static (w, v) => w.WriteValue(v));
        }
    }

    public override void WriteValue(decimal value)
    {
        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => XmlConvert.ToString(v), static (w, v) => w.WriteValue(v));
        }
    }

    public override void WriteValue(float value)
    {
        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => XmlConvert.ToString(v), static (w, v) => w.WriteValue(v));
        }
    }

    public override void WriteValue(double value)
    {
        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => XmlConvert.ToString(v), static (w, v) => w.WriteValue(v));
        }
    }

    public override void WriteValue(DateTime value)
    {
        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => XmlConvert.ToString(v, XmlDateTimeSerializationMode.RoundtripKind), static (w, v) => w.WriteValue(v));
        }
    }

    public override void WriteValue(DateTimeOffset value) =>
        WriteValue(value.Offset != TimeSpan.Zero ? value.LocalDateTime : value.UtcDateTime);

    public override void WriteValue(Guid value)
    {
        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => v.ToString(), static (w, v) => w.WriteValue(v));
        }
    }

    public override void WriteValue(TimeSpan value)
    {
        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => XmlConvert.ToString(v), static (w, v) => w.WriteValue(v));
        }
    }

    public override void WriteValue(UniqueId value)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(value);
        if (!value.IsGuid)
        {
            // Not a typed record: written as text (in an attribute, captured as text).
            FlushBase64();
            if (_attributeValue is not null)
            {
                WriteAttributeText(value.ToString());
            }

            if (!_isXmlnsAttribute)
            {
                StartContent();
                NodeText(value.ToString());
            }

            return;
        }

        if (StartTypedRecord())
        {
            _writer.WriteValue(value);
        }
        else
        {
            WriteTypedInAttribute(value, static v => v.ToString(), static (w, v) => w.WriteValue(v));
        }
    }

    public override void WriteValue(string? value)
    {
        ThrowIfClosed();
        WriteString(value);
    }

    public override void WriteValue(XmlDictionaryString? value) => WriteString(value);

    /// <summary>
    /// As the in-box writer: an array (of any element type) is a list of its items, each written as a value; a nested
    /// array is an ArgumentException; anything else is the value of its own type, or its XSD text.
    /// </summary>
    public override void WriteValue(object value)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(value);
        if (value is IStreamProvider provider)
        {
            WriteValue(provider); // XmlDictionaryWriter's: the stream's bytes as base64, then the stream released
            return;
        }

        if (value is Array array)
        {
            FlushBase64();
            StartContent();
            NodeStartList();
            _inList = true;
            for (int i = 0; i < array.Length; i++)
            {
                WritePrimitiveValue(array.GetValue(i)!);
            }

            _inList = false;
            NodeEndList();
            return;
        }

        WritePrimitiveValue(value);
    }

    private void WritePrimitiveValue(object value)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(value);
        switch (value)
        {
            case ulong v: WriteValue(v); break;
            case string v: WriteValue(v); break;
            case int v: WriteValue(v); break;
            case long v: WriteValue(v); break;
            case bool v: WriteValue(v); break;
            case double v: WriteValue(v); break;
            case DateTime v: WriteValue(v); break;
            case float v: WriteValue(v); break;
            case decimal v: WriteValue(v); break;
            case XmlDictionaryString v: WriteValue(v); break;
            case UniqueId v: WriteValue(v); break;
            case Guid v: WriteValue(v); break;
            case TimeSpan v: WriteValue(v); break;
            default:
                if (value.GetType().IsArray)
                {
                    throw new ArgumentException("Nested arrays are not supported.", nameof(value));
                }

                WriteString(UntypedText(value));
                break;
        }
    }

    /// <summary>The XSD text XmlWriter.WriteValue(object) writes for a type the binary writer has no record for.</summary>
    private static string UntypedText(object value) => value switch
    {
        byte v => XmlConvert.ToString(v),
        sbyte v => XmlConvert.ToString(v),
        short v => XmlConvert.ToString(v),
        ushort v => XmlConvert.ToString(v),
        uint v => XmlConvert.ToString(v),
        DateTimeOffset v => XmlConvert.ToString(v),
        Uri v => v.OriginalString,
        _ => throw new InvalidCastException(
            $"Xml type 'xdt:untypedAtomic' does not support a conversion from Clr type '{value.GetType().Name}' to Clr type 'String'."),
    };

    private static void CheckRange<T>(T[] buffer, int index, int count)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count > buffer.Length - index)
        {
            throw new ArgumentOutOfRangeException(nameof(count), string.Create(CultureInfo.InvariantCulture, $"The specified size exceeds the remaining buffer space ({buffer.Length - index} bytes)."));
        }
    }
}
