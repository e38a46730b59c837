namespace Spanwire.BinaryXml;

/// <summary>What <see cref="NbfxReader"/> is positioned on after a successful <see cref="NbfxReader.Read"/>.</summary>
public enum NbfxTokenType : byte
{
    /// <summary>Before the first read, or after the end of the input.</summary>
    None,

    /// <summary>An element record; attributes and namespace declarations follow as their own tokens. For an array record, <see cref="NbfxReader.IsArrayElement"/> is true and an <see cref="Array"/> token follows the attributes.</summary>
    StartElement,

    /// <summary>An attribute record with its value (a text, or <see cref="NbfxValueType.StartList"/> followed by the list's items as <see cref="Text"/> tokens).</summary>
    Attribute,

    /// <summary>An xmlns record: the prefix and the namespace (the namespace is the value).</summary>
    NamespaceDeclaration,

    /// <summary>A text record. A text record "with end element" is followed by an <see cref="EndElement"/> token.</summary>
    Text,

    /// <summary>An end element record, or the end implied by a text record with end element.</summary>
    EndElement,

    /// <summary>A comment record (the comment is the value).</summary>
    Comment,

    /// <summary>The values of an array record: <see cref="NbfxReader.ArrayType"/> and <see cref="NbfxReader.ArrayLength"/>; read them with ReadArray, or the next Read skips them. No end element token follows: the array element is complete.</summary>
    Array,
}
