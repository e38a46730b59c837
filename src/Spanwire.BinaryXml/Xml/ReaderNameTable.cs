using System.Xml;

namespace Spanwire.BinaryXml.Xml;

/// <summary>
/// The drop-in reader's name table, which keeps MaxNameTableCharCount as the in-box reader's does: every string added
/// that was not there counts its chars, whoever adds it, for the reader's life (SetInput included), and the table
/// starts with xml, xmlns, their namespace URIs and the letter prefixes a..z counted (99 chars). Those 30 constants
/// are its atoms without being hashed into a table; other names go to a <see cref="NameTable"/> made on first use.
/// </summary>
internal sealed class ReaderNameTable : XmlNameTable
{
    private readonly string _xml, _xmlns, _xmlNamespace, _xmlnsNamespace;
    private readonly int _maxCharCount;
    private int _charCount;
    private NameTable? _names;

    /// <exception cref="XmlException">The constants alone pass <paramref name="maxCharCount"/>, as in-box.</exception>
    public ReaderNameTable(string xml, string xmlns, string xmlNamespace, string xmlnsNamespace, int maxCharCount)
    {
        (_xml, _xmlns, _xmlNamespace, _xmlnsNamespace) = (xml, xmlns, xmlNamespace, xmlnsNamespace);
        _maxCharCount = maxCharCount;
        Count(xml.Length + xmlns.Length + xmlNamespace.Length + xmlnsNamespace.Length + NbfxReader.LetterPrefixes.Length);
    }

    private NameTable Names => _names ??= new NameTable();

    public override string Add(string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        if (key.Length == 0)
        {
            return string.Empty;
        }

        if ((Constant(key) ?? _names?.Get(key)) is { } atom)
        {
            return atom;
        }

        Count(key.Length);
        return Names.Add(key);
    }

    public override string Add(char[] key, int start, int len)
    {
        if (len == 0)
        {
            return string.Empty;
        }

        if ((Constant(key.AsSpan(start, len)) ?? _names?.Get(key, start, len)) is { } atom)
        {
            return atom;
        }

        Count(len);
        return Names.Add(key, start, len);
    }

    private void Count(int chars)
    {
        if (chars > _maxCharCount - _charCount)
        {
            ThrowQuotaExceeded(_maxCharCount);
        }

        _charCount += chars;
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static void ThrowQuotaExceeded(int quota) =>
        throw new XmlException(string.Format(System.Globalization.CultureInfo.InvariantCulture,
            "The maximum nametable character count quota ({0}) has been exceeded while reading XML data. The nametable is a data structure used to store strings encountered during XML processing - long XML documents with non-repeating element names, attribute names and attribute values may trigger this quota. This quota may be increased by changing the MaxNameTableCharCount property on the XmlDictionaryReaderQuotas object used when creating the XML reader.", quota));

    public override string? Get(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return Constant(value) ?? _names?.Get(value) ?? (value.Length == 0 ? string.Empty : null);
    }

    public override string? Get(char[] key, int start, int len) =>
        len == 0 ? string.Empty : Constant(key.AsSpan(start, len)) ?? _names?.Get(key, start, len);

    private string? Constant(ReadOnlySpan<char> name) =>
        name.Length == 1 && (uint)(name[0] - 'a') < 26 ? NbfxReader.LetterPrefixes[name[0] - 'a']
        : name.Length == _xml.Length && name.SequenceEqual(_xml) ? _xml
        : name.Length == _xmlns.Length && name.SequenceEqual(_xmlns) ? _xmlns
        : name.Length == _xmlNamespace.Length && name.SequenceEqual(_xmlNamespace) ? _xmlNamespace
        : name.Length == _xmlnsNamespace.Length && name.SequenceEqual(_xmlnsNamespace) ? _xmlnsNamespace
        : null;
}
