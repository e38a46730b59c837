using System.Xml;

namespace Spanwire.BinaryXml.Xml;

/// <summary>
/// The namespace bookkeeping of the drop-in writer: declarations per element depth, in the order they were made, so
/// they are written in the same order as the in-box writer writes them (after the element's attributes).
/// </summary>
internal sealed class NamespaceScope
{
    private const string XmlNamespace = "http://www.w3.org/XML/1998/namespace";
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";

    private struct Declaration
    {
        public string Prefix;
        public string Namespace;
        public XmlDictionaryString? DictionaryNamespace;
        public int Depth;
    }

    private Declaration[] _declarations = new Declaration[16];
    private int _count;

    public NamespaceScope() => Clear();

    public void Clear()
    {
        _count = 0;
        Add("xml", XmlNamespace, null, 0);
        Add("xmlns", XmlnsNamespace, null, 0);
        Add("", "", null, 0);
    }

    private void Add(string prefix, string ns, XmlDictionaryString? dictionaryNamespace, int depth)
    {
        if (_count == _declarations.Length)
        {
            Array.Resize(ref _declarations, _count * 2);
        }
        _declarations[_count++] = new Declaration { Prefix = prefix, Namespace = ns, DictionaryNamespace = dictionaryNamespace, Depth = depth };
    }

    /// <summary>Declares <paramref name="prefix"/> at <paramref name="depth"/>; a second, different declaration of one prefix on one element is an error.</summary>
    public void Declare(string prefix, string ns, XmlDictionaryString? dictionaryNamespace, int depth)
    {
        for (int i = _count - 1; i >= 0 && _declarations[i].Depth == depth; i--)
        {
            if (_declarations[i].Prefix == prefix)
            {
                if (_declarations[i].Namespace != ns)
                {
                    throw new ArgumentException($"The prefix '{prefix}' is bound to the namespace '{_declarations[i].Namespace}' and cannot be changed to '{ns}'.", nameof(prefix));
                }
                return;
            }
        }
        if (prefix == "xml" && ns != XmlNamespace || prefix == "xmlns" && ns != XmlnsNamespace)
        {
            throw new ArgumentException($"The prefix '{prefix}' cannot be bound to '{ns}'.", nameof(prefix));
        }
        if (prefix is "xml" or "xmlns")
        {
            return;
        }
        Add(prefix, ns, dictionaryNamespace, depth);
    }

    /// <summary>Declares the prefix unless it already means <paramref name="ns"/> in scope.</summary>
    public void DeclareIfNeeded(string prefix, string ns, XmlDictionaryString? dictionaryNamespace, int depth)
    {
        if (LookupNamespace(prefix) != ns)
        {
            Declare(prefix, ns, dictionaryNamespace, depth);
        }
    }

    public string? LookupNamespace(string prefix)
    {
        for (int i = _count - 1; i >= 0; i--)
        {
            if (_declarations[i].Prefix == prefix)
            {
                return _declarations[i].Namespace;
            }
        }
        return null;
    }

    /// <summary>The innermost prefix bound to <paramref name="ns"/> that is not hidden by a later declaration of the same prefix.</summary>
    public string? LookupPrefix(string ns, bool allowDefault = true)
    {
        for (int i = _count - 1; i >= 0; i--)
        {
            ref Declaration d = ref _declarations[i];
            if (d.Namespace == ns && (allowDefault || d.Prefix.Length > 0) && LookupNamespace(d.Prefix) == ns)
            {
                return d.Prefix;
            }
        }
        return null;
    }

    /// <summary>A prefix for an attribute namespace: the first free letter a..z, then d{depth}p{n}, as the in-box writer picks.</summary>
    public string Generate(string ns, XmlDictionaryString? dictionaryNamespace, int depth, ref int counter)
    {
        for (char c = 'a'; c <= 'z'; c++)
        {
            string letter = LetterPrefixes[c - 'a'];
            if (LookupNamespace(letter) is null)
            {
                Add(letter, ns, dictionaryNamespace, depth);
                return letter;
            }
        }
        while (true)
        {
            string prefix = string.Concat("d", depth.ToString(System.Globalization.CultureInfo.InvariantCulture), "p",
                (counter++).ToString(System.Globalization.CultureInfo.InvariantCulture));
            if (LookupNamespace(prefix) is null)
            {
                Add(prefix, ns, dictionaryNamespace, depth);
                return prefix;
            }
        }
    }

    /// <summary>Writes the declarations made at <paramref name="depth"/>, in order.</summary>
    public void WriteDeclarations(NbfxWriter writer, int depth)
    {
        int first = _count;
        while (first > 0 && _declarations[first - 1].Depth == depth)
        {
            first--;
        }
        for (int i = first; i < _count; i++)
        {
            ref Declaration d = ref _declarations[i];
            if (d.DictionaryNamespace is not null)
            {
                writer.WriteXmlnsAttribute(d.Prefix, d.DictionaryNamespace);
            }
            else
            {
                writer.WriteXmlnsAttribute(d.Prefix, d.Namespace);
            }
        }
    }

    /// <summary>Forgets the declarations made at <paramref name="depth"/> and deeper.</summary>
    public void Exit(int depth)
    {
        while (_count > 3 && _declarations[_count - 1].Depth >= depth)
        {
            _declarations[--_count] = default;
        }
    }

    internal static readonly string[] LetterPrefixes =
        Enumerable.Range(0, 26).Select(i => ((char)('a' + i)).ToString()).ToArray();
}
