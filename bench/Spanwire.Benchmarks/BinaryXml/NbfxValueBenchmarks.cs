using System.Xml;
using BenchmarkDotNet.Attributes;
using Spanwire.BinaryXml;

namespace Spanwire.Benchmarks.BinaryXml;

/// <summary>
/// Section 1 of benchmarks.md: one value per call into an open &lt;root&gt;, the output discarded. The in-box binary
/// writer over Stream.Null is the baseline; the XmlDictionaryWriter drop-in writes over Stream.Null too, and
/// NbfxWriter (which has only the IBufferWriter form) into a buffer writer that discards.
/// </summary>
[MemoryDiagnoser]
public class NbfxValueBenchmarks
{
    public enum Value { WriteInt32, WriteInt64, WriteDouble, WriteDecimal, WriteGuid, WriteTimeSpan, WriteGuidArray, WriteDoubleArray }

    [Params(Value.WriteInt32, Value.WriteInt64, Value.WriteDouble, Value.WriteDecimal, Value.WriteGuid, Value.WriteTimeSpan, Value.WriteGuidArray, Value.WriteDoubleArray)]
    public Value Case { get; set; }

    private XmlDictionaryWriter _inBox = null!;
    private XmlDictionaryWriter _dropIn = null!;
    private NbfxWriter _writer = null!;
    private readonly Guid _guid = new("00112233-4455-6677-8899-aabbccddeeff");
    private readonly TimeSpan _timeSpan = TimeSpan.FromTicks(123456789);
    private readonly Guid[] _guids = Enumerable.Range(0, 100).Select(i => new Guid(i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)).ToArray();
    private readonly double[] _doubles = Enumerable.Repeat(4.0 / 3.0, 100).ToArray();

    [GlobalSetup]
    public void Setup()
    {
        _inBox = XmlDictionaryWriter.CreateBinaryWriter(Stream.Null);
        _inBox.WriteStartDocument();
        _inBox.WriteStartElement("root");
        _dropIn = Spanwire.BinaryXml.Nbfx.CreateWriter(Stream.Null);
        _dropIn.WriteStartDocument();
        _dropIn.WriteStartElement("root");
        _writer = new NbfxWriter(new DiscardBufferWriter());
        _writer.WriteStartElement(null, "root");
    }

    [Benchmark(Baseline = true)]
    public void InBox() => Write<InBoxSite>(_inBox);

    [Benchmark]
    public void DropIn() => Write<DropInSite>(_dropIn);

    [Benchmark]
    public void NbfxWriter()
    {
        NbfxWriter w = _writer;
        switch (Case)
        {
            case Value.WriteInt32: w.WriteValue(unchecked((int)0xdeadbeef)); break;
            case Value.WriteInt64: w.WriteValue(long.MaxValue); break;
            case Value.WriteDouble: w.WriteValue(1.0 / 3.0); break;
            case Value.WriteDecimal: w.WriteValue(1.2m); break;
            case Value.WriteGuid: w.WriteValue(_guid); break;
            case Value.WriteTimeSpan: w.WriteValue(_timeSpan); break;
            case Value.WriteGuidArray: w.WriteArray(null, "a", _guids); break;
            default: w.WriteArray(null, "a", _doubles); break;
        }
    }

    // Each writer calls through code of its own (a generic method over a struct is compiled once per type), so the
    // runtime's profile of one call site does not favour whichever writer it saw first, as a shared site would.
    private struct InBoxSite;

    private struct DropInSite;

    private void Write<TSite>(XmlDictionaryWriter w)
        where TSite : struct
    {
        switch (Case)
        {
            case Value.WriteInt32: w.WriteValue(unchecked((int)0xdeadbeef)); break;
            case Value.WriteInt64: w.WriteValue(long.MaxValue); break;
            case Value.WriteDouble: w.WriteValue(1.0 / 3.0); break;
            case Value.WriteDecimal: w.WriteValue(1.2m); break;
            case Value.WriteGuid: w.WriteValue(_guid); break;
            case Value.WriteTimeSpan: w.WriteValue(_timeSpan); break;
            case Value.WriteGuidArray: w.WriteArray(null, "a", null, _guids, 0, 100); break;
            default: w.WriteArray(null, "a", null, _doubles, 0, 100); break;
        }
    }
}
