using System.Buffers;
using System.Xml;

namespace Spanwire.BinaryXml;

/// <summary>
/// Points a binary XML writer from <see cref="Nbfx.CreateWriter(IBufferWriter{byte}, IXmlDictionary?, XmlBinaryWriterSession?)"/>
/// at a new output, so one writer serves many documents, as <see cref="IXmlBinaryWriterInitializer"/> does for a stream.
/// </summary>
/// <example>
/// <code>
/// XmlDictionaryWriter writer = Nbfx.CreateWriter(first, dictionary);
/// // ... write a document, then Flush ...
/// ((IXmlBinaryBufferWriterInitializer)writer).SetOutput(second, dictionary, session: null);
/// </code>
/// </example>
public interface IXmlBinaryBufferWriterInitializer
{
    /// <summary>Starts a new document into <paramref name="output"/>; bytes not yet flushed to the old output are dropped.</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="session">The session other dictionary strings are added to (as odd ids), or null for none.</param>
    /// <exception cref="ArgumentNullException"><paramref name="output"/> is null.</exception>
    void SetOutput(IBufferWriter<byte> output, IXmlDictionary? dictionary, XmlBinaryWriterSession? session);
}
