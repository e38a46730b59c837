using System.Text;
using System.Text.Unicode;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// A field table read in place: enumerates (name, typed value) pairs over the raw bytes without boxing or allocating.
/// Every name, type and length is checked against its container as it is enumerated, so a malformed table throws
/// <see cref="AmqpProtocolException"/> at the field where it goes wrong; <see cref="Validate"/> checks the whole
/// table (nested values included, to a depth of 64) before anything is used, and <see cref="Parse"/> does so.
/// </summary>
/// <example>
/// <code>
/// foreach (FieldTableEntry entry in properties.Headers)
/// {
///     if (entry.Name.SequenceEqual("x-retries"u8) &amp;&amp; entry.Value.TryGetInteger(out long retries)) { ... }
/// }
/// </code>
/// </example>
public readonly ref struct FieldTableReader
{
    private readonly ReadOnlySpan<byte> _content;

    internal FieldTableReader(ReadOnlySpan<byte> content, long offset)
    {
        _content = content;
        Offset = offset;
    }

    /// <summary>
    /// Checks an encoded table (its 4-byte length first) whole, nested values included, and returns a view over it.
    /// </summary>
    /// <param name="encoded">The table with its length prefix; bytes after the table are not allowed.</param>
    /// <param name="offset">The stream offset of <paramref name="encoded"/>, for error messages.</param>
    /// <exception cref="AmqpProtocolException">The table is malformed.</exception>
    /// <returns>A reader over the payload (nothing is copied).</returns>
    public static FieldTableReader Parse(ReadOnlySpan<byte> encoded, long offset = 0)
    {
        var reader = new AmqpPayloadReader(encoded, offset);
        FieldTableReader table = reader.ReadTable();
        reader.EnsureEnd("The field table");
        table.Validate();
        return table;
    }

    /// <summary>Checks the whole table, nested tables and arrays included (at most 64 levels deep).</summary>
    /// <exception cref="AmqpProtocolException">The table is malformed.</exception>
    public void Validate() => FieldCodec.ValidateTable(_content, Offset, depth: 0);

    /// <summary>The table's content bytes, after its length prefix.</summary>
    public ReadOnlySpan<byte> RawContent => _content;

    /// <summary>The stream offset of the table's content.</summary>
    public long Offset { get; }

    /// <summary>True for a table with no fields.</summary>
    public bool IsEmpty => _content.IsEmpty;

    /// <summary>The encoded size, length prefix included.</summary>
    public int EncodedLength => _content.Length + 4;

    /// <summary>Counts the fields (walks the table).</summary>
    /// <returns>The number of entries.</returns>
    public int Count()
    {
        int count = 0;
        foreach (FieldTableEntry unused in this)
        {
            count++;
        }

        return count;
    }

    /// <summary>Finds the first field named <paramref name="name"/> (UTF-8 bytes).</summary>
    /// <param name="name">The field name.</param>
    /// <param name="value">The value, when there is one.</param>
    /// <returns>True when it succeeded; otherwise false (the out values are then default).</returns>
    public bool TryGetValue(scoped ReadOnlySpan<byte> name, out FieldValue value)
    {
        foreach (FieldTableEntry entry in this)
        {
            if (entry.Name.SequenceEqual(name))
            {
                value = entry.Value;
                return true;
            }
        }

        value = default;
        return false;
    }

    /// <summary>Finds the first field named <paramref name="name"/>.</summary>
    /// <param name="name">The field name.</param>
    /// <param name="value">The value, when there is one.</param>
    /// <returns>True when it succeeded; otherwise false (the out values are then default).</returns>
    public bool TryGetValue(ReadOnlySpan<char> name, out FieldValue value)
    {
        Span<byte> utf8 = stackalloc byte[AmqpPrimitives.MaxShortStringLength];
        if (Utf8.FromUtf16(name, utf8, out _, out int written) != System.Buffers.OperationStatus.Done)
        {
            value = default;
            return false;
        }

        return TryGetValue(utf8[..written], out value);
    }

    /// <summary>Copies the table out as a dictionary (see <see cref="FieldTableConversion.ToDictionary(FieldTableReader)"/> for the types).</summary>
    /// <returns>The fields as .NET values, by name.</returns>
    public Dictionary<string, object?> ToDictionary() => FieldTableConversion.ToDictionary(this);

    /// <summary>Starts enumerating the fields.</summary>
    /// <returns>An enumerator over the entries, in order.</returns>
    public Enumerator GetEnumerator() => new(_content, Offset);

    /// <inheritdoc/>
    public override string ToString() => FieldTableConversion.Describe(this);

    /// <summary>Enumerates a table's fields in wire order, checking each length as it goes.</summary>
    public ref struct Enumerator
    {
        private readonly ReadOnlySpan<byte> _content;
        private readonly long _offset;
        private int _position;
        private FieldTableEntry _current;

        internal Enumerator(ReadOnlySpan<byte> content, long offset)
        {
            _content = content;
            _offset = offset;
        }

        /// <summary>The current field.</summary>
        public readonly FieldTableEntry Current => _current;

        /// <summary>Moves to the next field.</summary>
        /// <exception cref="AmqpProtocolException">The table is malformed at this field.</exception>
        /// <returns>True while there is another entry.</returns>
        public bool MoveNext()
        {
            if (_position >= _content.Length)
            {
                return false;
            }

            ReadOnlySpan<byte> name = FieldCodec.ReadName(_content, ref _position, _offset);
            _current = new FieldTableEntry(name, FieldCodec.ReadValue(_content, ref _position, _offset));
            return true;
        }
    }
}

