using BenchmarkDotNet.Attributes;

namespace Spanwire.Benchmarks.Json;

/// <summary>
/// The performance repository's Basic document: a small person object and an array of DataSize integers in
/// −10000..10000 from Random(42). WriteBasicUtf8 names properties with pre-encoded UTF-8, WriteBasicUtf16 with strings.
/// </summary>
public abstract class JsonBasicBenchmarkBase : JsonWriterBenchmarkBase
{
    protected static readonly byte[] s_age = "age"u8.ToArray(), s_first = "first"u8.ToArray(), s_last = "last"u8.ToArray(),
        s_phoneNumbers = "phoneNumbers"u8.ToArray(), s_address = "address"u8.ToArray(), s_street = "street"u8.ToArray(),
        s_city = "city"u8.ToArray(), s_zip = "zip"u8.ToArray(), s_extraArray = "ExtraArray"u8.ToArray();

    protected int[] Data { get; private set; } = [];

    [Params(10, 100_000)]
    public int DataSize { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(42);
        Data = new int[DataSize];
        for (int i = 0; i < DataSize; i++)
        {
            Data[i] = random.Next(-10000, 10000);
        }
    }

}

/// <summary>WriteBasicUtf8: property names as pre-encoded UTF-8.</summary>
public class JsonBasicUtf8Benchmarks : JsonBasicBenchmarkBase
{
    [Benchmark(Baseline = true)]
    public int Utf8JsonWriter_Utf8Names()
    {
        using var json = NewUtf8JsonWriter();
        json.WriteStartObject();
        json.WriteNumber(s_age, 42);
        json.WriteString(s_first, "John");
        json.WriteString(s_last, "Smith");
        json.WriteStartArray(s_phoneNumbers);
        json.WriteStringValue("425-000-1212");
        json.WriteStringValue("425-000-1213");
        json.WriteEndArray();
        json.WriteStartObject(s_address);
        json.WriteString(s_street, "1 Microsoft Way");
        json.WriteString(s_city, "Redmond");
        json.WriteNumber(s_zip, 98052);
        json.WriteEndObject();
        json.WriteStartArray(s_extraArray);
        foreach (int value in Data)
        {
            json.WriteNumberValue(value);
        }

        json.WriteEndArray();
        json.WriteEndObject();
        json.Flush();
        return Output.WrittenCount;
    }

    [Benchmark]
    public int JsonWriter_Utf8Names()
    {
        using var json = NewJsonWriter();
        json.WriteStartObject();
        json.WriteNumber(s_age, 42);
        json.WriteString(s_first, "John");
        json.WriteString(s_last, "Smith");
        json.WriteStartArray(s_phoneNumbers);
        json.WriteStringValue("425-000-1212");
        json.WriteStringValue("425-000-1213");
        json.WriteEndArray();
        json.WriteStartObject(s_address);
        json.WriteString(s_street, "1 Microsoft Way");
        json.WriteString(s_city, "Redmond");
        json.WriteNumber(s_zip, 98052);
        json.WriteEndObject();
        json.WriteStartArray(s_extraArray);
        foreach (int value in Data)
        {
            json.WriteNumberValue(value);
        }

        json.WriteEndArray();
        json.WriteEndObject();
        json.Flush();
        return Output.WrittenCount;
    }

}

/// <summary>WriteBasicUtf16: property names as strings.</summary>
public class JsonBasicUtf16Benchmarks : JsonBasicBenchmarkBase
{
    [Benchmark(Baseline = true)]
    public int Utf8JsonWriter_Utf16Names()
    {
        using var json = NewUtf8JsonWriter();
        json.WriteStartObject();
        json.WriteNumber("age", 42);
        json.WriteString("first", "John");
        json.WriteString("last", "Smith");
        json.WriteStartArray("phoneNumbers");
        json.WriteStringValue("425-000-1212");
        json.WriteStringValue("425-000-1213");
        json.WriteEndArray();
        json.WriteStartObject("address");
        json.WriteString("street", "1 Microsoft Way");
        json.WriteString("city", "Redmond");
        json.WriteNumber("zip", 98052);
        json.WriteEndObject();
        json.WriteStartArray("ExtraArray");
        foreach (int value in Data)
        {
            json.WriteNumberValue(value);
        }

        json.WriteEndArray();
        json.WriteEndObject();
        json.Flush();
        return Output.WrittenCount;
    }

    [Benchmark]
    public int JsonWriter_Utf16Names()
    {
        using var json = NewJsonWriter();
        json.WriteStartObject();
        json.WriteNumber("age", 42);
        json.WriteString("first", "John");
        json.WriteString("last", "Smith");
        json.WriteStartArray("phoneNumbers");
        json.WriteStringValue("425-000-1212");
        json.WriteStringValue("425-000-1213");
        json.WriteEndArray();
        json.WriteStartObject("address");
        json.WriteString("street", "1 Microsoft Way");
        json.WriteString("city", "Redmond");
        json.WriteNumber("zip", 98052);
        json.WriteEndObject();
        json.WriteStartArray("ExtraArray");
        foreach (int value in Data)
        {
            json.WriteNumberValue(value);
        }

        json.WriteEndArray();
        json.WriteEndObject();
        json.Flush();
        return Output.WrittenCount;
    }
}
