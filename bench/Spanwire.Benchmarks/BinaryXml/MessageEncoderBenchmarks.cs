using System.ServiceModel.Channels;
using BenchmarkDotNet.Attributes;
using Spanwire.ServiceModel;

namespace Spanwire.Benchmarks.BinaryXml;

/// <summary>
/// A WCF binary message round trip through the encoder, as a service does for every call: write a request with
/// addressing headers and a DataContract body into the transport's buffer manager, read it back, deserialize the body,
/// close the message (which gives the buffer back). WCF's BinaryMessageEncodingBindingElement (baseline) against
/// SpanwireBinaryMessageEncodingBindingElement.
/// </summary>
[MemoryDiagnoser]
public class MessageEncoderBenchmarks
{
    public enum Body { LoginViewModel, IndexViewModel }

    [Params(Body.LoginViewModel, Body.IndexViewModel)]
    public Body Shape { get; set; }

    private readonly BufferManager _buffers = BufferManager.CreateBufferManager(1 << 20, 1 << 20);
    private readonly MessageEncoder _inBox = new BinaryMessageEncodingBindingElement().CreateMessageEncoderFactory().Encoder;
    private readonly MessageEncoder _spanwire = new SpanwireBinaryMessageEncodingBindingElement().CreateMessageEncoderFactory().Encoder;
    private readonly System.Xml.UniqueId _messageId = new(new Guid("11111111-2222-3333-4444-555555555555"));
    private readonly Uri _to = new("http://127.0.0.1:8080/orders");
    private object _value = null!;

    [GlobalSetup]
    public void Setup() => _value = Shape == Body.LoginViewModel ? SerializerGraphs.Login() : SerializerGraphs.Index();

    [Benchmark(Baseline = true)]
    public object? InBox() => RoundTrip(_inBox);

    [Benchmark]
    public object? Spanwire() => RoundTrip(_spanwire);

    private object? RoundTrip(MessageEncoder encoder)
    {
        Message request = Message.CreateMessage(encoder.MessageVersion, "http://tempuri.org/IOrders/Place", _value);
        request.Headers.MessageId = _messageId;
        request.Headers.To = _to;
        ArraySegment<byte> bytes = encoder.WriteMessage(request, int.MaxValue, _buffers);
        using Message received = encoder.ReadMessage(bytes, _buffers, encoder.ContentType);
        return Shape == Body.LoginViewModel ? received.GetBody<SerializerGraphs.LoginViewModel>() : received.GetBody<SerializerGraphs.IndexViewModel>();
    }
}
