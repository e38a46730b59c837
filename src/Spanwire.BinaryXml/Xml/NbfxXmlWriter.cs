using System.Buffers;
using System.Text;
using System.Xml;

namespace Spanwire.BinaryXml.Xml;

/// <summary>
/// An <see cref="XmlDictionaryWriter"/> on <see cref="NbfxWriter"/>: the namespace bookkeeping, attribute capture and
/// base64 carrying of the in-box binary writer, so the same calls give the same bytes.
/// </summary>
internal sealed partial class NbfxXmlWriter : XmlDictionaryWriter
{
    private readonly NbfxWriter _writer;
    private readonly NamespaceScope _namespaces = new();
    private readonly Action? _flushOutput;
    private readonly Action? _closeOutput;
    private WriteState _state = WriteState.Start;
    private bool _startTagOpen;
    private int _depth;
    private int[] _prefixCounters = new int[8];

    // The attribute being written.
    private bool _inAttribute;
    private bool _attributeIsXmlns;
    private string? _xmlnsPrefix;
    private bool _attributeTyped;
    private string? _captureText;
    private XmlDictionaryString? _captureDictionary;
    private ArrayBufferWriter<byte>? _captureBytes;
    private bool _capturingBytes;
    private string? _xmlnsValue;

    // base64 bytes carried between WriteBase64 calls so each record holds a multiple of three bytes.
    private readonly byte[] _trail = new byte[3];
    private int _trailCount;

    public NbfxXmlWriter(NbfxWriter writer, Action? flushOutput, Action? closeOutput)
    {
        _writer = writer;
        _flushOutput = flushOutput;
        _closeOutput = closeOutput;
    }

    public override WriteState WriteState => _state;

    public override bool CanCanonicalize => false;

    // ---- Document ----

    public override void WriteStartDocument() => CheckOpen();

    public override void WriteStartDocument(bool standalone) => CheckOpen();

    public override void WriteEndDocument()
    {
        CheckOpen();
        while (_depth > 0)
        {
            WriteEndElement();
        }
    }

    public override void WriteDocType(string name, string? pubid, string? sysid, string? subset) =>
        throw new NotSupportedException("Binary XML has no document type declaration.");

    public override void WriteProcessingInstruction(string name, string? text)
    {
        if (name == "xml")
        {
            CheckOpen(); // the XML declaration has no binary form
            return;
        }
        throw new NotSupportedException("Binary XML has no processing instructions.");
    }

    public override void WriteEntityRef(string name) =>
        throw new NotSupportedException("This XmlWriter implementation does not support the 'WriteEntityRef' method.");

    // ---- Elements ----

    public override void WriteStartElement(string? prefix, string localName, string? ns) =>
        StartElement(prefix, localName, null, ns, null);

    public override void WriteStartElement(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri)
    {
        ArgumentNullException.ThrowIfNull(localName);
        StartElement(prefix, localName.Value, localName, namespaceUri?.Value, namespaceUri);
    }

    private void StartElement(string? prefix, string localName, XmlDictionaryString? dictionaryName, string? ns, XmlDictionaryString? dictionaryNs)
    {
        ArgumentException.ThrowIfNullOrEmpty(localName);
        BeforeContent();
        int depth = ++_depth;
        if (depth >= _prefixCounters.Length)
        {
            Array.Resize(ref _prefixCounters, depth * 2);
        }
        _prefixCounters[depth] = 0;
        if (ns is null)
        {
            prefix ??= "";
            if (_namespaces.LookupNamespace(prefix) is null)
            {
                _depth--;
                throw new ArgumentException($"The prefix '{prefix}' is not defined.", nameof(prefix));
            }
        }
        else if (prefix is null)
        {
            prefix = _namespaces.LookupPrefix(ns);
            if (prefix is null)
            {
                prefix = "";
                _namespaces.Declare("", ns, dictionaryNs, depth);
            }
        }
        else
        {
            _namespaces.DeclareIfNeeded(prefix, ns, dictionaryNs, depth);
        }
        if (dictionaryName is not null)
        {
            _writer.WriteStartElement(prefix, dictionaryName);
        }
        else
        {
            _writer.WriteStartElement(prefix, localName);
        }
        _startTagOpen = true;
        _state = WriteState.Element;
    }

    public override void WriteEndElement()
    {
        CheckOpen();
        if (_inAttribute)
        {
            WriteEndAttribute();
        }
        if (_depth == 0)
        {
            throw new InvalidOperationException("There was no XML start tag open.");
        }
        FlushBase64();
        CloseStartTag();
        _writer.WriteEndElement();
        _namespaces.Exit(_depth);
        _depth--;
        _state = WriteState.Content;
    }

    public override void WriteFullEndElement() => WriteEndElement();

    // ---- Attributes ----

    public override void WriteStartAttribute(string? prefix, string localName, string? ns) =>
        StartAttribute(prefix, localName, null, ns, null);

    public override void WriteStartAttribute(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri)
    {
        ArgumentNullException.ThrowIfNull(localName);
        StartAttribute(prefix, localName.Value, localName, namespaceUri?.Value, namespaceUri);
    }

