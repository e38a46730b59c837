using System.Runtime.CompilerServices;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml.Xml;

// Input that is one array: the cursor's span step (NbfxCursor.ReadInPlace) takes the records nearly every document is
// made of, and their nodes are made here from what it hands back. Whatever it does not take, Read takes. An
// element's next record is not read ahead here (a typed read that needs it reads it then).
internal sealed partial class NbfxXmlReader
{
    /// <summary>Reads the next node through the cursor's span step; false, with nothing read, when the step did not take the record.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryReadNodeInPlace()
    {
        switch (_c.ReadInPlace(Input, out NbfxElementName name))
        {
            case NbfxInPlace.EndElement:
                MoveToEndElementNode();
                return true;
            case NbfxInPlace.Text:
                SetNode(XmlNodeType.Text, _frameCount);
                _atomic = _c.TextEndsElement;
                return true;
            case NbfxInPlace.StartElement:
                StartElementInPlace(name);
                return true;
            case NbfxInPlace.StartTag:
                StartTagWithAttributesInPlace(name);
                return true;
            default:
                return false;
        }
    }

    /// <summary>The element node of a start tag with no attributes, its name where the record has it.</summary>
    private void StartElementInPlace(in NbfxElementName name)
    {
        _startTagOffset = _c.TokenOffset;
        int binding = FindBinding(LetterPrefix(name.PrefixLetter));
        _attributeCount = 0;
        _attributePayloadTop = 0;
        EnterElement(InPlaceName(name), binding, _bindingCount, _nameTop);
    }

    /// <summary>
    /// The element node of a start tag whose element record the span step took, with its attributes and namespace
    /// declarations, read as any start tag's are.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void StartTagWithAttributesInPlace(in NbfxElementName name)
    {
        _startTagOffset = _c.TokenOffset; // before the attributes, which are tokens of their own
        int bindingsBefore = _bindingCount;
        int nameTop = _nameTop;
        _attributeCount = 0;
        _attributePayloadTop = 0;
        ReadOnlySpan<byte> w = Input;
        ReadAttributes(ref w, NbfxFollowing.Attribute, isArray: false);
        FinishStartTag(LetterPrefix(name.PrefixLetter), InPlaceName(name), bindingsBefore, nameTop);
    }

    /// <summary>The prefix of an element record taken in place: a letter's shared string, or none.</summary>
    private static string LetterPrefix(int prefixLetter) => prefixLetter >= 0 ? NbfxReader.LetterPrefixes[prefixLetter] : "";

    /// <summary>The name of an element record taken in place: its dictionary string, or where its bytes are in the input.</summary>
    private NameHandle InPlaceName(in NbfxElementName name) => name.NameString is { } dictionary
        ? new NameHandle { Dictionary = dictionary }
        : new NameHandle { Start = _inputOffset + name.NameStart, Length = name.NameLength };
}
