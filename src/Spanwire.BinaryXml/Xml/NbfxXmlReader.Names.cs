using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

// Element names and namespace URIs are kept as the records give them (a dictionary string, or UTF-8 bytes: where
// they are when the input is one array, else copied into one growing buffer that is released with the element)
// and become name-table strings only when asked for.
// DataContractSerializer mostly asks "is this element Foo in namespace N?" with XmlDictionaryStrings: that is
// answered from the bytes, and a namespace that matched a given XmlDictionaryString once matches it again by
// reference. Attribute names (few, and compared as strings) are made strings as they are read; their values
// only when asked for.
internal sealed partial class NbfxXmlReader
{
    private const int NoBinding = -1;

    private byte[] _nameBytes = [];
    private int _nameTop;

    /// <summary>
    /// True when the input is one array: it is read as one span, and names are read where they are
    /// (<see cref="_nameBytes"/> is that array and a handle's start is an index in it), not copied.
    /// </summary>
    private bool _inputInPlace;
    private int _inputOffset, _inputLength;

    /// <summary>The bytes the cursor reads: the whole input when it is one array, else the cursor's segment or scratch copy.</summary>
    private ReadOnlySpan<byte> Window => _inputInPlace ? Input : _c.Window.Span;

    /// <summary>The whole input, when it is one array (<see cref="_inputInPlace"/>).</summary>
    private ReadOnlySpan<byte> Input => new(_nameBytes, _inputOffset, _inputLength);

    /// <summary>
    /// The name table, made on first use: a document read through IsStartElement and typed reads alone never needs it.
    /// The constant names the reader hands out are its atoms.
    /// </summary>
    private ReaderNameTable Names => _nameTable ??= new ReaderNameTable(Xml, Xmlns, XmlNamespace, XmlnsNamespace, _quotas.MaxNameTableCharCount);

    /// <summary>
    /// A prefix or attribute name as the name table's atom. Such names are kept as plain strings until handed out, and
    /// added to the table (counting against MaxNameTableCharCount, as in-box) only then.
    /// </summary>
    private string Atomized(string name)
    {
        if (name.Length == 0)
        {
            return name;
        }

        if (name.Length == 1 && (uint)(name[0] - 'a') < 26 && ReferenceEquals(name, NbfxReader.LetterPrefixes[name[0] - 'a']))
        {
            _ = Names; // the letters are the table's atoms from its start
            return name;
        }

        return Names.Add(name);
    }

    private NamespaceBinding[] _bindings = [];
    private int _bindingCount;

    /// <summary>A name as its record gave it: a dictionary string, or UTF-8 bytes in <see cref="_nameBytes"/>; and its string once made.</summary>
    private struct NameHandle
    {
        public XmlDictionaryString? Dictionary;
        public int Start, Length;
        public string? Atom;
    }

    private struct Frame
    {
        public NameHandle Name;
        public int Binding;       // the binding of the element's prefix, or NoBinding for no namespace
        public int BindingCount;  // the bindings in scope before the element's own declarations
        public int NameTop;       // _nameTop before the element: its name and declarations are released with it
    }

    private struct NamespaceBinding
    {
        public string Prefix;
        public NameHandle Name;
        public XmlDictionaryString? LastMatch;
        public string? Text; // the namespace as a string not added to the name table (for attributes to compare)
    }

    /// <summary>Reads the input and its names in place when it is one array.</summary>
    private bool UseInputInPlace(ReadOnlySequence<byte> input)
    {
        if (input.IsSingleSegment && MemoryMarshal.TryGetArray(input.First, out ArraySegment<byte> segment) && segment.Array is { } array)
        {
            _nameBytes = array;
            _inputOffset = segment.Offset;
            _inputLength = segment.Count;
            _inputInPlace = true;
        }

        return _inputInPlace;
    }

    /// <summary>Keeps the current record's name: its dictionary string, or where its bytes are.</summary>
    private NameHandle KeepElementName(ReadOnlySpan<byte> window) => _c.NameString is { } dictionary
        ? new NameHandle { Dictionary = dictionary }
        : KeepName(window, _c.NameStart, _c.NameLength);

    /// <summary>Keeps the name at <paramref name="start"/> in the window: its place in the input, or a copy.</summary>
    private NameHandle KeepName(ReadOnlySpan<byte> window, int start, int length)
    {
        // The single segment is the whole input, so the window starts at the input's start.
        return _inputInPlace
            ? new NameHandle { Start = _inputOffset + start, Length = length }
            : CopyName(window.Slice(start, length));
    }

