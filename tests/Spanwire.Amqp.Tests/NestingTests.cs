namespace Spanwire.Amqp.Tests;

/// <summary>
/// Tables and arrays nested past 64 levels end every walk in an AmqpProtocolException at the offset of the level too
/// deep, never in a stack overflow (which no caller can catch): reading, converting and describing alike.
/// </summary>
public sealed class NestingTests
{
    public static TheoryData<int, byte> TooDeep => new()
    {
        { 65, (byte)'F' },      // one level past the bound, tables
        { 65, (byte)'A' },      // the same with arrays (inside one table)
        { 14_000, (byte)'F' },  // deep enough to overflow an unbounded walk
        { 20_000, (byte)'A' },
    };

    /// <summary>connection.start with the nested table as its server properties, parsed without a deep check.</summary>
    private static byte[] StartPayload(byte[] serverProperties) =>
        [0, 10, 0, 10, 0, 9, .. serverProperties, 0, 0, 0, 5, .. "PLAIN"u8, 0, 0, 0, 5, .. "en_US"u8];

    [Theory]
    [MemberData(nameof(TooDeep))]
    public void Every_walk_of_a_table_too_deep_throws_the_protocol_exception(int levels, byte kind)
    {
        byte[] payload = StartPayload(NestedFieldTables.Nested(levels, kind));

        AssertTooDeep(() => AmqpMethodReader.Parse(payload).GetTable(2).ToDictionary(), "ToDictionary");
        AssertTooDeep(() => AmqpMethodReader.Parse(payload).GetTable(2).ToString(), "FieldTableReader.ToString");
        AssertTooDeep(() => AmqpMethodReader.Parse(payload).ToString(), "AmqpMethodReader.ToString");
        AssertTooDeep(() => FieldTableConversion.Describe(AmqpMethodReader.Parse(payload).GetTable(2)), "Describe");
        AssertTooDeep(() => AmqpMethodReader.Parse(payload).GetTable(2).Validate(), "Validate");
        AssertTooDeep(() => FieldTableReader.Parse(NestedFieldTables.Nested(levels, kind)), "FieldTableReader.Parse");
    }

    [Theory]
    [InlineData((byte)'F')]
    [InlineData((byte)'A')]
    public void Sixty_four_levels_are_read_converted_and_described(byte kind)
    {
        byte[] payload = StartPayload(NestedFieldTables.Nested(64, kind));
        FieldTableReader table = AmqpMethodReader.Parse(payload).GetTable(2);

        table.Validate();
        int depth = 0;
        object? value = table.ToDictionary();
        while (value is Dictionary<string, object?> or List<object?>)
        {
            depth++;
            value = value is Dictionary<string, object?> d ? d.Values.SingleOrDefault() : ((List<object?>)value).SingleOrDefault();
        }

        Expect.Equal(64, depth, $"levels converted, kind {(char)kind}");
        string innermost = kind == 'F' ? "{}" + new string('}', 63) : "[]" + new string(']', 62) + "}";
        Assert.EndsWith(innermost, table.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void A_list_that_contains_itself_is_refused_with_an_argument_exception_not_a_stack_overflow()
    {
        var loop = new List<object?>();
        loop.Add(loop);

        Assert.Throws<ArgumentException>(() => FieldTable.FromDictionary(new Dictionary<string, object?> { ["loop"] = loop }));
    }

    private static void AssertTooDeep(Action walk, string context)
    {
        AmqpProtocolException error = Assert.Throws<AmqpProtocolException>(walk);
        Assert.True(error.Message.Contains("nest deeper than 64 levels", StringComparison.Ordinal), $"{context}: {error.Message}");
        Expect.Equal(AmqpReplyCode.SyntaxError, error.ReplyCode, context);
    }
}
