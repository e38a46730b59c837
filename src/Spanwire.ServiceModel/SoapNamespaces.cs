namespace Spanwire.ServiceModel;

/// <summary>The namespaces a received message is read by: SOAP 1.2's envelope and the WS-Addressing versions.</summary>
internal static class SoapNamespaces
{
    public const string Soap12 = "http://www.w3.org/2003/05/soap-envelope";
    public const string Addressing10 = "http://www.w3.org/2005/08/addressing";
    public const string AddressingAugust2004 = "http://schemas.xmlsoap.org/ws/2004/08/addressing";
    public const string AddressingNone = "http://schemas.microsoft.com/ws/2005/05/addressing/none";
}
