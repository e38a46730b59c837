using System.Buffers;
using System.Text;
using System.Text.Json;

namespace Spanwire.Json.Tests;

/// <summary>
/// The text of a double: SpanwireJsonWriter finds the shortest digits itself, so every class of double is written by
/// both writers in the same test, Utf8JsonWriter as the control.
/// </summary>
public sealed class DoubleTextTests
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

    private static void AssertSameText(List<double> values, string what)
    {
        // One document each, compared whole; only a difference is looked for value by value.
        var control = new ArrayBufferWriter<byte>();
        var actual = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(control))
        {
            writer.WriteStartArray();
            values.ForEach(writer.WriteNumberValue);
            writer.WriteEndArray();
        }

        using (var writer = new SpanwireJsonWriter(actual))
        {
            writer.WriteStartArray();
            values.ForEach(writer.WriteNumberValue);
            writer.WriteEndArray();
        }

        if (control.WrittenSpan.SequenceEqual(actual.WrittenSpan))
        {
            return;
        }

        double first = values.First(v => Write(v, incumbent: true) != Write(v, incumbent: false));
        Assert.Fail($"{what}: for {first:R} (bits {BitConverter.DoubleToInt64Bits(first):X16}) expected {Write(first, incumbent: true)}, actual {Write(first, incumbent: false)}");
    }

    private static string Write(double value, bool incumbent)
    {
        var output = new ArrayBufferWriter<byte>();
        if (incumbent)
        {
            using var writer = new Utf8JsonWriter(output);
            writer.WriteNumberValue(value);
        }
        else
        {
            using var writer = new SpanwireJsonWriter(output);
            writer.WriteNumberValue(value);
        }

        return Encoding.UTF8.GetString(output.WrittenSpan);
    }
}
