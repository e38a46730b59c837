using System.Buffers;
using System.Globalization;
using System.Xml;

namespace Spanwire.BinaryXml.Xml;

internal sealed partial class NbfxXmlWriter
{
    public override void WriteString(string? text)
    {
        // Empty text never reaches the record layer, in content or in an attribute.
        if (string.IsNullOrEmpty(text))
        {
            CheckOpen();
            return;
        }
        if (_inAttribute)
        {
            FlushBase64();
            CaptureText(text);
            return;
        }
        BeforeContent();
        _writer.WriteString(text);
    }

    public override void WriteString(XmlDictionaryString? value)
    {
        if (value is null)
        {
            return;
        }
        if (_inAttribute)
        {
            FlushBase64();
            if (_attributeIsXmlns || _captureText is not null || _capturingBytes)
            {
                CaptureText(value.Value);
            }
            else
            {
                _captureDictionary = value;
            }
            return;
        }
        BeforeContent();
        _writer.WriteString(value);
    }

    /// <summary>Collects an attribute's text as the in-box writer does: pieces are joined, bytes become base64 text once text arrives.</summary>
    private void CaptureText(string text)
    {
        if (_attributeIsXmlns)
        {
            _xmlnsValue += text;
            return;
        }
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

    public override void WriteChars(char[] buffer, int index, int count)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, buffer.Length - index);
        if (count == 0)
        {
            return;
        }
        if (_inAttribute)
        {
            FlushBase64();
            CaptureText(new string(buffer, index, count));
            return;
        }
        BeforeContent();
        _writer.WriteString(buffer.AsSpan(index, count));
    }

    public override void WriteRaw(char[] buffer, int index, int count) => WriteChars(buffer, index, count);

    public override void WriteRaw(string data) => WriteString(data);

    public override void WriteCData(string? text) => WriteString(text);

    public override void WriteWhitespace(string? ws) => WriteString(ws);

    public override void WriteCharEntity(char ch) => WriteChars([ch], 0, 1);

    public override void WriteSurrogateCharEntity(char lowChar, char highChar) => WriteChars([highChar, lowChar], 0, 2);

    public override void WriteComment(string? text)
    {
        BeforeContent();
        _writer.WriteComment(text ?? "");
    }

    public override void WriteQualifiedName(string localName, string? ns)
    {
        ArgumentException.ThrowIfNullOrEmpty(localName);
        string prefix = ResolveQualifiedNamePrefix(ns);
        if (prefix.Length > 0)
        {
            WriteString(prefix);
            WriteString(":");
        }
        WriteString(localName);
    }

    public override void WriteQualifiedName(XmlDictionaryString localName, XmlDictionaryString? namespaceUri)
    {
        ArgumentNullException.ThrowIfNull(localName);
        string prefix = ResolveQualifiedNamePrefix(namespaceUri?.Value);
        if (_inAttribute)
        {
            FlushBase64();
            if (prefix.Length == 1 && prefix[0] is >= 'a' and <= 'z' && _writer.TryGetKey(localName, out _))
            {
                MarkTyped();
                _writer.WriteQualifiedName(prefix, localName);
                return;
            }
            if (prefix.Length > 0)
            {
                CaptureText(prefix);
                CaptureText(":");
            }
            WriteString(localName);
            return;
        }
        BeforeContent();
        _writer.WriteQualifiedName(prefix, localName);
    }

    private string ResolveQualifiedNamePrefix(string? ns)
    {
        CheckOpen();
        ns ??= "";
        string? prefix = _namespaces.LookupPrefix(ns);
        if (prefix is null)
        {
            throw new ArgumentException($"The namespace '{ns}' is not defined.", "namespaceUri");
        }
        return prefix;
    }

    // ---- base64 ----

    public override void WriteBase64(byte[] buffer, int index, int count)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, buffer.Length - index);
        if (_inAttribute)
        {
            if (_captureText is not null || _captureDictionary is not null)
            {
                CaptureText(Convert.ToBase64String(buffer, index, count));
            }
            else
            {
                _captureBytes ??= new ArrayBufferWriter<byte>();
                _captureBytes.Write(buffer.AsSpan(index, count));
                _capturingBytes = true;
            }
            return;
        }
        if (_trailCount == 0)
        {
            BeforeContent();
        }
        ReadOnlySpan<byte> data = buffer.AsSpan(index, count);
        while (_trailCount > 0 && _trailCount < 3 && data.Length > 0)
        {
            _trail[_trailCount++] = data[0];
            data = data[1..];
        }
        int total = _trailCount + data.Length;
        int whole = total - total % 3;
        if (whole >= 3)
        {
            int fromData = whole - _trailCount;
            _writer.WriteBase64(_trail.AsSpan(0, _trailCount), data[..fromData]);
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

    /// <summary>Writes base64 bytes still carried, before anything else is written.</summary>
    private void FlushBase64()
    {
        if (_trailCount > 0)
        {
            int count = _trailCount;
            _trailCount = 0;
            _writer.WriteBase64(_trail.AsSpan(0, count), ReadOnlySpan<byte>.Empty);
        }
    }

    // ---- typed values ----

    /// <summary>A typed value inside an attribute is written at once, and only one is allowed.</summary>
    private void MarkTyped()
    {
        if (_attributeTyped)
        {
            throw new InvalidOperationException("Only a single typed value may be written inside an attribute or content.");
        }
        _attributeTyped = true;
    }

    private void BeforeValue()
    {
        if (_inAttribute)
        {
            FlushBase64();
            MarkTyped();
        }
        else
        {
            BeforeContent();
        }
    }

    public override void WriteValue(int value) { BeforeValue(); _writer.WriteValue(value); }

    public override void WriteValue(long value) { BeforeValue(); _writer.WriteValue(value); }

    public override void WriteValue(bool value) { BeforeValue(); _writer.WriteValue(value); }

    public override void WriteValue(float value) { BeforeValue(); _writer.WriteValue(value); }

    public override void WriteValue(double value) { BeforeValue(); _writer.WriteValue(value); }

    public override void WriteValue(decimal value) { BeforeValue(); _writer.WriteValue(value); }

    public override void WriteValue(DateTime value) { BeforeValue(); _writer.WriteValue(value); }

    public override void WriteValue(DateTimeOffset value) =>
        WriteValue(value.Offset == TimeSpan.Zero ? value.UtcDateTime : value.LocalDateTime);

    public override void WriteValue(Guid value) { BeforeValue(); _writer.WriteValue(value); }

    public override void WriteValue(TimeSpan value) { BeforeValue(); _writer.WriteValue(value); }

    public override void WriteValue(UniqueId value)
    {
        ArgumentNullException.ThrowIfNull(value);
        if (!value.IsGuid)
        {
            WriteString(value.ToString());
            return;
        }
        BeforeValue();
        _writer.WriteValue(value);
    }

    public override void WriteValue(string? value) => WriteString(value);

    public override void WriteValue(XmlDictionaryString? value) => WriteString(value);

    public override void WriteValue(object value)
    {
        ArgumentNullException.ThrowIfNull(value);
        switch (value)
        {
            case int v: WriteValue(v); break;
            case long v: WriteValue(v); break;
            case ulong v: BeforeValue(); _writer.WriteValue(v); break;
            case bool v: WriteValue(v); break;
            case float v: WriteValue(v); break;
            case double v: WriteValue(v); break;
            case decimal v: WriteValue(v); break;
            case DateTime v: WriteValue(v); break;
            case DateTimeOffset v: WriteValue(v); break;
            case Guid v: WriteValue(v); break;
            case TimeSpan v: WriteValue(v); break;
            case UniqueId v: WriteValue(v); break;
            case XmlDictionaryString v: WriteString(v); break;
            case string v: WriteString(v); break;
            case byte[] v: WriteBase64(v, 0, v.Length); break;
            case IFormattable v: WriteString(v.ToString(null, CultureInfo.InvariantCulture)); break;
            default: WriteString(value.ToString()); break;
        }
    }
}
