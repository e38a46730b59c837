using System.Xml;

namespace Spanwire.BinaryXml.Xml;

/// <summary>
/// The drop-in writer's namespaces, xml:lang and xml:space, with the in-box writer's rules: declarations per element
/// depth in the order made (written after the element's attributes), the reserved prefixes, the generated prefixes
/// a..z, and its lookup order (an exact string instance before an equal one, the latest binding first).
/// </summary>
internal sealed class WriterNamespaces
{
    internal const string XmlNamespace = "http://www.w3.org/XML/1998/namespace";
    internal const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";

    private static readonly string[] s_generated = [.. Enumerable.Range('a', 26).Select(c => ((char)c).ToString())];

    private sealed class Binding
    {
        public string Prefix = "";
        public string Uri = "";
        public XmlDictionaryString? DictionaryUri;
        public int Depth;
    }

    private readonly struct ScopedAttribute(XmlSpace space, string? lang, int depth)
    {
        public XmlSpace Space { get; } = space;

        public string? Lang { get; } = lang;

        public int Depth { get; } = depth;
    }

    private Binding[] _bindings = [new Binding()]; // [0]: "" bound to "" at depth 0
    private int _count = 1;
    private int _innermostDepth = -1; // the depth of the last binding made in scope; −1 for none: checked on every element, without a load through the array
    private Binding? _last;
    private int _depth;
    private ScopedAttribute[] _attributes = [];
    private int _attributeCount;

    public XmlSpace XmlSpace { get; private set; }

    public string? XmlLang { get; private set; }

    public void Clear()
    {
        for (int i = 1; i < _count; i++)
        {
            _bindings[i].DictionaryUri = null;
        }

        _count = 1;
        _innermostDepth = -1;
        _depth = 0;
        _attributeCount = 0;
        XmlSpace = XmlSpace.None;
        XmlLang = null;
        _last = null;
    }

    public void EnterScope() => _depth++;

    public void ExitScope()
    {
        if (_innermostDepth == _depth)
        {
            PopBindings();
        }

        while (_attributeCount > 0 && _attributes[_attributeCount - 1].Depth == _depth)
        {
            ScopedAttribute saved = _attributes[--_attributeCount];
            XmlSpace = saved.Space;
            XmlLang = saved.Lang;
        }

        _depth--;
    }

    private void PopBindings()
    {
        while (_count > 1 && _bindings[_count - 1].Depth == _depth)
        {
            if (_last == _bindings[_count - 1])
            {
                _last = null;
            }

            _bindings[_count - 1].DictionaryUri = null;
            _count--;
        }

        _innermostDepth = _count > 1 ? _bindings[_count - 1].Depth : -1;
    }

    public void AddLangAttribute(string lang)
    {
        SaveScopedAttributes();
        XmlLang = lang;
    }

    public void AddSpaceAttribute(XmlSpace space)
    {
        SaveScopedAttributes();
        XmlSpace = space;
    }

    private void SaveScopedAttributes()
    {
        if (_attributeCount == _attributes.Length)
        {
            Array.Resize(ref _attributes, Math.Max(1, _attributeCount * 2));
        }

        _attributes[_attributeCount++] = new ScopedAttribute(XmlSpace, XmlLang, _depth);
    }

    /// <summary>Writes the declarations made at the current depth, in the order made.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    public void DeclareNamespaces(NbfxWriter writer)
    {
        // Most elements declare nothing: the check is inlined where a start tag ends, the writing is not.
        if (_innermostDepth == _depth)
        {
            WriteDeclarations(writer);
        }
    }

    private void WriteDeclarations(NbfxWriter writer)
    {
        int i = _count;
        while (i > 0 && _bindings[i - 1].Depth == _depth)
        {
            i--;
        }

        for (; i < _count; i++)
        {
            Binding b = _bindings[i];
            if (b.DictionaryUri is not null)
            {
                writer.WriteXmlnsAttribute(b.Prefix, b.DictionaryUri);
            }
            else
            {
                writer.WriteXmlnsAttribute(b.Prefix, b.Uri);
            }
        }
    }

    /// <summary>Binds <paramref name="uri"/> to the first of a..z not bound in scope; "" for the empty namespace; null when all 26 are taken.</summary>
    public string? AddNamespace(string uri, XmlDictionaryString? dictionaryUri)
    {
        if (uri.Length == 0)
        {
            AddNamespaceIfNotDeclared("", uri, dictionaryUri);
            return "";
        }

        foreach (string prefix in s_generated)
        {
            bool taken = false;
            for (int i = _count - 1; i >= 0; i--)
            {
                if (_bindings[i].Prefix == prefix)
                {
                    taken = true;
                    break;
                }
            }

            if (!taken)
            {
                AddNamespace(prefix, uri, dictionaryUri);
                return prefix;
            }
        }

        return null;
    }

    public void AddNamespaceIfNotDeclared(string prefix, string uri, XmlDictionaryString? dictionaryUri)
    {
        if (LookupNamespace(prefix) != uri)
        {
            AddNamespace(prefix, uri, dictionaryUri);
        }
    }

