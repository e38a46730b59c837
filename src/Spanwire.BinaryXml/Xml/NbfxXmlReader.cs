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
internal sealed partial class NbfxXmlReader : XmlDictionaryReader, IXmlBinaryReaderInitializer
{
    private const string XmlNamespace = "http://www.w3.org/XML/1998/namespace";
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";
    private const string Xml = "xml", Xmlns = "xmlns";

    private NbfxCursor _c;
    private ReaderNameTable? _nameTable;
    private XmlDictionaryReaderQuotas _quotas;
    private OnXmlDictionaryReaderClose? _onClose; // kept as given: a wrapper would be made for every input
    private Action? _release; // gives back the pooled copy of a stream's bytes
    private bool _rootSeen;
    private long _startTagOffset; // where the current element's record starts: see NodeStartOffset
    private bool _fromStream; // as in-box, MaxBytesPerRead bounds a start tag's attributes only in input given whole
    private char[] _chars = []; // the working arrays: see NbfxXmlReader.WorkingArrays.cs

    private ReadState _state = ReadState.Initial;
    private bool _readingElement; // between the calls of ReadElementContentAsBase64 or BinHex, as in-box
    private bool _peeked;
    private bool _peekedHas;
    private bool _exitScope;

    private XmlNodeType _nodeType;
    private int _depth;
    private string? _value;
    private int _valueTaken; // characters of _value ReadValueChunk has handed out: see ValueLeft
    private bool _valueFromItem;
    private bool _atomic;
    // Set with any of the extras below that a member other than Read gives the current node (an attribute position,
    // a cached value, a chunk handed out, decoded bytes): the next Read clears them only then.
    private bool _nodeTouched;
    // As in-box, ReadValueChunk hands a text record's value out from its bytes and what it has handed out is gone:
    // Value, content reads and MoveToContent see the rest. The count is of payload bytes, and holds for the record at
    // _chunkedToken only, so no later node can see it.
    private int _chunkedBytes;
    private long _chunkedToken;
    private string? _attributeValueOverride; // what ReadValueChunk left of an attribute's value once read as a string

    private Frame[] _frames = [];
    private int _frameCount;

    private AttributeNode[] _attributes = [];
    private int _attributeCount;
    private int _attributeIndex = -1;
    private bool _onAttributeValue;
    // As in-box, an attribute (or its value node) whose Value was asked for since the reader moved there has a string
    // ValueType, and its value node gives the value up to ReadContentAsString once and is empty after.
    private bool _attributeValueSeen, _attributeValueHandedOver;

    private ArrayStep _arrayStep;
    private int _arrayLeft;
    private NbfxValueType _arrayType;
    private byte[] _item = [];


    private sealed class AttributeNode
    {
        public string Prefix = "", LocalName = "", Namespace = "";
        public string? Value; // made from the payload when asked
        public bool IsXmlns;
        public int Binding = -1; // an xmlns attribute's value is its binding's namespace, made a string when asked
        public NbfxValueType ValueType;
        public int PayloadStart, PayloadLength; // in _attributePayloads
        public XmlDictionaryString? ValueString;
        public int QNamePrefixLetter;
        public long ValueOffset;
        // What ReadValueChunk and content reads have taken of a text value, kept with the attribute as in-box: the value
        // as a string and how many of its characters are gone (a count, so taking a piece copies nothing).
        public string? ChunkText;
        public int ChunkTaken;

        /// <summary>What is left of the value once pieces of it have been taken; null when none has been.</summary>
        public string? ChunkRest => ChunkText?[ChunkTaken..];
        public XmlDictionaryString? LocalNameString; // the name as a dictionary or session string, when the record gave one
        public int NamespaceBinding = NoBinding; // the binding of the attribute's prefix; NoBinding for none
    }

    // The payloads of the current element's attribute values, copied as read (over a sequence the window moves on).
    private byte[] _attributePayloads = []; // made on the first attribute value
    private int _attributePayloadTop;

    private enum ArrayStep : byte { None, Text, End, Element }

    public NbfxXmlReader(ReadOnlySequence<byte> input, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas? quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose = null)
    {
        _quotas = null!;
        Initialize(input, null, dictionary, quotas, session, null, onClose);
    }

