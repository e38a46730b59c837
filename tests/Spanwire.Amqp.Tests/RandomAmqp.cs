using System.Text;

namespace Spanwire.Amqp.Tests;

/// <summary>Seeded random arguments, tables and properties.</summary>
internal sealed class RandomAmqp(int seed)
{
    private readonly Random _random = new(seed);

    public Random Random => _random;

    public string ShortText(int max = 40)
    {
        int length = _random.Next(max + 1);
        var text = new StringBuilder(length);
        for (int i = 0; i < length; i++)
        {
            // Mostly ASCII, some two- and three-byte characters.
            int pick = _random.Next(20);
            text.Append(pick switch { 0 => 'é', 1 => '€', _ => (char)_random.Next(0x20, 0x7F) });
        }

        return text.ToString();
    }

    public byte[] Bytes(int max)
    {
        byte[] bytes = new byte[_random.Next(max + 1)];
        _random.NextBytes(bytes);
        return bytes;
    }

    /// <summary>A random table as a dictionary, in the types the conversion decodes back to (S as byte[], x as ReadOnlyMemory).</summary>
    public Dictionary<string, object?> Table(int depth)
    {
        var table = new Dictionary<string, object?>(StringComparer.Ordinal);
        int count = _random.Next(depth == 0 ? 12 : 5);
        for (int i = 0; i < count; i++)
        {
            table[$"k{i}-{ShortText(8)}"] = Value(depth);
        }

        return table;
    }

    public object? Value(int depth)
    {
        int kinds = depth < 3 ? 17 : 15;
        return _random.Next(kinds) switch
        {
            0 => _random.Next(2) == 1,
            1 => (sbyte)_random.Next(-128, 128),
            2 => (byte)_random.Next(256),
            3 => (short)_random.Next(short.MinValue, short.MaxValue + 1),
            4 => (ushort)_random.Next(ushort.MaxValue + 1),
            5 => _random.Next(int.MinValue, int.MaxValue),
            6 => (uint)_random.NextInt64(uint.MaxValue + 1L),
            7 => _random.NextInt64(long.MinValue, long.MaxValue),
            8 => (float)(_random.NextDouble() * 1e6 - 5e5),
            9 => _random.NextDouble() * 1e12 - 5e11,
            10 => new decimal(_random.Next(0, int.MaxValue), 0, 0, _random.Next(2) == 1, (byte)_random.Next(10)),
            11 => Bytes(30),
            12 => new ReadOnlyMemory<byte>(Bytes(10)),
            13 => new AmqpTimestamp(_random.NextInt64(0, 4_000_000_000)),
            14 => null,
            15 => Table(depth + 1),
            _ => Enumerable.Range(0, _random.Next(5)).Select(_ => Value(depth + 1)).ToList(),
        };
    }
}
