using System.Xml;

namespace Spanwire.BinaryXml;

/// <summary>Malformed or over-quota binary XML. <see cref="Offset"/> is the byte offset in the input where the problem was found.</summary>
public sealed class NbfxFormatException : XmlException
{
    /// <summary>Creates the exception for a problem found at <paramref name="offset"/>.</summary>
    /// <param name="message">The message.</param>
    /// <param name="offset">Where the payload starts in the stream, for the offsets in error messages.</param>
    public NbfxFormatException(string message, long offset)
        : base($"{message} (at byte offset {offset})")
    {
        Offset = offset;
        Reason = message;
    }

    /// <summary>What was wrong, without the offset.</summary>
    public string Reason { get; }

    /// <summary>The byte offset in the input where the problem was found.</summary>
    public long Offset { get; }
}
