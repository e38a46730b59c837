using System.Text.Json;

namespace Spanwire.Json.Tests;

/// <summary>
/// How the writer uses its output, against Utf8JsonWriter as the control: the room it asks for, when it commits, what
/// Reset drops, and what happens when the output hands out less than asked. Every case runs under every option
/// combination and every kind of output; both writers must make the same GetMemory and Advance calls.
/// </summary>
public sealed class JsonWriterOutputTests
{
    private static readonly int[] s_capacities = [0, 1, 5, 42, 255, 256, 257, 300, 4096, 4352, 10_000];

    private static void AssertSameOnEveryOutput(params JsonOp[] ops)
    {
        foreach (JsonWriterOptions options in JsonWriterDifferentialTests.Combinations())
        {
            foreach (OutputKind kind in Enum.GetValues<OutputKind>())
            {
                foreach (int capacity in kind == OutputKind.Fixed ? s_capacities : [256])
                {
                    string? difference = JsonWriterDifferentialTests.Compare([.. ops], options, kind, capacity);
                    Assert.True(difference is null,
                        $"{JsonWriterDifferentialTests.Describe(options)}, output {kind} ({capacity}): {difference}");
                }
            }
        }
    }

    private static JsonOp Op(string what, Action<Utf8JsonWriter> incumbent, Action<SpanwireJsonWriter> spanwire) => new(what, incumbent, spanwire);

    private static readonly JsonOp s_comment = Op("Comment(c)", w => w.WriteCommentValue("c"), w => w.WriteCommentValue("c"));

    [Fact]
    public void A_comment_before_a_root_container_puts_the_container_on_the_next_line_when_indented()
    {
        AssertSameOnEveryOutput(s_comment, Op("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray()), Op("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray()));
        AssertSameOnEveryOutput(s_comment, Op("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject()), Op("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()));
    }

