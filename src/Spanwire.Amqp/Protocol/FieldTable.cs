using System.Buffers.Binary;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// An encoded field table (length prefix included) ready to be copied into a frame: what the writers take for
/// arguments tables and the headers property. Make one with <see cref="FieldTableWriter"/> into your own buffer,
/// or with <see cref="FromDictionary"/>; <c>default</c> is the empty table.
/// </summary>
public readonly struct FieldTable
{
    private static readonly byte[] s_empty = new byte[4];
    private readonly ReadOnlyMemory<byte> _encoded;

    private FieldTable(ReadOnlyMemory<byte> encoded) => _encoded = encoded;

    /// <summary>The empty table (four zero bytes).</summary>
    public static FieldTable Empty => default;

    /// <summary>Wraps an encoded table after checking it whole.</summary>
    /// <param name="encoded">The table with its 4-byte length prefix, and nothing after it.</param>
    /// <exception cref="AmqpProtocolException">The bytes are not a well-formed table.</exception>
    /// <returns>The converted value.</returns>
    public static FieldTable FromEncoded(ReadOnlyMemory<byte> encoded)
    {
        FieldTableReader.Parse(encoded.Span);
        return new FieldTable(encoded);
    }

    /// <summary>Encodes a dictionary (see <see cref="FieldTableConversion"/> for the type mapping). Allocates the bytes.</summary>
    /// <exception cref="ArgumentException">A value has a type with no field type, or a name over 255 bytes.</exception>
    /// <exception cref="OverflowException">A decimal does not fit an AMQP decimal.</exception>
    /// <param name="fields">The fields, by name.</param>
    /// <returns>The converted value.</returns>
    public static FieldTable FromDictionary(IEnumerable<KeyValuePair<string, object?>> fields) =>
        new(FieldTableConversion.Encode(fields));

    /// <summary>The encoded bytes, length prefix included.</summary>
    public ReadOnlySpan<byte> Span => _encoded.IsEmpty ? s_empty : _encoded.Span;

    /// <summary>The encoded bytes as memory, length prefix included.</summary>
    public ReadOnlyMemory<byte> Memory => _encoded.IsEmpty ? s_empty : _encoded;

    /// <summary>The encoded size, length prefix included.</summary>
    public int EncodedLength => _encoded.IsEmpty ? 4 : _encoded.Length;

    /// <summary>A reader over the table.</summary>
    public FieldTableReader Reader
    {
        get
        {
            ReadOnlySpan<byte> span = Span;
            return new FieldTableReader(span.Slice(4, (int)BinaryPrimitives.ReadUInt32BigEndian(span)), 4);
        }
    }

    /// <summary>Wraps bytes the library encoded itself, without checking them again.</summary>
    internal static FieldTable FromTrusted(ReadOnlyMemory<byte> encoded) => new(encoded);

    /// <summary>A copy that owns its bytes: for keeping a table past the call that was given it.</summary>
    internal FieldTable Copy() => _encoded.IsEmpty ? default : new FieldTable(_encoded.ToArray());

    /// <inheritdoc/>
    public override string ToString() => Reader.ToString();
}