    private void StartAttribute(string? prefix, string localName, XmlDictionaryString? dictionaryName, string? ns, XmlDictionaryString? dictionaryNs)
    {
        CheckOpen();
        ArgumentNullException.ThrowIfNull(localName);
        if (_inAttribute)
        {
            WriteEndAttribute();
        }
        if (!_startTagOpen)
        {
            throw new InvalidOperationException("Attributes can only be written right after an element's start.");
        }
        FlushBase64();
        // The in-box writer keeps text captured under an attribute that then got a typed value, and writes it as the
        // value of the next attribute that gets none; so the capture is not cleared here.
        _attributeTyped = false;
        _xmlnsValue = null;
        _inAttribute = true;
        _state = WriteState.Attribute;

        if (prefix == "xmlns" || (string.IsNullOrEmpty(prefix) && localName == "xmlns"))
        {
            _attributeIsXmlns = true;
            _xmlnsPrefix = prefix == "xmlns" ? localName : "";
            return;
        }
        _attributeIsXmlns = false;

        if (ns is null)
        {
            prefix ??= "";
            if (prefix.Length > 0 && _namespaces.LookupNamespace(prefix) is null)
            {
                throw new ArgumentException($"The prefix '{prefix}' is not defined.", nameof(prefix));
            }
        }
        else if (ns.Length == 0)
        {
            if (!string.IsNullOrEmpty(prefix))
            {
                throw new ArgumentException("An attribute with a prefix must have a namespace.", nameof(prefix));
            }
            prefix = "";
        }
        else if (prefix is null)
        {
            prefix = _namespaces.LookupPrefix(ns, allowDefault: false)
                ?? _namespaces.Generate(ns, dictionaryNs, _depth, ref _prefixCounters[_depth]);
        }
        else if (prefix != "xml")
        {
            _namespaces.DeclareIfNeeded(prefix, ns, dictionaryNs, _depth);
        }

        if (dictionaryName is not null)
        {
            _writer.WriteStartAttribute(prefix, dictionaryName);
        }
        else
        {
            _writer.WriteStartAttribute(prefix, localName);
        }
    }

    public override void WriteEndAttribute()
    {
        CheckOpen();
        if (!_inAttribute)
        {
            throw new InvalidOperationException("No attribute is open.");
        }
        FlushBase64();
        _inAttribute = false;
        _state = WriteState.Element;
        if (_attributeIsXmlns)
        {
            _namespaces.DeclareIfNeeded(_xmlnsPrefix!, _xmlnsValue ?? "", null, _depth);
            _xmlnsValue = null;
            return;
        }
        if (!_attributeTyped)
        {
            if (_captureText is not null)
            {
                _writer.WriteString(_captureText);
            }
            else if (_captureDictionary is not null)
            {
                _writer.WriteString(_captureDictionary);
            }
            else if (_capturingBytes)
            {
                _writer.WriteBase64(_captureBytes!.WrittenSpan);
                _captureBytes.Clear();
            }
            else
            {
                _writer.WriteString(ReadOnlySpan<char>.Empty);
            }
            _captureText = null;
            _captureDictionary = null;
            _capturingBytes = false;
        }
        _writer.WriteEndAttribute();
    }

    public override void WriteXmlnsAttribute(string? prefix, string namespaceUri)
    {
        CheckOpen();
        ArgumentNullException.ThrowIfNull(namespaceUri);
        DeclareExplicit(prefix, namespaceUri, null);
    }

    public override void WriteXmlnsAttribute(string? prefix, XmlDictionaryString namespaceUri)
    {
        CheckOpen();
        ArgumentNullException.ThrowIfNull(namespaceUri);
        DeclareExplicit(prefix, namespaceUri.Value, namespaceUri);
    }

    private void DeclareExplicit(string? prefix, string ns, XmlDictionaryString? dictionaryNs)
    {
        if (_inAttribute)
        {
            WriteEndAttribute();
        }
        if (!_startTagOpen)
        {
            throw new InvalidOperationException("Namespace declarations can only be written right after an element's start.");
        }
        if (prefix is null)
        {
            if (_namespaces.LookupPrefix(ns) is null)
            {
                _namespaces.Generate(ns, dictionaryNs, _depth, ref _prefixCounters[_depth]);
            }
            return;
        }
        _namespaces.DeclareIfNeeded(prefix, ns, dictionaryNs, _depth);
    }

    public override string? LookupPrefix(string ns)
    {
        ArgumentNullException.ThrowIfNull(ns);
        return _namespaces.LookupPrefix(ns);
    }

    // ---- Plumbing ----

    /// <summary>Before content: close a pending attribute's base64 and the open start tag (its declarations go out now).</summary>
    private void BeforeContent()
    {
        CheckOpen();
        if (_inAttribute)
        {
            WriteEndAttribute();
        }
        FlushBase64();
        CloseStartTag();
        _state = WriteState.Content;
    }

    /// <summary>Ends an open start tag: the namespaces it declared go out now, after its attributes.</summary>
    private void CloseStartTag()
    {
        if (_startTagOpen)
        {
            _namespaces.WriteDeclarations(_writer, _depth);
            _startTagOpen = false;
        }
    }

    private void CheckOpen()
    {
        if (_state == WriteState.Closed)
        {
            throw new InvalidOperationException("The writer is closed.");
        }
    }

    public override void Flush()
    {
        CheckOpen();
        _writer.Flush();
        _flushOutput?.Invoke();
    }

    public override void Close()
    {
        if (_state == WriteState.Closed)
        {
            return;
        }
        try
        {
            if (_inAttribute)
            {
                WriteEndAttribute();
            }
            while (_depth > 0)
            {
                WriteEndElement();
            }
            _writer.Flush();
            _flushOutput?.Invoke();
        }
        finally
        {
            _state = WriteState.Closed;
            _closeOutput?.Invoke();
        }
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            Close();
        }
        base.Dispose(disposing);
    }
}
