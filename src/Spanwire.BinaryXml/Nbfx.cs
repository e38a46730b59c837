using System.Buffers;
using System.Xml;
using Spanwire.BinaryXml.Xml;

namespace Spanwire.BinaryXml;

/// <summary>
/// Drop-ins for <see cref="XmlDictionaryWriter.CreateBinaryWriter(Stream, IXmlDictionary, XmlBinaryWriterSession, bool)"/>
/// and <see cref="XmlDictionaryReader.CreateBinaryReader(byte[], XmlDictionaryReaderQuotas)"/>: the same bytes for the same
/// calls, on Spanwire's writer and reader.
/// </summary>
/// <example><code>
/// using var writer = Nbfx.CreateWriter(stream, Nbfx.SoapDictionary);
/// new DataContractSerializer(typeof(Order)).WriteObject(writer, order);
/// </code></example>
public static partial class Nbfx
{
    /// <summary>The MC-NBFS static SOAP dictionary (487 strings, ids 0, 2, 4, …).</summary>
    public static IXmlDictionary SoapDictionary => Dictionaries.SoapDictionary.Instance;

    /// <summary>A binary XML writer into <paramref name="output"/>; bytes are committed as the writer fills and on Flush/Dispose.</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="session">The session other dictionary strings are added to (as odd ids), or null for none.</param>
    /// <returns>The writer; dispose it to write what is pending.</returns>
    public static XmlDictionaryWriter CreateWriter(IBufferWriter<byte> output, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
    {
        ArgumentNullException.ThrowIfNull(output);
        return new NbfxXmlWriter(new NbfxWriter(output, dictionary, session), null, null);
    }

    /// <summary>A binary XML writer into <paramref name="stream"/>; like the in-box writer, it closes the stream when disposed unless <paramref name="ownsStream"/> is false.</summary>
    /// <param name="stream">The stream the bytes go to.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="session">The session other dictionary strings are added to (as odd ids), or null for none.</param>
    /// <param name="ownsStream">Whether disposing the writer disposes the stream.</param>
    /// <returns>The writer; dispose it to write what is pending.</returns>
    public static XmlDictionaryWriter CreateWriter(Stream stream, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null, bool ownsStream = true)
    {
        ArgumentNullException.ThrowIfNull(stream);
        var output = new StreamBufferWriter(stream);
        return new NbfxXmlWriter(new NbfxWriter(output, dictionary, session), output.Flush,
            () => { output.Dispose(); if (ownsStream) stream.Dispose(); }, output.FlushAsync);
    }
}