    /// <summary>A reader over what <paramref name="stream"/> has left, read as the nodes need it; closing the reader closes the stream, as in-box.</summary>
    public NbfxXmlReader(Stream stream, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas? quotas, XmlBinaryReaderSession? session)
    {
        ArgumentNullException.ThrowIfNull(stream);
        _quotas = null!;
        Initialize(default, stream, dictionary, quotas, session, null, null);
    }

    /// <summary>Starts the reader on <paramref name="input"/>: every state as a new reader's (the name table is kept).</summary>
    [System.Diagnostics.CodeAnalysis.MemberNotNull(nameof(_quotas))]
    private void Initialize(ReadOnlySequence<byte> input, Stream? stream, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas? quotas, XmlBinaryReaderSession? session, Action? release, OnXmlDictionaryReaderClose? onClose)
    {
        _quotas = quotas ?? NbfxCursor.DefaultQuotas;
        TakeWorkingArrays();
        if (_inputInPlace)
        {
            // The names of input read in place are in that input's array: names copied from the next input must not be.
            _nameBytes = [];
            _inputInPlace = false;
        }
        // One array is read as a span (no segment to move to); anything else segment by segment, a stream block by block.
        _fromStream = stream is not null;
        if (stream is not null)
        {
            release = StartOnStream(stream, dictionary, session);
        }
        else if (UseInputInPlace(input))
        {
            _c.Reset(input.Length, dictionary, session, _quotas, applyContentQuotas: false);
        }
        else
        {
            _c.Reset(input, dictionary, session, _quotas, applyContentQuotas: false);
        }

        _release = release;
        _onClose = onClose;
        _bindings[0] = new NamespaceBinding { Prefix = Xml, Name = new NameHandle { Atom = XmlNamespace } };
        _bindings[1] = new NamespaceBinding { Prefix = Xmlns, Name = new NameHandle { Atom = XmlnsNamespace } };
        _bindingCount = 2;
        _bindingGeneration++;
        _state = ReadState.Initial;
        _peeked = _peekedHas = _exitScope = _readingElement = false;
        _nodeType = XmlNodeType.None;
        _depth = 0;
        _value = null;
        _valueTaken = 0;
        _valueFromItem = _atomic = false;
        _nodeTouched = false;
        Array.Clear(_frames, 0, _frameCount); // PushFrame relies on frames past the count being all zeros
        _frameCount = 0;
        _attributeCount = 0;
        _attributeIndex = -1;
        _onAttributeValue = _attributeValueSeen = _attributeValueHandedOver = false;
        _startTagLang = null;
        _startTagSpace = XmlSpace.None;
        if (_xmlScopeCount != 0)
        {
            Array.Clear(_xmlScopes!, 0, _xmlScopeCount);
            _xmlScopeCount = 0;
        }

        _arrayStep = ArrayStep.None;
        _arrayLeft = 0;
        _trailCharCount = _trailByteCount = 0;
        _attributePayloadTop = 0;
        _nameTop = 0;
        _rootSeen = false;
    }

    /// <summary>
    /// Reads the stream's first block: a seekable stream whose rest fits in it is then one array, read in place, and
    /// the block is given back when the reader closes; any other is read block by block as the nodes need it.
    /// </summary>
    /// <returns>What closing the reader does: closes the stream, as in-box (and gives back a block read in place).</returns>
    private Action StartOnStream(Stream stream, IXmlDictionary? dictionary, XmlBinaryReaderSession? session)
    {
        byte[] block = ArrayPool<byte>.Shared.Rent(NbfxCursor.StreamBlockSize);
        int filled;
        bool whole;
        try
        {
            filled = NbfxCursor.ReadFirstBlock(stream, block, out whole);
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(block);
            throw;
        }

        if (whole)
        {
            UseInputInPlace(new ReadOnlySequence<byte>(block, 0, filled));
            _c.Reset(filled, dictionary, session, _quotas, applyContentQuotas: false);
        }
        else
        {
            _c.Reset(stream, block, filled, dictionary, session, _quotas, applyContentQuotas: false);
        }

        _c.SplitTextAsStreamed(_quotas.MaxBytesPerRead);
        if (!whole)
        {
            return stream.Dispose;
        }

        return () =>
        {
            ArrayPool<byte>.Shared.Return(block);
            stream.Dispose();
        };
    }

