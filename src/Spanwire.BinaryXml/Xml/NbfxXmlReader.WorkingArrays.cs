namespace Spanwire.BinaryXml.Xml;

// Most readers are made for one message and closed. A closed reader hands its working arrays (the element frames, the
// attribute nodes, the namespace bindings, the char and array item buffers) to the next reader made on the same thread,
// so reading a message costs one allocation of the reader itself rather than six. A reader owns its arrays from
// Initialize (made or SetInput) to Close.
internal sealed partial class NbfxXmlReader
{
    private sealed class WorkingArrays
    {
        public Frame[] Frames = new Frame[8];
        public AttributeNode[] Attributes = new AttributeNode[4];
        public NamespaceBinding[] Bindings = new NamespaceBinding[8];
        public char[] Chars = new char[64];
        public byte[] Item = new byte[16];
    }

    // Arrays grown past these by one large document are left to the collector, not kept for every later reader.
    private const int MaxKeptFrames = 64, MaxKeptAttributes = 64, MaxKeptBindings = 64, MaxKeptChars = 4096;

    private WorkingArrays? _arrays;

    /// <summary>Takes the thread's spare arrays, or new ones, unless the reader holds its own.</summary>
    private void TakeWorkingArrays()
    {
        if (_arrays is not null)
        {
            return;
        }

        WorkingArrays arrays = ThreadSpare<WorkingArrays>.Take();
        _arrays = arrays;
        _frames = arrays.Frames;
        _attributes = arrays.Attributes;
        _bindings = arrays.Bindings;
        _chars = arrays.Chars;
        _item = arrays.Item;
    }

    /// <summary>
    /// On Close: gives the arrays to the thread for its next reader (cleared as a new reader expects them) and leaves
    /// the reader with empty ones and nothing that indexes them.
    /// </summary>
    private void GiveBackWorkingArrays()
    {
        if (_arrays is not { } arrays)
        {
            return;
        }

        Array.Clear(_frames, 0, _frameCount); // PushFrame relies on frames past the count being all zeros
        _frameCount = 0;
        _attributeCount = 0;
        _attributeIndex = -1;
        _arrayStep = ArrayStep.None;
        _bindingCount = 0; // LookupNamespace answers the two reserved prefixes itself
        _bindingGeneration++;
        if (_frames.Length <= MaxKeptFrames && _attributes.Length <= MaxKeptAttributes && _bindings.Length <= MaxKeptBindings
            && _chars.Length <= MaxKeptChars)
        {
            arrays.Frames = _frames;
            arrays.Attributes = _attributes;
            arrays.Bindings = _bindings;
            arrays.Chars = _chars;
            ThreadSpare<WorkingArrays>.Give(arrays);
        }

        _arrays = null;
        _frames = [];
        _attributes = [];
        _bindings = [];
        _chars = [];
        _item = [];
    }
}
