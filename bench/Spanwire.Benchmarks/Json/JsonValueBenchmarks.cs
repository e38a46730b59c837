using System.Text;
using BenchmarkDotNet.Attributes;

namespace Spanwire.Benchmarks.Json;

/// <summary>The performance repository's string benchmark: an array of 100000 strings of 5–99 chars a–z.</summary>
public class JsonStringBenchmarks : JsonWriterBenchmarkBase
{
    private string[] _values = [];

    public enum Escaping
    {
        NoneEscaped,
        OneEscaped,
        AllEscaped,
    }

    [Params(Escaping.NoneEscaped, Escaping.OneEscaped, Escaping.AllEscaped)]
    public Escaping Escaped { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(42);
        _values = new string[100_000];
        for (int i = 0; i < _values.Length; i++)
        {
            var text = new StringBuilder();
            int length = random.Next(5, 100);
            for (int c = 0; c < length; c++)
            {
                text.Append(Escaped == Escaping.AllEscaped ? '"' : (char)('a' + random.Next(26)));
            }

            if (Escaped == Escaping.OneEscaped && random.Next(2) == 0)
            {
                text[random.Next(length)] = '"';
            }

            _values[i] = text.ToString();
        }
    }

    [Benchmark(Baseline = true)]
    public int Utf8JsonWriter()
    {
        using var json = NewUtf8JsonWriter();
        json.WriteStartArray();
        foreach (string value in _values)
        {
            json.WriteStringValue(value);
        }

        json.WriteEndArray();
        json.Flush();
        return Output.WrittenCount;
    }

    [Benchmark]
    public int SpanwireJsonWriter()
    {
        using var json = NewJsonWriter();
        json.WriteStartArray();
        foreach (string value in _values)
        {
            json.WriteStringValue(value);
        }

        json.WriteEndArray();
        json.Flush();
        return Output.WrittenCount;
    }
}

/// <summary>100000 doubles: half within ±MaxValue/10, half with magnitude up to 1e6.</summary>
public class JsonDoubleBenchmarks : JsonWriterBenchmarkBase
{
    private double[] _values = [];

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(42);
        _values = new double[100_000];
        for (int i = 0; i < _values.Length; i++)
        {
            _values[i] = i % 2 == 0
                ? (random.NextDouble() - 0.5) * 2 * (double.MaxValue / 10)
                : (random.NextDouble() - 0.5) * 2e6;
        }
    }

    [Benchmark(Baseline = true)]
    public int Utf8JsonWriter()
    {
        using var json = NewUtf8JsonWriter();
        json.WriteStartArray();
        foreach (double value in _values)
        {
            json.WriteNumberValue(value);
        }

        json.WriteEndArray();
        json.Flush();
        return Output.WrittenCount;
    }

    [Benchmark]
    public int SpanwireJsonWriter()
    {
        using var json = NewJsonWriter();
        json.WriteStartArray();
        foreach (double value in _values)
        {
            json.WriteNumberValue(value);
        }

        json.WriteEndArray();
        json.Flush();
        return Output.WrittenCount;
    }
}

/// <summary>100000 floats, as the doubles: half within ±MaxValue/10, half with magnitude up to 1e6.</summary>
public class JsonSingleBenchmarks : JsonWriterBenchmarkBase
{
    private float[] _values = [];

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(42);
        _values = new float[100_000];
        for (int i = 0; i < _values.Length; i++)
        {
            _values[i] = i % 2 == 0
                ? (float)((random.NextDouble() - 0.5) * 2 * (float.MaxValue / 10))
                : (float)((random.NextDouble() - 0.5) * 2e6);
        }
    }

    [Benchmark(Baseline = true)]
    public int Utf8JsonWriter()
    {
        using var json = NewUtf8JsonWriter();
        json.WriteStartArray();
        foreach (float value in _values)
        {
            json.WriteNumberValue(value);
        }

        json.WriteEndArray();
        json.Flush();
        return Output.WrittenCount;
    }

    [Benchmark]
    public int SpanwireJsonWriter()
    {
        using var json = NewJsonWriter();
        json.WriteStartArray();
        foreach (float value in _values)
        {
            json.WriteNumberValue(value);
        }

        json.WriteEndArray();
        json.Flush();
        return Output.WrittenCount;
    }
}

