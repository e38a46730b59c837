namespace Spanwire.BinaryXml;

/// <summary>The kind of a text record's value (an attribute's, a text token's, an array's items), without its end-element flag.</summary>
public enum NbfxValueType : byte
{
#pragma warning disable CS1591 // the names are the format's own text record names
    None,
    Zero,
    One,
    False,
    True,
    Int8,
    Int16,
    Int32,
    Int64,
    Float,
    Double,
    Decimal,
    DateTime,
    /// <summary>UTF-8 characters (Chars8/16/32).</summary>
    Chars,
    /// <summary>Raw bytes, base64 in the infoset (Bytes8/16/32).</summary>
    Bytes,
    StartList,
    EndList,
    Empty,
    /// <summary>A string from the static dictionary or the session.</summary>
    Dictionary,
    UniqueId,
    TimeSpan,
    Guid,
    UInt64,
    Bool,
    /// <summary>UTF-16LE characters (UnicodeChars8/16/32).</summary>
    UnicodeChars,
    /// <summary>A prefix letter and a dictionary local name.</summary>
    QNameDictionary,
#pragma warning restore CS1591
}
