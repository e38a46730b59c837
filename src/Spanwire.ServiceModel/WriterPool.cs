using System.ServiceModel.Channels;
using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.ServiceModel;

/// <summary>
/// Writers of buffered messages kept for reuse (up to the binding's MaxWritePoolSize), each with the buffer-manager
/// output it writes into, as WCF's encoder keeps its writers. A writer whose message failed is not given back.
/// </summary>
internal sealed class WriterPool(int capacity)
{
    private readonly IdleStack<PooledWriter> _idle = new(capacity);

    /// <summary>A writer into a buffer taken from <paramref name="manager"/>, at <paramref name="offset"/>.</summary>
    public PooledWriter Take(BufferManager manager, int offset, int maxSize, int expectedSize, IXmlDictionary dictionary, XmlBinaryWriterSession? session)
    {
        if (_idle.TryTake() is not { } pooled)
        {
            var output = new BufferManagerWriter(manager, offset, maxSize, expectedSize);
            return new PooledWriter(output, Nbfx.CreateWriter(output, dictionary, session));
        }

        pooled.Output.Open(manager, offset, maxSize, expectedSize);
        ((IXmlBinaryBufferWriterInitializer)pooled.Writer).SetOutput(pooled.Output, dictionary, session);
        return pooled;
    }

    public void Return(PooledWriter writer) => _idle.Return(writer);
}

/// <summary>A pooled writer and the output it writes into.</summary>
internal sealed record PooledWriter(BufferManagerWriter Output, XmlDictionaryWriter Writer);
