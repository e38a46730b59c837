using System.Xml;
using Spanwire.BinaryXml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.Benchmarks.BinaryXml;

/// <summary>
/// The least an XmlReader can do per node over the drop-in's record step, measured as a floor under the drop-in's raw
/// read: the same cursor and span step, one virtual <see cref="Read"/> per node, and an element stack holding each
/// element's name for its end element. It resolves no namespace, tracks no prefix, quota or read state, keeps no
/// attribute, and hands an array's items out without copying them; every other member throws. Only for
/// <see cref="NbfxReadBenchmarks"/>.
/// </summary>
internal sealed class NodeFloorReader : XmlReader
{
    private readonly byte[] _input;
    private NbfxCursor _c;
    private Frame[] _frames = new Frame[16];
    private int _frameCount;
    private XmlNodeType _nodeType;
    private int _depth;
    private bool _popOnNext;
    private int _arrayNodesLeft; // nodes of the array under way still to hand out: End, then Element, Text, End per item

    public NodeFloorReader(byte[] input, XmlDictionaryReaderQuotas quotas)
    {
        _input = input;
        _c = new NbfxCursor(input.Length, null, null, quotas);
    }

    private struct Frame
    {
        public XmlDictionaryString? Dictionary;
        public int Start, Length;
    }

    public override bool Read()
    {
        if (_popOnNext)
        {
            _popOnNext = false;
            _frames[--_frameCount] = default;
        }

        if (_arrayNodesLeft != 0)
        {
            NextArrayNode();
            return true;
        }

        if (_c.AtPlainRecord)
        {
            switch (_c.ReadInPlace(_input, out NbfxElementName name))
            {
                case NbfxInPlace.EndElement:
                    EndElementNode(pop: true);
                    return true;
                case NbfxInPlace.Text:
                    TextNode();
                    return true;
                case NbfxInPlace.StartElement:
                case NbfxInPlace.StartTag: // its attributes are records the general step takes and skips below
                    Push(name.NameString, name.NameStart, name.NameLength);
                    return true;
            }
        }

        return ReadRecord();
    }

    private void Push(XmlDictionaryString? dictionary, int start, int length)
    {
        if (_frameCount == _frames.Length)
        {
            Array.Resize(ref _frames, _frames.Length * 2);
        }

        ref Frame frame = ref _frames[_frameCount++];
        if (dictionary is not null)
        {
            frame.Dictionary = dictionary;
        }

        frame.Start = start;
        frame.Length = length;
        _nodeType = XmlNodeType.Element;
        _depth = _frameCount - 1;
    }

    private bool ReadRecord()
    {
        ReadOnlySpan<byte> window = _input;
        while (_c.Read(ref window))
        {
            switch (_c.Token)
            {
                case NbfxTokenType.StartElement:
                    Push(_c.NameString, _c.NameStart, _c.NameLength);
                    return true;
                case NbfxTokenType.EndElement:
                    EndElementNode(pop: true);
                    return true;
                case NbfxTokenType.Array:
                    // The first item's text; its end, and an element, text and end for each further item, follow.
                    TextNode();
                    _arrayNodesLeft = Math.Max(0, (3 * _c.ArrayCount) - 2);
                    return true;
                case NbfxTokenType.Attribute or NbfxTokenType.NamespaceDeclaration:
                    continue;
                default:
                    TextNode();
                    return true;
            }
        }

        _nodeType = XmlNodeType.None;
        return false;
    }

    private void NextArrayNode()
    {
        int left = --_arrayNodesLeft;
        switch (left % 3)
        {
            case 0: // an item's end element; the array's element closes after the last
                EndElementNode(pop: left == 0);
                break;
            case 2:
                _nodeType = XmlNodeType.Element;
                _depth = _frameCount - 1;
                break;
            default:
                TextNode();
                break;
        }
    }

    private void EndElementNode(bool pop)
    {
        _nodeType = XmlNodeType.EndElement;
        _depth = _frameCount - 1;
        _popOnNext = pop;
    }

    private void TextNode()
    {
        _nodeType = XmlNodeType.Text;
        _depth = _frameCount;
    }

    public override XmlNodeType NodeType => _nodeType;

    public override int Depth => _depth;

    public override int AttributeCount => 0;

    public override string BaseURI => "";

    public override bool EOF => _nodeType == XmlNodeType.None && _frameCount == 0;

    public override bool IsEmptyElement => false;

    public override string LocalName => throw new NotSupportedException();

    public override string NamespaceURI => throw new NotSupportedException();

    public override XmlNameTable NameTable => throw new NotSupportedException();

    public override string Prefix => throw new NotSupportedException();

    public override ReadState ReadState => ReadState.Interactive;

    public override string Value => throw new NotSupportedException();

    public override string GetAttribute(int i) => throw new NotSupportedException();

    public override string? GetAttribute(string name) => throw new NotSupportedException();

    public override string? GetAttribute(string name, string? namespaceURI) => throw new NotSupportedException();

    public override string? LookupNamespace(string prefix) => throw new NotSupportedException();

    public override bool MoveToAttribute(string name) => throw new NotSupportedException();

    public override bool MoveToAttribute(string name, string? ns) => throw new NotSupportedException();

    public override bool MoveToElement() => false;

    public override bool MoveToFirstAttribute() => false;

    public override bool MoveToNextAttribute() => false;

    public override bool ReadAttributeValue() => false;

    public override void ResolveEntity() => throw new NotSupportedException();
}
