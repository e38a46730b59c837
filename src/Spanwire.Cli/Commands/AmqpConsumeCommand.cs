using System.Buffers.Binary;
using System.Globalization;
using Spanwire.Amqp.Client;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire amqp consume URI --queue Q [--count N] [--length-prefixed]</c>: writes message bodies to stdout.</summary>
internal sealed class AmqpConsumeCommand : ICommand
{
    public string Name => "amqp consume";

    public string Summary => "consume messages from an AMQP 0-9-1 queue and write their bodies to stdout";

    public string[] ValueOptions => ["--queue", "--count"];

    public string[] Flags => ["--length-prefixed"];

    public string Help => """
        usage: spanwire amqp consume URI --queue Q [--count N] [--length-prefixed]

        Connects to the broker at URI (amqp://user:pass@host:port/vhost), consumes from queue Q and writes each
        message body to standard output followed by a line feed, or with --length-prefixed as a 4-byte big-endian
        length and the body (for bodies that contain line feeds). Each message is acknowledged once written.
        Stops after N messages with --count, otherwise when the consumer is cancelled or on Ctrl+C.
        Progress goes to stderr on long runs, and a summary line at the end.

        options:
          --queue Q            the queue to consume from (required)
          --count N            stop after N messages
          --length-prefixed    frame each body with a 4-byte big-endian length instead of a line feed
          --help, -h           show this help
          --version            show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        string queue = arguments.RequiredOption("--queue");
        string? countText = arguments.Option("--count");
        bool lengthPrefixed = arguments.Flag("--length-prefixed");
        arguments.Finish(maxPositionals: 1);
        if (arguments.Positionals.Count == 0)
        {
            throw new CliException("missing the broker URI (amqp://user:pass@host:port/vhost)");
        }

        long limit = long.MaxValue;
        if (countText is not null && (!long.TryParse(countText, NumberStyles.None, CultureInfo.InvariantCulture, out limit) || limit <= 0))
        {
            throw new CliException($"--count takes a positive whole number; got '{countText}'");
        }

        string uri = arguments.Positionals[0];
        return AmqpClientErrors.Run(async cancellationToken =>
        {
            await using AmqpConnection connection = await AmqpConnection.ConnectAsync(uri, cancellationToken);
            AmqpChannel channel = await connection.OpenChannelAsync(cancellationToken);
            await channel.QosAsync((ushort)Math.Min(500, limit), cancellationToken: cancellationToken);
            AmqpConsumer consumer = await channel.ConsumeAsync(queue, cancellationToken: cancellationToken);
            await using Stream stdout = Console.OpenStandardOutput();
            await using var output = new BufferedStream(stdout, 65536);
            var progress = new AmqpClientErrors.Progress("consume");
            var prefix = new byte[4];
            long count = 0;
            ulong lastTag = 0, ackedTag = 0;

            // Ctrl+C or SIGTERM stops gracefully: the consumer is cancelled, so the broker sends nothing more, and what
            // it has already sent is still written and acknowledged before the exit. Reading stops outright only if
            // the broker does not confirm the cancel in time.
            using var stopReading = new CancellationTokenSource();
            Task? stopping = null;
            using (cancellationToken.Register(() => stopping = StopAsync(consumer, stopReading)))
            {
                try
                {
                    await foreach (AmqpDelivery delivery in consumer.ReadAllAsync(stopReading.Token))
                    {
                        AmqpMessageBody body = delivery.Body;
                        if (lengthPrefixed)
                        {
                            BinaryPrimitives.WriteUInt32BigEndian(prefix, (uint)body.Length);
                            output.Write(prefix);
                        }

                        foreach (ReadOnlyMemory<byte> piece in body.Sequence)
                        {
                            output.Write(piece.Span);
                        }

                        if (!lengthPrefixed)
                        {
                            output.WriteByte((byte)'\n');
                        }

                        count++;
                        lastTag = delivery.DeliveryTag;
                        // Written before acknowledged: flush, then ack everything so far in one frame.
                        if (count == limit || count % 100 == 0)
                        {
                            await output.FlushAsync(CancellationToken.None);
                            await channel.AckAsync(lastTag, multiple: true, CancellationToken.None);
                            ackedTag = lastTag;
                            progress.Report(count);
                        }

                        if (count == limit)
                        {
                            break;
                        }
                    }
                }
                catch (OperationCanceledException) when (stopReading.IsCancellationRequested)
                {
                    // The cancel was not confirmed: what was written and acknowledged stays so; the rest goes back to the queue.
                }
            }

            if (stopping is not null)
            {
                await stopping;
            }

            await output.FlushAsync(CancellationToken.None);
            if (lastTag != ackedTag && channel.IsOpen)
            {
                await channel.AckAsync(lastTag, multiple: true, CancellationToken.None);
            }

            await channel.CloseAsync(CancellationToken.None);
            Console.Error.WriteLine($"spanwire amqp consume: {count} message{(count == 1 ? "" : "s")} consumed"
                + (consumer.IsCancelledByBroker ? " (the broker cancelled the consumer)" : ""));
            return ExitCodes.Success;
        });
    }

    /// <summary>Cancels the consumer so its stream ends after what the broker already sent; stops reading if that fails.</summary>
    private static async Task StopAsync(AmqpConsumer consumer, CancellationTokenSource stopReading)
    {
        try
        {
            await consumer.CancelAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(5)).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is TimeoutException or AmqpClosedException or OperationCanceledException)
        {
            await stopReading.CancelAsync().ConfigureAwait(false);
        }
    }
}
