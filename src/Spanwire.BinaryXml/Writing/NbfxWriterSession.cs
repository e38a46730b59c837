using System.Xml;

namespace Spanwire.BinaryXml;

/// <summary>An <see cref="XmlBinaryWriterSession"/> that remembers the strings added since the last table, for <see cref="NbfxSessionTable.Write"/>.</summary>
public sealed class NbfxWriterSession : XmlBinaryWriterSession
{
    private readonly List<string> _added = [];

    /// <inheritdoc/>
    public override bool TryAdd(XmlDictionaryString value, out int key)
    {
        bool added = base.TryAdd(value, out key);
        if (added)
        {
            _added.Add(value.Value);
        }

        return added;
    }

    /// <summary>The strings added since the last call, in key order; the list is cleared.</summary>
    /// <returns>The strings added since the last call, in id order.</returns>
    public IReadOnlyList<string> TakeNewStrings()
    {
        string[] strings = [.. _added];
        _added.Clear();
        return strings;
    }
}
