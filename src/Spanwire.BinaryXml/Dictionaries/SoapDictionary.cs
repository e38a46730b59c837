using System.Reflection;
using System.Xml;

namespace Spanwire.BinaryXml.Dictionaries;

/// <summary>The MC-NBFS static SOAP dictionary: 487 strings in the specification's order (ids on the wire are index × 2).</summary>
internal static class SoapDictionary
{
    public static readonly XmlDictionary Instance = Load();

    private static XmlDictionary Load()
    {
        using Stream stream = Assembly.GetExecutingAssembly().GetManifestResourceStream("Spanwire.BinaryXml.SoapDictionary.txt")
            ?? throw new InvalidOperationException("The SOAP dictionary resource is missing from the assembly.");
        using var reader = new StreamReader(stream);
        var dictionary = new XmlDictionary(487);
        // One string per line, in order; index 81 is the empty string and index 212 starts with a space, both as specified.
        while (reader.ReadLine() is { } line)
        {
            dictionary.Add(line);
        }

        return dictionary;
    }
}
