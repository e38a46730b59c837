using System.Buffers.Binary;

namespace Spanwire.Amqp;

/// <summary>Encoded field tables nested to any depth, for the tests that hostile nesting must not overflow the stack.</summary>
internal static class NestedFieldTables
{
    /// <summary>
    /// A table (its length prefix included) holding <paramref name="levels"/> − 1 nested values of
    /// <paramref name="kind"/> ('F' tables or 'A' arrays), each inside the one before: <paramref name="levels"/> levels in all.
    /// </summary>
    public static byte[] Nested(int levels, byte kind)
    {
        var buffer = new byte[(levels * 7) + 8];
        int position = buffer.Length;
        for (int level = levels - 1; level >= 1; level--)
        {
            position -= 4;
            BinaryPrimitives.WriteInt32BigEndian(buffer.AsSpan(position), buffer.Length - position - 4);
            buffer[--position] = kind;
            bool parentIsTable = level == 1 || kind == (byte)'F';
            if (parentIsTable)
            {
                buffer[--position] = (byte)'a';
                buffer[--position] = 1;
            }
        }

        position -= 4;
        BinaryPrimitives.WriteInt32BigEndian(buffer.AsSpan(position), buffer.Length - position - 4);
        return buffer.AsSpan(position).ToArray();
    }
}
