using System.Buffers;
using Spanwire.Amqp.Protocol;
using Rmq = RabbitMQ.Client;

namespace Spanwire.Benchmarks.Amqp;

/// <summary>The inputs of RabbitMQ.Client's own benchmarks (benchmarks.md section 5), for both libraries.</summary>
public static class AmqpInputs
{
    public const string ExchangeOrRoutingKey = "Exchange_OR_RoutingKey";
    public const uint FrameMax = 0xFFFF;
    public static readonly AmqpTimestamp Timestamp = new(1_600_000_000);

    /// <summary>{string, int, uint, decimal, timestamp, nested table, array} as in the incumbent's populated table.</summary>
    public static Dictionary<string, object?> PopulatedTable() => new()
    {
        ["string"] = "Hello",
        ["int"] = 1234,
        ["uint"] = 1234u,
        ["decimal"] = 12.34m,
        ["timestamp"] = Timestamp,
        ["fieldtable"] = new Dictionary<string, object?> { ["test"] = "test" },
        ["fieldarray"] = new List<object?> { "longstring", 1234, 12.34m, Timestamp },
    };

    /// <summary>The same table in RabbitMQ.Client's value types.</summary>
    public static Dictionary<string, object?> PopulatedTableForRabbitMqClient() => new()
    {
        ["string"] = "Hello",
        ["int"] = 1234,
        ["uint"] = 1234u,
        ["decimal"] = 12.34m,
        ["timestamp"] = new Rmq.AmqpTimestamp(Timestamp.UnixSeconds),
        ["fieldtable"] = new Dictionary<string, object?> { ["test"] = "test" },
        ["fieldarray"] = new List<object?> { "longstring", 1234, 12.34m, new Rmq.AmqpTimestamp(Timestamp.UnixSeconds) },
    };
}

/// <summary>A reusable output over one array: what a connection's write buffer looks like between flushes.</summary>
public sealed class FixedBufferWriter(int capacity) : IBufferWriter<byte>
{
    private readonly byte[] _buffer = new byte[capacity];
    private int _written;

    public int WrittenCount => _written;

    public ReadOnlySpan<byte> WrittenSpan => _buffer.AsSpan(0, _written);

    public void Reset() => _written = 0;

    public void Advance(int count) => _written += count;

    public Memory<byte> GetMemory(int sizeHint = 0) => _buffer.AsMemory(_written);

    public Span<byte> GetSpan(int sizeHint = 0) => _buffer.AsSpan(_written);
}
