namespace Spanwire.BinaryXml;

/// <summary>The record type bytes of MC-NBFX. Text records are even; the next odd byte is the same text followed by an implicit end element.</summary>
public static class NbfxRecord
{
#pragma warning disable CS1591 // the names are the format's own record names
    public const byte EndElement = 0x01;
    public const byte Comment = 0x02;
    public const byte Array = 0x03;
    public const byte ShortAttribute = 0x04;
    public const byte Attribute = 0x05;
    public const byte ShortDictionaryAttribute = 0x06;
    public const byte DictionaryAttribute = 0x07;
    public const byte ShortXmlnsAttribute = 0x08;
    public const byte XmlnsAttribute = 0x09;
    public const byte ShortDictionaryXmlnsAttribute = 0x0A;
    public const byte DictionaryXmlnsAttribute = 0x0B;
    public const byte PrefixDictionaryAttributeA = 0x0C;
    public const byte PrefixDictionaryAttributeZ = 0x25;
    public const byte PrefixAttributeA = 0x26;
    public const byte PrefixAttributeZ = 0x3F;
    public const byte ShortElement = 0x40;
    public const byte Element = 0x41;
    public const byte ShortDictionaryElement = 0x42;
    public const byte DictionaryElement = 0x43;
    public const byte PrefixDictionaryElementA = 0x44;
    public const byte PrefixDictionaryElementZ = 0x5D;
    public const byte PrefixElementA = 0x5E;
    public const byte PrefixElementZ = 0x77;

    public const byte ZeroText = 0x80;
    public const byte OneText = 0x82;
    public const byte FalseText = 0x84;
    public const byte TrueText = 0x86;
    public const byte Int8Text = 0x88;
    public const byte Int16Text = 0x8A;
    public const byte Int32Text = 0x8C;
    public const byte Int64Text = 0x8E;
    public const byte FloatText = 0x90;
    public const byte DoubleText = 0x92;
    public const byte DecimalText = 0x94;
    public const byte DateTimeText = 0x96;
    public const byte Chars8Text = 0x98;
    public const byte Chars16Text = 0x9A;
    public const byte Chars32Text = 0x9C;
    public const byte Bytes8Text = 0x9E;
    public const byte Bytes16Text = 0xA0;
    public const byte Bytes32Text = 0xA2;
    public const byte StartListText = 0xA4;
    public const byte EndListText = 0xA6;
    public const byte EmptyText = 0xA8;
    public const byte DictionaryText = 0xAA;
    public const byte UniqueIdText = 0xAC;
    public const byte TimeSpanText = 0xAE;
    public const byte UuidText = 0xB0;
    public const byte UInt64Text = 0xB2;
    public const byte BoolText = 0xB4;
    public const byte UnicodeChars8Text = 0xB6;
    public const byte UnicodeChars16Text = 0xB8;
    public const byte UnicodeChars32Text = 0xBA;
    public const byte QNameDictionaryText = 0xBC;
    /// <summary>The highest text record byte (QNameDictionaryText with end element).</summary>
    public const byte MaxText = 0xBD;
#pragma warning restore CS1591

    /// <summary>True for a text record byte (0x80..0xBD).</summary>
    /// <param name="record">A record type byte.</param>
    /// <returns>True for the text record types.</returns>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    public static bool IsText(byte record) => record is >= ZeroText and <= MaxText;
}
