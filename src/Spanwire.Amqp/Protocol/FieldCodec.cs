using System.Buffers.Binary;

namespace Spanwire.Amqp.Protocol;

/// <summary>Parsing and validation shared by field tables and arrays. Every length is checked against its container.</summary>
internal static class FieldCodec
{
    /// <summary>How deep tables and arrays may nest before input is refused (a quota against stack exhaustion).</summary>
    public const int MaxDepth = 64;

    private const sbyte LengthPrefixed = -2;
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
        if (position >= container.Length)
        {
            AmqpThrow.Truncated(containerOffset + position, "A field value", 1, 0);
        }

        byte type = container[position];
        int at = position + 1;
        int size = GetFixedSize(type);
        if (size == Unknown)
        {
            AmqpThrow.Protocol(AmqpReplyCode.SyntaxError, containerOffset + position,
                $"Unknown field value type 0x{type:X2}{(type is >= 0x20 and < 0x7F ? $" ('{(char)type}')" : "")}; RabbitMQ accepts only t b B s u I i l L f d D S A T F V x.");
        }

        if (size == LengthPrefixed)
        {
            if (container.Length - at < 4)
            {
                AmqpThrow.Truncated(containerOffset + at, "A field value length", 4, container.Length - at);
            }

            uint length = BinaryPrimitives.ReadUInt32BigEndian(container[at..]);
            if (length > (uint)(container.Length - at - 4))
            {
                AmqpThrow.Truncated(containerOffset + at, $"A '{(char)type}' field value", 4L + length, container.Length - at);
            }

            position = at + 4 + (int)length;
            return new FieldValue((FieldValueType)type, container.Slice(at + 4, (int)length), containerOffset + at + 4);
        }

        if (container.Length - at < size)
        {
            AmqpThrow.Truncated(containerOffset + at, $"A '{(char)type}' field value", size, container.Length - at);
        }

        position = at + size;
        return new FieldValue((FieldValueType)type, container.Slice(at, size), containerOffset + at);
    }

    /// <summary>Reads a field name (a shortstr) at <paramref name="position"/>.</summary>
    public static ReadOnlySpan<byte> ReadName(ReadOnlySpan<byte> container, scoped ref int position, long containerOffset)
    {
        if (!AmqpPrimitives.TryReadShortString(container[position..], out ReadOnlySpan<byte> name, out int consumed))
        {
            AmqpThrow.Truncated(containerOffset + position, "A field name", 1 + container[position], container.Length - position);
        }

        position += consumed;
        return name;
    }

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

    private static void CheckDepth(int depth, long offset)
    {
        if (depth >= MaxDepth)
        {
            AmqpThrow.Protocol(AmqpReplyCode.SyntaxError, offset, $"Field tables and arrays nest deeper than {MaxDepth} levels.");
        }
    }
}
