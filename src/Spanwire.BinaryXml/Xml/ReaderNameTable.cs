using System.Xml;

namespace Spanwire.BinaryXml.Xml;

/// <summary>
/// The drop-in reader's name table. The four names a reader hands out as constants (xml, xmlns and their namespace
/// URIs) are its atoms without being hashed into a table for every reader; other names go to a
/// <see cref="NameTable"/> made on first use.
/// </summary>
internal sealed class ReaderNameTable(string xml, string xmlns, string xmlNamespace, string xmlnsNamespace) : XmlNameTable
{
    private NameTable? _names;

    private NameTable Names => _names ??= new NameTable();

    public override string Add(string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        return Constant(key) ?? Names.Add(key);
    }

    public override string Add(char[] key, int start, int len) =>
        len == 0 ? string.Empty : Constant(key.AsSpan(start, len)) ?? Names.Add(key, start, len);

    public override string? Get(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return Constant(value) ?? _names?.Get(value) ?? (value.Length == 0 ? string.Empty : null);
    }

    public override string? Get(char[] key, int start, int len) =>
        len == 0 ? string.Empty : Constant(key.AsSpan(start, len)) ?? _names?.Get(key, start, len);

    private string? Constant(ReadOnlySpan<char> name) =>
        name.Length == xml.Length && name.SequenceEqual(xml) ? xml
        : name.Length == xmlns.Length && name.SequenceEqual(xmlns) ? xmlns
        : name.Length == xmlNamespace.Length && name.SequenceEqual(xmlNamespace) ? xmlNamespace
        : name.Length == xmlnsNamespace.Length && name.SequenceEqual(xmlnsNamespace) ? xmlnsNamespace
        : null;
}