    private NameHandle CopyName(ReadOnlySpan<byte> utf8)
    {
        if (_nameBytes.Length - _nameTop < utf8.Length)
        {
            Array.Resize(ref _nameBytes, Math.Max(_nameTop + utf8.Length, Math.Max(_nameBytes.Length * 2, 256)));
        }

        utf8.CopyTo(_nameBytes.AsSpan(_nameTop));
        var name = new NameHandle { Start = _nameTop, Length = utf8.Length };
        _nameTop += utf8.Length;
        return name;
    }

    private string FrameLocalName(ref Frame frame) => frame.Name.Atom ??= MakeAtom(frame.Name);

    private string BindingUri(int binding) => binding == NoBinding ? ""
        : _bindings[binding].Name.Atom ??= MakeAtom(_bindings[binding].Name);

    /// <summary>A binding's namespace as a string, without adding it to the name table (for comparing, not handing out).</summary>
    private string BindingText(int binding)
    {
        if (binding == NoBinding)
        {
            return "";
        }

        ref NamespaceBinding b = ref _bindings[binding];
        return b.Name.Atom ?? b.Name.Dictionary?.Value ?? (b.Text ??= NameString(_nameBytes.AsSpan(b.Name.Start, b.Name.Length)));
    }

    private string MakeAtom(in NameHandle name) => name.Dictionary is { } dictionary
        ? DictionaryAtom(dictionary)
        : Atom(_nameBytes.AsSpan(name.Start, name.Length));

    // The last lookup, kept while the bindings in scope are the same ones: siblings mostly ask for the same prefix.
    // Every added binding moves the generation on, so a count that came back to the same value is not mistaken.
    private string? _lookupPrefix;
    private int _lookupCount = -1, _lookupGeneration, _lookupResult, _bindingGeneration;

    /// <summary>The innermost binding of <paramref name="prefix"/>, or <see cref="NoBinding"/>.</summary>
    private int LookupBinding(string prefix)
    {
        if (ReferenceEquals(prefix, _lookupPrefix) && _lookupCount == _bindingCount && _lookupGeneration == _bindingGeneration)
        {
            return _lookupResult;
        }

        int found = NoBinding;
        for (int i = _bindingCount - 1; i >= 0; i--)
        {
            if (_bindings[i].Prefix == prefix)
            {
                found = i;
                break;
            }
        }

        _lookupPrefix = prefix;
        _lookupCount = _bindingCount;
        _lookupGeneration = _bindingGeneration;
        _lookupResult = found;
        return found;
    }

    /// <summary>The binding of a prefix used by an element or attribute; an undeclared prefix (other than none) is malformed.</summary>
    private int FindBinding(string prefix)
    {
        int binding = LookupBinding(prefix);
        if (binding == NoBinding && prefix.Length != 0)
        {
            NbfxCursor.ThrowFormat("the prefix '{0}' is not declared", prefix, _c.TokenOffset);
        }

        return binding;
    }

    private string AttributeValue(int i)
    {
        AttributeNode a = _attributes[i];
        // An xmlns attribute's value is a value, not a name: it is not added to the name table, as in-box.
        return a.Binding >= 0 ? BindingText(a.Binding)
            : a.Value ??= new NbfxValue(a.ValueType, _attributePayloads.AsSpan(a.PayloadStart, a.PayloadLength), a.ValueString, a.QNamePrefixLetter, a.ValueOffset).ToText();
    }

    private bool NameEquals(ref NameHandle name, string value, XmlDictionaryString? dictionaryValue)
    {
        if (name.Atom is { } atom)
        {
            return (object)atom == value || atom == value;
        }

        if (name.Dictionary is { } dictionary)
        {
            return ReferenceEquals(dictionary, dictionaryValue) || dictionary.Value == value;
        }
        // Names are valid UTF-8 (the cursor checks): every char takes at least one byte, and only ASCII takes exactly one.
        ReadOnlySpan<byte> utf8 = _nameBytes.AsSpan(name.Start, name.Length);
        if (utf8.Length == value.Length)
        {
            return Ascii.Equals(utf8, value);
        }

        if (utf8.Length < value.Length || Ascii.IsValid(utf8))
        {
            return false;
        }
        // Decoded to compare, not added to the name table: the in-box reader compares without it too.
        return Decode(utf8).SequenceEqual(value);
    }

