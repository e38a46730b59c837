using System.Buffers;
using System.Text;
using System.Xml;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml;

/// <summary>
/// A forward-only pull reader of MC-NBFX records over a span or a sequence split anywhere (even inside a record). It
/// trusts nothing: every length is checked against the bytes present, quotas are those of
/// <see cref="XmlDictionaryReaderQuotas"/> with the same defaults, and malformed input raises
/// <see cref="NbfxFormatException"/> with the byte offset. Names and values are read from the input without making strings.
/// </summary>
/// <remarks>
/// Tokens are records: an element, then each attribute and namespace declaration, then content. A text record with
/// end element is a <see cref="NbfxTokenType.Text"/> token and then an <see cref="NbfxTokenType.EndElement"/>. An array
/// record is a <see cref="NbfxTokenType.StartElement"/> (with <see cref="IsArrayElement"/>), its attributes, then one
/// <see cref="NbfxTokenType.Array"/> token whose values <c>ReadArray</c> copies out. Prefixes are reported, not
/// resolved. Over a sequence, a record that straddles segments is copied whole into a pooled buffer: dispose the
/// reader to return it. Spans returned by the reader are valid until the next <see cref="Read"/>.
/// </remarks>
/// <example><code>
/// var reader = new NbfxReader(bytes, Nbfx.SoapDictionary);
/// while (reader.Read())
/// {
///     if (reader.TokenType == NbfxTokenType.Text &amp;&amp; reader.ValueType == NbfxValueType.Int32)
///         total += reader.GetInt32();
/// }
/// </code></example>
public ref partial struct NbfxReader
{
    private ReadOnlySpan<byte> _window;
    private NbfxCursor _cursor;

    /// <summary>Reads the records in <paramref name="data"/>.</summary>
    /// <param name="data">The document bytes.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="session">The session the odd ids refer to, or null for none.</param>
    /// <param name="quotas">Limits on what is read; null for the in-box defaults.</param>
    public NbfxReader(ReadOnlySpan<byte> data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null, XmlDictionaryReaderQuotas? quotas = null)
    {
        _window = data;
        _cursor = new NbfxCursor(data.Length, dictionary, session, quotas);
    }

    /// <summary>Reads the records in <paramref name="data"/>, which may be split anywhere.</summary>
    /// <param name="data">The document bytes.</param>
    /// <param name="dictionary">The static dictionary (its strings are even ids), or null for none.</param>
    /// <param name="session">The session the odd ids refer to, or null for none.</param>
    /// <param name="quotas">Limits on what is read; null for the in-box defaults.</param>
    public NbfxReader(ReadOnlySequence<byte> data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null, XmlDictionaryReaderQuotas? quotas = null)
    {
        if (data.IsSingleSegment)
        {
            _window = data.FirstSpan;
            _cursor = new NbfxCursor(data.Length, dictionary, session, quotas);
        }
        else
        {
            _window = default;
            _cursor = new NbfxCursor(data, dictionary, session, quotas);
        }
    }

    /// <summary>Moves to the next token. False at the end of the input (which must not be inside an element).</summary>
    /// <exception cref="NbfxFormatException">The input is malformed or over a quota.</exception>
    /// <returns>True while there is a record; false at the end of the input.</returns>
    public bool Read() => _cursor.Read(ref _window);

    /// <summary>Returns the pooled buffer used for records that straddle segments.</summary>
    public void Dispose() => _cursor.Dispose();

    /// <summary>The current token.</summary>
    public readonly NbfxTokenType TokenType => _cursor.Token;

    /// <summary>The record byte the token came from (for an implied end element, the text record's byte).</summary>
    public readonly byte RecordType => _cursor.Record;

    /// <summary>The element depth of the token: 0 for the root element and its end; its content, attributes and declarations are at 1.</summary>
    public readonly int CurrentDepth => _cursor.TokenDepth;

    /// <summary>The byte offset of the current token's record in the input.</summary>
    public readonly long TokenStartOffset => _cursor.TokenOffset;

    /// <summary>The bytes read so far.</summary>
    public readonly long BytesConsumed => _cursor.Position;

    /// <summary>True on the <see cref="NbfxTokenType.StartElement"/> of an array record.</summary>
    public readonly bool IsArrayElement => _cursor.Token == NbfxTokenType.StartElement && _cursor.IsArrayElement;

    /// <summary>The prefix of an element, attribute or namespace declaration as UTF-8 (empty for none).</summary>
    public readonly ReadOnlySpan<byte> Prefix => _cursor.PrefixLetter >= 0
        ? "abcdefghijklmnopqrstuvwxyz"u8.Slice(_cursor.PrefixLetter, 1)
        : _window.Slice(_cursor.PrefixStart, _cursor.PrefixLength);

    /// <summary>The local name of an element or attribute as UTF-8; empty when it is a dictionary string (<see cref="LocalNameDictionaryString"/>).</summary>
    public readonly ReadOnlySpan<byte> LocalName => _window.Slice(_cursor.NameStart, _cursor.NameLength);

    /// <summary>The local name when the record gave it as a dictionary id, else null.</summary>
    public readonly XmlDictionaryString? LocalNameDictionaryString => _cursor.NameString;

    /// <summary>The prefix as a string (allocates unless empty or a letter prefix).</summary>
    /// <returns>The prefix.</returns>
    public readonly string GetPrefix() => _cursor.PrefixLetter >= 0 ? LetterPrefixes[_cursor.PrefixLetter]
        : _cursor.PrefixLength == 0 ? "" : Encoding.UTF8.GetString(Prefix);

    /// <summary>The local name as a string (no allocation for dictionary strings).</summary>
    /// <returns>The local name.</returns>
    public readonly string GetLocalName() => _cursor.NameString?.Value ?? Encoding.UTF8.GetString(LocalName);

    /// <summary>True when the local name equals <paramref name="utf8"/>, without making a string.</summary>
    /// <param name="utf8">The local name to compare with, as UTF-8.</param>
    /// <returns>True when the names are equal.</returns>
    public readonly bool LocalNameEquals(ReadOnlySpan<byte> utf8) => _cursor.NameString is { } name
        ? Encoding.UTF8.GetByteCount(name.Value) == utf8.Length && Utf8Equals(name.Value, utf8)
        : LocalName.SequenceEqual(utf8);

    internal static readonly string[] LetterPrefixes =
        ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z"];

    private static bool Utf8Equals(string value, ReadOnlySpan<byte> utf8)
    {
        Span<byte> buffer = stackalloc byte[256];
        if (utf8.Length > buffer.Length)
        {
            return Encoding.UTF8.GetBytes(value).AsSpan().SequenceEqual(utf8);
        }

        int n = Encoding.UTF8.GetBytes(value, buffer);
        return buffer[..n].SequenceEqual(utf8);
    }
}
