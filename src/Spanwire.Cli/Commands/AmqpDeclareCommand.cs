using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Cli.Commands;

/// <summary><c>spanwire amqp declare queue|exchange|binding URI ...</c>: declares topology on a broker.</summary>
internal sealed class AmqpDeclareCommand : ICommand
{
    public string Name => "amqp declare";

    public string Summary => "declare a queue, an exchange or a binding on an AMQP 0-9-1 broker";

    public string[] ValueOptions => ["--type", "--routing-key"];

    public string[] Flags => ["--durable", "--quorum", "--exclusive", "--auto-delete"];

    public string Help => """
        usage: spanwire amqp declare queue URI [NAME] [--durable] [--quorum] [--exclusive] [--auto-delete]
               spanwire amqp declare exchange URI NAME [--type T] [--durable] [--auto-delete]
               spanwire amqp declare binding URI QUEUE EXCHANGE [--routing-key K]

        Connects to the broker at URI (amqp://user:pass@host:port/vhost) and declares what is asked, as
        queue.declare, exchange.declare and queue.bind do: declaring what exists with the same settings changes
        nothing; with other settings the broker refuses (exit 2, with its reason). A queue's name is printed on
        stdout (the broker names it when NAME is left out), and a summary on stderr.

        options:
          --durable           the queue or exchange survives a broker restart
          --quorum            a quorum queue (replicated on a cluster; implies --durable)
          --exclusive         the queue belongs to this connection only (gone when the command ends)
          --auto-delete       deleted when its last consumer or binding goes
          --type T            the exchange type: direct (default), fanout, topic or headers
          --routing-key K     the binding's routing key (default "")
          --help, -h          show this help
          --version           show the version
        """;

    public int Run(ArgumentReader arguments)
    {
        string? type = arguments.Option("--type");
        string routingKey = arguments.Option("--routing-key") ?? "";
        bool durable = arguments.Flag("--durable");
        bool quorum = arguments.Flag("--quorum");
        bool exclusive = arguments.Flag("--exclusive");
        bool autoDelete = arguments.Flag("--auto-delete");
        arguments.Finish(maxPositionals: 4);
        IReadOnlyList<string> p = arguments.Positionals;
        string kind = p.Count > 0 ? p[0] : throw new CliException("say what to declare: queue, exchange or binding");
        if (p.Count < 2)
        {
            throw new CliException("missing the broker URI (amqp://user:pass@host:port/vhost)");
        }

        string uri = p[1];
        Func<AmqpChannel, CancellationToken, Task<string>> declare = kind switch
        {
            "queue" => Queue(p, durable || quorum, quorum, exclusive, autoDelete, type, routingKey),
            "exchange" => Exchange(p, type ?? "direct", durable, autoDelete, quorum, exclusive, routingKey),
            "binding" => Binding(p, routingKey, type, durable, quorum, exclusive, autoDelete),
            _ => throw new CliException($"cannot declare '{kind}': say queue, exchange or binding"),
        };

        return AmqpClientErrors.Run(async cancellationToken =>
        {
            await using AmqpConnection connection = await AmqpConnection.ConnectAsync(uri, cancellationToken);
            AmqpChannel channel = await connection.OpenChannelAsync(cancellationToken);
            string summary = await declare(channel, cancellationToken);
            await channel.CloseAsync(cancellationToken);
            Console.Error.WriteLine($"spanwire amqp declare: {summary}");
            return ExitCodes.Success;
        });
    }

    private static Func<AmqpChannel, CancellationToken, Task<string>> Queue(IReadOnlyList<string> p, bool durable, bool quorum,
        bool exclusive, bool autoDelete, string? type, string routingKey)
    {
        Refuse(p.Count > 3, "a queue takes one NAME");
        Refuse(type is not null, "--type is for exchanges");
        Refuse(routingKey.Length > 0, "--routing-key is for bindings");
        Refuse(quorum && (exclusive || autoDelete), "a quorum queue cannot be --exclusive or --auto-delete");
        string name = p.Count > 2 ? p[2] : "";
        FieldTable arguments = quorum ? FieldTable.FromDictionary(new Dictionary<string, object?> { ["x-queue-type"] = "quorum" }) : default;
        return async (channel, cancellationToken) =>
        {
            AmqpQueueInfo queue = await channel.QueueDeclareAsync(name, durable, exclusive, autoDelete, arguments, cancellationToken: cancellationToken);
            Console.Out.WriteLine(queue.Name);
            return $"queue '{queue.Name}' declared ({queue.MessageCount} message{(queue.MessageCount == 1 ? "" : "s")}, "
                + $"{queue.ConsumerCount} consumer{(queue.ConsumerCount == 1 ? "" : "s")})";
        };
    }

    private static Func<AmqpChannel, CancellationToken, Task<string>> Exchange(IReadOnlyList<string> p, string type, bool durable,
        bool autoDelete, bool quorum, bool exclusive, string routingKey)
    {
        Refuse(p.Count != 3, "an exchange takes one NAME");
        Refuse(quorum || exclusive, "--quorum and --exclusive are for queues");
        Refuse(routingKey.Length > 0, "--routing-key is for bindings");
        Refuse(type is not ("direct" or "fanout" or "topic" or "headers") && !type.StartsWith("x-", StringComparison.Ordinal),
            $"unknown exchange type '{type}': say direct, fanout, topic, headers, or a plugin's x- type");
        string name = p[2];
        return async (channel, cancellationToken) =>
        {
            await channel.ExchangeDeclareAsync(name, type, durable, autoDelete, cancellationToken: cancellationToken);
            return $"exchange '{name}' ({type}) declared";
        };
    }

    private static Func<AmqpChannel, CancellationToken, Task<string>> Binding(IReadOnlyList<string> p, string routingKey, string? type,
        bool durable, bool quorum, bool exclusive, bool autoDelete)
    {
        Refuse(p.Count != 4, "a binding takes QUEUE and EXCHANGE");
        Refuse(type is not null || durable || quorum || exclusive || autoDelete, "a binding takes only --routing-key");
        string queue = p[2], exchange = p[3];
        return async (channel, cancellationToken) =>
        {
            await channel.QueueBindAsync(queue, exchange, routingKey, cancellationToken: cancellationToken);
            return $"queue '{queue}' bound to exchange '{exchange}' with routing key '{routingKey}'";
        };
    }

    private static void Refuse(bool condition, string message)
    {
        if (condition)
        {
            throw new CliException(message);
        }
    }
}