    /// <exception cref="ArgumentException">
    /// A prefix starting "xml" bound elsewhere than its own namespace, a prefix bound again at the same depth, a
    /// prefix bound to the empty namespace, or the xml/xmlns namespaces bound to another prefix.
    /// </exception>
    public void AddNamespace(string prefix, string uri, XmlDictionaryString? dictionaryUri)
    {
        if (prefix.Length >= 3 && (prefix[0] | 0x20) == 'x' && (prefix[1] | 0x20) == 'm' && (prefix[2] | 0x20) == 'l')
        {
            if ((prefix == "xml" && uri == XmlNamespace) || (prefix == "xmlns" && uri == XmlnsNamespace))
            {
                return;
            }

            ThrowReservedPrefix();
        }

        for (int i = _count - 1; i >= 0 && _bindings[i].Depth == _depth; i--)
        {
            if (_bindings[i].Prefix == prefix)
            {
                if (_bindings[i].Uri == uri)
                {
                    return;
                }

                ThrowRebound(prefix, _bindings[i].Uri, uri);
            }
        }

        if (prefix.Length != 0 && uri.Length == 0)
        {
            ThrowPrefixForEmptyNamespace();
        }

        if (uri == XmlnsNamespace)
        {
            ThrowReservedNamespace(uri, "xmlns");
        }

        if (uri == XmlNamespace)
        {
            ThrowReservedNamespace(uri, "xml");
        }

        if (_count == _bindings.Length)
        {
            Array.Resize(ref _bindings, _count * 2);
        }

        Binding b = _bindings[_count] ??= new Binding();
        b.Depth = _depth;
        b.Prefix = prefix;
        b.Uri = uri;
        b.DictionaryUri = dictionaryUri;
        _count++;
        _innermostDepth = _depth;
        _last = null;
    }

    /// <summary>The prefix bound to <paramref name="ns"/> in scope and not hidden by a later binding of that prefix.</summary>
    public string? LookupPrefix(string ns)
    {
        if (_last is not null && _last.Uri == ns)
        {
            return _last.Prefix;
        }

        // The in-box writer looks for the very string instance first, then for an equal one.
        if (Find(ns, byReference: true, attribute: false) is { } same)
        {
            return same;
        }

        if (Find(ns, byReference: false, attribute: false) is { } equal)
        {
            return equal;
        }

        if (ns.Length == 0)
        {
            bool defaultRebound = false;
            for (int i = _count - 1; i >= 0; i--)
            {
                if (_bindings[i].Prefix.Length == 0)
                {
                    defaultRebound = true;
                    break;
                }
            }

            if (!defaultRebound)
            {
                return "";
            }
        }

        return ns == XmlnsNamespace ? "xmlns" : ns == XmlNamespace ? "xml" : null;
    }

    /// <summary>As <see cref="LookupPrefix"/>, for an attribute: a non-empty prefix only ("" for the empty namespace).</summary>
    public string? LookupAttributePrefix(string ns)
    {
        if (_last is not null && _last.Uri == ns && _last.Prefix.Length != 0)
        {
            return _last.Prefix;
        }

        return Find(ns, byReference: true, attribute: true) ?? Find(ns, byReference: false, attribute: true) ?? (ns.Length == 0 ? "" : null);
    }

    private string? Find(string ns, bool byReference, bool attribute)
    {
        for (int i = _count - 1; i >= 0; i--)
        {
            Binding b = _bindings[i];
            if (!(byReference ? ReferenceEquals(b.Uri, ns) : b.Uri == ns) || (attribute && b.Prefix.Length == 0))
            {
                continue;
            }

            bool hidden = false;
            for (int j = i + 1; j < _count; j++)
            {
                if (_bindings[j].Prefix == b.Prefix)
                {
                    hidden = true;
                    break;
                }
            }

            if (!hidden)
            {
                _last = b;
                return b.Prefix;
            }
        }

        return null;
    }

    /// <summary>The namespace bound to <paramref name="prefix"/> in scope; null when none.</summary>
    public string? LookupNamespace(string prefix)
    {
        for (int i = _count - 1; i >= 0; i--)
        {
            if (_bindings[i].Prefix == prefix)
            {
                return _bindings[i].Uri;
            }
        }

        return prefix.Length == 0 ? "" : prefix == "xmlns" ? XmlnsNamespace : prefix == "xml" ? XmlNamespace : null;
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowReservedPrefix() =>
        throw new ArgumentException("Prefixes beginning with \"xml\" (regardless of casing) are reserved for use by XML.", "prefix");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowRebound(string prefix, string bound, string uri) =>
        throw new ArgumentException($"The prefix '{prefix}' is bound to the namespace '{bound}' and cannot be changed to '{uri}'.", nameof(prefix));

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowPrefixForEmptyNamespace() =>
        throw new ArgumentException("The empty namespace requires a null or empty prefix.", "prefix");

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowReservedNamespace(string uri, string prefix) =>
        throw new ArgumentException($"The namespace '{uri}' can only be bound to the prefix '{prefix}'.");
}
