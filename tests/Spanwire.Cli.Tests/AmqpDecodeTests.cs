using System.Buffers;
using System.Text;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Cli.Tests;

public sealed class AmqpDecodeTests
{
    /// <summary>A client's side of a short connection: header, start-ok, tune-ok (frame_max 4096), a publish of 5015 bytes, a heartbeat.</summary>
    private static byte[] ClientStream()
    {
        var output = new ArrayBufferWriter<byte>();
        AmqpFrameWriter.WriteProtocolHeader(output);
        AmqpMethodFrame startOk = AmqpFrameWriter.BeginMethod(output, 0, AmqpMethods.ConnectionStartOk, 500);
        startOk.Arguments.WriteTable(FieldTable.FromDictionary(new Dictionary<string, object?> { ["product"] = "spanwire" }));
        startOk.Arguments.WriteShortString("PLAIN");
        startOk.Arguments.WriteLongString("\0guest\0guest"u8);
        startOk.Arguments.WriteShortString("en_US");
        startOk.Complete();
        AmqpMethodFrame tuneOk = AmqpFrameWriter.BeginMethod(output, 0, AmqpMethods.ConnectionTuneOk, 8);
        tuneOk.Arguments.WriteShort(2047);
        tuneOk.Arguments.WriteLong(4096);
        tuneOk.Arguments.WriteShort(60);
        tuneOk.Complete();
        var properties = new BasicProperties
        {
            ContentType = "text/plain",
            DeliveryMode = 2,
            Priority = 0,
            Headers = FieldTable.FromDictionary(new Dictionary<string, object?> { ["x-retries"] = 3 }),
        };
        AmqpFrameWriter.WriteBasicPublish(output, 1, "amq.direct", "jobs", true, false, properties,
            Encoding.UTF8.GetBytes("hello " + new string('x', 5009)), 4096);
        AmqpFrameWriter.WriteHeartbeat(output);
        return output.WrittenSpan.ToArray();
    }

    [Fact]
    public void Every_frame_is_printed_with_channel_method_arguments_properties_and_body_preview()
    {
        var result = CliRunner.Run(ClientStream(), "amqp", "decode", "--from", "client");
        Assert.Equal(0, result.ExitCode);
        Assert.Equal("", result.StdErr);
        string[] lines = result.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(8, lines.Length);
        Assert.Contains("protocol-header AMQP 0-0-9-1", lines[0], StringComparison.Ordinal);
        Assert.Contains("connection.start-ok client-properties={product=\"spanwire\"} mechanism=\"PLAIN\" response=<12 bytes>", lines[1], StringComparison.Ordinal);
        Assert.Contains("connection.tune-ok channel-max=2047 frame-max=4096 heartbeat=60", lines[2], StringComparison.Ordinal);
        Assert.Contains("ch 1     method  basic.publish reserved-1=0 exchange=\"amq.direct\" routing-key=\"jobs\" mandatory=true immediate=false", lines[3], StringComparison.Ordinal);
        Assert.Contains("header  basic body-size=5015 content-type=\"text/plain\" headers={x-retries=3} delivery-mode=2 priority=0", lines[4], StringComparison.Ordinal);
        Assert.Contains("body    4088 bytes \"hello xxxx", lines[5], StringComparison.Ordinal);
        Assert.Contains("body    927 bytes", lines[6], StringComparison.Ordinal);
        Assert.Contains("ch 0     heartbeat", lines[7], StringComparison.Ordinal);
    }

    [Fact]
    public void Client_properties_nesting_20000_arrays_end_in_one_error_line_and_exit_2_not_a_stack_overflow()
    {
        byte[] properties = Spanwire.Amqp.NestedFieldTables.Nested(20_000, (byte)'A');
        byte[] arguments = [0, 10, 0, 11, .. properties, 5, .. "PLAIN"u8, 0, 0, 0, 0, 5, .. "en_US"u8];
        byte[] size = new byte[4];
        System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(size, arguments.Length);
        byte[] stream = [.. AmqpFraming.ProtocolHeader, 1, 0, 0, .. size, .. arguments, 0xCE];

        var result = CliRunner.Run(stream, "amqp", "decode", "--from", "client");

        Assert.Equal(2, result.ExitCode);
        string error = result.StdErr.TrimEnd('\n');
        Assert.DoesNotContain('\n', error);
        Assert.Contains("nest deeper than 64 levels", error, StringComparison.Ordinal);
    }

    [Fact]
    public void A_truncated_stream_prints_what_was_decoded_then_one_error_line_with_the_offset()
    {
        byte[] stream = ClientStream();
        var result = CliRunner.Run(stream[..^3], "amqp", "decode");
        Assert.Equal(2, result.ExitCode);
        Assert.Equal(7, result.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        Assert.Single(result.ErrorLines);
        Assert.Contains($"ends inside a frame at byte {stream.Length - 8}", result.StdErr, StringComparison.Ordinal);
    }

    [Fact]
    public void A_frame_larger_than_the_negotiated_frame_max_is_a_frame_error_at_its_size_field()
    {
        byte[] stream = ClientStream();
        var output = new ArrayBufferWriter<byte>();
        output.Write(stream);
        AmqpFrameWriter.WriteBody(output, 1, new byte[5000], 0);
        var result = CliRunner.Run(output.WrittenSpan.ToArray(), "amqp", "decode");
        Assert.Equal(2, result.ExitCode);
        Assert.Single(result.ErrorLines);
        Assert.Contains($"frame-error (501) at byte {stream.Length + 3}", result.StdErr, StringComparison.Ordinal);
        Assert.Contains("exceeds frame_max 4096", result.StdErr, StringComparison.Ordinal);
    }

    [Fact]
    public void A_bad_frame_end_is_a_frame_error_with_its_offset()
    {
        byte[] stream = Convert.FromHexString("0100010000000D003C0050000000000000000100CD");
        var result = CliRunner.Run(stream, "amqp", "decode", "--from", "server");
        Assert.Equal(2, result.ExitCode);
        Assert.Single(result.ErrorLines);
        Assert.Contains("frame-error (501) at byte 20", result.StdErr, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--from", "broker")]
    [InlineData("--to", "client")]
    public void Bad_options_are_one_line_and_exit_2(string option, string value)
    {
        var result = CliRunner.Run(ClientStream(), "amqp", "decode", option, value);
        Assert.Equal(2, result.ExitCode);
        Assert.Single(result.ErrorLines);
    }
}
