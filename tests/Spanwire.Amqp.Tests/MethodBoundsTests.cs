using System.Buffers;

namespace Spanwire.Amqp.Tests;

/// <summary>
/// Argument bounds come from the method table, not from arithmetic at each call: for every method, the bound is
/// exactly the size of its arguments at their largest (every shortstr 255 bytes, bits packed), so a frame started with
/// it fits whatever is written, in an output that hands out no more than it is asked for.
/// </summary>
public sealed class MethodBoundsTests
{
    public static TheoryData<string> Methods => [.. AmqpMethods.All.Select(m => m.Name)];

    [Theory]
    [MemberData(nameof(Methods))]
    public void The_bound_is_the_largest_arguments_exactly_and_they_fit_an_exact_size_output(string name)
    {
        AmqpMethod method = AmqpMethods.All.Single(m => m.Name == name);
        byte[] longString = new byte[300];
        FieldTable table = FieldTable.FromDictionary(new Dictionary<string, object?> { ["x-queue-type"] = "quorum" });
        int variable = method.ArgumentTypesForTest().Sum(t => t switch
        {
            AmqpArgumentType.LongString => 4 + longString.Length,
            AmqpArgumentType.Table => table.EncodedLength,
            _ => 0,
        });
        var output = new ExactOutput();

        AmqpMethodFrame frame = AmqpFrameWriter.BeginMethod(output, 1, method, method.GetMaxArgumentsSize(variable));
        foreach (AmqpArgumentType type in method.ArgumentTypesForTest())
        {
            switch (type)
            {
                case AmqpArgumentType.Octet: frame.Arguments.WriteOctet(byte.MaxValue); break;
                case AmqpArgumentType.Short: frame.Arguments.WriteShort(ushort.MaxValue); break;
                case AmqpArgumentType.Long: frame.Arguments.WriteLong(uint.MaxValue); break;
                case AmqpArgumentType.LongLong: frame.Arguments.WriteLongLong(ulong.MaxValue); break;
                case AmqpArgumentType.Timestamp: frame.Arguments.WriteTimestamp(default); break;
                case AmqpArgumentType.Bit: frame.Arguments.WriteBit(true); break;
                case AmqpArgumentType.ShortString: frame.Arguments.WriteShortString(new string('x', 255)); break;
                case AmqpArgumentType.LongString: frame.Arguments.WriteLongString(longString); break;
                case AmqpArgumentType.Table: frame.Arguments.WriteTable(table); break;
            }
        }

        frame.Complete();
        int written = output.Written - 8 - 4; // frame header and end, class and method ids
        Expect.Equal(method.GetMaxArgumentsSize(variable), written, $"{name}: the bound against the largest arguments written");
    }

    [Fact]
    public void A_method_with_a_table_or_longstr_needs_their_size()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => AmqpFrameWriter.BeginMethod(new ArrayBufferWriter<byte>(), 1, AmqpMethods.QueueDeclare));
        Assert.Throws<ArgumentOutOfRangeException>(() => AmqpMethods.BasicAck.GetMaxArgumentsSize(10));
    }

    /// <summary>An output that hands out exactly the room asked for, so a bound too small fails the write.</summary>
    private sealed class ExactOutput : IBufferWriter<byte>
    {
        private byte[] _buffer = [];

        public int Written { get; private set; }

        public void Advance(int count) => Written += count;

        public Memory<byte> GetMemory(int sizeHint = 0)
        {
            _buffer = new byte[Math.Max(sizeHint, 1)];
            return _buffer;
        }

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
    }
}

internal static class AmqpMethodTestExtensions
{
    public static IEnumerable<AmqpArgumentType> ArgumentTypesForTest(this AmqpMethod method) => method.Arguments.Select(a => a.Type);
}