    /// <summary>Starts over on <paramref name="count"/> bytes of <paramref name="buffer"/>, as the in-box reader's SetInput (for pooled reuse).</summary>
    public void SetInput(byte[] buffer, int offset, int count, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose)
    {
        ArrayArguments.Check(buffer, offset, count);
        Restart(new ReadOnlySequence<byte>(buffer, offset, count), null, dictionary, quotas, session, null, onClose);
    }

    /// <summary>Starts over on what <paramref name="stream"/> has left, as the in-box reader's SetInput: read as the nodes need it, and closed with the reader.</summary>
    public void SetInput(Stream stream, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose)
    {
        ArgumentNullException.ThrowIfNull(stream);
        Restart(default, stream, dictionary, quotas, session, null, onClose);
    }

    private void Restart(ReadOnlySequence<byte> input, Stream? stream, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas? quotas, XmlBinaryReaderSession? session, Action? release, OnXmlDictionaryReaderClose? onClose)
    {
        ArgumentNullException.ThrowIfNull(quotas);
        if (_state != ReadState.Closed)
        {
            _c.Dispose();
        }

        _release?.Invoke();
        EnableDictionaryAtoms();
        Initialize(input, stream, dictionary, quotas, session, release, onClose);
    }

    /// <summary>
    /// Where the bytes of the current node start in the input: an element's record (an array record's, for its
    /// items' elements); a text's record; an end element's record, or for the end element a text record carried,
    /// where that text's record starts. Input read to the node is never put back, so everything before this offset
    /// belongs to nodes already read: a caller can take the bytes of an element it has read past from its start to the
    /// offset of the node after it.
    /// </summary>
    internal long NodeStartOffset => _attributeIndex < 0 && _nodeType == XmlNodeType.Element ? _startTagOffset : _c.TokenOffset;

    public override XmlDictionaryReaderQuotas Quotas => _quotas;

    public override XmlNameTable NameTable => Names;

    public override ReadState ReadState => _state;

    public override bool EOF => _state == ReadState.EndOfFile;

    public override string BaseURI => "";

    public override bool IsEmptyElement => false;

    public override XmlNodeType NodeType => _attributeIndex < 0 ? _nodeType : _onAttributeValue ? XmlNodeType.Text : XmlNodeType.Attribute;

    public override int Depth => _attributeIndex < 0 ? _depth : _onAttributeValue ? _depth + 2 : _depth + 1;

    // On an attribute's value (ReadAttributeValue), the in-box reader still gives the attribute's names: so do these.
    public override string Prefix => Atomized(_attributeIndex < 0 ? NodePrefix : _attributes[_attributeIndex].Prefix);

    public override string LocalName => _attributeIndex >= 0 ? Atomized(_attributes[_attributeIndex].LocalName)
        : NameFrame < 0 ? "" : FrameLocalName(ref _frames[NameFrame]);

    public override string NamespaceURI => _attributeIndex >= 0 ? AttributeNamespaceAtom(_attributes[_attributeIndex])
        : NameFrame < 0 ? "" : BindingUri(_frames[NameFrame].Binding);

    public override int AttributeCount => _nodeType == XmlNodeType.Element ? _attributeCount : 0;

    public override string Value
    {
        get
        {
            if (_attributeIndex >= 0)
            {
                if (_onAttributeValue && _attributeValueHandedOver)
                {
                    return "";
                }

                _attributeValueSeen = true;
                _nodeTouched = true;
                return _attributeValueOverride ?? _attributes[_attributeIndex].ChunkRest ?? AttributeValue(_attributeIndex);
            }

            if (_value is not null || _nodeType is not (XmlNodeType.Text or XmlNodeType.Comment))
            {
                return ValueLeft() ?? "";
            }

            _nodeTouched = true;
            return _value = CurrentValue.ToText();
        }
    }

    /// <summary>The current node's value made a string, less what ReadValueChunk has handed out of it; null if not made.</summary>
    private string? ValueLeft()
    {
        if (_valueTaken != 0)
        {
            _value = _value![_valueTaken..];
            _valueTaken = 0;
        }

        return _value;
    }

