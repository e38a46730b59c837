namespace Spanwire.Amqp.Tests;

/// <summary>
/// Decoding a table in one pass (<see cref="FieldTableConversion.ToDictionary(ReadOnlySpan{byte}, long)"/>) against
/// checking it first and converting after (<see cref="FieldTableReader.Parse"/>, then ToDictionary): the same fields
/// from sound tables, and from damaged ones the same refusal at the same byte offset. Names are drawn from a set larger
/// than the per-thread name cache, so names repeat, collide and are evicted as in a long-running consumer.
/// </summary>
public class FieldTableDecodeTests
{
    private const int Seed = 4242;
    private const long Offset = 11; // where the table would sit in its frame

    private static readonly string[] s_names =
    [
        .. Enumerable.Range(0, 90).Select(i => $"x-name-{i}"),
        .. Enumerable.Range(0, 6).Select(i => $"ré{i}"), // not ASCII: never cached
        .. Enumerable.Range(0, 4).Select(i => new string('n', 30 + i) + i), // longer than the cache keeps
        "", "a", "ab", "abc",
    ];

    [Fact]
    public void One_pass_gives_what_parse_then_convert_gives_and_refuses_what_it_refuses_at_the_same_offset()
    {
        var random = new RandomAmqp(Seed);
        int iterations = LongRuns.Scale(5000), refused = 0;
        for (int i = 0; i < iterations; i++)
        {
            byte[] sound = FieldTableConversion.Encode(Renamed(random, random.Table(0)));
            byte[] input = i % 3 == 0 ? sound : FuzzTests.Mutate(random.Random, sound);
            string context = $"seed {Seed}, iteration {i}, input {Convert.ToHexString(input)}";

            (Dictionary<string, object?>? expected, AmqpProtocolException? expectedError) = Try(() => FieldTableReader.Parse(input, Offset).ToDictionary());
            (Dictionary<string, object?>? actual, AmqpProtocolException? actualError) = Try(() => FieldTableConversion.ToDictionary(input, Offset));
            if (expectedError is not null)
            {
                refused++;
                Assert.True(actualError is not null, $"{context}: parse then convert refused it ({expectedError.Message}); one pass gave {actual?.Count} fields");
                Expect.Equal(expectedError.Offset, actualError!.Offset, $"{context}: the offset of the refusal");
                Expect.Equal(expectedError.Message, actualError.Message, $"{context}: the refusal");
            }
            else
            {
                Assert.True(actualError is null, $"{context}: one pass refused what parse then convert read: {actualError?.Message}");
                RoundTripTests.AssertDeepEqual(expected, actual, context);
            }
        }

        Assert.True(refused > iterations / 10, $"only {refused} of {iterations} inputs were refused: the damage must reach the error paths");
    }

    [Fact]
    public void A_name_read_again_is_the_same_string_and_names_that_share_a_slot_stay_apart()
    {
        // Every name of the set in one table, twice over in nested tables: each decodes to its own text however the
        // cache's slots are shared.
        var inner = s_names.ToDictionary(n => n, n => (object?)n.Length);
        var table = new Dictionary<string, object?>(inner) { ["nested"] = inner };
        byte[] encoded = FieldTableConversion.Encode(table);
        for (int pass = 0; pass < 3; pass++)
        {
            Dictionary<string, object?> decoded = FieldTableConversion.ToDictionary(encoded);
            Expect.Equal(string.Join(",", table.Keys), string.Join(",", decoded.Keys), $"pass {pass}: the names");
            var nested = Assert.IsType<Dictionary<string, object?>>(decoded["nested"]);
            Expect.Equal(string.Join(",", inner.Keys), string.Join(",", nested.Keys), $"pass {pass}: the nested names");
        }
    }

    private static Dictionary<string, object?> Renamed(RandomAmqp random, Dictionary<string, object?> table)
    {
        var renamed = new Dictionary<string, object?>(StringComparer.Ordinal);
        foreach (KeyValuePair<string, object?> field in table)
        {
            renamed[s_names[random.Random.Next(s_names.Length)]] = field.Value is Dictionary<string, object?> nested ? Renamed(random, nested) : field.Value;
        }

        return renamed;
    }

    private static (Dictionary<string, object?>?, AmqpProtocolException?) Try(Func<Dictionary<string, object?>> decode)
    {
        try
        {
            return (decode(), null);
        }
        catch (AmqpProtocolException ex)
        {
            return (null, ex);
        }
    }
}
