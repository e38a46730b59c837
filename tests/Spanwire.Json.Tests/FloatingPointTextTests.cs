using System.Buffers;
using System.Text;
using System.Text.Json;

namespace Spanwire.Json.Tests;

/// <summary>
/// The text of a double or a float: SpanwireJsonWriter finds the shortest digits itself, so every class of value is
/// written by both writers in the same test, Utf8JsonWriter as the control.
/// </summary>
public sealed class FloatingPointTextTests
{
    private static readonly int s_randomValues = LongRuns.Scale(300_000);

    public static TheoryData<double, string, string> Rows => new()
    {
        { 0.0, "0", "zero" },
        { -0.0, "-0", "negative zero keeps its sign" },
        { 1.0, "1", "a whole number: no point" },
        { 1e16, "10000000000000000", "the point 17 digits after the first: still plain" },
        { 1e17, "1E+17", "18 digits: exponent form, at least two exponent digits" },
        { 1.5e16, "15000000000000000", "plain with trailing zeros" },
        { 123456789012345680, "1.2345678901234568E+17", "exponent form with all 17 digits" },
        { 0.0001, "0.0001", "three zeros after the point: still plain" },
        { 0.00001, "1E-05", "four zeros: exponent form" },
        { 0.00012345, "0.00012345", "plain, digits after the zeros" },
        { 1.2345e-5, "1.2345E-05", "exponent form with a fraction" },
        { 0.1, "0.1", "the shortest digits, not the exact value" },
        { 1.0 / 3, "0.3333333333333333", "16 digits are enough" },
        { 0.30000000000000004, "0.30000000000000004", "17 digits are needed" },
        { 9007199254740992, "9007199254740992", "2^53, a whole number at the end of exact integers" },
        { 9007199254740994, "9007199254740994", "2^53 + 2, a whole number past them" },
        { 1e21, "1E+21", "a power of ten" },
        { 1e23, "1E+23", "a power of ten whose double is below it: the shortest text is still 1E+23" },
        { 5e-324, "5E-324", "the smallest subnormal: three exponent digits" },
        { 2.2250738585072014E-308, "2.2250738585072014E-308", "the smallest normal" },
        { double.MaxValue, "1.7976931348623157E+308", "the largest" },
        { -123.456, "-123.456", "negative, point inside the digits" },
        { 2.9802322387695312E-08, "2.980232238769531E-08", "2^-25: the runtime writes the digits of the double below, and so must we" },
        { 4.1045368012983762E-289, "4.104536801298376E-289", "2^-958: as 2^-25" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public void A_double_is_written_as_Utf8JsonWriter_writes_it(double value, string text, string why)
    {
        string control = Write(value, incumbent: true);
        string actual = Write(value, incumbent: false);
        Assert.True(control == text, $"{why}: the control wrote {control}, the row says {text}");
        Assert.True(actual == control, $"{why}: expected {control}, actual {actual} (bits {BitConverter.DoubleToInt64Bits(value):X16})");
    }

    public static TheoryData<float, string, string> SingleRows => new()
    {
        { 0f, "0", "zero" },
        { -0f, "-0", "negative zero keeps its sign" },
        { 1e8f, "100000000", "the point 9 digits after the first: still plain" },
        { 1e9f, "1E+09", "10 digits: exponent form (a float's layout turns at 9, not 17)" },
        { 123456789f, "123456790", "the float nearest, in its shortest digits" },
        { 0.1f, "0.1", "the shortest digits, not the exact value" },
        { 1f / 3, "0.33333334", "8 digits" },
        { 16777216f, "16777216", "2^24, the end of exact integers" },
        { float.Epsilon, "1E-45", "the smallest subnormal" },
        { float.MaxValue, "3.4028235E+38", "the largest" },
        { 0.00001f, "1E-05", "four zeros after the point: exponent form" },
    };

    [Theory]
    [MemberData(nameof(SingleRows))]
    public void A_float_is_written_as_Utf8JsonWriter_writes_it(float value, string text, string why)
    {
        string control = Write(value, incumbent: true);
        string actual = Write(value, incumbent: false);
        Assert.True(control == text, $"{why}: the control wrote {control}, the row says {text}");
        Assert.True(actual == control, $"{why}: expected {control}, actual {actual} (bits {BitConverter.SingleToInt32Bits(value):X8})");
    }

    [Fact]
    public void Every_float_power_of_two_and_ten_with_neighbours_integers_and_subnormals_match()
    {
        var values = new List<float>();
        for (int exponent = 0; exponent < 255; exponent++)
        {
            float power = BitConverter.Int32BitsToSingle(exponent << 23);
            values.AddRange([power, MathF.BitIncrement(power), MathF.BitDecrement(power), -power]);
        }

        for (int exponent = -45; exponent <= 38; exponent++)
        {
            float power = float.Parse($"1e{exponent}", System.Globalization.CultureInfo.InvariantCulture);
            values.AddRange([power, MathF.BitIncrement(power), MathF.BitDecrement(power)]);
        }

        for (int i = 0; i < 20_000; i++)
        {
            values.AddRange([i, i / 10f, i / 1000f, (1 << 24) - i, BitConverter.Int32BitsToSingle(i), i * 1e7f]);
        }

        AssertSameText(values.FindAll(float.IsFinite), "floats: powers, integers, fractions and subnormals");
    }

    [Fact]
    public void Seeded_random_floats_match()
    {
        var random = new Random(20261128);
        var values = new List<float>(s_randomValues);
        while (values.Count < s_randomValues)
        {
            float bits = BitConverter.Int32BitsToSingle(random.Next());
            float scaled = (float)((random.NextDouble() - 0.5) * Math.Pow(10, random.Next(-30, 30)));
            values.AddRange([random.Next(2) == 0 ? bits : -bits, scaled]);
        }

        AssertSameText(values.FindAll(float.IsFinite), "seeded random floats (seed 20261128)");
    }

    [Fact]
    public void Every_power_of_two_and_its_neighbours_match()
    {
        var values = new List<double>();
        for (long exponent = 0; exponent < 2047; exponent++)
        {
            double power = BitConverter.Int64BitsToDouble(exponent << 52);
            values.AddRange([power, Math.BitIncrement(power), Math.BitDecrement(power), -power]);
        }

        AssertSameText(values, "powers of two");
    }

    [Fact]
    public void Every_power_of_ten_and_its_neighbours_match()
    {
        var values = new List<double>();
        for (int exponent = -324; exponent <= 308; exponent++)
        {
            double power = double.Parse($"1e{exponent}", System.Globalization.CultureInfo.InvariantCulture);
            values.AddRange([power, Math.BitIncrement(power), Math.BitDecrement(power), 5 * power, 9.999999999999999 * power]);
        }

        AssertSameText(values.FindAll(double.IsFinite), "powers of ten"); // the scaled ones past the largest are infinite
    }

    [Fact]
    public void Integers_subnormals_and_decimal_fractions_match()
    {
        var values = new List<double>();
        for (long i = 0; i < 20_000; i++)
        {
            values.AddRange([i, i / 10.0, i / 1000.0, i * 1e-6, (1L << 53) - i, (1L << 53) + (2 * i), BitConverter.Int64BitsToDouble(i), i * 1e15]);
        }

        AssertSameText(values, "integers, fractions and subnormals");
    }

    [Fact]
    public void Seeded_random_doubles_match()
    {
        var random = new Random(20261127);
        var values = new List<double>(s_randomValues);
        while (values.Count < s_randomValues)
        {
            // Every bit pattern of a finite double; values of every scale with few digits; values around the layout's turns.
            double bits = BitConverter.Int64BitsToDouble(random.NextInt64() & 0x7FEF_FFFF_FFFF_FFFF);
            double scaled = (random.NextDouble() - 0.5) * Math.Pow(10, random.Next(-30, 30));
            double rounded = Math.Round(random.NextDouble() * 1e6, random.Next(8)) * Math.Pow(10, random.Next(-12, 14));
            values.AddRange([random.Next(2) == 0 ? bits : -bits, scaled, rounded]);
        }

        AssertSameText(values, "seeded random doubles (seed 20261127)");
    }

    private static void AssertSameText(List<double> values, string what) =>
        AssertSameText(values, (w, v) => w.WriteNumberValue(v), (w, v) => w.WriteNumberValue(v), v => Write(v, incumbent: true), v => Write(v, incumbent: false),
            v => $"{v:R} (bits {BitConverter.DoubleToInt64Bits(v):X16})", what);

    private static void AssertSameText(List<float> values, string what) =>
        AssertSameText(values, (w, v) => w.WriteNumberValue(v), (w, v) => w.WriteNumberValue(v), v => Write(v, incumbent: true), v => Write(v, incumbent: false),
            v => $"{v:R} (bits {BitConverter.SingleToInt32Bits(v):X8})", what);

    private static void AssertSameText<T>(List<T> values, Action<Utf8JsonWriter, T> control, Action<SpanwireJsonWriter, T> actual,
        Func<T, string> controlText, Func<T, string> actualText, Func<T, string> describe, string what)
    {
        // One document each, compared whole; only a difference is looked for value by value.
        var controlOutput = new ArrayBufferWriter<byte>();
        var actualOutput = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(controlOutput))
        {
            writer.WriteStartArray();
            values.ForEach(v => control(writer, v));
            writer.WriteEndArray();
        }

        using (var writer = new SpanwireJsonWriter(actualOutput))
        {
            writer.WriteStartArray();
            values.ForEach(v => actual(writer, v));
            writer.WriteEndArray();
        }

        if (controlOutput.WrittenSpan.SequenceEqual(actualOutput.WrittenSpan))
        {
            return;
        }

        T first = values.First(v => controlText(v) != actualText(v));
        Assert.Fail($"{what}: for {describe(first)} expected {controlText(first)}, actual {actualText(first)}");
    }

    private static string Write(double value, bool incumbent) =>
        Write(w => w.WriteNumberValue(value), w => w.WriteNumberValue(value), incumbent);

    private static string Write(float value, bool incumbent) =>
        Write(w => w.WriteNumberValue(value), w => w.WriteNumberValue(value), incumbent);

    private static string Write(Action<Utf8JsonWriter> control, Action<SpanwireJsonWriter> actual, bool incumbent)
    {
        var output = new ArrayBufferWriter<byte>();
        if (incumbent)
        {
            using var writer = new Utf8JsonWriter(output);
            control(writer);
        }
        else
        {
            using var writer = new SpanwireJsonWriter(output);
            actual(writer);
        }

        return Encoding.UTF8.GetString(output.WrittenSpan);
    }
}
