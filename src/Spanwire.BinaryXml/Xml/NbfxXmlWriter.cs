using System.Buffers;
using System.Globalization;
using System.Xml;

namespace Spanwire.BinaryXml.Xml;

/// <summary>
/// An <see cref="XmlDictionaryWriter"/> on <see cref="NbfxWriter"/> with the in-box binary writer's rules: its write
/// states and document states (what may come where, and which exception says it may not), its namespace bookkeeping,
/// xml:lang and xml:space, the deferred values of attributes, lists and base64 carrying, so the same calls give the
/// same bytes or the same exception. <see cref="IXmlBinaryWriterInitializer"/> (a stream) and
/// <see cref="IXmlBinaryBufferWriterInitializer"/> (an IBufferWriter) point it at a new output, for pooled reuse as WCF does.
/// </summary>
internal sealed partial class NbfxXmlWriter : XmlDictionaryWriter, IXmlBinaryWriterInitializer, IXmlBinaryBufferWriterInitializer
{
    private readonly NbfxWriter _writer;
    private WriterNamespaces _namespaces = null!; // the working set: see NbfxXmlWriter.WorkingSet.cs
    private Action? _flushOutput;
    private Func<Task>? _flushOutputAsync;
    private Action? _closeOutput;

    private WriteState _writeState = WriteState.Start; // set only through SetWriteState

    // A typed value may go straight to the record layer: the writer is in an element's start tag or content (depth
    // above 0), no attribute is open or left half-ended, no base64 bytes are carried. Cleared by every state change
    // (leaving an element and ending an attribute are state changes too), by carrying base64 and by starting an
    // attribute; set again where a step is known to leave it so (a start tag, a typed value written the long way), so
    // the common calls check one flag.
    private bool _direct;
    private DocumentState _documentState;
    private int _depth;
    private OpenElement[] _elements = [];

    // An xml: or xmlns attribute being written: its local name and value are kept (an xmlns one is not written).
    private string? _attributeLocalName;
    private string? _attributeValue;
    private bool _isXmlAttribute;
    private bool _isXmlnsAttribute;

    // base64 bytes carried between WriteBase64 calls so each record holds a multiple of three bytes.
    private byte[] _trail = [];
    private int _trailCount;
    private bool _inList;

    private enum DocumentState : byte
    {
        None,
        Document,
        Epilog,
        End,
    }

    private struct OpenElement
    {
        public int PrefixId;
    }

    public NbfxXmlWriter(NbfxWriter writer, Action? flushOutput, Action? closeOutput, Func<Task>? flushOutputAsync = null)
    {
        _writer = writer;
        TakeWorkingSet();
        _flushOutputAsync = flushOutputAsync;
        _writer.Layered = true;
        _flushOutput = flushOutput;
        _closeOutput = closeOutput;
    }

    public override WriteState WriteState => _writeState;

    public override string? XmlLang => _namespaces.XmlLang;

    public override XmlSpace XmlSpace => _namespaces.XmlSpace;

    /// <summary>Canonicalization (StartCanonicalization) is not supported.</summary>
    public override bool CanCanonicalize => false;

    private bool IsClosed => _writeState == WriteState.Closed;

    /// <summary>No base64 carried and nothing of an attribute open (a failed WriteEndAttribute leaves its value, as in-box).</summary>
    private bool CanWriteDirect => _trailCount == 0 & _attributeValue is null & !_isXmlnsAttribute & !_nodeInAttribute;

    private void SetWriteState(WriteState state)
    {
        _writeState = state;
        _direct = false;
    }

    /// <summary>Points the writer at <paramref name="stream"/>, as the in-box writer's SetOutput: a new document; bytes not yet flushed to the old output are dropped.</summary>
    public void SetOutput(Stream stream, IXmlDictionary? dictionary, XmlBinaryWriterSession? session, bool ownsStream)
    {
        ArgumentNullException.ThrowIfNull(stream);
        var output = new StreamBufferWriter(stream);
        _writer.Reset(output, dictionary, session);
        _flushOutput = output.Flush;
        _flushOutputAsync = output.FlushAsync;
        _closeOutput = () =>
        {
            output.Dispose();
            if (ownsStream)
            {
                stream.Dispose();
            }
        };
        ResetDocument();
    }

