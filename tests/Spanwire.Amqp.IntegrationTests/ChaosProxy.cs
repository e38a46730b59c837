using System.Net;
using System.Net.Sockets;

namespace Spanwire.Amqp.IntegrationTests;

/// <summary>
/// A TCP proxy on loopback in front of a broker that resets connections on demand (both sides, RST), for faults a
/// broker does not produce: the network dropping a connection in the middle of anything.
/// </summary>
public sealed class ChaosProxy : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly IPEndPoint _upstream;
    private readonly List<(Socket Client, Socket Server)> _pairs = [];
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _accepting;

    public ChaosProxy(IPEndPoint upstream)
    {
        _upstream = upstream;
        _listener.Start();
        _accepting = AcceptAsync();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>Connections reset so far.</summary>
    public int Cuts { get; private set; }

    /// <summary>Resets one live connection, chosen at random; false when there is none.</summary>
    public bool CutOne(Random random)
    {
        (Socket Client, Socket Server) pair;
        lock (_pairs)
        {
            if (_pairs.Count == 0)
            {
                return false;
            }

            int index = random.Next(_pairs.Count);
            pair = _pairs[index];
            _pairs.RemoveAt(index);
        }

        Reset(pair.Client);
        Reset(pair.Server);
        Cuts++;
        return true;
    }

    public async ValueTask DisposeAsync()
    {
        _stop.Cancel();
        _listener.Stop();
        await _accepting.ConfigureAwait(false);
        lock (_pairs)
        {
            foreach ((Socket client, Socket server) in _pairs)
            {
                client.Dispose();
                server.Dispose();
            }
        }
    }

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket client;
            try
            {
                client = await _listener.AcceptSocketAsync(_stop.Token).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
            {
                return;
            }

            var server = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            client.NoDelay = true;
            try
            {
                await server.ConnectAsync(_upstream, _stop.Token).ConfigureAwait(false);
            }
            catch (Exception)
            {
                Reset(client);
                server.Dispose();
                continue;
            }

            lock (_pairs)
            {
                _pairs.Add((client, server));
            }

            _ = PumpAsync(client, server);
            _ = PumpAsync(server, client);
        }
    }

    private async Task PumpAsync(Socket from, Socket to)
    {
        var buffer = new byte[16 * 1024];
        try
        {
            while (true)
            {
                int count = await from.ReceiveAsync(buffer, SocketFlags.None).ConfigureAwait(false);
                if (count == 0)
                {
                    break;
                }

                await to.SendAsync(buffer.AsMemory(0, count), SocketFlags.None).ConfigureAwait(false);
            }
        }
        catch (Exception)
        {
            // One side went: the other goes too.
        }

        Reset(from);
        Reset(to);
    }

    private static void Reset(Socket socket)
    {
        try
        {
            socket.LingerState = new LingerOption(true, 0);
            socket.Close();
        }
        catch (Exception)
        {
            // Already closed.
        }
    }
}
