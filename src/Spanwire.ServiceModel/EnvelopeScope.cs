using System.Xml;

namespace Spanwire.ServiceModel;

/// <summary>
/// The attributes of a received message's Envelope and Header elements (their namespace declarations above all),
/// which a header copied out of the message takes with it.
/// </summary>
internal sealed class EnvelopeScope
{
    private readonly Attribute[] _envelope;
    private readonly Attribute[] _header;

    private EnvelopeScope(Attribute[] envelope, Attribute[] header)
    {
        _envelope = envelope;
        _header = header;
    }

    /// <summary>Reads the scope from a reader at the start of the message; the reader is left inside the Header.</summary>
    public static EnvelopeScope Read(XmlDictionaryReader reader)
    {
        reader.MoveToContent();
        Attribute[] envelope = ReadAttributes(reader);
        reader.Read();
        reader.MoveToContent();
        return new EnvelopeScope(envelope, ReadAttributes(reader));
    }

    public void WriteEnvelopeAttributes(XmlDictionaryWriter writer) => Write(_envelope, writer);

    public void WriteHeaderAttributes(XmlDictionaryWriter writer) => Write(_header, writer);

    private static Attribute[] ReadAttributes(XmlDictionaryReader reader)
    {
        var attributes = new Attribute[reader.AttributeCount];
        for (int i = 0; i < attributes.Length; i++)
        {
            reader.MoveToAttribute(i);
            attributes[i] = new Attribute(reader.Prefix, reader.LocalName, reader.NamespaceURI, reader.Value);
        }

        reader.MoveToElement();
        return attributes;
    }

    private static void Write(Attribute[] attributes, XmlDictionaryWriter writer)
    {
        foreach (Attribute a in attributes)
        {
            writer.WriteStartAttribute(a.Prefix, a.LocalName, a.Namespace);
            writer.WriteString(a.Value);
            writer.WriteEndAttribute();
        }
    }

    private readonly record struct Attribute(string Prefix, string LocalName, string Namespace, string Value);
}