    /// <summary>Points the writer at <paramref name="output"/>, as the stream form does, for an <see cref="IBufferWriter{T}"/>.</summary>
    public void SetOutput(IBufferWriter<byte> output, IXmlDictionary? dictionary, XmlBinaryWriterSession? session)
    {
        ArgumentNullException.ThrowIfNull(output);
        _writer.Reset(output, dictionary, session);
        _flushOutput = null;
        _flushOutputAsync = null;
        _closeOutput = null;
        ResetDocument();
    }

    private void ResetDocument()
    {
        _inList = false;
        SetWriteState(WriteState.Start);
        _documentState = DocumentState.None;
        TakeWorkingSet();
        _namespaces.Clear();
        _depth = 0;
        _attributeLocalName = null;
        _attributeValue = null;
        ResetNode();
    }

    // ---- Document ----

    public override void WriteStartDocument()
    {
        ThrowIfClosed();
        if (_writeState != WriteState.Start)
        {
            ThrowInvalidState(nameof(WriteStartDocument));
        }

        SetWriteState(WriteState.Prolog);
        _documentState = DocumentState.Document;
    }

    public override void WriteStartDocument(bool standalone)
    {
        ThrowIfClosed();
        WriteStartDocument();
    }

    public override void WriteEndDocument()
    {
        ThrowIfClosed();
        if (_writeState is WriteState.Start or WriteState.Prolog)
        {
            throw new InvalidOperationException("The document does not have a root element.");
        }

        FinishDocument();
        SetWriteState(WriteState.Start);
        _documentState = DocumentState.End;
    }

    private void FinishDocument()
    {
        if (_writeState == WriteState.Attribute)
        {
            WriteEndAttribute();
        }

        while (_depth > 0)
        {
            WriteEndElement();
        }
    }

    public override void WriteDocType(string name, string? pubid, string? sysid, string? subset) =>
        throw new NotSupportedException("This XmlWriter implementation does not support the 'WriteDocType' method.");

    public override void WriteProcessingInstruction(string name, string? text)
    {
        ThrowIfClosed();
        if (name != "xml")
        {
            throw new ArgumentException("Processing instructions (other than the XML declaration) and DTDs are not supported.", nameof(name));
        }

        if (_writeState != WriteState.Start)
        {
            throw new InvalidOperationException("The XML declaration can only be written at the start of the document.");
        }

        // The XML declaration has no binary form.
    }

    public override void WriteEntityRef(string name) =>
        throw new NotSupportedException("This XmlWriter implementation does not support the 'WriteEntityRef' method.");

    public override void WriteNmToken(string name) =>
        throw new NotSupportedException("This XmlWriter implementation does not support the 'WriteNmToken' method.");

    public override void WriteName(string name)
    {
        ThrowIfClosed();
        WriteString(name);
    }

    // ---- Elements ----

    public override void WriteStartElement(string? prefix, string localName, string? ns)
    {
        StartElement(ref prefix, localName, ns, null);
        NodeStartElement(prefix, localName);
    }

    public override void WriteStartElement(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri)
    {
        StartElement(ref prefix, localName.Value, namespaceUri?.Value, namespaceUri);
        NodeStartElement(prefix, localName);
    }

    private void StartElement([System.Diagnostics.CodeAnalysis.NotNull] ref string? prefix, string localName, string? ns, XmlDictionaryString? dictionaryNs)
    {
        ThrowIfClosed();
        if (_documentState == DocumentState.Epilog)
        {
            ThrowSecondRoot();
        }

        CheckLocalName(localName);
        if (_writeState == WriteState.Attribute)
        {
            ThrowInvalidState(nameof(WriteStartElement));
        }

        FlushBase64();
        AutoComplete(WriteState.Element);
        EnterElement(ref prefix, ns, dictionaryNs);
        _direct = CanWriteDirect; // the record layer's start that follows changes none of what it sums up
    }

    private static void CheckLocalName(string localName)
    {
        ArgumentNullException.ThrowIfNull(localName);
        if (localName.Length == 0)
        {
            ThrowEmptyLocalName();
        }
    }

