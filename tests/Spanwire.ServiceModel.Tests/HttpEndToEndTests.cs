using System.Net;
using System.Net.Sockets;
using System.Runtime.Serialization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Xml;

namespace Spanwire.ServiceModel.Tests;

[ServiceContract(Namespace = "urn:spanwire:orders")]
public interface IOrders
{
    [OperationContract]
    Order Place(Order order);

    [OperationContract]
    [FaultContract(typeof(OrderRefused))]
    void Refuse(string reason);
}

/// <summary>
/// End to end: a WCF client (ChannelFactory over a CustomBinding of Spanwire's encoding and WCF's HTTP transport)
/// calling a small HTTP service on 127.0.0.1 that reads its requests and writes its replies with WCF's own binary
/// encoder.
/// </summary>
public sealed class HttpEndToEndTests : IDisposable
{
    private const string Ns = "urn:spanwire:orders";
    private readonly Server _server = new(new BinaryMessageEncodingBindingElement().CreateMessageEncoderFactory().Encoder);
    private readonly List<string> _requestContentTypes;
    private readonly string _address;

    public HttpEndToEndTests()
    {
        _requestContentTypes = _server.RequestContentTypes;
        _address = _server.Address;
    }

    public void Dispose() => _server.Dispose();

    /// <summary>An HTTP service on 127.0.0.1 that reads its requests and writes its replies with the encoder given (WCF's).</summary>
    internal sealed class Server : IDisposable
    {
        private readonly HttpListener _listener = new();
        private readonly MessageEncoder _encoder;
        private readonly BufferManager _buffers = BufferManager.CreateBufferManager(0, int.MaxValue);
        private readonly Task _serving;

        public Server(MessageEncoder encoder)
        {
            _encoder = encoder;
            var probe = new TcpListener(IPAddress.Loopback, 0);
            probe.Start();
            int port = ((IPEndPoint)probe.LocalEndpoint).Port;
            probe.Stop();
            Address = $"http://127.0.0.1:{port}/orders/";
            _listener.Prefixes.Add(Address);
            _listener.Start();
            _serving = Task.Run(ServeAsync);
        }

        public string Address { get; }

        /// <summary>The content type of each request received (lock it to read).</summary>
        public List<string> RequestContentTypes { get; } = [];

        public void Dispose()
        {
            _listener.Stop();
            _listener.Close();
            _serving.Wait(5000);
        }

        private async Task ServeAsync()
        {
            while (_listener.IsListening)
            {
                HttpListenerContext context;
                try
                {
                    context = await _listener.GetContextAsync();
                }
                catch (Exception e) when (e is HttpListenerException or ObjectDisposedException or InvalidOperationException)
                {
                    return;
                }

                _ = Task.Run(() => Handle(context));
            }
        }

        private void Handle(HttpListenerContext context)
        {
            try
            {
                lock (RequestContentTypes)
                {
                    RequestContentTypes.Add(context.Request.ContentType ?? "");
                }

                var body = new MemoryStream();
                context.Request.InputStream.CopyTo(body);
                byte[] buffer = _buffers.TakeBuffer((int)body.Length);
                body.GetBuffer().AsSpan(0, (int)body.Length).CopyTo(buffer);
                using Message request = _encoder.ReadMessage(new ArraySegment<byte>(buffer, 0, (int)body.Length), _buffers, context.Request.ContentType);
                Message reply = Answer(request, out bool isFault);
                reply.Headers.RelatesTo = request.Headers.MessageId;
                ArraySegment<byte> written = _encoder.WriteMessage(reply, int.MaxValue, _buffers);
                context.Response.StatusCode = isFault ? 500 : 200;
                context.Response.ContentType = _encoder.ContentType;
                context.Response.ContentLength64 = written.Count;
                context.Response.OutputStream.Write(written.AsSpan());
                _buffers.ReturnBuffer(written.Array!);
                context.Response.Close();
            }
            catch (Exception e)
            {
                context.Response.StatusCode = 400;
                using (var writer = new StreamWriter(context.Response.OutputStream))
                {
                    writer.Write(e.ToString());
                }

                context.Response.Close();
            }
        }
    }

    private ChannelFactory<IOrders> Client()
    {
        var binding = new CustomBinding(new SpanwireBinaryMessageEncodingBindingElement(), new HttpTransportBindingElement { MaxReceivedMessageSize = 16 << 20 })
        {
            SendTimeout = TimeSpan.FromSeconds(30),
            ReceiveTimeout = TimeSpan.FromSeconds(30),
        };
        return new ChannelFactory<IOrders>(binding, new EndpointAddress(_address));
    }

    [Fact]
    public void Call_round_trips_a_data_contract()
    {
        using ChannelFactory<IOrders> factory = Client();
        IOrders orders = factory.CreateChannel();
        Order sent = Messages.SampleOrder(lines: 5);
        Order reply = orders.Place(sent);
        Expect.Equal(sent.Id + 1, reply.Id, "the service's answer");
        Expect.Equal(sent.Customer, reply.Customer, "customer");
        Expect.Equal(sent.Total, reply.Total, "total");
        Expect.Equal(sent.Lines.Count, reply.Lines.Count, "lines");
        ((IClientChannel)orders).Close();
        lock (_requestContentTypes)
        {
            Assert.All(_requestContentTypes, type => Assert.StartsWith("application/soap+msbin1", type, StringComparison.Ordinal));
        }
    }

