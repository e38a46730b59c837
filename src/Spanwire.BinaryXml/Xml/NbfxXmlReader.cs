using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Text;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

/// <summary>
/// The <see cref="XmlDictionaryReader"/> drop-in: the in-box binary reader's node sequence (arrays as repeated
/// elements, a text with end element as text then end element, whitespace-only text outside the root) over
/// <see cref="NbfxCursor"/>. Names and namespaces are atomized in the reader's name table; values become strings
/// only when asked for.
/// </summary>
internal sealed partial class NbfxXmlReader : XmlDictionaryReader
{
    private const string XmlNamespace = "http://www.w3.org/XML/1998/namespace";
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";

    private NbfxCursor _c;
    private readonly XmlNameTable _names;
    private readonly XmlDictionaryReaderQuotas _quotas;
    private readonly Action? _onClose;
    private readonly string _xml, _xmlns, _xmlNamespace, _xmlnsNamespace;
    private char[] _chars = new char[64];
    private int _nameTableChars;

    private ReadState _state = ReadState.Initial;
    private bool _peeked;
    private bool _peekedHas;
    private bool _exitScope;

    private XmlNodeType _nodeType;
    private int _depth;
    private string _prefix = "", _localName = "", _ns = "";
    private string? _value;
    private bool _valueFromItem;
    private bool _atomic;

    private Frame[] _frames = new Frame[8];
    private int _frameCount;
    private NamespaceBinding[] _bindings = new NamespaceBinding[8];
    private int _bindingCount;

    private AttributeNode[] _attributes = new AttributeNode[4];
    private int _attributeCount;
    private int _attributeIndex = -1;
    private bool _onAttributeValue;

    private ArrayStep _arrayStep;
    private int _arrayLeft;
    private NbfxValueType _arrayType;
    private readonly byte[] _item = new byte[16];

    private byte[]? _base64;
    private int _base64Offset;

    private struct Frame
    {
        public string Prefix, LocalName, Namespace;
        public int BindingCount;
    }

    private struct NamespaceBinding
    {
        public string Prefix, Uri;
    }

    private sealed class AttributeNode
    {
        public string Prefix = "", LocalName = "", Namespace = "", Value = "";
        public bool IsXmlns;
    }

    private enum ArrayStep : byte { None, Text, End, Element }

    public NbfxXmlReader(ReadOnlySequence<byte> input, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas? quotas, XmlBinaryReaderSession? session, Action? onClose)
    {
        _quotas = quotas ?? NbfxCursor.DefaultQuotas;
        _c = new NbfxCursor(input, dictionary, session, _quotas);
        _onClose = onClose;
        _names = new NameTable();
        _xml = _names.Add("xml");
        _xmlns = _names.Add("xmlns");
        _xmlNamespace = _names.Add(XmlNamespace);
        _xmlnsNamespace = _names.Add(XmlnsNamespace);
    }

    public override XmlDictionaryReaderQuotas Quotas => _quotas;

    public override XmlNameTable NameTable => _names;

    public override ReadState ReadState => _state;

    public override bool EOF => _state == ReadState.EndOfFile;

    public override string BaseURI => "";

    public override bool IsEmptyElement => false;

    public override XmlNodeType NodeType => _attributeIndex < 0 ? _nodeType : _onAttributeValue ? XmlNodeType.Text : XmlNodeType.Attribute;

    public override int Depth => _attributeIndex < 0 ? _depth : _onAttributeValue ? _depth + 2 : _depth + 1;

    public override string Prefix => _attributeIndex < 0 ? _prefix : _onAttributeValue ? "" : _attributes[_attributeIndex].Prefix;

    public override string LocalName => _attributeIndex < 0 ? _localName : _onAttributeValue ? "" : _attributes[_attributeIndex].LocalName;

    public override string NamespaceURI => _attributeIndex < 0 ? _ns : _onAttributeValue ? "" : _attributes[_attributeIndex].Namespace;

    public override int AttributeCount => _nodeType == XmlNodeType.Element ? _attributeCount : 0;

    public override string Value
    {
        get
        {
            if (_attributeIndex >= 0)
            {
                return _attributes[_attributeIndex].Value;
            }
            if (_value is not null || _nodeType is not (XmlNodeType.Text or XmlNodeType.Comment))
            {
                return _value ?? "";
            }
            return _value = CurrentValue.ToText();
        }
    }

