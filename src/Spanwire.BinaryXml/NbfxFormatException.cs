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

    /// <summary>
    /// True for the checks this reader makes when a record is read and the in-box reader only later, when the value or
    /// name is made a string (or never): invalid UTF-8 in a name, an empty name, a decimal's flags, a DateTime's ticks.
    /// A caller copying the in-box reader's timing (the WCF encoder, reading a message's first body element) defers these.
    /// </summary>
    internal bool CheckedLaterInBox { get; init; }
}