    /// <summary>The element's scope, and its prefix and namespace resolved (declared if new), once the checks have passed.</summary>
    private void EnterElement([System.Diagnostics.CodeAnalysis.NotNull] ref string? prefix, string? ns, XmlDictionaryString? dictionaryNs)
    {
        EnterScope();
        if (ns is null)
        {
            prefix ??= "";
            if (_namespaces.LookupNamespace(prefix) is null)
            {
                ThrowUndefinedPrefix(prefix);
            }
        }
        else if (prefix is null)
        {
            prefix = _namespaces.LookupPrefix(ns);
            if (prefix is null)
            {
                prefix = "";
                _namespaces.AddNamespace("", ns, dictionaryNs);
            }
        }
        else
        {
            _namespaces.AddNamespaceIfNotDeclared(prefix, ns, dictionaryNs);
        }
    }

    public override void WriteEndElement()
    {
        bool direct = _direct; // open, inside an element, no attribute, no base64 carried: the checks would all pass
        if (!direct)
        {
            ThrowIfClosed();
            if (_depth == 0)
            {
                ThrowEndAtDepthZero();
            }

            if (_writeState == WriteState.Attribute)
            {
                WriteEndAttribute();
            }

            FlushBase64();
        }

        if (_writeState == WriteState.Element)
        {
            _namespaces.DeclareNamespaces(_writer);
        }

        _writer.WriteEndElement();
        ExitScope();
        SetWriteState(WriteState.Content);
        _direct = _depth != 0 && (direct || CanWriteDirect);
    }

    public override void WriteFullEndElement()
    {
        ThrowIfClosed();
        if (_writeState == WriteState.Attribute)
        {
            WriteEndAttribute();
        }

        if (_writeState is not (WriteState.Element or WriteState.Content))
        {
            ThrowInvalidState(nameof(WriteFullEndElement));
        }

        AutoComplete(WriteState.Content);
        WriteEndElement();
    }

    private void EnterScope()
    {
        _namespaces.EnterScope();
        _depth++;
        if (_depth == _elements.Length)
        {
            Array.Resize(ref _elements, _depth * 2);
        }

        _elements[_depth] = default;
    }

    private void ExitScope()
    {
        _elements[_depth] = default;
        _depth--;
        if (_depth == 0 && _documentState == DocumentState.Document)
        {
            _documentState = DocumentState.Epilog;
        }

        _namespaces.ExitScope();
    }

    /// <summary>Leaves an open start tag (its namespace declarations go out now) and moves to <paramref name="state"/>.</summary>
    private void AutoComplete(WriteState state)
    {
        if (_writeState == WriteState.Element)
        {
            _namespaces.DeclareNamespaces(_writer);
        }

        SetWriteState(state);
    }

    private void FlushElement()
    {
        if (_writeState == WriteState.Element)
        {
            AutoComplete(WriteState.Content);
        }
    }

    /// <summary>Before typed content: the start tag ends, and there must be an element to hold it.</summary>
    private void StartContent()
    {
        FlushElement();
        if (_depth == 0)
        {
            ThrowOutsideRoot();
        }
    }

    /// <summary>Before text: the start tag ends; outside the root only whitespace may be written.</summary>
    private void StartContent(ReadOnlySpan<char> text)
    {
        FlushElement();
        if (_depth == 0 && text.ContainsAnyExcept(" \t\r\n"))
        {
            ThrowOutsideRoot();
        }
    }

    // ---- Attributes ----

    public override void WriteStartAttribute(string? prefix, string localName, string? ns)
    {
        StartAttribute(ref prefix, localName, ns, null);
        if (!_isXmlnsAttribute)
        {
            NodeStartAttribute(prefix, localName);
        }
    }

    public override void WriteStartAttribute(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri)
    {
        StartAttribute(ref prefix, localName?.Value!, namespaceUri?.Value, namespaceUri);
        if (!_isXmlnsAttribute)
        {
            NodeStartAttribute(prefix, localName!);
        }
    }

