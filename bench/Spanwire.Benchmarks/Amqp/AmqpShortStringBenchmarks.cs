using System.Buffers;
using System.Text;
using BenchmarkDotNet.Attributes;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Benchmarks.Amqp;

/// <summary>
/// A name written as a shortstr, against the BCL's vectorized <see cref="Ascii.FromUtf16"/> into the same place: the
/// measured reason the codec narrows short ASCII itself (benchmarks.md section 5's names are 14 to 22 characters).
/// </summary>
[MemoryDiagnoser]
public class AmqpShortStringBenchmarks
{
    private readonly byte[] _buffer = new byte[300];
    private string _text = "";

    /// <summary>The bytes the last row wrote (for the test that both rows write the same).</summary>
    public byte[] LastWritten(int length) => _buffer[..length];

    [Params(14, 22)]
    public int Length { get; set; }

    [GlobalSetup]
    public void Setup() => _text = AmqpInputs.ExchangeOrRoutingKey.PadRight(32, 'x')[..Length];

    [Benchmark(Baseline = true)]
    public int AsciiFromUtf16()
    {
        Span<byte> buffer = _buffer;
        if (Ascii.FromUtf16(_text, buffer[1..], out int written) != OperationStatus.Done)
        {
            throw new InvalidOperationException("not ASCII");
        }

        buffer[0] = (byte)written;
        return written + 1;
    }

    [Benchmark]
    public int Spanwire()
    {
        var writer = new AmqpPayloadWriter(_buffer);
        writer.WriteShortString(_text);
        return writer.Position;
    }
}
