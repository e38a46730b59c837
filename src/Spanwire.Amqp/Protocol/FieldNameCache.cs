using System.Buffers.Binary;
using System.Text;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// The field names a thread decoded last, as strings. Header and argument names repeat from message to message, so a
/// name seen before is neither transcoded nor allocated again when a table becomes a dictionary. Only ASCII names of
/// up to <see cref="MaxLength"/> bytes are kept, in a small table indexed by a hash of the bytes; a name that misses
/// is decoded as usual and takes its place. Hostile input can only make every lookup miss.
/// </summary>
internal sealed class FieldNameCache
{
    private const int Slots = 64; // a power of two
    private const int MaxLength = 32;

    private readonly string?[] _names = new string?[Slots];

    /// <summary>This thread's cache (<see cref="ThreadSlot{T}"/>); take it once per table, not per name.</summary>
    public static FieldNameCache ForThread() => ThreadSlot<FieldNameCache>.Value ??= new FieldNameCache();

    /// <summary>The name as a string: the cached one when it is the same ASCII bytes, else newly decoded.</summary>
    public string Get(ReadOnlySpan<byte> utf8)
    {
        if (utf8.IsEmpty || utf8.Length > MaxLength)
        {
            return utf8.IsEmpty ? "" : Encoding.UTF8.GetString(utf8);
        }

        // Two places per hash (a slot and its neighbour), so two names an application uses that hash alike do not
        // evict each other on every table; a new name takes the first place and moves its holder to the second.
        int first = Slot(utf8);
        ref string? place = ref _names[first];
        if (place is { } cached && cached.Length == utf8.Length && Ascii.Equals(utf8, cached))
        {
            return cached;
        }

        ref string? other = ref _names[first ^ 1];
        if (other is { } cachedOther && cachedOther.Length == utf8.Length && Ascii.Equals(utf8, cachedOther))
        {
            return cachedOther;
        }

        string name = Encoding.UTF8.GetString(utf8);
        if (Ascii.IsValid(utf8))
        {
            other = place;
            place = name;
        }

        return name;
    }

    // Length and the first and last four bytes: enough to tell apart the names one application uses.
    private static int Slot(ReadOnlySpan<byte> utf8)
    {
        uint h = (uint)utf8.Length * 0x9E3779B1u;
        if (utf8.Length >= 4)
        {
            h ^= BinaryPrimitives.ReadUInt32LittleEndian(utf8) * 0x85EBCA77u;
            h ^= BinaryPrimitives.ReadUInt32LittleEndian(utf8[^4..]) * 0xC2B2AE3Du;
        }
        else
        {
            foreach (byte b in utf8)
            {
                h = (h * 31) + b;
            }
        }

        return (int)((h ^ (h >> 16)) & (Slots - 1));
    }
}