    private void StartAttribute([System.Diagnostics.CodeAnalysis.NotNull] ref string? prefix, string localName, string? ns, XmlDictionaryString? dictionaryNs)
    {
        ThrowIfClosed();
        if (_writeState == WriteState.Attribute)
        {
            WriteEndAttribute();
        }

        if (localName is null || (localName.Length == 0 && prefix != "xmlns"))
        {
            throw new ArgumentNullException(nameof(localName));
        }

        if (_writeState != WriteState.Element)
        {
            ThrowInvalidState(nameof(WriteStartAttribute));
        }

        if (prefix is null)
        {
            prefix = ns == WriterNamespaces.XmlnsNamespace && localName != "xmlns" ? "xmlns"
                : ns == WriterNamespaces.XmlNamespace ? "xml"
                : "";
        }

        if (prefix.Length == 0 && localName == "xmlns")
        {
            prefix = "xmlns";
            localName = "";
        }

        _direct = false; // before the attribute's fields change, whatever follows
        _isXmlnsAttribute = false;
        _isXmlAttribute = false;
        if (prefix == "xml")
        {
            if (ns is not null && ns != WriterNamespaces.XmlNamespace)
            {
                throw new ArgumentException($"The prefix 'xml' is bound to the namespace '{WriterNamespaces.XmlNamespace}' and cannot be changed to '{ns}'.", nameof(ns));
            }

            _isXmlAttribute = true;
            _attributeValue = "";
            _attributeLocalName = localName;
        }
        else if (prefix == "xmlns")
        {
            if (ns is not null && ns != WriterNamespaces.XmlnsNamespace)
            {
                throw new ArgumentException($"The prefix 'xmlns' is bound to the namespace '{WriterNamespaces.XmlnsNamespace}' and cannot be changed to '{ns}'.", nameof(ns));
            }

            _isXmlnsAttribute = true;
            _attributeValue = "";
            _attributeLocalName = localName;
        }
        else if (ns is null)
        {
            if (prefix.Length != 0 && _namespaces.LookupNamespace(prefix) is null)
            {
                ThrowUndefinedPrefix(prefix);
            }
        }
        else if (ns.Length == 0)
        {
            if (prefix.Length != 0)
            {
                throw new ArgumentException("The empty namespace requires a null or empty prefix.", nameof(prefix));
            }
        }
        else if (prefix.Length == 0)
        {
            string? found = _namespaces.LookupAttributePrefix(ns);
            if (found is null)
            {
                if (ns == WriterNamespaces.XmlnsNamespace)
                {
                    throw new ArgumentException($"The namespace '{ns}' can only be bound to the prefix 'xmlns'.");
                }

                if (ns == WriterNamespaces.XmlNamespace)
                {
                    throw new ArgumentException($"The namespace '{ns}' can only be bound to the prefix 'xml'.");
                }

                found = GeneratePrefix(ns, dictionaryNs);
            }

            prefix = found;
        }
        else
        {
            _namespaces.AddNamespaceIfNotDeclared(prefix, ns, dictionaryNs);
        }

        SetWriteState(WriteState.Attribute);
    }

    public override void WriteEndAttribute()
    {
        ThrowIfClosed();
        if (_writeState != WriteState.Attribute)
        {
            ThrowInvalidState(nameof(WriteEndAttribute));
        }

        FlushBase64();
        try
        {
            if (_isXmlAttribute)
            {
                if (_attributeLocalName == "lang")
                {
                    _namespaces.AddLangAttribute(_attributeValue!);
                }
                else if (_attributeLocalName == "space")
                {
                    if (_attributeValue == "preserve")
                    {
                        _namespaces.AddSpaceAttribute(XmlSpace.Preserve);
                    }
                    else if (_attributeValue == "default")
                    {
                        _namespaces.AddSpaceAttribute(XmlSpace.Default);
                    }
                    else
                    {
                        throw new ArgumentException($"'{_attributeValue}' is not a valid xml:space value. Valid values are 'default' and 'preserve'.");
                    }
                }

                _isXmlAttribute = false;
                _attributeLocalName = null;
                _attributeValue = null;
            }

            if (_isXmlnsAttribute)
            {
                _namespaces.AddNamespaceIfNotDeclared(_attributeLocalName!, _attributeValue!, null);
                _isXmlnsAttribute = false;
                _attributeLocalName = null;
                _attributeValue = null;
            }
            else
            {
                NodeEndAttribute();
            }
        }
        finally
        {
            SetWriteState(WriteState.Element);
        }
    }

