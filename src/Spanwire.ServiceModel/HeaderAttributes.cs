using System.Xml;

namespace Spanwire.ServiceModel;

/// <summary>
/// A received header's SOAP 1.2 attributes, read as WCF reads them: role (the actor), mustUnderstand, relay, and
/// WS-Addressing 1.0's IsReferenceParameter; <see cref="OnlyMustUnderstand"/> says the element has no other attribute
/// (no namespace declaration either).
/// </summary>
internal readonly record struct HeaderAttributes(string Actor, bool MustUnderstand, bool Relay, bool IsReferenceParameter, bool OnlyMustUnderstand)
{
    private const string UltimateReceiver = "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver";

    /// <summary>Whether the header is for this node as its final receiver, the only headers WCF gives a kind.</summary>
    public bool IsForUltimateReceiver => Actor.Length == 0 || Actor == UltimateReceiver;

    /// <summary>Reads the attributes of the header element the reader is on; the reader stays on the element.</summary>
    /// <exception cref="XmlException">A boolean attribute that is not an XML boolean.</exception>
    public static HeaderAttributes Read(XmlDictionaryReader reader, string? addressing10Namespace)
    {
        int count = reader.AttributeCount;
        if (count == 0)
        {
            return new HeaderAttributes("", false, false, false, true);
        }

        string? mustUnderstandText = reader.GetAttribute("mustUnderstand", SoapNamespaces.Soap12);
        bool mustUnderstand = mustUnderstandText is not null && ToBoolean(mustUnderstandText);
        string actor = "";
        bool relay = false;
        if (!mustUnderstand || count != 1)
        {
            actor = reader.GetAttribute("role", SoapNamespaces.Soap12) ?? "";
            relay = reader.GetAttribute("relay", SoapNamespaces.Soap12) is { } relayText && ToBoolean(relayText);
        }

        bool isReferenceParameter = addressing10Namespace is not null
            && reader.GetAttribute("IsReferenceParameter", addressing10Namespace) is { } referenceText && ToBoolean(referenceText);
        return new HeaderAttributes(actor, mustUnderstand, relay, isReferenceParameter, count == 1 && mustUnderstandText is not null);
    }

    private static bool ToBoolean(string value)
    {
        switch (value)
        {
            case "1" or "true":
                return true;
            case "0" or "false":
                return false;
        }

        try
        {
            return XmlConvert.ToBoolean(value);
        }
        catch (FormatException e)
        {
            throw new XmlException(e.Message, null);
        }
    }
}
