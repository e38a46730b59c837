using System.Reflection;
using System.Security.Cryptography;
using BenchmarkDotNet.Attributes;
using Spanwire.Benchmarks.Amqp;
using Spanwire.Benchmarks.Buffers;
using Spanwire.Benchmarks.Signing;

namespace Spanwire.Benchmarks.Tests;

/// <summary>A benchmark compares like with like only if every row does the same work: these check that they do.</summary>
public sealed class BenchmarkRowsAgreeTests
{
    private static object?[] RunEveryBenchmark(object instance) =>
        instance.GetType().GetMethods()
            .Where(m => m.GetCustomAttribute<BenchmarkAttribute>() is not null)
            .Select(m => m.Invoke(instance, null))
            .ToArray();

    [Fact]
    public void Every_AMQP_table_and_properties_write_row_writes_the_same_bytes_as_RabbitMQ_Client()
    {
        var table = new AmqpTableWriteBenchmarks();
        int expected = table.RabbitMqClientFromDictionary();
        byte[] theirs = table.LastWritten(expected);
        Assert.Equal(theirs, table.LastWritten(table.SpanwireWriter()));
        Assert.Equal(theirs, table.LastWritten(table.SpanwireFromDictionary()));

        var properties = new AmqpPropertiesWriteBenchmarks();
        byte[] theirProperties = properties.LastWritten(properties.RabbitMqClient());
        Assert.Equal(theirProperties, properties.LastWritten(properties.Spanwire()));
    }

    [Fact]
    public void The_template_publish_rows_write_the_frames_of_the_string_rows()
    {
        var publish = new AmqpPublishBenchmarks();
        publish.Setup();
        Assert.Equal(publish.PublishFrames512(), publish.Template512());
        byte[] template = publish.LastWritten();
        publish.PublishFrames512();
        Assert.Equal(publish.LastWritten(), template);
        Assert.Equal(publish.PublishFramesEmptyBody(), publish.TemplateEmptyBody());

        var large = new AmqpPublishLargeBodyBenchmarks();
        Assert.Equal(large.TemplateCopied64K(), large.TemplateBorrowed64K());
        Assert.Equal(large.LastCopied(), large.LastBorrowed());
        // frame_max 0xFFFF cuts the body into 65,527 + 9 bytes: the first piece is borrowed, the 9 bytes copied.
        Assert.Equal(0xFFFF - 8, large.BorrowedCount);
        large.Cleanup();
    }

    [Theory]
    [InlineData(14)]
    [InlineData(22)]
    public void Both_shortstr_rows_write_the_same_bytes(int length)
    {
        // A fresh instance per row, so neither row can pass on the other's bytes.
        var baseline = new AmqpShortStringBenchmarks { Length = length };
        baseline.Setup();
        byte[] expected = baseline.LastWritten(baseline.AsciiFromUtf16());
        Assert.Equal([(byte)length, .. System.Text.Encoding.ASCII.GetBytes(AmqpInputs.ExchangeOrRoutingKey[..length])], expected);

        var ours = new AmqpShortStringBenchmarks { Length = length };
        ours.Setup();
        Assert.Equal(expected, ours.LastWritten(ours.Spanwire()));
    }

    [Fact]
    public void Every_serialize_and_sign_row_produces_the_same_signature()
    {
        var benchmarks = new SerializeAndSignBenchmarks();
        benchmarks.Setup();
        byte[] json = benchmarks.BaselineBytes();
        string expected = Convert.ToHexStringLower(HMACSHA256.HashData(SerializeAndSignBenchmarks.Key, json));

        object?[] signatures = RunEveryBenchmark(benchmarks);
        Assert.Equal(9, signatures.Length);
        Assert.All(signatures, s => Assert.Equal(expected, s));
        Assert.Equal(json, benchmarks.SystemTextJsonBytes());
    }

