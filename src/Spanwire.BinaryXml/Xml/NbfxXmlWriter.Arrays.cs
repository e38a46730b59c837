using System.Xml;

namespace Spanwire.BinaryXml.Xml;

// The WriteArray overrides, every array type by string and by dictionary name, are generated (gen/Spanwire.Generators)
// and call WriteArrayCore.
[GenerateArrayOverloads]
internal sealed partial class NbfxXmlWriter
{
    private delegate void ArrayValues<T>(NbfxWriter writer, ReadOnlySpan<T> values);

    // As the in-box writer: an array record, then the element (start and end, through the writer's own rules, so its
    // namespaces are declared as for any element), then the values. The dictionary overloads pass the strings.
    private void WriteArrayCore<T>(string? prefix, string localName, XmlDictionaryString? dictionaryName, string? ns,
        XmlDictionaryString? dictionaryNs, T[] array, int offset, int count, ArrayValues<T> values)
    {
        _ = dictionaryName;
        _ = dictionaryNs;
        ThrowIfClosed();
        ArrayArguments.Check(array, offset, count);
        if (count == 0)
        {
            return;
        }

        FlushBase64();
        if (_documentState == DocumentState.Epilog || (_documentState == DocumentState.Document && count > 1 && _depth == 0))
        {
            ThrowSecondRoot();
        }

        if (_writeState == WriteState.Attribute)
        {
            ThrowInvalidState(nameof(WriteStartElement));
        }

        // WriteStartElement's steps, in its order after the array record, without the checks already made.
        AutoComplete(WriteState.Content);
        _writer.WriteStartArray();
        CheckLocalName(localName);
        SetWriteState(WriteState.Element);
        EnterElement(ref prefix, ns, null);
        NodeStartElement(prefix, localName);

        // WriteEndElement's steps for an element still open; the record layer writes the end with the values.
        _namespaces.DeclareNamespaces(_writer);
        values(_writer, array.AsSpan(offset, count));
        ExitScope();
        SetWriteState(WriteState.Content);
    }
}
