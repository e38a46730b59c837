namespace Spanwire.BinaryXml.Xml;

// Most writers are made for one message and closed, as the reader is. A closed writer hands its namespace scope (with
// its bindings), its element array and its base64 carry to the next writer made on the same thread. A writer owns them
// from when it is made, or given an output by SetOutput, to Close.
internal sealed partial class NbfxXmlWriter
{
    private sealed class WorkingSet
    {
        public WriterNamespaces Namespaces = new();
        public OpenElement[] Elements = new OpenElement[4];
        public byte[] Trail = new byte[3];
    }

    // Grown past this by one deep document, the element array is left to the collector.
    private const int MaxKeptElements = 64;

    // What a closed writer reads (XmlLang, XmlSpace: every member that would change it throws once closed).
    private static readonly WriterNamespaces s_closedNamespaces = new();

    private WorkingSet? _set;

    /// <summary>Takes the thread's spare working set, or a new one, unless the writer holds its own.</summary>
    private void TakeWorkingSet()
    {
        if (_set is not null)
        {
            return;
        }

        WorkingSet set = ThreadSpare<WorkingSet>.Take();
        _set = set;
        _namespaces = set.Namespaces;
        _elements = set.Elements;
        _trail = set.Trail;
    }

    /// <summary>On Close: gives the working set to the thread, cleared, and leaves the writer the closed state's.</summary>
    private void GiveBackWorkingSet()
    {
        if (_set is not { } set)
        {
            return;
        }

        _namespaces.Clear();
        _trailCount = 0;
        if (_elements.Length <= MaxKeptElements)
        {
            set.Elements = _elements;
            ThreadSpare<WorkingSet>.Give(set);
        }

        _set = null;
        _namespaces = s_closedNamespaces;
        _elements = [];
        _trail = [];
    }
}
