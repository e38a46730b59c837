using System.Text;
using System.Xml;
using BenchmarkDotNet.Attributes;
using Spanwire.BinaryXml;

namespace Spanwire.Benchmarks.BinaryXml;

/// <summary>
/// Section 2 of benchmarks.md: string text of a given length, ASCII only, mostly ASCII with a few non-ASCII chars, or
/// all CJK. The quick mode measures 5, 16, 32, 84 and 170 chars; the full mode every listed length.
/// </summary>
[MemoryDiagnoser]
public class NbfxStringBenchmarks
{
    public enum Mix { AsciiOnly, Mixed, NonAscii }

    public static IEnumerable<int> Lengths => Environment.GetEnvironmentVariable("SPANWIRE_BENCH_FULL") == "1"
        ? [5, 8, 10, 16, 20, 30, 32, 34, 50, 84, 170]
        : [5, 16, 32, 84, 170];

    [ParamsSource(nameof(Lengths))]
    public int Length { get; set; }

    [Params(Mix.AsciiOnly, Mix.Mixed, Mix.NonAscii)]
    public Mix Chars { get; set; }

    private string _text = "";
    private XmlDictionaryWriter _inBox = null!;
    private NbfxWriter _writer = null!;

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(42);
        var text = new StringBuilder();
        for (int i = 0; i < Length; i++)
        {
            text.Append(Chars switch
            {
                Mix.AsciiOnly => (char)('a' + random.Next(26)),
                Mix.Mixed => i % 10 == 9 ? 'é' : (char)('a' + random.Next(26)),
                _ => (char)(0x4E00 + random.Next(0x5000)),
            });
        }

        _text = text.ToString();
        _inBox = XmlDictionaryWriter.CreateBinaryWriter(Stream.Null);
        _inBox.WriteStartElement("root");
        _writer = new NbfxWriter(new DiscardBufferWriter());
        _writer.WriteStartElement(null, "root");
    }

    [Benchmark(Baseline = true)]
    public void InBox() => _inBox.WriteString(_text);

    [Benchmark]
    public void NbfxWriter() => _writer.WriteString(_text);
}
