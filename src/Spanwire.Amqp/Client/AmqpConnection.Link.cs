using System.Net.Security;
using System.Net.Sockets;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

public sealed partial class AmqpConnection
{
    /// <summary>
    /// One TCP (or TLS) connection to one endpoint, with its reader and writer threads, frame output, receive buffer,
    /// decoder and connection-level request slot. A connection keeps one at a time; recovery replaces a lost one with
    /// a new one, while channels, consumers and recorded topology stay with the connection. The loops of a link only
    /// ever touch their own link, so a late failure of a lost link cannot disturb its successor.
    /// </summary>
    private sealed class Link(AmqpConnectionOptions options, AmqpEndpoint endpoint)
    {
        private int _ended;
        private int _released;

        public AmqpEndpoint Endpoint { get; } = endpoint;

        public Socket Socket { get; } = new(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };

        public FrameOutput Output { get; } = new(options.Pool);

        public ReceiveBuffer Receive { get; } = new(options.Pool);

        public AmqpFrameReader Decoder { get; } = new() { AllowProtocolHeader = false };

        public RpcSlot Rpc { get; } = new(options.ContinuationTimeout);

        public CancellationTokenSource Stop { get; } = new();

        public TaskCompletionSource WriterEnded { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public ManualResetEventSlim ReaderStopped { get; } = new();

        /// <summary>The broker's connection.close, kept before close-ok goes out (see AcceptBrokerClose).</summary>
        public AmqpConnectionClosedException? BrokerClose;

        public SslStream? Tls;

        /// <summary>The credentials this link logs in with, asked for before it connects.</summary>
        public AmqpCredentials? Credentials;

        public Task HeartbeatLoop = Task.CompletedTask;

        public long LastReceiveTicks = Environment.TickCount64;

        /// <summary>True for the first caller only: the first failure of a link decides why it ended.</summary>
        public bool TryEnd() => Interlocked.Exchange(ref _ended, 1) == 0;

        /// <summary>True for the first caller only: the buffers go back to the pool once.</summary>
        public bool TryRelease() => Interlocked.Exchange(ref _released, 1) == 0;

        public bool HasEnded => Volatile.Read(ref _ended) != 0;
    }
}
