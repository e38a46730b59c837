using System.Buffers;
using System.ServiceModel.Channels;
using System.Xml;
using Spanwire.BinaryXml;

namespace Spanwire.ServiceModel;

/// <summary>
/// The static dictionary WCF's own binary encoder writes with. WCF hands the writer its envelope and addressing names
/// as strings of that dictionary instance, and a binary writer only uses a dictionary id for a string of its own
/// dictionary; to write the same bytes the encoder must hold the same instance. It is not public, so it is found from
/// the strings a message writes, and used only when it holds the MC-NBFS strings in order.
/// </summary>
internal static class ServiceModelDictionary
{
    public static readonly IXmlDictionary Instance = Find();

    /// <summary>Whether the probe found WCF's own dictionary (the canary test fails when a WCF update defeats the probe).</summary>
    internal static bool IsWcfOwn => !ReferenceEquals(Instance, Nbfx.SoapDictionary);

    private static IXmlDictionary Find()
    {
        var probe = new ProbeDictionary();
        using (Message message = Message.CreateMessage(MessageVersion.Soap12WSAddressing10, "urn:spanwire:probe"))
        using (XmlDictionaryWriter writer = Nbfx.CreateWriter(new ArrayBufferWriter<byte>(), probe))
        {
            message.WriteMessage(writer);
        }

        return probe.Found is { } found && HoldsSoapStrings(found) ? found : Nbfx.SoapDictionary;
    }

    private static bool HoldsSoapStrings(IXmlDictionary candidate)
    {
        IXmlDictionary soap = Nbfx.SoapDictionary;
        int key = 0;
        while (soap.TryLookup(key, out XmlDictionaryString? expected))
        {
            if (!candidate.TryLookup(key, out XmlDictionaryString? actual) || actual.Value != expected.Value)
            {
                return false;
            }

            key++;
        }

        return true;
    }

    /// <summary>An empty dictionary that remembers the dictionary of the strings a writer asks it about.</summary>
    private sealed class ProbeDictionary : IXmlDictionary
    {
        public IXmlDictionary? Found { get; private set; }

        public bool TryLookup(string value, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? result)
        {
            result = null;
            return false;
        }

        public bool TryLookup(int key, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? result)
        {
            result = null;
            return false;
        }

        public bool TryLookup(XmlDictionaryString value, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? result)
        {
            if (Found is null && value.Dictionary is { } dictionary && dictionary != XmlDictionaryString.Empty.Dictionary && value.Value == "Envelope")
            {
                Found = dictionary;
            }

            result = null;
            return false;
        }
    }
}
