using System.Buffers;
using System.Xml;
using Spanwire.BinaryXml.Xml;
using Spanwire.Buffers;

namespace Spanwire.BinaryXml;

public static partial class Nbfx
{
    /// <summary>
    /// A binary XML reader over <paramref name="buffer"/>: the in-box reader's nodes and values. <paramref name="quotas"/>
    /// defaults to the in-box defaults (<c>new XmlDictionaryReaderQuotas()</c>); malformed input raises
    /// <see cref="NbfxFormatException"/> (an <see cref="XmlException"/>) with the byte offset.
    /// </summary>
    /// <example><code>
    /// using var reader = Nbfx.CreateReader(bytes, Nbfx.SoapDictionary);
    /// var order = (Order)new DataContractSerializer(typeof(Order)).ReadObject(reader)!;
    /// </code></example>
    /// <param name="buffer">The document's bytes.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="quotas">Limits on what is read (depth, string and array lengths); null for the defaults.</param>
    /// <param name="session">The session the odd ids refer to, or null for none.</param>
    /// <returns>A reader positioned before the first node.</returns>
    public static XmlDictionaryReader CreateReader(byte[] buffer, IXmlDictionary? dictionary = null, XmlDictionaryReaderQuotas? quotas = null, XmlBinaryReaderSession? session = null)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        return new NbfxXmlReader(new ReadOnlySequence<byte>(buffer), dictionary, quotas, session);
    }

    /// <summary>A binary XML reader over <paramref name="buffer"/> (see <see cref="CreateReader(byte[], IXmlDictionary?, XmlDictionaryReaderQuotas?, XmlBinaryReaderSession?)"/>).</summary>
    /// <param name="buffer">The document's bytes.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="quotas">Limits on what is read (depth, string and array lengths); null for the defaults.</param>
    /// <param name="session">The session the odd ids refer to, or null for none.</param>
    /// <returns>A reader positioned before the first node.</returns>
    public static XmlDictionaryReader CreateReader(ReadOnlyMemory<byte> buffer, IXmlDictionary? dictionary = null, XmlDictionaryReaderQuotas? quotas = null, XmlBinaryReaderSession? session = null) =>
        new NbfxXmlReader(new ReadOnlySequence<byte>(buffer), dictionary, quotas, session);

    /// <summary>A binary XML reader over <paramref name="buffer"/>, which may be split anywhere.</summary>
    /// <param name="buffer">The document's bytes.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="quotas">Limits on what is read (depth, string and array lengths); null for the defaults.</param>
    /// <param name="session">The session the odd ids refer to, or null for none.</param>
    /// <returns>A reader positioned before the first node.</returns>
    public static XmlDictionaryReader CreateReader(ReadOnlySequence<byte> buffer, IXmlDictionary? dictionary = null, XmlDictionaryReaderQuotas? quotas = null, XmlBinaryReaderSession? session = null) =>
        new NbfxXmlReader(buffer, dictionary, quotas, session);

    /// <summary>
    /// A binary XML reader over the rest of <paramref name="stream"/>, read forward as the nodes need it, as the in-box
    /// reader reads a stream: memory holds a pooled block below the large object heap threshold and the largest record
    /// that straddles two blocks, never the whole document. Closing the reader closes the stream, as in-box.
    /// </summary>
    /// <param name="stream">The stream to read; it is read as the reader moves, and closed with the reader.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="quotas">Limits on what is read (depth, string and array lengths); null for the defaults.</param>
    /// <param name="session">The session the odd ids refer to, or null for none.</param>
    /// <returns>A reader positioned before the first node.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="stream"/> is null.</exception>
    public static XmlDictionaryReader CreateReader(Stream stream, IXmlDictionary? dictionary = null, XmlDictionaryReaderQuotas? quotas = null, XmlBinaryReaderSession? session = null) =>
        new NbfxXmlReader(stream, dictionary, quotas, session);

    /// <summary>
    /// A binary XML reader over <paramref name="count"/> bytes of <paramref name="buffer"/> from
    /// <paramref name="offset"/>, with a callback when it is closed: the shape of the in-box
    /// <c>XmlDictionaryReader.CreateBinaryReader(byte[], int, int, IXmlDictionary, XmlDictionaryReaderQuotas, XmlBinaryReaderSession, OnXmlDictionaryReaderClose)</c>,
    /// for a caller that gives the buffer back to a pool when the reader is done with it.
    /// </summary>
    /// <param name="buffer">The array holding the document.</param>
    /// <param name="offset">Where the document starts in <paramref name="buffer"/>.</param>
    /// <param name="count">The document's length in bytes.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="quotas">Limits on what is read (depth, string and array lengths).</param>
    /// <param name="session">The session the odd ids refer to, or null for none.</param>
    /// <param name="onClose">Called once when the reader is closed (or disposed), or null.</param>
    /// <returns>A reader positioned before the first node.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> or <paramref name="quotas"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="offset"/> and <paramref name="count"/> do not lie within <paramref name="buffer"/>.</exception>
    public static XmlDictionaryReader CreateReader(byte[] buffer, int offset, int count, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        ArgumentNullException.ThrowIfNull(quotas);
        ArrayArguments.Check(buffer, offset, count);
        return new NbfxXmlReader(new ReadOnlySequence<byte>(buffer, offset, count), dictionary, quotas, session, onClose);
    }

    /// <summary>
    /// A binary XML reader over <paramref name="buffer"/>, which may be split anywhere, with a callback when it is
    /// closed (for a caller that gives the memory back to a pool then).
    /// </summary>
    /// <param name="buffer">The document's bytes.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="quotas">Limits on what is read (depth, string and array lengths); null for the defaults.</param>
    /// <param name="session">The session the odd ids refer to, or null for none.</param>
    /// <param name="onClose">Called once when the reader is closed (or disposed), or null.</param>
    /// <returns>A reader positioned before the first node.</returns>
    public static XmlDictionaryReader CreateReader(ReadOnlySequence<byte> buffer, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas? quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose) =>
        new NbfxXmlReader(buffer, dictionary, quotas, session, onClose);
}
