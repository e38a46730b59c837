using System.Xml;

namespace Spanwire.BinaryXml.Xml;

// Moving over the current element's attributes, as XmlReader defines it.
internal sealed partial class NbfxXmlReader
{
    private bool OnElementWithAttributes => _nodeType == XmlNodeType.Element && _attributeCount > 0;

    public override string GetAttribute(int i)
    {
        if ((uint)i >= (uint)AttributeCount)
        {
            throw new ArgumentOutOfRangeException(nameof(i));
        }

        return AttributeValueLeft(i);
    }

    public override string? GetAttribute(string name)
    {
        int i = FindAttribute(name);
        return i < 0 ? null : AttributeValueLeft(i);
    }

    public override string? GetAttribute(string name, string? namespaceURI)
    {
        int i = FindAttribute(name, namespaceURI ?? "");
        return i < 0 ? null : AttributeValueLeft(i);
    }

    /// <summary>An attribute's value less what ReadValueChunk has handed out of it: as in-box, that is gone from the attribute.</summary>
    private string AttributeValueLeft(int i) => _attributes[i].ChunkRest ?? AttributeValue(i);

    public override void MoveToAttribute(int i)
    {
        if ((uint)i >= (uint)AttributeCount)
        {
            throw new ArgumentOutOfRangeException(nameof(i));
        }

        SetAttributePosition(i);
    }

    public override bool MoveToAttribute(string name) => MoveTo(FindAttribute(name));

    public override bool MoveToAttribute(string name, string? ns) => MoveTo(FindAttribute(name, ns ?? ""));

    public override bool MoveToFirstAttribute() => MoveTo(OnElementWithAttributes ? 0 : -1);

    public override bool MoveToNextAttribute()
    {
        int next = _attributeIndex + 1;
        return next < AttributeCount && MoveTo(next);
    }

    public override bool MoveToElement()
    {
        if (_attributeIndex < 0)
        {
            return false;
        }

        SetAttributePosition(-1);
        return true;
    }

    public override bool ReadAttributeValue()
    {
        if (_attributeIndex < 0 || _onAttributeValue)
        {
            return false;
        }

        _onAttributeValue = true;
        _nodeTouched = true;
        _attributeValueSeen = _attributeValueHandedOver = false;
        _attributeValueOverride = null;
        return true;
    }

    private bool MoveTo(int i)
    {
        if (i < 0)
        {
            return false;
        }

        SetAttributePosition(i);
        return true;
    }

    /// <summary>On attribute <paramref name="i"/> (−1: the element), not on its value, with nothing read from it yet.</summary>
    private void SetAttributePosition(int i)
    {
        _attributeIndex = i;
        _nodeTouched = true;
        _onAttributeValue = false;
        _attributeValueSeen = _attributeValueHandedOver = false;
        _attributeValueOverride = null;
    }

    private int FindAttribute(string name)
    {
        if (!OnElementWithAttributes)
        {
            return -1;
        }

        int colon = name.IndexOf(':');
        for (int i = 0; i < _attributeCount; i++)
        {
            AttributeNode a = _attributes[i];
            bool match = colon < 0
                ? a.Prefix.Length == 0 && a.LocalName == name
                : a.Prefix.Length == colon && name.StartsWith(a.Prefix, StringComparison.Ordinal) && name.AsSpan(colon + 1).SequenceEqual(a.LocalName);
            if (match)
            {
                return i;
            }
        }

        return -1;
    }

    private int FindAttribute(string localName, string ns)
    {
        if (!OnElementWithAttributes)
        {
            return -1;
        }

        for (int i = 0; i < _attributeCount; i++)
        {
            AttributeNode a = _attributes[i];
            if (a.LocalName == localName && a.Namespace == ns)
            {
                return i;
            }
        }

        return -1;
    }
}
