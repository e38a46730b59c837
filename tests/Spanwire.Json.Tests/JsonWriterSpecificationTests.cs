using System.Buffers;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using Spanwire.Buffers;

namespace Spanwire.Json.Tests;

/// <summary>Named cases on top of the random differential test: each must match Utf8JsonWriter under every option combination.</summary>
public sealed class JsonWriterSpecificationTests
{
    private static readonly List<JsonWriterOptions> s_combinations = JsonWriterDifferentialTests.Combinations();

    private static void AssertSameEverywhere(params JsonOp[] ops)
    {
        foreach (JsonWriterOptions options in s_combinations)
        {
            string? difference = JsonWriterDifferentialTests.Compare([.. ops], options);
            Assert.True(difference is null, $"{JsonWriterDifferentialTests.Describe(options)}: {difference}");
        }
    }

    private static JsonOp[] InArray(params JsonOp[] ops) =>
        [new("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray()), .. ops, new("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray())];

    private static JsonOp StringOp(string s) => new($"String({s})", w => w.WriteStringValue(s), w => w.WriteStringValue(s));

    private static JsonOp Utf8StringOp(byte[] s) => new($"String(utf8 {Convert.ToHexString(s)})", w => w.WriteStringValue(s), w => w.WriteStringValue(s));

    private static JsonOp NamedOp(string name, string value) => new($"String({name}, {value})", w => w.WriteString(name, value), w => w.WriteString(name, value));

    public static TheoryData<string, string> EscapingClasses => new()
    {
        { "every control character", string.Concat(Enumerable.Range(0, 32).Select(c => (char)c)) },
        { "quote and backslash", "a\"b\\c" },
        { "HTML-sensitive characters", "<script>&'</script>" },
        { "plus and backtick", "1+1=`2`" },
        { "DEL", "\u007F" },
        { "Latin-1", "café ñ ß \u00A0\u00AD" },
        { "C1 controls", "\u0080\u0085\u009F" },
        { "CJK", "中文日本語한국어" },
        { "line and paragraph separators, BOM", "\u2028\u2029\uFEFF" },
        { "private use and replacement", "\uE000\uFFFD" },
        { "surrogate pairs", "😀𝄞\uDBFF\uDFFF" },
        { "lone high surrogate", "a\uD83Db" },
        { "lone low surrogate", "a\uDE00b" },
        { "low then high (both lone)", "\uDE00\uD83D" },
        { "high surrogate at the end", "abc\uD83D" },
        { "long mixed", string.Concat(Enumerable.Repeat("abc\"<é中😀\n", 200)) },
    };

