using System.Runtime.Serialization;
using System.Xml;
using BenchmarkDotNet.Attributes;

namespace Spanwire.Benchmarks.BinaryXml;

/// <summary>
/// DataContractSerializer.ReadObject through the in-box binary reader (baseline) and through the drop-in, for the
/// same graphs as <see cref="DataContractWriteBenchmarks"/>, from the bytes the in-box writer writes.
/// </summary>
[MemoryDiagnoser]
public class DataContractReadBenchmarks
{
    [Params(DataContractWriteBenchmarks.Graph.LoginViewModel, DataContractWriteBenchmarks.Graph.Location,
        DataContractWriteBenchmarks.Graph.IndexViewModel, DataContractWriteBenchmarks.Graph.CollectionsOfPrimitives)]
    public DataContractWriteBenchmarks.Graph Shape { get; set; }

    private byte[] _bytes = null!;
    private DataContractSerializer _serializer = null!;
    private readonly XmlDictionaryReaderQuotas _quotas = XmlDictionaryReaderQuotas.Max;

    [GlobalSetup]
    public void Setup()
    {
        object value = Shape switch
        {
            DataContractWriteBenchmarks.Graph.LoginViewModel => SerializerGraphs.Login(),
            DataContractWriteBenchmarks.Graph.Location => SerializerGraphs.Location(),
            DataContractWriteBenchmarks.Graph.IndexViewModel => SerializerGraphs.Index(),
            _ => SerializerGraphs.Primitives(),
        };
        _serializer = new DataContractSerializer(value.GetType());
        var stream = new MemoryStream();
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            _serializer.WriteObject(writer, value);
        }

        _bytes = stream.ToArray();
    }

    [Benchmark(Baseline = true)]
    public object? InBox()
    {
        using XmlDictionaryReader reader = XmlDictionaryReader.CreateBinaryReader(_bytes, _quotas);
        return _serializer.ReadObject(reader);
    }

    [Benchmark]
    public object? DropIn()
    {
        using XmlDictionaryReader reader = Spanwire.BinaryXml.Nbfx.CreateReader(_bytes, null, _quotas);
        return _serializer.ReadObject(reader);
    }
}