    /// <summary>The current text node's value, from the cursor's record or from the array item just read.</summary>
    private NbfxValue CurrentValue => _valueFromItem
        ? new NbfxValue(_arrayType, _item.AsSpan(0, _c.ArrayItemSize), null, 0, _c.Position)
        : _c.GetValue(_c.Window.Span);

    public override bool Read()
    {
        if (_state is ReadState.Closed or ReadState.EndOfFile or ReadState.Error)
        {
            return false;
        }
        _state = ReadState.Interactive;
        _attributeIndex = -1;
        _onAttributeValue = false;
        _value = null;
        _valueFromItem = false;
        _atomic = false;
        _base64 = null;
        try
        {
            return ReadNode();
        }
        catch (XmlException)
        {
            _state = ReadState.Error;
            throw;
        }
    }

    private bool ReadNode()
    {
        if (_exitScope)
        {
            _exitScope = false;
            PopFrame();
        }
        if (_arrayStep != ArrayStep.None)
        {
            return ReadArrayStep();
        }
        ReadOnlySpan<byte> window = _c.Window.Span;
        bool has = _peeked ? _peekedHas : _c.Read(ref window);
        _peeked = false;
        if (!has)
        {
            _nodeType = XmlNodeType.None;
            _depth = 0;
            _prefix = _localName = _ns = "";
            _attributeCount = 0;
            _state = ReadState.EndOfFile;
            return false;
        }
        switch (_c.Token)
        {
            case NbfxTokenType.StartElement:
                ReadStartTag();
                return true;
            case NbfxTokenType.Text:
                ReadText();
                return true;
            case NbfxTokenType.EndElement:
                MoveToEndElementNode();
                return true;
            case NbfxTokenType.Comment:
                SetNode(XmlNodeType.Comment, _c.TokenDepth);
                return true;
            default:
                throw new NbfxFormatException($"unexpected {_c.Token} record", _c.TokenOffset);
        }
    }

    private void SetNode(XmlNodeType type, int depth)
    {
        _nodeType = type;
        _depth = depth;
        _prefix = _localName = _ns = "";
    }

    private void MoveToEndElementNode()
    {
        SetNodeFromFrame(XmlNodeType.EndElement);
        _exitScope = true;
    }

    /// <summary>An element or end element node named as the innermost open element.</summary>
    private void SetNodeFromFrame(XmlNodeType type)
    {
        ref Frame frame = ref _frames[_frameCount - 1];
        _nodeType = type;
        _depth = _frameCount - 1;
        _prefix = frame.Prefix;
        _localName = frame.LocalName;
        _ns = frame.Namespace;
    }

    private void ReadText()
    {
        SetNode(XmlNodeType.Text, _c.TokenDepth);
        if (_c.ValueType == NbfxValueType.StartList)
        {
            _value = ReadList();
        }
        else
        {
            _atomic = _c.TextEndsElement;
        }
        if (_depth == 0 && !IsWhitespace(Value))
        {
            throw new NbfxFormatException("text outside the root element", _c.TokenOffset);
        }
    }

    /// <summary>Reads a list's items up to its EndList and joins them with spaces, as the in-box reader shows a list.</summary>
    private string ReadList()
    {
        var text = new StringBuilder();
        ReadOnlySpan<byte> window = _c.Window.Span;
        while (_c.Read(ref window) && _c.ValueType != NbfxValueType.EndList)
        {
            if (text.Length > 0)
            {
                text.Append(' ');
            }
            text.Append(_c.GetValue(window).ToText());
            if (text.Length > _quotas.MaxStringContentLength)
            {
                throw new NbfxFormatException($"a list longer than the MaxStringContentLength quota ({_quotas.MaxStringContentLength})", _c.TokenOffset);
            }
        }
        return text.ToString();
    }

    private static bool IsWhitespace(string text)
    {
        foreach (char c in text)
        {
            if (c is not (' ' or '\t' or '\r' or '\n'))
            {
                return false;
            }
        }
        return true;
    }