    /// <summary>The current text node's value, from the cursor's record or from the array item just read.</summary>
    private NbfxValue CurrentValue
    {
        get
        {
            if (_valueFromItem)
            {
                return new NbfxValue(_arrayType, _item.AsSpan(0, _c.ArrayItemSize), null, 0, _c.Position);
            }

            NbfxValue value = _c.GetValue(Window);
            return _chunkedBytes == 0 || _chunkedToken != _c.TokenOffset
                ? value
                : new NbfxValue(value.Type, value.Payload[_chunkedBytes..], null, 0, value.Offset + _chunkedBytes);
        }
    }

    public override bool Read()
    {
        // Initial or Interactive: the first node of one array is read in place too.
        if ((uint)_state <= (uint)ReadState.Interactive && _inputInPlace && !_peeked)
        {
            ClearNodeState();
            if (_exitScope)
            {
                _exitScope = false;
                PopFrame();
            }

            // No exception guard on this path: the state says Error until the node is read, so a malformed record
            // leaves the reader as the guard would.
            _state = ReadState.Error;
            bool read = _arrayStep != ArrayStep.None ? ReadArrayStep() : _c.AtPlainRecord && TryReadNodeInPlace();
            _state = ReadState.Interactive;
            if (read)
            {
                return true;
            }
        }

        return ReadAnyNode();
    }

    /// <summary>Forgets what the members asked of the node being left (attribute position, values made, chunks).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ClearNodeState()
    {
        _valueFromItem = false;
        _atomic = false;
        if (_nodeTouched)
        {
            ClearTouchedNodeState();
        }
    }