    [Theory]
    [MemberData(nameof(EscapingClasses))]
    public void Every_escaping_class_matches_with_both_encoders(string why, string text)
    {
        Assert.NotNull(why);
        byte[] utf8 = Encoding.UTF8.GetBytes(text);
        AssertSameEverywhere(InArray(StringOp(text), Utf8StringOp(utf8)));
        AssertSameEverywhere(
            new("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject()),
            NamedOp(text, text),
            new("PropertyName(utf8)", w => w.WritePropertyName(utf8), w => w.WritePropertyName(utf8)),
            new("Number", w => w.WriteNumberValue(1), w => w.WriteNumberValue(1)),
            new("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()));
    }

    /// <summary>
    /// Plain ASCII text is checked and copied 16 units at a time (32 for UTF-16 of 32 units or more; 8 and 8
    /// overlapping below 16, one by one below 8; the last block overlapping the one before it), and text over 512
    /// units is scanned first. One character of each class at every position of every short length, and at the block edges of long
    /// ones, once and twice (the second at the end), as a value and a name, UTF-16 and UTF-8, with both encoders,
    /// must give Utf8JsonWriter's bytes.
    /// </summary>
    [Fact]
    public void One_character_of_each_class_at_every_position_matches()
    {
        string[] specials = ["\"", "\\", "\n", "\u001F", "<", "+", "`", "\u007F", "é", "\u00FF", "\u0100", "中", "😀", "\uD83D", "\uDE00"];
        JsonWriterOptions[] encoders = [new(), new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }];
        var lengths = Enumerable.Range(0, 73).Select(n => (n, Enumerable.Range(0, n + 1)))
            .Concat(new[] { 500, 511, 512, 513, 1000 }.Select(n => (n, (IEnumerable<int>)
                [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, n / 2, n - 33, n - 32, n - 31, n - 17, n - 16, n - 15, n - 8, n - 1, n])));
        int cases = 0;
        foreach ((int length, IEnumerable<int> positions) in lengths)
        {
            string plain = string.Concat(Enumerable.Range(0, length).Select(i => (char)('a' + (i % 26))));
            foreach (int at in positions)
            {
                foreach (string special in specials)
                {
                    foreach (bool twice in new[] { false, true })
                    {
                        string text = plain.Insert(at, special) + (twice ? special : "");
                        byte[] utf8 = Encoding.UTF8.GetBytes(text);
                        List<JsonOp> ops =
                        [
                            new("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject()),
                            NamedOp(text, text),
                            new("String(utf8 name and value)", w => w.WriteString(utf8, utf8), w => w.WriteString(utf8, utf8)),
                            new("StartArray", w => w.WriteStartArray("a"), w => w.WriteStartArray("a")),
                            StringOp(text),
                            Utf8StringOp(utf8),
                            new("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray()),
                            new("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()),
                        ];
                        foreach (JsonWriterOptions options in encoders)
                        {
                            string? difference = JsonWriterDifferentialTests.Compare(ops, options);
                            Assert.True(difference is null, $"length {length}, {Escape(special)} at {at}{(twice ? " and at the end" : "")}, {JsonWriterDifferentialTests.Describe(options)}: {difference}");
                            cases++;
                        }
                    }
                }
            }
        }

        Assert.True(cases > 150_000, $"{cases} cases");

        static string Escape(string s) => string.Concat(s.Select(c => $"U+{(int)c:X4}"));
    }

    /// <summary>
    /// Validation keeps the first 64 levels in one word and deeper ones in an array: random object/array nesting
    /// going down and back up across those edges to the depth limit, each document ending with a wrong end token,
    /// an extra start past the limit, or closed properly.
    /// </summary>
    [Fact]
    public void Deep_nesting_past_64_levels_validates_as_Utf8JsonWriter()
    {
        var random = new Random(64);
        for (int document = 0; document < 60; document++)
        {
            var ops = new List<JsonOp> { new("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray()) };
            var open = new Stack<bool>([false]);
            for (int step = 0; step < 3000; step++)
            {
                bool down = open.Count < 1000 && (open.Count < 2 || random.Next(100) < 55);
                if (down)
                {
                    bool isObject = random.Next(2) == 0;
                    if (open.Peek())
                    {
                        ops.Add(new("PropertyName", w => w.WritePropertyName("p"), w => w.WritePropertyName("p")));
                    }

                    ops.Add(isObject
                        ? new("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject())
                        : new("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray()));
                    open.Push(isObject);
                }
                else
                {
                    ops.Add(open.Pop()
                        ? new("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject())
                        : new("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray()));
                }
            }

            switch (document % 3)
            {
                case 0: // the wrong end for the innermost container
                    ops.Add(open.Peek()
                        ? new("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray())
                        : new("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()));
                    break;
                case 1: // down to the limit and one past it
                    for (int i = open.Count; i <= 1000; i++)
                    {
                        ops.Add(new("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray()));
                    }

                    break;
                default:
                    while (open.Count > 0)
                    {
                        ops.Add(open.Pop()
                            ? new("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject())
                            : new("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray()));
                    }

                    break;
            }

            foreach (JsonWriterOptions options in new JsonWriterOptions[] { new(), new() { Indented = true } })
            {
                string? difference = JsonWriterDifferentialTests.Compare(ops, options);
                Assert.True(difference is null, $"document {document}: {difference?[..Math.Min(difference.Length, 500)]}");
            }
        }
    }

    public static TheoryData<string, byte[]> InvalidUtf8 => new()
    {
        { "a stray continuation byte", [0x61, 0x80, 0x62] },
        { "a truncated two-byte sequence", [0x61, 0xC3] },
        { "an overlong encoding", [0xC0, 0x80] },
        { "an encoded surrogate", [0xED, 0xA0, 0x80] },
        { "past U+10FFFF", [0xF4, 0x90, 0x80, 0x80] },
        { "0xFF", [0xFF, 0xFE] },
    };

    [Theory]
    [MemberData(nameof(InvalidUtf8))]
    public void Invalid_UTF8_is_replaced_as_Utf8JsonWriter_replaces_it(string why, byte[] utf8)
    {
        Assert.NotNull(why);
        AssertSameEverywhere(InArray(Utf8StringOp(utf8)));
    }

    public static TheoryData<double> Doubles => new()
    {
        0.0, -0.0, double.MaxValue, double.MinValue, double.Epsilon, -double.Epsilon, 1.0 / 3, 0.1, 1e21, 1e-7, 123456789012345680,
        double.NaN, double.PositiveInfinity, double.NegativeInfinity, // refused with ArgumentException by both
    };

    [Theory]
    [MemberData(nameof(Doubles))]
    public void Double_and_float_edges_match(double value)
    {
        float single = (float)value;
        AssertSameEverywhere(InArray(new JsonOp($"Number({value:R})", w => w.WriteNumberValue(value), w => w.WriteNumberValue(value))));
        AssertSameEverywhere(InArray(new JsonOp($"Number(float {single:R})", w => w.WriteNumberValue(single), w => w.WriteNumberValue(single))));
        AssertSameEverywhere(
            new("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject()),
            new($"Number(n, {value:R})", w => w.WriteNumber("n", value), w => w.WriteNumber("n", value)),
            new("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()));
    }

    [Fact]
    public void Integer_and_decimal_edges_match()
    {
        decimal[] decimals = [decimal.MaxValue, decimal.MinValue, 0m, -0m, 1.20m, 0.0000000000000000000000000001m, new decimal(1, 0, 0, true, 28), 79228162514264337593543950335m / 1000];
        AssertSameEverywhere(InArray(
            [
                new("long.Min/Max", w => { w.WriteNumberValue(long.MinValue); w.WriteNumberValue(long.MaxValue); }, w => { w.WriteNumberValue(long.MinValue); w.WriteNumberValue(long.MaxValue); }),
                new("ulong.Max", w => w.WriteNumberValue(ulong.MaxValue), w => w.WriteNumberValue(ulong.MaxValue)),
                new("int.Min, uint.Max", w => { w.WriteNumberValue(int.MinValue); w.WriteNumberValue(uint.MaxValue); }, w => { w.WriteNumberValue(int.MinValue); w.WriteNumberValue(uint.MaxValue); }),
                .. decimals.Select(d => new JsonOp($"decimal {d}", w => w.WriteNumberValue(d), w => w.WriteNumberValue(d))),
            ]));
    }

    [Fact]
    public void Integers_at_every_digit_count_boundary_match()
    {
        // The digit count is computed, not found by trial: every power of ten, one either side, both signs, and 0.
        // Duplicates among the sets below do no harm.
        var values = new List<long> { 0, 1, -1, 9, -9 };
        for (long power = 10; power > 0 && power <= long.MaxValue / 10 * 10; power *= 10)
        {
            values.AddRange([power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]);
            if (power > long.MaxValue / 10)
            {
                break;
            }
        }

        // Under 10,000 the digits come from a pair table: all of them, both signs.
        for (int small = 2; small < 10_000; small++)
        {
            values.AddRange([small, -small]);
        }

        var unsigned = new List<ulong> { ulong.MaxValue, 10_000_000_000_000_000_000, 9_999_999_999_999_999_999, (ulong)uint.MaxValue + 1, uint.MaxValue };
        var random = new Random(17);
        for (int i = 0; i < 2000; i++)
        {
            values.Add(random.NextInt64(long.MinValue, long.MaxValue) >> random.Next(64));
        }

        AssertSameEverywhere(InArray(
            [
                new("longs", w => values.ForEach(w.WriteNumberValue), w => values.ForEach(w.WriteNumberValue)),
                new("ints", w => values.ForEach(v => w.WriteNumberValue((int)v)), w => values.ForEach(v => w.WriteNumberValue((int)v))),
                new("ulongs", w => unsigned.ForEach(w.WriteNumberValue), w => unsigned.ForEach(w.WriteNumberValue)),
            ]));
        AssertSameEverywhere(
            new("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject()),
            new("named", w => values.ForEach(v => w.WriteNumber("n", v)), w => values.ForEach(v => w.WriteNumber("n", v))),
            new("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()));
    }

    [Fact]
    public void Dates_match_for_every_kind_and_fraction()
    {
        var ops = new List<JsonOp>();
        foreach (DateTimeKind kind in Enum.GetValues<DateTimeKind>())
        {
            foreach (long extraTicks in new long[] { 0, 1, 10, 1_000_000, 1_234_567, 9_999_999 })
            {
                var value = new DateTime(2024, 2, 29, 12, 0, 0, kind).AddTicks(extraTicks);
                ops.Add(new($"DateTime {value:O}", w => w.WriteStringValue(value), w => w.WriteStringValue(value)));
                var offset = new DateTimeOffset(DateTime.SpecifyKind(value, DateTimeKind.Unspecified), TimeSpan.FromMinutes(-330));
                ops.Add(new($"DateTimeOffset {offset:O}", w => w.WriteStringValue(offset), w => w.WriteStringValue(offset)));
            }
        }

        ops.Add(new("DateTime.MinValue/MaxValue", w => { w.WriteStringValue(DateTime.MinValue); w.WriteStringValue(DateTime.MaxValue); }, w => { w.WriteStringValue(DateTime.MinValue); w.WriteStringValue(DateTime.MaxValue); }));
        AssertSameEverywhere(InArray([.. ops]));
    }

    /// <summary>
    /// Dates are formatted from their ticks rather than by the BCL's "O" formatter: seeded random instants over the
    /// whole range, fractions with 0 to 7 significant digits, every kind, and offsets over ±14 hours.
    /// </summary>
    [Fact]
    public void Random_dates_over_the_whole_range_match()
    {
        var random = new Random(20261121);
        long[] fractionSteps = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, TimeSpan.TicksPerSecond];
        var ops = new List<JsonOp>();
        for (int i = 0; i < 10_000; i++)
        {
            long ticks = random.NextInt64(DateTime.MinValue.Ticks, DateTime.MaxValue.Ticks);
            ticks -= ticks % fractionSteps[random.Next(fractionSteps.Length)];
            var value = new DateTime(ticks, (DateTimeKind)random.Next(3));
            var offset = TimeSpan.FromMinutes(random.Next(-14 * 60, 14 * 60 + 1));
            var clock = DateTime.SpecifyKind(value, DateTimeKind.Unspecified);
            bool fits = ticks - offset.Ticks >= DateTime.MinValue.Ticks && ticks - offset.Ticks <= DateTime.MaxValue.Ticks;
            var withOffset = fits ? new DateTimeOffset(clock, offset) : new DateTimeOffset(clock, TimeSpan.Zero);
            ops.Add(new($"DateTime {value:O} {value.Kind}", w => w.WriteStringValue(value), w => w.WriteStringValue(value)));
            ops.Add(new($"DateTimeOffset {withOffset:O}", w => w.WriteString("d", withOffset), w => w.WriteString("d", withOffset)));
        }

        AssertSameAsValuesAndProperties(ops, new JsonWriterOptions(), new JsonWriterOptions { SkipValidation = true });
    }

    /// <summary>
    /// Guids are written by a shuffle of their stored bytes, not by Guid.TryFormat: every nibble value in every
    /// position, the three little-endian fields, as a value and as a property's value.
    /// </summary>
    [Fact]
    public void Random_guids_match()
    {
        var random = new Random(20261121);
        var ops = new List<JsonOp>();
        var bytes = new byte[16];
        Guid[] edges = [Guid.Empty, Guid.AllBitsSet, new Guid("00112233-4455-6677-8899-aabbccddeeff"), new Guid("f0e1d2c3-b4a5-9687-7869-5a4b3c2d1e0f")];
        for (int i = 0; i < 10_000; i++)
        {
            random.NextBytes(bytes);
            Guid value = i < edges.Length ? edges[i] : new Guid(bytes);
            ops.Add(new($"Guid {value}", w => w.WriteStringValue(value), w => w.WriteStringValue(value)));
            ops.Add(new($"Guid property {value}", w => w.WriteString("g", value), w => w.WriteString("g", value)));
        }

        AssertSameAsValuesAndProperties(ops, new JsonWriterOptions(), new JsonWriterOptions { Indented = true });
    }

    /// <summary>The even ops (values) in an array under <paramref name="arrayOptions"/>, the odd ones (properties) in an object under <paramref name="objectOptions"/>.</summary>
    private static void AssertSameAsValuesAndProperties(List<JsonOp> ops, JsonWriterOptions arrayOptions, JsonWriterOptions objectOptions)
    {
        string? difference = JsonWriterDifferentialTests.Compare(
            [
                new("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray()),
                .. ops.Where((_, i) => i % 2 == 0),
                new("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray()),
            ],
            arrayOptions);
        Assert.True(difference is null, difference);
        difference = JsonWriterDifferentialTests.Compare(
            [
                new("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject()),
                .. ops.Where((_, i) => i % 2 == 1),
                new("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()),
            ],
            objectOptions);
        Assert.True(difference is null, difference);
    }

    [Fact]
    public void Output_across_pooled_segment_boundaries_is_the_same()
    {
        // Both writers into their own PooledBufferWriter of the same segment size: the incumbent is the control.
        for (int seed = 0; seed < 300; seed++)
        {
            List<JsonOp> ops = RandomJson.Document(seed);
            foreach (int segmentSize in new[] { 16, 300 })
            {
                using var expectedOutput = new PooledBufferWriter(SegmentPool.Create(new SegmentPoolOptions { SegmentSize = segmentSize }));
                using var actualOutput = new PooledBufferWriter(SegmentPool.Create(new SegmentPoolOptions { SegmentSize = segmentSize }));
                bool refused = false;
                var options = new JsonWriterOptions { SkipValidation = true };
                using (var expected = new Utf8JsonWriter(expectedOutput, options))
                using (var actual = new SpanwireJsonWriter(actualOutput, options))
                {
                    foreach (JsonOp op in ops)
                    {
                        Exception? e = Record.Exception(() => op.OnIncumbent(expected));
                        Exception? a = Record.Exception(() => op.OnSpanwire(actual));
                        Assert.True(e?.GetType() == a?.GetType() || JsonWriterDifferentialTests.IsKnownIncumbentDefect(op, e, a), $"seed {seed}, segments of {segmentSize}, {op}: {e?.GetType().Name} vs {a?.GetType().Name}");
                        if (e is not null)
                        {
                            refused = true; // what a writer leaves behind after a refused call is unspecified
                            break;
                        }

                        Assert.Equal(expected.BytesCommitted, actual.BytesCommitted);
                        Assert.Equal(expected.BytesPending, actual.BytesPending);
                    }
                }

                if (refused)
                {
                    continue;
                }

                byte[] want = expectedOutput.ToArray();
                byte[] got = actualOutput.ToArray();
                Assert.True(want.AsSpan().SequenceEqual(got),
                    $"seed {seed}, segments of {segmentSize}:\n{Encoding.UTF8.GetString(want)}\n{Encoding.UTF8.GetString(got)}\n{string.Join(", ", ops)}");
            }
        }
    }

    [Fact]
    public async Task The_stream_form_writes_only_on_flush_and_counts_what_it_wrote()
    {
        var expectedStream = new MemoryStream();
        var actualStream = new MemoryStream();
        var expected = new Utf8JsonWriter(expectedStream);
        var actual = new SpanwireJsonWriter(actualStream);
        foreach (var w in new object[] { expected, actual })
        {
            dynamic d = w;
            d.WriteStartObject();
            d.WriteString("a", new string('x', 100_000)); // past a pooled segment
            d.WriteEndObject();
        }

        Assert.Equal(0, actualStream.Length);
        Assert.Equal(expected.BytesPending + expected.BytesCommitted, actual.BytesPending + actual.BytesCommitted);
        expected.Flush();
        await actual.FlushAsync();
        Assert.Equal(expectedStream.ToArray(), actualStream.ToArray());
        Assert.Equal(expected.BytesCommitted, actual.BytesCommitted);
        Assert.Equal(0, actual.BytesPending);

        actual.Reset();
        actual.WriteNumberValue(1);
        actual.Reset(); // unflushed bytes are dropped
        actual.WriteNumberValue(2);
        await actual.DisposeAsync();
        Assert.EndsWith("}2", Encoding.UTF8.GetString(actualStream.ToArray()), StringComparison.Ordinal);
        Assert.Throws<ObjectDisposedException>(() => actual.Flush());
        Assert.Throws<ObjectDisposedException>(() => actual.Reset());
        expected.Dispose();
    }

    /// <summary>The writer keeps its options unpacked, not as given: Options must still read back as Utf8JsonWriter's do.</summary>
    [Fact]
    public void Options_read_back_as_Utf8JsonWriter_reads_them()
    {
        var output = new ArrayBufferWriter<byte>();
        foreach (JsonWriterOptions options in s_combinations)
        {
            JsonWriterOptions expected = new Utf8JsonWriter(output, options).Options;
            JsonWriterOptions actual = new SpanwireJsonWriter(output, options).Options;
            Assert.True(expected.Equals(actual), JsonWriterDifferentialTests.Describe(options));
            Assert.Same(expected.Encoder, actual.Encoder);
            Assert.Equal(expected.MaxDepth, actual.MaxDepth);
            Assert.Equal(expected.NewLine, actual.NewLine);
        }
    }

    [Fact]
    public void Reset_onto_a_new_output_starts_a_new_document()
    {
        var first = new ArrayBufferWriter<byte>();
        var second = new ArrayBufferWriter<byte>();
        using var writer = new SpanwireJsonWriter(first, new JsonWriterOptions { Indented = true });
        writer.WriteStartArray();
        writer.WriteNumberValue(1);
        writer.Flush();
        Assert.Equal(1, writer.CurrentDepth);
        writer.Reset(second);
        Assert.Equal(0, writer.CurrentDepth);
        Assert.Equal(0, writer.BytesCommitted);
        writer.WriteStringValue("x");
        writer.Flush();
        Assert.Equal("[\n  1", Encoding.UTF8.GetString(first.WrittenSpan));
        Assert.Equal("\"x\"", Encoding.UTF8.GetString(second.WrittenSpan));
    }

    [Fact]
    public void Writing_a_document_allocates_nothing_once_the_writer_is_reused()
    {
        var output = new ArrayBufferWriter<byte>(1 << 16);
        using var writer = new SpanwireJsonWriter(output);
        void Document()
        {
            output.Clear();
            writer.Reset();
            writer.WriteStartObject();
            writer.WriteString("name", "value \"quoted\" é");
            writer.WriteNumber("n", 12.5);
            writer.WriteStartArray("a");
            writer.WriteStringValue(Guid.Empty);
            writer.WriteStringValue(new DateTime(2000, 1, 1));
            writer.WriteEndArray();
            writer.WriteEndObject();
            writer.Flush();
        }

        Document();
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 100; i++)
        {
            Document();
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }
}
