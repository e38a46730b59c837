using System.Buffers;
using Spanwire.Amqp.Client;
using Spanwire.Buffers;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire amqp publish URI [--exchange X] [--routing-key K] [--whole] [--mandatory] [FILE|-]</c>: publishes each input line (or the whole input) with confirms.</summary>
internal sealed class AmqpPublishCommand : ICommand
{
    public string Name => "amqp publish";

    public string Summary => "publish each input line (or the whole input) to an AMQP 0-9-1 broker, with confirms";

    public string[] ValueOptions => ["--exchange", "--routing-key"];

    public string[] Flags => ["--whole", "--mandatory"];

    public string Help => """
        usage: spanwire amqp publish URI [--exchange X] [--routing-key K] [--whole] [--mandatory] [FILE|-]

        Connects to the broker at URI (amqp://user:pass@host:port/vhost) and publishes the input, from FILE or
        standard input for '-' or no FILE: each line is one message (the line end is not sent), or with --whole
        the entire input is one message. Publisher confirms are on; the command exits 0 only when the broker has
        confirmed every message. A confirm says the broker took the message, not that a queue did: without
        --mandatory a message no queue takes is dropped and still confirmed, and the summary says routing was
        not checked. With --mandatory the broker returns such messages; any returned message makes the exit
        code 1. Progress goes to stderr on long runs, and a summary line at the end.

        options:
          --exchange X        the exchange (default "", the default exchange, which routes to the queue named K)
          --routing-key K     the routing key (default "")
          --whole             send the whole input as one message
          --mandatory         have the broker return messages it cannot route to a queue (and exit 1 if any)
          --help, -h          show this help
          --version           show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        string exchange = arguments.Option("--exchange") ?? "";
        string routingKey = arguments.Option("--routing-key") ?? "";
        bool whole = arguments.Flag("--whole");
        bool mandatory = arguments.Flag("--mandatory");
        arguments.Finish(maxPositionals: 2);
        if (arguments.Positionals.Count == 0)
        {
            throw new CliException("missing the broker URI (amqp://user:pass@host:port/vhost)");
        }

        string uri = arguments.Positionals[0];
        using var input = new PooledStream();
        using (Stream source = Input.Open(arguments.Positionals.Count > 1 ? arguments.Positionals[1] : null))
        {
            source.CopyTo(input);
        }

        ReadOnlySequence<byte> content = input.GetReadOnlySequence();
        return AmqpClientErrors.Run(async cancellationToken =>
        {
            await using AmqpConnection connection = await AmqpConnection.ConnectAsync(uri, cancellationToken);
            AmqpChannel channel = await connection.OpenChannelAsync(cancellationToken);
            await channel.EnableConfirmsAsync(cancellationToken);
            long returned = 0;
            channel.Returned += (_, _) => Interlocked.Increment(ref returned); // a return comes before its message's ack
            var progress = new AmqpClientErrors.Progress("publish");
            long count = 0;
            if (whole)
            {
                await channel.PublishAsync(exchange, routingKey, default, content.ToArray(), mandatory, cancellationToken);
                count = 1;
            }
            else
            {
                byte[] joined = [];
                ReadOnlySequence<byte> rest = content;
                while (!rest.IsEmpty)
                {
                    ReadOnlySequence<byte> line;
                    if (rest.PositionOf((byte)'\n') is { } end)
                    {
                        line = rest.Slice(0, end);
                        rest = rest.Slice(rest.GetPosition(1, end));
                    }
                    else
                    {
                        line = rest;
                        rest = default;
                    }

                    if (!line.IsEmpty && line.Slice(line.Length - 1).FirstSpan[0] == (byte)'\r')
                    {
                        line = line.Slice(0, line.Length - 1);
                    }

                    ReadOnlyMemory<byte> body = line.IsSingleSegment ? line.First : Join(line, ref joined);
                    await channel.PublishAsync(exchange, routingKey, default, body, mandatory, cancellationToken);
                    if (++count % 10_000 == 0)
                    {
                        await channel.WaitForConfirmsAsync(cancellationToken);
                        progress.Report(count);
                    }
                }
            }

            await channel.WaitForConfirmsAsync(cancellationToken);
            await channel.CloseAsync(cancellationToken);
            long unroutable = Interlocked.Read(ref returned);
            if (unroutable > 0)
            {
                Console.Error.WriteLine($"spanwire amqp publish: {unroutable} of {count} message{(count == 1 ? "" : "s")} returned unroutable "
                    + $"(no queue bound to exchange '{exchange}' for routing key '{routingKey}'); {count - unroutable} routed and confirmed");
                return ExitCodes.Mismatch;
            }

            string messages = $"{count} message{(count == 1 ? "" : "s")}";
            Console.Error.WriteLine(mandatory
                ? $"spanwire amqp publish: {messages} published, routed and confirmed"
                : $"spanwire amqp publish: {messages} published and confirmed by the broker; routing was not checked (--mandatory has unroutable messages returned)");
            return ExitCodes.Success;
        });
    }

    private static ReadOnlyMemory<byte> Join(in ReadOnlySequence<byte> line, ref byte[] buffer)
    {
        if (buffer.Length < line.Length)
        {
            buffer = new byte[line.Length];
        }

        line.CopyTo(buffer);
        return buffer.AsMemory(0, (int)line.Length);
    }
}