    private void ClearTouchedNodeState()
    {
        _nodeTouched = false;
        _attributeIndex = -1;
        _onAttributeValue = false;
        _attributeValueSeen = _attributeValueHandedOver = false;
        _value = null;
        _valueTaken = 0;
        _chunkedBytes = 0;
        _attributeValueOverride = null;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool ReadAnyNode()
    {
        if (_state is ReadState.Closed or ReadState.EndOfFile or ReadState.Error)
        {
            return false;
        }

        _state = ReadState.Interactive;
        ClearNodeState();
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

        ReadOnlySpan<byte> window = Window;
        bool has = _peeked ? _peekedHas : _c.Read(ref window);
        _peeked = false;
        if (!has)
        {
            _nodeType = XmlNodeType.None;
            _depth = 0;
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
                NbfxCursor.ThrowFormat("unexpected {0} record", _c.Token.ToString(), _c.TokenOffset);
                return false;
        }
    }

    private void SetNode(XmlNodeType type, int depth)
    {
        _nodeType = type;
        _depth = depth;
    }

    private void MoveToEndElementNode()
    {
        SetNodeFromFrame(XmlNodeType.EndElement);
        _exitScope = true;
    }

    /// <summary>An element or end element node named as the innermost open element.</summary>
    private void SetNodeFromFrame(XmlNodeType type)
    {
        _nodeType = type;
        _depth = _frameCount - 1;
    }

    private void ReadText()
    {
        SetNode(XmlNodeType.Text, _c.TokenDepth);
        if (_c.ValueType == NbfxValueType.StartList)
        {
            ReadOnlySpan<byte> window = Window;
            _value = ReadList(ref window);
            _nodeTouched = true;
        }
        else
        {
            _atomic = _c.TextEndsElement;
        }

        // As in-box: outside the root element, text given as characters or bytes must be whitespace; a typed value
        // (a number, a date, a dictionary string, a list) there is a text node of its own, refused by nothing.
        if (_depth == 0 && _c.IsCharsOrBytesText && !IsWhitespace(Value))
        {
            ThrowFormat("text outside the root element");
        }
    }

    /// <summary>
    /// Reads a list's items up to its EndList and joins them with spaces, as the in-box reader shows a list. Over a
    /// sequence the items may move the cursor to later segments: <paramref name="window"/> follows.
    /// </summary>
    private string ReadList(ref ReadOnlySpan<byte> window)
    {
        var text = new StringBuilder();
        while (_c.Read(ref window) && _c.ValueType != NbfxValueType.EndList)
        {
            if (text.Length > 0)
            {
                text.Append(' ');
            }
            // No string quota here, as in-box: MaxStringContentLength applies when the list is read as content. The
            // text is bounded by the input, as any text's is (a dictionary item's string can be longer than its id).
            text.Append(_c.GetValue(window).ToText());
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
        _startTagOffset = _c.TokenOffset; // before the attributes, which are tokens of their own
        ReadOnlySpan<byte> window = Window;
        string prefix = AtomPrefix(window);
        int nameTop = _nameTop;
        NameHandle name = KeepElementName(window); // before the attributes: over a sequence they may move the window
        bool isArray = _c.IsArrayElement;
        int bindingsBefore = _bindingCount;
        _attributeCount = 0;
        _attributePayloadTop = 0;
        ReadAttributes(ref window, _c.Following(ref window), isArray);
        FinishStartTag(prefix, name, bindingsBefore, nameTop);
        if (isArray)
        {
            // The cursor is on the Array token: present its items as repeated elements.
            _peeked = false;
            _arrayType = _c.ArrayType;
            _arrayLeft = _c.ArrayCount;
            _arrayStep = ArrayStep.Text;
        }
    }

    /// <summary>
    /// Reads a start tag's attributes: the records that are attributes. The record after them is read when it is
    /// asked for (an array's values at once, as they end its start tag); the in-box reader looks past a start tag, so
    /// input that ends there is refused on the element, as here.
    /// </summary>
    /// <param name="window">The cursor's window, which moves over a sequence or a stream.</param>
    /// <param name="following">What follows the element record.</param>
    /// <param name="isArray">The element is an array record's.</param>
    private void ReadAttributes(ref ReadOnlySpan<byte> window, NbfxFollowing following, bool isArray)
    {
        long attributesStart = _c.Position;
        while (following == NbfxFollowing.Attribute && _c.Read(ref window))
        {
            AddAttributeOrDeclaration(ref window);
            following = _c.Following(ref window);
        }

        CheckBytesPerRead(attributesStart, _c.Position);
        _peeked = isArray || following == NbfxFollowing.End;
        _peekedHas = _peeked && _c.Read(ref window);
    }

    /// <summary>
    /// As in-box over input given whole: a start tag's attributes (from the first attribute record to the end of the
    /// last) longer than MaxBytesPerRead are refused, with the in-box words.
    /// </summary>
    private void CheckBytesPerRead(long attributesStart, long attributesEnd)
    {
        if (attributesEnd - attributesStart > _quotas.MaxBytesPerRead && !_fromStream)
        {
            ThrowMaxBytesPerRead();
        }
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowMaxBytesPerRead() => throw new XmlException(string.Format(System.Globalization.CultureInfo.InvariantCulture,
        "The 'maximum bytes per Read operation' quota ({0}) has been exceeded while reading XML data. Long element start tags (consisting of the element name, attribute names and attribute values) may trigger this quota. This quota may be increased by changing the MaxBytesPerRead property on the XmlDictionaryReaderQuotas object used when creating the XML reader.",
        _quotas.MaxBytesPerRead));

    /// <summary>
    /// Ends a start tag whose records are read: binds the element's and attributes' prefixes, refuses duplicate
    /// attributes, and opens the element's frame.
    /// </summary>
    private void FinishStartTag(string prefix, in NameHandle name, int bindingsBefore, int nameTop)
    {
        int binding = FindBinding(prefix);
        for (int i = 0; i < _attributeCount; i++)
        {
            AttributeNode attribute = _attributes[i];
            if (!attribute.IsXmlns)
            {
                attribute.NamespaceBinding = attribute.Prefix.Length == 0 ? NoBinding : FindBinding(attribute.Prefix);
                attribute.Namespace = BindingText(attribute.NamespaceBinding);
            }
        }

        if (_attributeCount > 1)
        {
            CheckDuplicateAttributes();
        }

        EnterElement(name, binding, bindingsBefore, nameTop);
        if (_startTagLang is not null || _startTagSpace != XmlSpace.None)
        {
            PushXmlScope();
        }
    }

    private void AddAttributeOrDeclaration(ref ReadOnlySpan<byte> window)
    {
        if (_c.Token == NbfxTokenType.Attribute)
        {
            AddAttribute(ref window);
        }
        else
        {
            AddNamespaceDeclaration(window);
        }
    }

    /// <summary>Opens the element's frame (one root only) and makes it the current node.</summary>
    private void EnterElement(in NameHandle name, int binding, int bindingsBefore, int nameTop)
    {
        if (_frameCount == 0)
        {
            if (_rootSeen)
            {
                ThrowFormat("There are multiple root elements.");
            }

            _rootSeen = true;
        }

        PushFrame(name, binding, bindingsBefore, nameTop);
        _nodeType = XmlNodeType.Element;
        _depth = _frameCount - 1;
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
    private void ThrowFormat(string message) => throw new NbfxFormatException(message, _c.TokenOffset);

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
                    ReadOnlySpan<byte> window = Window;
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

    /// <summary>
    /// Opens a frame. A popped frame is all zeros, so only what is not null is stored: each reference stored into the
    /// heap costs a write barrier, and most elements have a name that is bytes in the input. The prefix is not stored
    /// at all (see <see cref="NodePrefix"/>).
    /// </summary>
    private void PushFrame(in NameHandle name, int binding, int bindingCount, int nameTop)
    {
        if (_frameCount == _frames.Length)
        {
            Array.Resize(ref _frames, _frames.Length * 2);
        }

        ref Frame frame = ref _frames[_frameCount++];
        if (name.Dictionary is { } dictionary)
        {
            frame.Name.Dictionary = dictionary;
        }

        frame.Name.Start = name.Start;
        frame.Name.Length = name.Length;
        frame.Binding = binding;
        frame.BindingCount = bindingCount;
        frame.NameTop = nameTop;
    }

    private void PopFrame()
    {
        ref Frame frame = ref _frames[--_frameCount];
        _bindingCount = frame.BindingCount;
        _nameTop = frame.NameTop;
        frame = default;
        _attributeCount = 0;
        if (_xmlScopeCount != 0 && _xmlScopes![_xmlScopeCount - 1].Frame >= _frameCount)
        {
            _xmlScopes[--_xmlScopeCount] = default;
        }
    }

    /// <summary>An attribute's namespace as handed out: the name table's atom (the constants for xml and xmlns).</summary>
    private string AttributeNamespaceAtom(AttributeNode attribute) =>
        attribute.IsXmlns ? XmlnsNamespace : attribute.NamespaceBinding == NoBinding ? attribute.Namespace : BindingUri(attribute.NamespaceBinding);

    private AttributeNode NextAttribute()
    {
        if (_attributeCount == _attributes.Length)
        {
            Array.Resize(ref _attributes, _attributes.Length * 2);
        }

        return _attributes[_attributeCount++] ??= new AttributeNode();
    }

    private void AddAttribute(ref ReadOnlySpan<byte> window)
    {
        AttributeNode attribute = NextAttribute();
        attribute.IsXmlns = false;
        attribute.Binding = -1;
        attribute.Prefix = AtomPrefix(window);
        attribute.LocalNameString = _c.NameString;
        attribute.LocalName = AttributeLocalName(window, attribute);
        attribute.Namespace = "";
        attribute.ChunkText = null;
        attribute.ChunkTaken = 0;
        if (_c.ValueType == NbfxValueType.StartList)
        {
            attribute.ValueType = NbfxValueType.StartList; // as in-box, a list's value is of type object[] until read as a string
            attribute.Value = ReadList(ref window);
        }
        else
        {
            attribute.Value = null;
            KeepAttributeValue(attribute, window);
        }

        if (attribute.Prefix == Xml)
        {
            attribute.Namespace = XmlNamespace;
            NoteXmlAttribute(attribute);
        }
    }

    // xml:lang and xml:space of the element being read, then, once its frame is pushed, a scope of their own: a stack
    // beside the frames (made on first need), so that documents without them carry nothing more per element.
    private string? _startTagLang;
    private XmlSpace _startTagSpace;
    private XmlScope[]? _xmlScopes;
    private int _xmlScopeCount;

    private struct XmlScope
    {
        public int Frame;
        public string? Lang;
        public XmlSpace Space;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void PushXmlScope()
    {
        _xmlScopes ??= new XmlScope[4];
        if (_xmlScopeCount == _xmlScopes.Length)
        {
            Array.Resize(ref _xmlScopes, _xmlScopes.Length * 2);
        }

        _xmlScopes[_xmlScopeCount++] = new XmlScope { Frame = _frameCount - 1, Lang = _startTagLang, Space = _startTagSpace };
        _startTagLang = null;
        _startTagSpace = XmlSpace.None;
    }

    /// <summary>As in-box: any xml:lang value is the element's language; xml:space counts only as "preserve" or "default".</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void NoteXmlAttribute(AttributeNode attribute)
    {
        if (attribute.LocalName == "lang")
        {
            _startTagLang = AttributeValue(_attributeCount - 1);
        }
        else if (attribute.LocalName == "space")
        {
            string value = AttributeValue(_attributeCount - 1);
            _startTagSpace = value == "preserve" ? XmlSpace.Preserve : value == "default" ? XmlSpace.Default : _startTagSpace;
        }
    }

    public override string XmlLang
    {
        get
        {
            for (int i = _xmlScopeCount - 1; i >= 0; i--)
            {
                if (_xmlScopes![i].Lang is { } lang)
                {
                    return lang;
                }
            }

            return "";
        }
    }

    public override XmlSpace XmlSpace
    {
        get
        {
            for (int i = _xmlScopeCount - 1; i >= 0; i--)
            {
                if (_xmlScopes![i].Space != XmlSpace.None)
                {
                    return _xmlScopes[i].Space;
                }
            }

            return XmlSpace.None;
        }
    }

    private void KeepAttributeValue(AttributeNode attribute, ReadOnlySpan<byte> window)
    {
        ReadOnlySpan<byte> payload = window.Slice(_c.ValueStart, _c.ValueLength);
        if (_attributePayloads.Length - _attributePayloadTop < payload.Length)
        {
            Array.Resize(ref _attributePayloads, Math.Max(Math.Max(_attributePayloadTop + payload.Length, _attributePayloads.Length * 2), 64));
        }

        payload.CopyTo(_attributePayloads.AsSpan(_attributePayloadTop));
        attribute.ValueType = _c.ValueType;
        attribute.PayloadStart = _attributePayloadTop;
        attribute.PayloadLength = payload.Length;
        attribute.ValueString = _c.ValueString;
        attribute.QNamePrefixLetter = _c.QNamePrefixLetter;
        attribute.ValueOffset = _c.ValueOffset;
        _attributePayloadTop += payload.Length;
    }

    private void AddNamespaceDeclaration(ReadOnlySpan<byte> window)
    {
        string prefix = AtomPrefix(window);
        if (prefix.Length is 3 or 5)
        {
            CheckReservedPrefixBinding(prefix, window);
        }

        AttributeNode attribute = NextAttribute();
        attribute.IsXmlns = true;
        attribute.LocalNameString = null;
        attribute.NamespaceBinding = NoBinding;
        attribute.Prefix = prefix.Length == 0 ? "" : Xmlns;
        attribute.LocalName = prefix.Length == 0 ? Xmlns : prefix;
        attribute.Namespace = XmlnsNamespace;
        attribute.Value = "";
        attribute.ChunkText = null;
        attribute.ChunkTaken = 0;
        attribute.ValueType = _c.ValueString is null ? NbfxValueType.Chars : NbfxValueType.Dictionary;
        attribute.Binding = _bindingCount;
        if (_bindingCount == _bindings.Length)
        {
            Array.Resize(ref _bindings, _bindings.Length * 2);
        }

        _bindingGeneration++;
        _bindings[_bindingCount++] = new NamespaceBinding
        {
            Prefix = prefix,
            Name = _c.ValueString is { } dictionaryUri ? new NameHandle { Dictionary = dictionaryUri } : KeepName(window, _c.ValueStart, _c.ValueLength),
        };
    }

    /// <summary>As in-box: the prefixes xml and xmlns may be declared only with their own namespaces.</summary>
    private void CheckReservedPrefixBinding(string prefix, ReadOnlySpan<byte> window)
    {
        string? reserved = prefix == Xml ? XmlNamespace : prefix == Xmlns ? XmlnsNamespace : null;
        if (reserved is null)
        {
            return;
        }

        bool bound = _c.ValueString is { } dictionaryUri
            ? dictionaryUri.Value == reserved
            : Ascii.Equals(window.Slice(_c.ValueStart, _c.ValueLength), reserved);
        if (!bound)
        {
            ThrowReservedPrefix(prefix, reserved, _c.TokenOffset);
        }
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowReservedPrefix(string prefix, string ns, long offset) =>
        throw new NbfxFormatException($"the prefix '{prefix}' can only be bound to the namespace '{ns}'", offset);

    /// <summary>The prefix of the current record: a shared letter string, or a plain string (see <see cref="Atomized"/>).</summary>
    private string AtomPrefix(ReadOnlySpan<byte> window)
    {
        if (_c.PrefixLetter >= 0)
        {
            return NbfxReader.LetterPrefixes[_c.PrefixLetter];
        }

        if (_c.PrefixLength == 1 && window[_c.PrefixStart] - (uint)'a' < 26)
        {
            // A one-letter prefix written as a string (an xmlns:s declaration, for one) is the letter, as in-box.
            return NbfxReader.LetterPrefixes[window[_c.PrefixStart] - 'a'];
        }

        return _c.PrefixLength == 0 ? "" : NameString(window.Slice(_c.PrefixStart, _c.PrefixLength));
    }

    /// <summary>
    /// The current attribute record's local name as a plain string (see <see cref="Atomized"/>). An element shape met
    /// again (the same attribute at the same place) reuses the node's last name rather than making a string per element.
    /// </summary>
    private string AttributeLocalName(ReadOnlySpan<byte> window, AttributeNode attribute)
    {
        if (_c.NameString is { } name)
        {
            return name.Value;
        }

        ReadOnlySpan<byte> utf8 = window.Slice(_c.NameStart, _c.NameLength);
        string last = attribute.LocalName;
        return last.Length == utf8.Length && Ascii.Equals(utf8, last) ? last : NameString(utf8);
    }

    /// <summary>The name-table string for UTF-8 <paramref name="utf8"/>, added when new (counting against the quota).</summary>
    private string Atom(ReadOnlySpan<byte> utf8)
    {
        ReadOnlySpan<char> chars = Decode(utf8);
        return chars.IsEmpty ? "" : Names.Get(_chars, 0, chars.Length) ?? Names.Add(_chars, 0, chars.Length);
    }

    /// <summary>
    /// UTF-8 <paramref name="utf8"/> as a string: the name table's atom when it has one (no allocation for a name
    /// seen before), else a new string that is not added.
    /// </summary>
    private string NameString(ReadOnlySpan<byte> utf8)
    {
        ReadOnlySpan<char> chars = Decode(utf8);
        return chars.IsEmpty ? "" : _nameTable?.Get(_chars, 0, chars.Length) ?? new string(chars);
    }

    /// <summary>Decodes <paramref name="utf8"/> (checked as UTF-8 by the cursor) into the reader's char buffer.</summary>
    private ReadOnlySpan<char> Decode(ReadOnlySpan<byte> utf8)
    {
        if (_chars.Length < utf8.Length)
        {
            _chars = new char[Math.Max(utf8.Length, _chars.Length * 2)];
        }

        return _chars.AsSpan(0, Encoding.UTF8.GetChars(utf8, _chars));
    }

    public override string? LookupNamespace(string prefix)
    {
        // xml and xmlns are bound for good (a declaration may only repeat their namespaces), open or closed: a closed
        // reader's bindings went with its working arrays.
        if (prefix == Xml)
        {
            return XmlNamespace;
        }

        if (prefix == Xmlns)
        {
            return XmlnsNamespace;
        }

        int binding = LookupBinding(prefix);
        return binding != NoBinding ? BindingUri(binding) : prefix.Length == 0 ? "" : null;
    }

    public override void Close()
    {
        if (_state == ReadState.Closed)
        {
            return;
        }

        _state = ReadState.Closed;
        _nodeType = XmlNodeType.None;
        _depth = _frameCount; // as in-box: a closed reader's depth is the number of elements it had open
        GiveBackWorkingArrays();
        _c.Dispose();
        _release?.Invoke();
        _release = null;
        _onClose?.Invoke(this);
    }

    public override void ResolveEntity() => throw new InvalidOperationException("Binary XML has no entity references.");
}