    [Fact]
    public void Call_large_body_both_ways()
    {
        using ChannelFactory<IOrders> factory = Client();
        IOrders orders = factory.CreateChannel();
        Order sent = Messages.SampleOrder(lines: 2000, attachment: 3 << 20);
        Order reply = orders.Place(sent);
        Expect.Equal(sent.Lines.Count, reply.Lines.Count, "lines");
        Assert.Equal(sent.Attachment, reply.Attachment);
        ((IClientChannel)orders).Close();
    }

    [Theory]
    [InlineData(TransferMode.Streamed)]
    [InlineData(TransferMode.StreamedResponse)]
    [InlineData(TransferMode.StreamedRequest)]
    public void Call_streamed_as_a_client_on_WCF_s_encoding(TransferMode mode)
    {
        // Streamed, the reply is read from the response stream as the body is deserialized, with the binding's quotas
        // (a 1 MB attachment is past the default MaxArrayLength): the same call through WCF's element is the control.
        foreach (bool raised in new[] { false, true })
        {
            string expected = StreamedCall(new BinaryMessageEncodingBindingElement(), mode, raised);
            string actual = StreamedCall(new SpanwireBinaryMessageEncodingBindingElement(), mode, raised);
            Expect.Equal(expected, actual, $"{mode}, {(raised ? "raised" : "default")} quotas");
        }
    }

    private string StreamedCall(MessageEncodingBindingElement encoding, TransferMode mode, bool raiseQuotas)
    {
        if (raiseQuotas)
        {
            System.Xml.XmlDictionaryReaderQuotas quotas = encoding is SpanwireBinaryMessageEncodingBindingElement ours ? ours.ReaderQuotas : ((BinaryMessageEncodingBindingElement)encoding).ReaderQuotas;
            quotas.MaxArrayLength = int.MaxValue;
        }

        var binding = new CustomBinding(encoding, new HttpTransportBindingElement { MaxReceivedMessageSize = 16 << 20, TransferMode = mode })
        {
            SendTimeout = TimeSpan.FromSeconds(30),
            ReceiveTimeout = TimeSpan.FromSeconds(30),
        };
        using var factory = new ChannelFactory<IOrders>(binding, new EndpointAddress(_address));
        IOrders orders = factory.CreateChannel();
        Order sent = Messages.SampleOrder(lines: 500, attachment: 1 << 20);
        try
        {
            Order reply = orders.Place(sent);
            ((IClientChannel)orders).Close();
            return $"answered {reply.Id - sent.Id}, {reply.Lines.Count} lines, attachment {(reply.Attachment.AsSpan().SequenceEqual(sent.Attachment) ? "intact" : "changed")}";
        }
        catch (Exception e) when (e is not Xunit.Sdk.XunitException)
        {
            ((IClientChannel)orders).Abort();
            return $"{e.GetType().Name} over {e.InnerException?.GetType().Name}";
        }
    }

    [Fact]
    public void Call_many_in_a_row_on_one_channel()
    {
        using ChannelFactory<IOrders> factory = Client();
        IOrders orders = factory.CreateChannel();
        for (int i = 0; i < 50; i++)
        {
            Order sent = Messages.SampleOrder(lines: i % 7);
            sent.Id = i;
            Expect.Equal(i + 1, orders.Place(sent).Id, $"call {i}");
        }

        ((IClientChannel)orders).Close();
    }

    [Fact]
    public void Fault_arrives_as_typed_fault_exception()
    {
        using ChannelFactory<IOrders> factory = Client();
        IOrders orders = factory.CreateChannel();
        FaultException<OrderRefused> fault = Assert.Throws<FaultException<OrderRefused>>(() => orders.Refuse("out of stock"));
        Expect.Equal("out of stock", fault.Detail.Reason, "detail");
        Expect.Equal(409, fault.Detail.Code, "detail code");
        Expect.Equal("The order was refused.", fault.Reason.GetMatchingTranslation().Text, "reason");
        ((IClientChannel)orders).Abort();
    }

    private static Message Answer(Message request, out bool isFault)
    {
        string action = request.Headers.Action;
        using XmlDictionaryReader reader = request.GetReaderAtBodyContents();
        if (action == $"{Ns}/IOrders/Place")
        {
            isFault = false;
            reader.ReadStartElement("Place", Ns);
            var order = (Order)new DataContractSerializer(typeof(Order), "order", Ns).ReadObject(reader)!;
            order.Id++;
            return Message.CreateMessage(request.Version, $"{Ns}/IOrders/PlaceResponse", new WrappedBody("PlaceResponse", "PlaceResult", order));
        }

        isFault = true;
        reader.ReadStartElement("Refuse", Ns);
        string reason = reader.ReadElementContentAsString("reason", Ns);
        FaultCode code = FaultCode.CreateSenderFaultCode(new FaultCode("Refused", Ns));
        return Message.CreateMessage(request.Version, code, "The order was refused.", new OrderRefused { Reason = reason, Code = 409 }, $"{Ns}/IOrders/RefuseOrderRefusedFault");
    }

    private sealed class WrappedBody(string wrapper, string part, Order value) : BodyWriter(isBuffered: true)
    {
        protected override void OnWriteBodyContents(XmlDictionaryWriter writer)
        {
            writer.WriteStartElement(wrapper, Ns);
            new DataContractSerializer(typeof(Order), part, Ns).WriteObject(writer, value);
            writer.WriteEndElement();
        }
    }
}
