using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Amqp.Protocol;

/// <summary>Parsing and validation shared by field tables and arrays. Every length is checked against its container.</summary>
internal static class FieldCodec
{
    /// <summary>How deep tables and arrays may nest before input is refused (a quota against stack exhaustion).</summary>
    public const int MaxDepth = 64;

    internal const sbyte LengthPrefixed = -2;
    private const sbyte Unknown = -1;

    /// <summary>The value size of a fixed-size type, <see cref="LengthPrefixed"/> for S, x, A, F, or <see cref="Unknown"/>.</summary>
    public static int GetFixedSize(byte type) => type < 128 ? s_sizes[type] : Unknown;

    // Value sizes by type octet ('A' = 0x41 ... 'x' = 0x78): one load instead of a switch on every value read.
    private static ReadOnlySpan<sbyte> s_sizes =>
    [
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, // 0x00
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, // 0x10
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, // 0x20
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, // 0x30
        // @   A   B   C   D   E   F   G   H   I   J   K   L   M   N   O
        -1, -2, 1, -1, 5, -1, -2, -1, -1, 4, -1, -1, 8, -1, -1, -1,     // 0x40
        // P   Q   R   S   T   U   V   W   X   Y   Z
        -1, -1, -1, -2, 8, -1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1,   // 0x50
        // `   a   b   c   d   e   f   g   h   i   j   k   l   m   n   o
        -1, -1, 1, -1, 8, -1, 4, -1, -1, 4, -1, -1, 8, -1, -1, -1,      // 0x60
        // p   q   r   s   t   u   v   w   x
        -1, -1, -1, 2, 1, 2, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1,    // 0x70
    ];

    /// <summary>Reads a type octet and its value at <paramref name="position"/>, advancing past both.</summary>
    public static FieldValue ReadValue(ReadOnlySpan<byte> container, scoped ref int position, long containerOffset)
    {
        if ((uint)position >= (uint)container.Length)
        {
            AmqpThrow.Truncated(containerOffset + position, "A field value", 1, 0);
        }

        byte type = container[position];
        int at = position + 1;
        ReadOnlySpan<byte> rest = container[at..];
        int size = GetFixedSize(type);
        if (size >= 0)
        {
            if (rest.Length < size)
            {
                ThrowValueTruncated(type, containerOffset + at, size, rest.Length);
            }

            position = at + size;
            return new FieldValue((FieldValueType)type, rest[..size], containerOffset + at);
        }

        if (size == Unknown)
        {
            ThrowUnknownType(type, containerOffset + position);
        }

        // S, x, A, F: a 4-byte length, checked against what is left of the container before it is used.
        if (rest.Length < 4)
        {
            AmqpThrow.Truncated(containerOffset + at, "A field value length", 4, rest.Length);
        }

        uint length = BinaryPrimitives.ReadUInt32BigEndian(rest);
        if (length > (uint)(rest.Length - 4))
        {
            ThrowValueTruncated(type, containerOffset + at, 4L + length, rest.Length);
        }

        position = at + 4 + (int)length;
        return new FieldValue((FieldValueType)type, rest.Slice(4, (int)length), containerOffset + at + 4);
    }

    /// <summary>Reads a field name (a shortstr) at <paramref name="position"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ReadOnlySpan<byte> ReadName(ReadOnlySpan<byte> container, scoped ref int position, long containerOffset)
    {
        ReadOnlySpan<byte> rest = container[position..];
        if (rest.IsEmpty || rest[0] >= rest.Length)
        {
            AmqpThrow.Truncated(containerOffset + position, "A field name", rest.IsEmpty ? 1 : 1 + rest[0], rest.Length);
        }

        int length = rest[0];
        position += 1 + length;
        return rest.Slice(1, length);
    }

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowValueTruncated(byte type, long offset, long needed, int available) =>
        AmqpThrow.Truncated(offset, $"A '{(char)type}' field value", needed, available);

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowUnknownType(byte type, long offset) =>
        AmqpThrow.Protocol(AmqpReplyCode.SyntaxError, offset,
            $"Unknown field value type 0x{type:X2}{(type is >= 0x20 and < 0x7F ? $" ('{(char)type}')" : "")}; RabbitMQ accepts only t b B s u I i l L f d D S A T F V x.");

    /// <summary>Checks a whole table (its content, after the length) and everything nested in it.</summary>
    public static void ValidateTable(ReadOnlySpan<byte> content, long offset, int depth)
    {
        CheckDepth(depth, offset);
        int position = 0;
        while (position < content.Length)
        {
            ReadName(content, ref position, offset);
            ValidateNested(ReadValue(content, ref position, offset), depth);
        }
    }

    /// <summary>Checks a whole array (its content, after the length) and everything nested in it.</summary>
    public static void ValidateArray(ReadOnlySpan<byte> content, long offset, int depth)
    {
        CheckDepth(depth, offset);
        int position = 0;
        while (position < content.Length)
        {
            ValidateNested(ReadValue(content, ref position, offset), depth);
        }
    }

    private static void ValidateNested(FieldValue value, int depth)
    {
        if (value.Type == FieldValueType.Table)
        {
            ValidateTable(value.RawBytes, value.Offset, depth + 1);
        }
        else if (value.Type == FieldValueType.Array)
        {
            ValidateArray(value.RawBytes, value.Offset, depth + 1);
        }
    }

    /// <summary>Bounds every walk of nested tables and arrays, so hostile nesting ends in an exception, not a stack overflow.</summary>
    public static void CheckDepth(int depth, long offset)
    {
        if (depth >= MaxDepth)
        {
            ThrowTooDeep(offset);
        }
    }

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowTooDeep(long offset) =>
        AmqpThrow.Protocol(AmqpReplyCode.SyntaxError, offset, $"Field tables and arrays nest deeper than {MaxDepth} levels.");
}
