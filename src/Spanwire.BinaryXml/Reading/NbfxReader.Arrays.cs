using System.Buffers.Binary;
using System.Runtime.InteropServices;
using Spanwire.BinaryXml.Reading;

namespace Spanwire.BinaryXml;

public ref partial struct NbfxReader
{
    /// <summary>The item type of the current <see cref="NbfxTokenType.Array"/> token.</summary>
    public readonly NbfxValueType ArrayType => _cursor.Token == NbfxTokenType.Array ? _cursor.ArrayType : NbfxValueType.None;

    /// <summary>The items of the current array not read yet.</summary>
    public readonly int ArrayLength => _cursor.Token == NbfxTokenType.Array ? _cursor.ArrayRemaining : 0;

    /// <summary>Copies up to <c>destination.Length</c> bool items; returns how many.</summary>
    /// <param name="destination">Where the values go; at most its length is read.</param>
    /// <returns>How many values were read into <paramref name="destination"/>.</returns>
    public int ReadArray(scoped Span<bool> destination) => ReadItems(destination, NbfxValueType.Bool);

    /// <summary>Copies up to <c>destination.Length</c> Int16 items; returns how many.</summary>
    /// <param name="destination">Where the values go; at most its length is read.</param>
    /// <returns>How many values were read into <paramref name="destination"/>.</returns>
    public int ReadArray(scoped Span<short> destination) => ReadFixedSize(destination, NbfxValueType.Int16);

    /// <summary>Copies up to <c>destination.Length</c> Int32 items; returns how many.</summary>
    /// <param name="destination">Where the values go; at most its length is read.</param>
    /// <returns>How many values were read into <paramref name="destination"/>.</returns>
    public int ReadArray(scoped Span<int> destination) => ReadFixedSize(destination, NbfxValueType.Int32);

    /// <summary>Copies up to <c>destination.Length</c> Int64 items; returns how many.</summary>
    /// <param name="destination">Where the values go; at most its length is read.</param>
    /// <returns>How many values were read into <paramref name="destination"/>.</returns>
    public int ReadArray(scoped Span<long> destination) => ReadFixedSize(destination, NbfxValueType.Int64);

    /// <summary>Copies up to <c>destination.Length</c> float items; returns how many.</summary>
    /// <param name="destination">Where the values go; at most its length is read.</param>
    /// <returns>How many values were read into <paramref name="destination"/>.</returns>
    public int ReadArray(scoped Span<float> destination) => ReadFixedSize(destination, NbfxValueType.Float);

    /// <summary>Copies up to <c>destination.Length</c> double items; returns how many.</summary>
    /// <param name="destination">Where the values go; at most its length is read.</param>
    /// <returns>How many values were read into <paramref name="destination"/>.</returns>
    public int ReadArray(scoped Span<double> destination) => ReadFixedSize(destination, NbfxValueType.Double);

    /// <summary>Copies up to <c>destination.Length</c> TimeSpan items; returns how many.</summary>
    /// <param name="destination">Where the values go; at most its length is read.</param>
    /// <returns>How many values were read into <paramref name="destination"/>.</returns>
    public int ReadArray(scoped Span<TimeSpan> destination) => ReadFixedSize(destination, NbfxValueType.TimeSpan);

    /// <summary>Items that are their little-endian bytes: copied straight into the destination's memory.</summary>
    private int ReadFixedSize<T>(scoped Span<T> destination, NbfxValueType type) where T : struct
    {
        int count = Take(type, destination.Length);
        Span<byte> bytes = MemoryMarshal.AsBytes(destination[..count]);
        _cursor.CopyTo(ref _window, bytes);
        if (!BitConverter.IsLittleEndian)
        {
            int size = _cursor.ArrayItemSize;
            for (int at = 0; at < bytes.Length; at += size)
            {
                bytes.Slice(at, size).Reverse();
            }
        }

        return Done(count);
    }

    /// <summary>Copies up to <c>destination.Length</c> decimal items (each checked); returns how many.</summary>
    /// <param name="destination">Where the values go; at most its length is read.</param>
    /// <returns>How many values were read into <paramref name="destination"/>.</returns>
    public int ReadArray(scoped Span<decimal> destination) => ReadItems(destination, NbfxValueType.Decimal);

    /// <summary>Copies up to <c>destination.Length</c> DateTime items (each checked); returns how many.</summary>
    /// <param name="destination">Where the values go; at most its length is read.</param>
    /// <returns>How many values were read into <paramref name="destination"/>.</returns>
    public int ReadArray(scoped Span<DateTime> destination) => ReadItems(destination, NbfxValueType.DateTime);

    /// <summary>Copies up to <c>destination.Length</c> Guid items; returns how many.</summary>
    /// <param name="destination">Where the values go; at most its length is read.</param>
    /// <returns>How many values were read into <paramref name="destination"/>.</returns>
    public int ReadArray(scoped Span<Guid> destination) => ReadItems(destination, NbfxValueType.Guid);

    /// <summary>Items that are checked or converted one by one, each decoded into its place in the destination.</summary>
    private int ReadItems<T>(scoped Span<T> destination, NbfxValueType type)
        where T : unmanaged
    {
        int count = Take(type, destination.Length);
        Span<byte> item = stackalloc byte[16];
        item = item[.._cursor.ArrayItemSize];
        for (int i = 0; i < count; i++)
        {
            long at = _cursor.Position;
            _cursor.CopyTo(ref _window, item);
            if (!TryDecodeItem(type, item, MemoryMarshal.AsBytes(destination.Slice(i, 1))))
            {
                NbfxCursor.ThrowFormat(type == NbfxValueType.Decimal ? "a decimal with an invalid scale or flags" : "a DateTime out of range", at);
            }
        }

        return Done(count);
    }

    private static bool TryDecodeItem(NbfxValueType type, ReadOnlySpan<byte> item, Span<byte> value)
    {
        switch (type)
        {
            case NbfxValueType.Bool:
                value[0] = item[0] != 0 ? (byte)1 : (byte)0;
                return true;
            case NbfxValueType.Decimal:
                bool valid = NbfxPrimitives.TryReadDecimal(item, out decimal number);
                MemoryMarshal.Write(value, in number);
                return valid;
            case NbfxValueType.DateTime:
                valid = NbfxPrimitives.TryDateTimeFromBinary(BinaryPrimitives.ReadInt64LittleEndian(item), out DateTime date);
                MemoryMarshal.Write(value, in date);
                return valid;
            default:
                MemoryMarshal.Write(value, new Guid(item));
                return true;
        }
    }

    private readonly int Take(NbfxValueType type, int capacity)
    {
        if (_cursor.Token != NbfxTokenType.Array || _cursor.ArrayType != type)
        {
            throw new InvalidOperationException($"The reader is on {(_cursor.Token == NbfxTokenType.Array ? _cursor.ArrayType + " array" : _cursor.Token.ToString())}, not an array of {type}.");
        }

        return Math.Min(capacity, _cursor.ArrayRemaining);
    }

    private int Done(int count)
    {
        _cursor.ConsumeArrayItems(count);
        return count;
    }
}