    private bool NamespaceEquals(int binding, string value, XmlDictionaryString? dictionaryValue)
    {
        if (binding == NoBinding)
        {
            return value.Length == 0;
        }

        ref NamespaceBinding b = ref _bindings[binding];
        if (dictionaryValue is not null && ReferenceEquals(b.LastMatch, dictionaryValue))
        {
            return true;
        }

        bool equal = NameEquals(ref b.Name, value, dictionaryValue);
        if (equal && dictionaryValue is not null)
        {
            b.LastMatch = dictionaryValue;
        }

        return equal;
    }

    /// <summary>On an element or end element (not on one of its attributes).</summary>
    private bool OnNamedNode => _attributeIndex < 0 && NameFrame >= 0;

    /// <summary>
    /// The frame naming the current node: an element's or end element's depth is its frame's index; −1 for a node
    /// with no name of its own. Derived rather than stored, as is <see cref="NodePrefix"/>: Read sets neither.
    /// </summary>
    private int NameFrame => _nodeType is XmlNodeType.Element or XmlNodeType.EndElement ? _depth : -1;

    /// <summary>
    /// The prefix of the current element or end element, or none: its binding's prefix (an element whose prefix is
    /// not bound is refused), or none when it has no binding. Derived, so frames hold no string to store.
    /// </summary>
    private string NodePrefix => NameFrame is var frame and >= 0 && _frames[frame].Binding is var binding and >= 0 ? _bindings[binding].Prefix : "";

    public override bool IsStartElement(XmlDictionaryString localName, XmlDictionaryString namespaceUri) =>
        localName is null || namespaceUri is null
            ? base.IsStartElement(localName!, namespaceUri!)
            : IsStartElement(localName.Value, localName, namespaceUri.Value, namespaceUri);

    public override bool IsStartElement(string localname, string ns) =>
        localname is null || ns is null
            ? base.IsStartElement(localname!, ns!)
            : IsStartElement(localname, null, ns, null);

    /// <summary>Moves to content, as XmlReader.IsStartElement does, and compares the element's name bytes.</summary>
    private bool IsStartElement(string localName, XmlDictionaryString? localNameString, string ns, XmlDictionaryString? nsString)
    {
        if (!(_nodeType == XmlNodeType.Element && _attributeIndex < 0 || MoveToContent() == XmlNodeType.Element))
        {
            return false;
        }

        ref Frame frame = ref _frames[NameFrame];
        return NameEquals(ref frame.Name, localName, localNameString) && NamespaceEquals(frame.Binding, ns, nsString);
    }

    public override bool IsLocalName(string localName) =>
        _attributeIndex >= 0 && localName is not null ? AttributeRecordLocalName(_attributes[_attributeIndex]) == localName
        : OnNamedNode && localName is not null ? NameEquals(ref _frames[NameFrame].Name, localName, null)
        : base.IsLocalName(localName!);

    public override bool IsLocalName(XmlDictionaryString localName) =>
        _attributeIndex >= 0 && localName is not null ? AttributeRecordLocalName(_attributes[_attributeIndex]) == localName.Value
        : OnNamedNode && localName is not null ? NameEquals(ref _frames[NameFrame].Name, localName.Value, localName)
        : base.IsLocalName(localName!);

    /// <summary>
    /// An attribute's local name as the in-box reader compares it in IsLocalName and IndexOfLocalName: the name
    /// itself, except that xmlns="…" has the empty local name of its record (LocalName still says "xmlns").
    /// </summary>
    private static string AttributeRecordLocalName(AttributeNode attribute) =>
        attribute.IsXmlns && attribute.Prefix.Length == 0 ? "" : attribute.LocalName;

    public override bool IsNamespaceUri(string namespaceUri) => OnNamedNode && namespaceUri is not null
        ? NamespaceEquals(_frames[NameFrame].Binding, namespaceUri, null)
        : base.IsNamespaceUri(namespaceUri!);

    public override bool IsNamespaceUri(XmlDictionaryString namespaceUri) => OnNamedNode && namespaceUri is not null
        ? NamespaceEquals(_frames[NameFrame].Binding, namespaceUri.Value, namespaceUri)
        : base.IsNamespaceUri(namespaceUri!);