    [Fact]
    public void The_envelope_is_about_a_megabyte_of_camelCase_json()
    {
        var benchmarks = new SerializeAndSignBenchmarks();
        benchmarks.Setup();
        string json = System.Text.Encoding.UTF8.GetString(benchmarks.BaselineBytes());
        Assert.InRange(json.Length, 900_000, 1_300_000);
        Assert.StartsWith("{\"widgets\":[{\"id\":\"", json, StringComparison.Ordinal);
        Assert.Contains("\"property9\":\"Property92999\",\"createdUtc\":\"2024-01-01T00:49:59Z\"}]}", json, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(100)]
    [InlineData(4096)]
    public void Every_buffer_row_writes_the_same_length(int pieceSize)
    {
        var benchmarks = new BufferWriteBenchmarks { PieceSize = pieceSize };
        benchmarks.Setup();
        object?[] lengths = RunEveryBenchmark(benchmarks);
        Assert.All(lengths, l => Assert.Equal((long)(1 << 20) / pieceSize * pieceSize, l));
    }

    [Fact]
    public void Every_small_message_row_writes_100_bytes()
    {
        var benchmarks = new SmallMessageBenchmarks();
        benchmarks.Setup();
        Assert.All(RunEveryBenchmark(benchmarks), l => Assert.Equal(100L, l));
    }

    [Fact]
    public void Every_round_trip_row_copies_64_KiB()
    {
        var benchmarks = new SequenceRoundTripBenchmarks();
        benchmarks.Setup();
        Assert.All(RunEveryBenchmark(benchmarks), l => Assert.Equal(64L * 1024, l));
    }

    [Fact]
    public void Both_segment_sources_hand_out_64_KiB()
    {
        var benchmarks = new SegmentSourceBenchmarks();
        Assert.All(RunEveryBenchmark(benchmarks), l => Assert.True((int)l! >= 65536));
    }
}

/// <summary>The binary XML rows compare like with like: the same graph gives the same bytes on both sides.</summary>
public class BinaryXmlBenchmarkRowsAgreeTests
{
    [Theory]
    [InlineData(Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks.Graph.LoginViewModel)]
    [InlineData(Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks.Graph.Location)]
    [InlineData(Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks.Graph.IndexViewModel)]
    [InlineData(Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks.Graph.CollectionsOfPrimitives)]
    public void Both_DataContract_write_rows_write_the_same_length(Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks.Graph shape)
    {
        var benchmark = new Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks { Shape = shape };
        benchmark.Setup();
        Assert.Equal(benchmark.InBox(), benchmark.DropIn());
    }

    [Theory]
    [InlineData(Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks.Graph.LoginViewModel)]
    [InlineData(Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks.Graph.Location)]
    [InlineData(Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks.Graph.IndexViewModel)]
    [InlineData(Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks.Graph.CollectionsOfPrimitives)]
    public void Both_DataContract_read_rows_read_the_same_graph(Spanwire.Benchmarks.BinaryXml.DataContractWriteBenchmarks.Graph shape)
    {
        var benchmark = new Spanwire.Benchmarks.BinaryXml.DataContractReadBenchmarks { Shape = shape };
        benchmark.Setup();
        AssertSameGraph(benchmark.InBox()!, benchmark.DropIn()!);
    }

    [Fact]
    public void The_raw_read_rows_read_the_whole_megabyte()
    {
        var benchmark = new Spanwire.Benchmarks.BinaryXml.NbfxReadBenchmarks();
        benchmark.Setup();
        Assert.Equal(benchmark.InBox(), benchmark.DropIn());
        Assert.Equal(benchmark.InBox(), benchmark.NodeFloor()); // the floor hands out every node the readers do
        Assert.True(benchmark.NbfxReader() > benchmark.InBox() / 2);
        Assert.InRange(Spanwire.Benchmarks.BinaryXml.NbfxReadBenchmarks.MixedDocument(1 << 20).Length, 1 << 20, (1 << 20) + 4096);
    }

    [Theory]
    [InlineData(Spanwire.Benchmarks.BinaryXml.MessageEncoderBenchmarks.Body.LoginViewModel)]
    [InlineData(Spanwire.Benchmarks.BinaryXml.MessageEncoderBenchmarks.Body.IndexViewModel)]
    public void Both_encoder_round_trip_rows_read_back_the_same_graph(Spanwire.Benchmarks.BinaryXml.MessageEncoderBenchmarks.Body shape)
    {
        var benchmark = new Spanwire.Benchmarks.BinaryXml.MessageEncoderBenchmarks { Shape = shape };
        benchmark.Setup();
        AssertSameGraph(benchmark.InBox()!, benchmark.Spanwire()!);
    }

    /// <summary>The two graphs serialize to the same bytes (the in-box serializer's view of "the same graph").</summary>
    private static void AssertSameGraph(object inBox, object other)
    {
        var serializer = new System.Runtime.Serialization.DataContractSerializer(inBox.GetType());
        Assert.Equal(Bytes(serializer, inBox), Bytes(serializer, other));
    }

    private static string Bytes(System.Runtime.Serialization.DataContractSerializer serializer, object graph)
    {
        var stream = new MemoryStream();
        using (var writer = System.Xml.XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            serializer.WriteObject(writer, graph);
        }

        return Convert.ToHexString(stream.ToArray());
    }
}