/// <summary>100000 Guid.Empty values.</summary>
public class JsonGuidBenchmarks : JsonWriterBenchmarkBase
{
    private const int Count = 100_000;

    [Benchmark(Baseline = true)]
    public int Utf8JsonWriter()
    {
        using var json = NewUtf8JsonWriter();
        json.WriteStartArray();
        for (int i = 0; i < Count; i++)
        {
            json.WriteStringValue(Guid.Empty);
        }

        json.WriteEndArray();
        json.Flush();
        return Output.WrittenCount;
    }

    [Benchmark]
    public int SpanwireJsonWriter()
    {
        using var json = NewJsonWriter();
        json.WriteStartArray();
        for (int i = 0; i < Count; i++)
        {
            json.WriteStringValue(Guid.Empty);
        }

        json.WriteEndArray();
        json.Flush();
        return Output.WrittenCount;
    }
}

/// <summary>100000 dates, a day apart from 2000-01-01.</summary>
public class JsonDateTimeBenchmarks : JsonWriterBenchmarkBase
{
    private DateTime[] _values = [];

    [GlobalSetup]
    public void Setup()
    {
        _values = new DateTime[100_000];
        var start = new DateTime(2000, 1, 1);
        for (int i = 0; i < _values.Length; i++)
        {
            _values[i] = start.AddDays(i);
        }
    }

    [Benchmark(Baseline = true)]
    public int Utf8JsonWriter()
    {
        using var json = NewUtf8JsonWriter();
        json.WriteStartArray();
        foreach (DateTime value in _values)
        {
            json.WriteStringValue(value);
        }

        json.WriteEndArray();
        json.Flush();
        return Output.WrittenCount;
    }

    [Benchmark]
    public int SpanwireJsonWriter()
    {
        using var json = NewJsonWriter();
        json.WriteStartArray();
        foreach (DateTime value in _values)
        {
            json.WriteStringValue(value);
        }

        json.WriteEndArray();
        json.Flush();
        return Output.WrittenCount;
    }
}

/// <summary>500 nested objects named "abcde"+i, then an array alternating a string and an int, 100000 pairs.</summary>
public class JsonDeepBenchmarks : JsonWriterBenchmarkBase
{
    private const int Depth = 500;
    private const int Pairs = 100_000;
    private string[] _names = [];

    [GlobalSetup]
    public void Setup() => _names = Enumerable.Range(0, Depth).Select(i => "abcde" + i).ToArray();

    [Benchmark(Baseline = true)]
    public int Utf8JsonWriter()
    {
        using var json = NewUtf8JsonWriter();
        json.WriteStartObject();
        foreach (string name in _names)
        {
            json.WriteStartObject(name);
        }

        json.WriteStartArray("array");
        for (int i = 0; i < Pairs; i++)
        {
            json.WriteStringValue("some string");
            json.WriteNumberValue(i);
        }

        json.WriteEndArray();
        for (int i = 0; i <= Depth; i++)
        {
            json.WriteEndObject();
        }

        json.Flush();
        return Output.WrittenCount;
    }

    [Benchmark]
    public int SpanwireJsonWriter()
    {
        using var json = NewJsonWriter();
        json.WriteStartObject();
        foreach (string name in _names)
        {
            json.WriteStartObject(name);
        }

        json.WriteStartArray("array");
        for (int i = 0; i < Pairs; i++)
        {
            json.WriteStringValue("some string");
            json.WriteNumberValue(i);
        }

        json.WriteEndArray();
        for (int i = 0; i <= Depth; i++)
        {
            json.WriteEndObject();
        }

        json.Flush();
        return Output.WrittenCount;
    }
}
