using System.Xml;

namespace Spanwire.BinaryXml.Xml;

// A reader given document after document (SetInput, as WCF pools its readers) meets the same dictionary names in
// each, and the name table hashes a string for every lookup: the last few are remembered by their dictionary string.
// A reader made for one document never makes the cache.
internal sealed partial class NbfxXmlReader
{
    private const int DictionaryAtomSlots = 32;

    private XmlDictionaryString?[]? _dictionaryAtomKeys;
    private string[]? _dictionaryAtoms;

    private void EnableDictionaryAtoms()
    {
        _dictionaryAtomKeys ??= new XmlDictionaryString?[DictionaryAtomSlots];
        _dictionaryAtoms ??= new string[DictionaryAtomSlots];
    }

    /// <summary>The name table's atom for a dictionary (or session) string.</summary>
    private string DictionaryAtom(XmlDictionaryString name)
    {
        if (_dictionaryAtomKeys is not { } keys)
        {
            return Names.Add(name.Value);
        }

        int slot = name.Key & (DictionaryAtomSlots - 1);
        if (ReferenceEquals(keys[slot], name))
        {
            return _dictionaryAtoms![slot];
        }

        string atom = Names.Add(name.Value);
        keys[slot] = name;
        _dictionaryAtoms![slot] = atom;
        return atom;
    }
}
