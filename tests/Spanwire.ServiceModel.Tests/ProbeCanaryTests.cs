using System.ServiceModel.Channels;
using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.ServiceModel.Tests;

/// <summary>
/// Canaries for the probes of another assembly's internals: each falls back quietly when the other side changes (a
/// WCF or runtime update), so a test says it, instead of the fallback hiding it.
/// </summary>
public class ProbeCanaryTests
{
    [Fact]
    public void The_probe_finds_WCFs_own_dictionary_and_it_holds_the_SOAP_strings_with_their_ids()
    {
        Assert.True(ServiceModelDictionary.IsWcfOwn, "the probe fell back to Spanwire's copy of the SOAP dictionary: WCF's writer no longer asks its dictionary the way the probe expects");
        IXmlDictionary soap = Nbfx.SoapDictionary;
        for (int key = 0; soap.TryLookup(key, out XmlDictionaryString? expected); key++)
        {
            Assert.True(ServiceModelDictionary.Instance.TryLookup(key, out XmlDictionaryString? actual), $"WCF's dictionary lacks id {key}");
            Expect.Equal(expected.Value, actual.Value, $"the string of id {key}");
        }
    }

    [Fact]
    public void The_dictionary_found_is_the_one_WCFs_binary_encoder_writes_with()
    {
        // WCF's encoder writes the Action header's name as a dictionary id: the same id must mean the same string.
        MessageEncoder encoder = new BinaryMessageEncodingBindingElement().CreateMessageEncoderFactory().Encoder;
        using Message message = Message.CreateMessage(MessageVersion.Soap12WSAddressing10, "urn:canary");
        ArraySegment<byte> bytes = encoder.WriteMessage(message, 65536, BufferManager.CreateBufferManager(0, 65536));
        using XmlDictionaryReader reader = XmlDictionaryReader.CreateBinaryReader(bytes.Array!, bytes.Offset, bytes.Count, ServiceModelDictionary.Instance, XmlDictionaryReaderQuotas.Max);
        reader.MoveToContent();

        Expect.Equal("Envelope", reader.LocalName, "the root read with the dictionary found");
    }

    [Fact]
    public void WCF_still_names_its_copy_of_a_header_read_through_the_collection_as_Spanwire_expects()
    {
        // A received message written or printed knows its received headers again after WCF has read one through the
        // collection (a typed property, GetReaderAtHeader) by that copy's type.
        using Message message = Message.CreateMessage(MessageVersion.Soap12WSAddressing10, "urn:canary");
        message.Headers.Add(new CanaryHeader());
        using (XmlDictionaryReader header = message.Headers.GetReaderAtHeader(1))
        {
            header.ReadOuterXml();
        }

        Expect.Equal(BufferedBinaryMessage.CapturedHeaderType, message.Headers[1].GetType().FullName, "the type of WCF's copy of a header read through the collection");
    }

    private sealed class CanaryHeader : MessageHeader
    {
        public override string Name => "Canary";

        public override string Namespace => "urn:canary";

        protected override void OnWriteHeaderContents(XmlDictionaryWriter writer, MessageVersion messageVersion) => writer.WriteString("x");
    }
}