    private void ReadStartTag()
    {
        ReadOnlySpan<byte> window = _c.Window.Span;
        string prefix = AtomPrefix(window);
        string localName = AtomLocalName(window);
        bool isArray = _c.IsArrayElement;
        int bindingsBefore = _bindingCount;
        _attributeCount = 0;
        bool has;
        while ((has = _c.Read(ref window)) && _c.Token is NbfxTokenType.Attribute or NbfxTokenType.NamespaceDeclaration)
        {
            if (_c.Token == NbfxTokenType.Attribute)
            {
                AddAttribute(window);
            }
            else
            {
                AddNamespaceDeclaration(window);
            }
        }
        _peeked = true;
        _peekedHas = has;

        string ns = LookupNamespace(prefix) ?? throw new NbfxFormatException($"the prefix '{prefix}' is not declared", _c.TokenOffset);
        for (int i = 0; i < _attributeCount; i++)
        {
            AttributeNode attribute = _attributes[i];
            if (!attribute.IsXmlns)
            {
                attribute.Namespace = attribute.Prefix.Length == 0 ? ""
                    : LookupNamespace(attribute.Prefix) ?? throw new NbfxFormatException($"the prefix '{attribute.Prefix}' is not declared", _c.TokenOffset);
            }
        }
        if (_attributeCount > 1)
        {
            CheckDuplicateAttributes();
        }
        PushFrame(prefix, localName, ns, bindingsBefore);
        _nodeType = XmlNodeType.Element;
        _depth = _frameCount - 1;
        _prefix = prefix;
        _localName = localName;
        _ns = ns;
        if (isArray)
        {
            // The cursor is on the Array token: present its items as repeated elements.
            _peeked = false;
            _arrayType = _c.ArrayType;
            _arrayLeft = _c.ArrayCount;
            _arrayStep = ArrayStep.Text;
        }
    }

    /// <summary>Rejects two attributes with the same local name and namespace, as the in-box reader does; linear for many attributes.</summary>
    private void CheckDuplicateAttributes()
    {
        if (_attributeCount <= 16)
        {
            for (int i = 1; i < _attributeCount; i++)
            {
                for (int j = 0; j < i; j++)
                {
                    if (_attributes[i].LocalName == _attributes[j].LocalName && _attributes[i].Namespace == _attributes[j].Namespace)
                    {
                        ThrowDuplicate(_attributes[i]);
                    }
                }
            }
            return;
        }
        var seen = new HashSet<(string, string)>();
        for (int i = 0; i < _attributeCount; i++)
        {
            if (!seen.Add((_attributes[i].LocalName, _attributes[i].Namespace)))
            {
                ThrowDuplicate(_attributes[i]);
            }
        }
    }

    [DoesNotReturn]
    private void ThrowDuplicate(AttributeNode attribute) =>
        throw new NbfxFormatException($"duplicate attribute '{attribute.LocalName}' in namespace '{attribute.Namespace}'", _c.TokenOffset);

    private bool ReadArrayStep()
    {
        switch (_arrayStep)
        {
            case ArrayStep.Text:
            {
                Span<byte> item = _item.AsSpan(0, _c.ArrayItemSize);
                long at = _c.Position;
                ReadOnlySpan<byte> window = _c.Window.Span;
                _c.CopyTo(ref window, item);
                _c.ConsumeArrayItems(1);
                _arrayLeft--;
                NbfxCursor.CheckFixedSizeValue(_arrayType, item, at);
                SetNode(XmlNodeType.Text, _frameCount);
                _valueFromItem = true;
                _atomic = true;
                _arrayStep = ArrayStep.End;
                return true;
            }
            case ArrayStep.End:
                SetNodeFromFrame(XmlNodeType.EndElement);
                if (_arrayLeft > 0)
                {
                    _arrayStep = ArrayStep.Element;
                }
                else
                {
                    _arrayStep = ArrayStep.None;
                    _exitScope = true;
                }
                return true;
            default: // Element: the same element again, with the same attributes
                SetNodeFromFrame(XmlNodeType.Element);
                _arrayStep = ArrayStep.Text;
                return true;
        }
    }

    private void PushFrame(string prefix, string localName, string ns, int bindingsBefore)
    {
        if (_frameCount == _frames.Length)
        {
            Array.Resize(ref _frames, _frames.Length * 2);
        }
        _frames[_frameCount++] = new Frame { Prefix = prefix, LocalName = localName, Namespace = ns, BindingCount = bindingsBefore };
    }