    public override void WriteXmlnsAttribute(string? prefix, string namespaceUri)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(namespaceUri);
        DeclareExplicit(prefix, namespaceUri, null);
    }

    public override void WriteXmlnsAttribute(string? prefix, XmlDictionaryString namespaceUri)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(namespaceUri);
        DeclareExplicit(prefix, namespaceUri.Value, namespaceUri);
    }

    private void DeclareExplicit(string? prefix, string ns, XmlDictionaryString? dictionaryNs)
    {
        if (_writeState != WriteState.Element)
        {
            ThrowInvalidState(nameof(WriteXmlnsAttribute));
        }

        if (prefix is null)
        {
            if (_namespaces.LookupPrefix(ns) is null)
            {
                GeneratePrefix(ns, dictionaryNs);
            }
        }
        else
        {
            _namespaces.AddNamespaceIfNotDeclared(prefix, ns, dictionaryNs);
        }
    }

    /// <summary>Binds <paramref name="ns"/> to a new prefix: a..z first, then d{depth}p{n}.</summary>
    private string GeneratePrefix(string ns, XmlDictionaryString? dictionaryNs)
    {
        if (_writeState is not (WriteState.Element or WriteState.Attribute))
        {
            throw new InvalidOperationException($"A prefix cannot be generated in the {_writeState} state.");
        }

        string? prefix = _namespaces.AddNamespace(ns, dictionaryNs);
        if (prefix is not null)
        {
            return prefix;
        }

        do
        {
            prefix = string.Create(CultureInfo.InvariantCulture, $"d{_depth}p{_elements[_depth].PrefixId++}");
        }
        while (_namespaces.LookupNamespace(prefix) is not null);
        _namespaces.AddNamespace(prefix, ns, dictionaryNs);
        return prefix;
    }

    public override string? LookupPrefix(string ns)
    {
        ArgumentNullException.ThrowIfNull(ns);
        ThrowIfClosed();
        return _namespaces.LookupPrefix(ns);
    }

    /// <summary>Collects the value of an xml: or xmlns attribute.</summary>
    private void WriteAttributeText(string value) => _attributeValue = _attributeValue!.Length == 0 ? value : _attributeValue + value;

    // ---- Plumbing ----

    public override void Flush()
    {
        ThrowIfClosed();
        _writer.Flush();
        _flushOutput?.Invoke();
    }

    /// <summary>As <see cref="Flush"/>; a stream output is flushed asynchronously.</summary>
    public override async Task FlushAsync()
    {
        ThrowIfClosed();
        _writer.Flush();
        if (_flushOutputAsync is { } flush)
        {
            await flush().ConfigureAwait(false);
        }
        else
        {
            _flushOutput?.Invoke();
        }
    }

    // The in-box writer's asynchronous members: the work is the same (into the writer's buffer), done at once.

    public override Task WriteStartElementAsync(string? prefix, string localName, string? ns)
    {
        WriteStartElement(prefix, localName, ns);
        return Task.CompletedTask;
    }

    public override Task WriteEndElementAsync()
    {
        WriteEndElement();
        return Task.CompletedTask;
    }

    protected override Task WriteEndAttributeAsync()
    {
        WriteEndAttribute();
        return Task.CompletedTask;
    }

    public override Task WriteBase64Async(byte[] buffer, int index, int count)
    {
        WriteBase64(buffer, index, count);
        return Task.CompletedTask;
    }

    public override void Close()
    {
        if (IsClosed)
        {
            return;
        }

        try
        {
            FinishDocument();
            AutoComplete(WriteState.Closed);
            _writer.Flush();
            _flushOutput?.Invoke();
        }
        finally
        {
            SetWriteState(WriteState.Closed);
            _depth = 0;
            _attributeValue = null;
            _attributeLocalName = null;
            ResetNode();
            GiveBackWorkingSet();
            _closeOutput?.Invoke();
            _closeOutput = null;
            _flushOutput = null;
            _flushOutputAsync = null;
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

    private void ThrowIfClosed()
    {
        if (IsClosed)
        {
            ThrowClosed();
        }
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowClosed() => throw new InvalidOperationException("The XmlWriter is closed.");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowSecondRoot() => throw new InvalidOperationException("Only one root element is permitted per document.");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowEmptyLocalName() =>
        throw new ArgumentException("The empty string is not a valid local name.", "localName");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowUndefinedPrefix(string prefix) =>
        throw new ArgumentException($"The prefix '{prefix}' is not defined.", nameof(prefix));

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowEndAtDepthZero() => throw new InvalidOperationException("WriteEndElement cannot be called at depth 0.");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void ThrowInvalidState(string method) =>
        throw new InvalidOperationException($"'{method}' cannot be called while WriteState is '{_writeState}'.");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowOutsideRoot() =>
        throw new InvalidOperationException("Text cannot be written outside the root element.");
}
