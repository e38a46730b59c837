using System.Net.Sockets;
using System.Runtime.InteropServices;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Cli.Commands;

/// <summary>Runs a broker conversation and turns its failures into one line a person can act on.</summary>
internal static class AmqpClientErrors
{
    public static int Run(Func<CancellationToken, Task<int>> body)
    {
        using var interrupted = new CancellationTokenSource();

        // Ctrl+C and SIGTERM (a service manager, docker stop, kill) end the conversation the same way: the command
        // stops, settles what it can (consume acknowledges what it wrote) and prints its summary.
        Action<PosixSignalContext> onSignal = context =>
        {
            context.Cancel = true;
            interrupted.Cancel();
        };
        using PosixSignalRegistration sigint = PosixSignalRegistration.Create(PosixSignal.SIGINT, onSignal);
        using PosixSignalRegistration sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, onSignal);
        try
        {
            return body(interrupted.Token).GetAwaiter().GetResult();
        }
        catch (FormatException ex)
        {
            throw new CliException(ex.Message.TrimEnd('.'));
        }
        catch (SocketException ex)
        {
            throw new CliException($"cannot connect to the broker: {ex.Message}");
        }
        catch (System.Security.Authentication.AuthenticationException ex)
        {
            throw new CliException(ex.Message.TrimEnd('.'));
        }
        catch (TimeoutException ex)
        {
            throw new CliException(ex.Message.TrimEnd('.'));
        }
        catch (AmqpClosedException ex)
        {
            throw new CliException(ex.Message);
        }
        catch (AmqpPublishNackedException ex)
        {
            throw new CliException(ex.Message.TrimEnd('.'));
        }
        catch (AmqpProtocolException ex)
        {
            throw new CliException($"protocol error from the broker: {ex.Message}");
        }
        catch (OperationCanceledException) when (interrupted.IsCancellationRequested)
        {
            throw new CliException("interrupted");
        }
    }

    /// <summary>Writes "verb: N messages" to stderr at most every two seconds.</summary>
    public sealed class Progress(string verb)
    {
        private long _lastTicks = Environment.TickCount64;

        public void Report(long count)
        {
            long now = Environment.TickCount64;
            if (now - _lastTicks >= 2000)
            {
                _lastTicks = now;
                Console.Error.WriteLine($"spanwire amqp {verb}: {count} messages so far");
            }
        }
    }
}