    private void PopFrame()
    {
        _bindingCount = _frames[--_frameCount].BindingCount;
        _frames[_frameCount] = default;
        _attributeCount = 0;
    }

    private AttributeNode NextAttribute()
    {
        if (_attributeCount == _attributes.Length)
        {
            Array.Resize(ref _attributes, _attributes.Length * 2);
        }
        return _attributes[_attributeCount++] ??= new AttributeNode();
    }

    private void AddAttribute(ReadOnlySpan<byte> window)
    {
        AttributeNode attribute = NextAttribute();
        attribute.IsXmlns = false;
        attribute.Prefix = AtomPrefix(window);
        attribute.LocalName = AtomLocalName(window);
        attribute.Namespace = "";
        attribute.Value = _c.ValueType == NbfxValueType.StartList ? ReadList()
            : _c.GetValue(window).ToText();
        if (ReferenceEquals(attribute.Prefix, _xml))
        {
            attribute.Namespace = _xmlNamespace;
        }
    }

    private void AddNamespaceDeclaration(ReadOnlySpan<byte> window)
    {
        string prefix = AtomPrefix(window);
        string uri = _c.ValueString is { } dictionaryUri ? _names.Add(dictionaryUri.Value) : Atom(window.Slice(_c.ValueStart, _c.ValueLength), countQuota: false);
        AttributeNode attribute = NextAttribute();
        attribute.IsXmlns = true;
        attribute.Prefix = prefix.Length == 0 ? "" : _xmlns;
        attribute.LocalName = prefix.Length == 0 ? _xmlns : prefix;
        attribute.Namespace = _xmlnsNamespace;
        attribute.Value = uri;
        if (_bindingCount == _bindings.Length)
        {
            Array.Resize(ref _bindings, _bindings.Length * 2);
        }
        _bindings[_bindingCount++] = new NamespaceBinding { Prefix = prefix, Uri = uri };
    }

    private string AtomPrefix(ReadOnlySpan<byte> window)
    {
        if (_c.PrefixLetter >= 0)
        {
            return _names.Add(NbfxReader.LetterPrefixes[_c.PrefixLetter]);
        }
        return _c.PrefixLength == 0 ? "" : Atom(window.Slice(_c.PrefixStart, _c.PrefixLength), countQuota: true);
    }

    private string AtomLocalName(ReadOnlySpan<byte> window) => _c.NameString is { } name
        ? _names.Add(name.Value)
        : Atom(window.Slice(_c.NameStart, _c.NameLength), countQuota: true);

    /// <summary>The name-table string for UTF-8 <paramref name="utf8"/>; a name seen before costs no allocation.</summary>
    private string Atom(ReadOnlySpan<byte> utf8, bool countQuota)
    {
        if (utf8.IsEmpty)
        {
            return "";
        }
        if (_chars.Length < utf8.Length)
        {
            _chars = new char[Math.Max(utf8.Length, _chars.Length * 2)];
        }
        int length = Encoding.UTF8.GetChars(utf8, _chars);
        string? atom = _names.Get(_chars, 0, length);
        if (atom is not null)
        {
            return atom;
        }
        if (countQuota)
        {
            _nameTableChars += length;
            if (_nameTableChars > _quotas.MaxNameTableCharCount)
            {
                throw new NbfxFormatException($"the names exceed the MaxNameTableCharCount quota ({_quotas.MaxNameTableCharCount})", _c.TokenOffset);
            }
        }
        return _names.Add(_chars, 0, length);
    }

    public override string? LookupNamespace(string prefix)
    {
        for (int i = _bindingCount - 1; i >= 0; i--)
        {
            if (_bindings[i].Prefix == prefix)
            {
                return _bindings[i].Uri;
            }
        }
        return prefix.Length == 0 ? "" : prefix == "xml" ? _xmlNamespace : prefix == "xmlns" ? _xmlnsNamespace : null;
    }

    public override void Close()
    {
        if (_state == ReadState.Closed)
        {
            return;
        }
        _state = ReadState.Closed;
        _nodeType = XmlNodeType.None;
        _c.Dispose();
        _onClose?.Invoke();
    }

    public override void ResolveEntity() => throw new InvalidOperationException("Binary XML has no entity references.");
}