    // As in-box: a name or namespace is handed out as a dictionary string when its record gave one (the static
    // dictionary or the session), and an empty one as XmlDictionaryString.Empty; a node with no name (text, comment,
    // none) has the empty name and namespace; an xmlns attribute gives none of the three. XmlDictionaryWriter.WriteNode
    // asks for these, and copies names it gets this way without making strings of them.
    public override bool TryGetLocalNameAsDictionaryString([NotNullWhen(true)] out XmlDictionaryString? localName)
    {
        if (_attributeIndex >= 0)
        {
            AttributeNode attribute = _attributes[_attributeIndex];
            localName = attribute.IsXmlns ? null : attribute.LocalNameString ?? (attribute.LocalName.Length == 0 ? XmlDictionaryString.Empty : null);
            return localName is not null;
        }

        if (NameFrame < 0)
        {
            localName = XmlDictionaryString.Empty;
            return true;
        }

        localName = AsDictionaryString(_frames[NameFrame].Name);
        return localName is not null;
    }

    public override bool TryGetNamespaceUriAsDictionaryString([NotNullWhen(true)] out XmlDictionaryString? namespaceUri)
    {
        int binding;
        if (_attributeIndex >= 0)
        {
            AttributeNode attribute = _attributes[_attributeIndex];
            if (attribute.IsXmlns)
            {
                namespaceUri = null;
                return false;
            }

            binding = attribute.NamespaceBinding;
        }
        else
        {
            binding = NameFrame < 0 ? NoBinding : _frames[NameFrame].Binding;
        }

        namespaceUri = BindingDictionaryString(binding);
        return namespaceUri is not null;
    }

    /// <summary>A binding's namespace as the in-box reader hands it out: its dictionary string, Empty for no namespace, else null.</summary>
    private XmlDictionaryString? BindingDictionaryString(int binding)
    {
        if (binding == NoBinding)
        {
            return XmlDictionaryString.Empty;
        }

        if (binding < 2)
        {
            return null; // xml and xmlns: constant URIs, not dictionary strings
        }

        return AsDictionaryString(_bindings[binding].Name);
    }

    /// <summary>A kept name as the in-box reader hands it out: its dictionary string, Empty when it is empty, else null.</summary>
    private static XmlDictionaryString? AsDictionaryString(in NameHandle name) =>
        name.Dictionary ?? (name.Length == 0 && name.Atom is null or "" ? XmlDictionaryString.Empty : null);

    public override int IndexOfLocalName(XmlDictionaryString[] localNames, XmlDictionaryString namespaceUri)
    {
        if (_attributeIndex >= 0 && localNames is not null && namespaceUri is not null)
        {
            // DataContractSerializer asks this of every attribute it meets (i:nil, i:type, z:Id and the like).
            return IndexOfAttributeLocalName(_attributes[_attributeIndex], localNames, namespaceUri);
        }

        if (!OnNamedNode || localNames is null || namespaceUri is null)
        {
            return base.IndexOfLocalName(localNames!, namespaceUri!);
        }

        ref Frame frame = ref _frames[NameFrame];
        if (!NamespaceEquals(frame.Binding, namespaceUri.Value, namespaceUri))
        {
            return -1;
        }

        for (int i = 0; i < localNames.Length; i++)
        {
            XmlDictionaryString? name = localNames[i];
            if (name is null)
            {
                ThrowNullLocalName(i);
            }

            if (NameEquals(ref frame.Name, name.Value, name))
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>As XmlDictionaryReader's own, on the attribute's names as they were read, without its virtual calls.</summary>
    private static int IndexOfAttributeLocalName(AttributeNode attribute, XmlDictionaryString[] localNames, XmlDictionaryString namespaceUri)
    {
        if (attribute.Namespace != namespaceUri.Value)
        {
            return -1;
        }

        string localName = AttributeRecordLocalName(attribute);
        for (int i = 0; i < localNames.Length; i++)
        {
            XmlDictionaryString? name = localNames[i];
            if (name is null)
            {
                ThrowNullLocalName(i);
            }

            if (localName == name.Value)
            {
                return i;
            }
        }

        return -1;
    }

    // Formats its message here: an interpolation in the loop would put its handler in the caller's frame.
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowNullLocalName(int index) =>
        throw new ArgumentNullException(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"localNames[{index}]"));
}
