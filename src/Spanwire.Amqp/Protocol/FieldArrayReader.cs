namespace Spanwire.Amqp.Protocol;

/// <summary>A field array read in place: enumerates typed values over the raw bytes without boxing or allocating.</summary>
public readonly ref struct FieldArrayReader
{
    private readonly ReadOnlySpan<byte> _content;

    internal FieldArrayReader(ReadOnlySpan<byte> content, long offset)
    {
        _content = content;
        Offset = offset;
    }

    /// <summary>The array's content bytes, after its length prefix.</summary>
    public ReadOnlySpan<byte> RawContent => _content;

    /// <summary>The stream offset of the array's content.</summary>
    public long Offset { get; }

    /// <summary>True for an array with no values.</summary>
    public bool IsEmpty => _content.IsEmpty;

    /// <summary>Counts the values (walks the array).</summary>
    /// <returns>The number of entries.</returns>
    public int Count()
    {
        int count = 0;
        foreach (FieldValue unused in this)
        {
            count++;
        }

        return count;
    }

    /// <summary>Copies the array out as a list (see <see cref="FieldTableConversion"/> for the types).</summary>
    /// <returns>The items as .NET values.</returns>
    public List<object?> ToList() => FieldTableConversion.ToList(this);

    /// <summary>Starts enumerating the values.</summary>
    /// <returns>An enumerator over the entries, in order.</returns>
    public Enumerator GetEnumerator() => new(_content, Offset);

    /// <summary>Enumerates an array's values in wire order, checking each length as it goes.</summary>
    public ref struct Enumerator
    {
        private readonly ReadOnlySpan<byte> _content;
        private readonly long _offset;
        private int _position;
        private FieldValue _current;

        internal Enumerator(ReadOnlySpan<byte> content, long offset)
        {
            _content = content;
            _offset = offset;
        }

        /// <summary>The current value.</summary>
        public readonly FieldValue Current => _current;

        /// <summary>Moves to the next value.</summary>
        /// <exception cref="AmqpProtocolException">The array is malformed at this value.</exception>
        /// <returns>True while there is another entry.</returns>
        public bool MoveNext()
        {
            if (_position >= _content.Length)
            {
                return false;
            }

            _current = FieldCodec.ReadValue(_content, ref _position, _offset);
            return true;
        }
    }
}
