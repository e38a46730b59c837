using BenchmarkDotNet.Attributes;
using RabbitMQ.Client;
using Spanwire.Amqp.Protocol;
using Rmq = RabbitMQ.Client;

namespace Spanwire.Benchmarks.Amqp;

/// <summary>
/// The populated table. RabbitMQ.Client's table codec is internal; its public path to it is the headers property, so
/// both sides here write/read basic properties carrying only that table (2 flag bytes + the table).
/// </summary>
[MemoryDiagnoser]
public class AmqpTableWriteBenchmarks
{
    private readonly byte[] _buffer = new byte[1024];
    private readonly Rmq.BasicProperties _theirs = new() { Headers = AmqpInputs.PopulatedTableForRabbitMqClient() };
    private readonly Dictionary<string, object?> _table = AmqpInputs.PopulatedTable();

    /// <summary>The bytes the last row wrote (for the test that every row writes the same).</summary>
    public byte[] LastWritten(int length) => _buffer[..length];

    [Benchmark(Baseline = true)]
    public int RabbitMqClientFromDictionary() => ((IAmqpWriteable)_theirs).WriteTo(_buffer);

    [Benchmark]
    public int SpanwireWriter()
    {
        var properties = new AmqpPayloadWriter(_buffer);
        properties.WriteShort((ushort)BasicPropertyFlags.Headers);
        var table = new FieldTableWriter(properties.FreeSpan);
        table.WriteName("string"u8); table.WriteLongString("Hello"u8);
        table.WriteName("int"u8); table.WriteInt32(1234);
        table.WriteName("uint"u8); table.WriteUInt32(1234);
        table.WriteName("decimal"u8); table.WriteDecimal(new AmqpDecimal(2, 1234));
        table.WriteName("timestamp"u8); table.WriteTimestamp(AmqpInputs.Timestamp);
        table.WriteName("fieldtable"u8); table.WriteStartTable(); table.WriteName("test"u8); table.WriteLongString("test"u8); table.WriteEndTable();
        table.WriteName("fieldarray"u8);
        table.WriteStartArray();
        table.WriteLongString("longstring"u8); table.WriteInt32(1234); table.WriteDecimal(new AmqpDecimal(2, 1234)); table.WriteTimestamp(AmqpInputs.Timestamp);
        table.WriteEndArray();
        return 2 + table.Complete();
    }

    [Benchmark]
    public int SpanwireFromDictionary()
    {
        var properties = new AmqpPayloadWriter(_buffer);
        properties.WriteShort((ushort)BasicPropertyFlags.Headers);
        var table = new FieldTableWriter(properties.FreeSpan);
        foreach (KeyValuePair<string, object?> field in _table)
        {
            table.WriteName(field.Key);
            FieldTableConversion.WriteValue(ref table, field.Value);
        }

        return 2 + table.Complete();
    }
}

/// <summary>Reading the populated table: into a dictionary (RabbitMQ.Client, and ours) and in place (ours).</summary>
[MemoryDiagnoser]
public class AmqpTableReadBenchmarks
{
    private byte[] _properties = [];

    [GlobalSetup]
    public void Setup()
    {
        var theirs = new Rmq.BasicProperties { Headers = AmqpInputs.PopulatedTableForRabbitMqClient() };
        _properties = new byte[((IAmqpWriteable)theirs).GetRequiredBufferSize()];
        int length = ((IAmqpWriteable)theirs).WriteTo(_properties);
        _properties = _properties[..length];
    }

    [Benchmark(Baseline = true)]
    public int RabbitMqClientToDictionary() => new ReadOnlyBasicProperties(_properties).Headers!.Count;

    // The decoding API for the purpose: the table checked as it is converted, in one pass.
    [Benchmark]
    public int SpanwireToDictionary() => FieldTableConversion.ToDictionary(_properties.AsSpan(2)).Count;

    [Benchmark]
    public long SpanwireInPlace()
    {
        long sum = 0;
        // As a consumer meets it in a content header: the length checked, each field checked as it is read.
        foreach (FieldTableEntry entry in new AmqpPayloadReader(_properties.AsSpan(2)).ReadTable())
        {
            sum += entry.Name.Length + Read(entry.Value);
        }

        return sum;
    }

    private static long Read(FieldValue value)
    {
        switch (value.Type)
        {
            case FieldValueType.LongString: return value.GetLongString().Length;
            case FieldValueType.Decimal: return value.GetDecimal().Value;
            case FieldValueType.Timestamp: return value.GetTimestamp().UnixSeconds;
            case FieldValueType.Table:
                long inner = 0;
                foreach (FieldTableEntry entry in value.GetTable())
                {
                    inner += entry.Name.Length + Read(entry.Value);
                }

                return inner;
            case FieldValueType.Array:
                long items = 0;
                foreach (FieldValue item in value.GetArray())
                {
                    items += Read(item);
                }

                return items;
            default:
                value.TryGetInteger(out long integer);
                return integer;
        }
    }
}