    [Fact]
    public void A_comment_between_a_property_name_and_its_container_puts_the_container_on_the_next_line_when_indented()
    {
        AssertSameOnEveryOutput(
            Op("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject()),
            Op("PropertyName(a)", w => w.WritePropertyName("a"), w => w.WritePropertyName("a")),
            s_comment,
            Op("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray()),
            Op("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray()),
            Op("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()));
    }

    [Fact]
    public void A_property_after_a_root_comment_without_validation_stays_on_the_comment_line()
    {
        AssertSameOnEveryOutput(s_comment, Op("String(k, v)", w => w.WriteString("k", "v"), w => w.WriteString("k", "v")));
        AssertSameOnEveryOutput(s_comment, Op("PropertyName(k)", w => w.WritePropertyName("k"), w => w.WritePropertyName("k")));
    }

    [Fact]
    public void Strings_that_fill_a_fixed_output_exactly_are_written_and_one_byte_more_is_refused()
    {
        // Utf8JsonWriter asks for its escaped length (x3 for UTF-16) plus quotes and separator, not the worst case.
        foreach (int length in new[] { 1, 41, 42, 43, 84, 85, 86, 250, 253, 254 })
        {
            byte[] utf8 = new byte[length];
            utf8.AsSpan().Fill((byte)'a');
            string text = new('a', length);
            string escaped = new('<', length);
            AssertSameOnEveryOutput(Op($"String(utf8 a x{length})", w => w.WriteStringValue(utf8), w => w.WriteStringValue(utf8)));
            AssertSameOnEveryOutput(Op($"String(a x{length})", w => w.WriteStringValue(text), w => w.WriteStringValue(text)));
            AssertSameOnEveryOutput(Op($"String(< x{length})", w => w.WriteStringValue(escaped), w => w.WriteStringValue(escaped)));
            AssertSameOnEveryOutput(
                Op("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject()),
                Op($"String(< x{length}, a x{length})", w => w.WriteString(escaped, text), w => w.WriteString(escaped, text)),
                Op($"StartArray(utf8 a x{length})", w => w.WriteStartArray(utf8), w => w.WriteStartArray(utf8)));
        }
    }

    [Fact]
    public void Reset_drops_exactly_the_bytes_Utf8JsonWriter_has_not_committed()
    {
        string fifty = new('a', 50);
        AssertSameOnEveryOutput(
            Op("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray()),
            Op("String(a x50)", w => w.WriteStringValue(fifty), w => w.WriteStringValue(fifty)),
            Op("Reset", w => w.Reset(), w => w.Reset()),
            Op("Boolean(true)", w => w.WriteBooleanValue(true), w => w.WriteBooleanValue(true)));
    }

    [Fact]
    public void Every_value_kind_asks_for_the_same_room_at_every_fill_level()
    {
        // A prefix of n bytes of comment moves the fill level across the first memory's end for each value kind.
        for (int n = 0; n < 300; n += 7)
        {
            string filler = new('f', n);
            JsonOp fill = Op($"Comment(f x{n})", w => w.WriteCommentValue(filler), w => w.WriteCommentValue(filler));
            AssertSameOnEveryOutput(
                fill,
                Op("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray()),
                Op("true", w => w.WriteBooleanValue(true), w => w.WriteBooleanValue(true)),
                Op("false", w => w.WriteBooleanValue(false), w => w.WriteBooleanValue(false)),
                Op("null", w => w.WriteNullValue(), w => w.WriteNullValue()),
                Op("long", w => w.WriteNumberValue(long.MinValue), w => w.WriteNumberValue(long.MinValue)),
                Op("double", w => w.WriteNumberValue(1.5), w => w.WriteNumberValue(1.5)),
                Op("decimal", w => w.WriteNumberValue(1.5m), w => w.WriteNumberValue(1.5m)),
                Op("Guid", w => w.WriteStringValue(Guid.Empty), w => w.WriteStringValue(Guid.Empty)),
                Op("DateTime", w => w.WriteStringValue(DateTime.MaxValue), w => w.WriteStringValue(DateTime.MaxValue)),
                Op("Base64", w => w.WriteBase64StringValue(new byte[40]), w => w.WriteBase64StringValue(new byte[40])),
                Op("Raw", w => w.WriteRawValue("[1,2]"), w => w.WriteRawValue("[1,2]")),
                Op("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject()),
                Op("named true", w => w.WriteBoolean("b", true), w => w.WriteBoolean("b", true)),
                Op("named Guid", w => w.WriteString("g"u8, Guid.Empty), w => w.WriteString("g"u8, Guid.Empty)),
                Op("named object", w => w.WriteStartObject("o"), w => w.WriteStartObject("o")),
                Op("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()),
                Op("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject()),
                Op("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray()));
        }
    }

    public static TheoryData<string, JsonOp[]> Segments => new()
    {
        { "a surrogate pair split across UTF-16 segments", [Seg16("a\uD83D", false), Seg16("\uDE00b", true)] },
        { "a lone high surrogate closing the string becomes U+FFFD", [Seg16("x\uD83D", false), Seg16("", true)] },
        { "a UTF-8 character split after each of its bytes", [Seg8([0xF0], false), Seg8([0x9F], false), Seg8([0x98], false), Seg8([0x80, 0x41], true)] },
        { "an incomplete UTF-8 character closing the string", [Seg8([0x41, 0xE2, 0x82], false), Seg8([], true)] },
        { "escaped text across segments", [Seg16("<\n", false), Seg16("\"é", true)] },
        { "Base64 groups completed by the next segment", [Base64([1], false), Base64([2, 3, 4, 5], false), Base64([6], true)] },
        { "an empty final segment closes the string", [Seg16("", false), Seg16("", true)] },
        { "mixing encodings is refused (when validating)", [Seg16("a", false), Seg8([0x41], true)] },
        { "a value inside an open string is refused (when validating)", [Seg16("a", false), Op("Number(1)", w => w.WriteNumberValue(1), w => w.WriteNumberValue(1)), Seg16("b", true)] },
        { "an end inside an open string is refused (when validating)", [Seg16("a", false), Op("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray())] },
        { "a UTF-16 comment inside an open string is refused (when validating)", [Seg16("a", false), Op("Comment(c)", w => w.WriteCommentValue("c"), w => w.WriteCommentValue("c")), Seg16("b", true)] },
        { "a UTF-8 comment inside an open string is written", [Seg16("a", false), Op("Comment(utf8 c)", w => w.WriteCommentValue("c"u8), w => w.WriteCommentValue("c"u8)), Seg16("b", true)] },
    };

    [Theory]
    [MemberData(nameof(Segments))]
    public void Strings_written_in_segments_match_in_arrays_and_as_property_values(string why, JsonOp[] ops)
    {
        _ = why;
        AssertSameOnEveryOutput([Op("StartArray", w => w.WriteStartArray(), w => w.WriteStartArray()), .. ops, .. ops, Op("EndArray", w => w.WriteEndArray(), w => w.WriteEndArray())]);
        AssertSameOnEveryOutput([Op("StartObject", w => w.WriteStartObject(), w => w.WriteStartObject()), Op("PropertyName(p)", w => w.WritePropertyName("p"), w => w.WritePropertyName("p")), .. ops, Op("EndObject", w => w.WriteEndObject(), w => w.WriteEndObject())]);
    }

    private static JsonOp Seg16(string text, bool final) =>
        Op($"Segment(\"{text}\", {final})", w => w.WriteStringValueSegment(text, final), w => w.WriteStringValueSegment(text, final));

    private static JsonOp Seg8(byte[] bytes, bool final) =>
        Op($"Segment(utf8 {Convert.ToHexString(bytes)}, {final})", w => w.WriteStringValueSegment(bytes, final), w => w.WriteStringValueSegment(bytes, final));

    private static JsonOp Base64(byte[] bytes, bool final) =>
        Op($"Base64Segment({Convert.ToHexString(bytes)}, {final})", w => w.WriteBase64StringSegment(bytes, final), w => w.WriteBase64StringSegment(bytes, final));
}
