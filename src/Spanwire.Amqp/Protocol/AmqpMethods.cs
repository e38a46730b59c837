using System.Collections.Immutable;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// Every AMQP 0-9-1 method RabbitMQ speaks, extensions included, each defined once by its argument list.
/// Adding a method is one field here and its entry in <see cref="All"/>; its frame writer and its typed argument view
/// are generated from the field at build time (gen/Spanwire.Generators).
/// </summary>
public static class AmqpMethods
{
    private const bool Content = true;

#pragma warning disable CS1591 // One field per method; the name says which.
    public static readonly AmqpMethod ConnectionStart = M(10, 10, "connection.start", "version-major:octet version-minor:octet server-properties:table mechanisms:longstr locales:longstr");
    public static readonly AmqpMethod ConnectionStartOk = M(10, 11, "connection.start-ok", "client-properties:table mechanism:shortstr response:longstr locale:shortstr");
    public static readonly AmqpMethod ConnectionSecure = M(10, 20, "connection.secure", "challenge:longstr");
    public static readonly AmqpMethod ConnectionSecureOk = M(10, 21, "connection.secure-ok", "response:longstr");
    public static readonly AmqpMethod ConnectionTune = M(10, 30, "connection.tune", "channel-max:short frame-max:long heartbeat:short");
    public static readonly AmqpMethod ConnectionTuneOk = M(10, 31, "connection.tune-ok", "channel-max:short frame-max:long heartbeat:short");
    public static readonly AmqpMethod ConnectionOpen = M(10, 40, "connection.open", "virtual-host:shortstr reserved-1:shortstr reserved-2:bit");
    public static readonly AmqpMethod ConnectionOpenOk = M(10, 41, "connection.open-ok", "reserved-1:shortstr");
    public static readonly AmqpMethod ConnectionClose = M(10, 50, "connection.close", "reply-code:short reply-text:shortstr class-id:short method-id:short");
    public static readonly AmqpMethod ConnectionCloseOk = M(10, 51, "connection.close-ok", "");
    public static readonly AmqpMethod ConnectionBlocked = M(10, 60, "connection.blocked", "reason:shortstr");
    public static readonly AmqpMethod ConnectionUnblocked = M(10, 61, "connection.unblocked", "");
    public static readonly AmqpMethod ConnectionUpdateSecret = M(10, 70, "connection.update-secret", "new-secret:longstr reason:shortstr");
    public static readonly AmqpMethod ConnectionUpdateSecretOk = M(10, 71, "connection.update-secret-ok", "");

    public static readonly AmqpMethod ChannelOpen = M(20, 10, "channel.open", "reserved-1:shortstr");
    public static readonly AmqpMethod ChannelOpenOk = M(20, 11, "channel.open-ok", "reserved-1:longstr");
    public static readonly AmqpMethod ChannelFlow = M(20, 20, "channel.flow", "active:bit");
    public static readonly AmqpMethod ChannelFlowOk = M(20, 21, "channel.flow-ok", "active:bit");
    public static readonly AmqpMethod ChannelClose = M(20, 40, "channel.close", "reply-code:short reply-text:shortstr class-id:short method-id:short");
    public static readonly AmqpMethod ChannelCloseOk = M(20, 41, "channel.close-ok", "");

    public static readonly AmqpMethod ExchangeDeclare = M(40, 10, "exchange.declare", "reserved-1:short exchange:shortstr type:shortstr passive:bit durable:bit auto-delete:bit internal:bit no-wait:bit arguments:table");
    public static readonly AmqpMethod ExchangeDeclareOk = M(40, 11, "exchange.declare-ok", "");
    public static readonly AmqpMethod ExchangeDelete = M(40, 20, "exchange.delete", "reserved-1:short exchange:shortstr if-unused:bit no-wait:bit");
    public static readonly AmqpMethod ExchangeDeleteOk = M(40, 21, "exchange.delete-ok", "");
    public static readonly AmqpMethod ExchangeBind = M(40, 30, "exchange.bind", "reserved-1:short destination:shortstr source:shortstr routing-key:shortstr no-wait:bit arguments:table");
    public static readonly AmqpMethod ExchangeBindOk = M(40, 31, "exchange.bind-ok", "");
    public static readonly AmqpMethod ExchangeUnbind = M(40, 40, "exchange.unbind", "reserved-1:short destination:shortstr source:shortstr routing-key:shortstr no-wait:bit arguments:table");
    public static readonly AmqpMethod ExchangeUnbindOk = M(40, 51, "exchange.unbind-ok", "");

    public static readonly AmqpMethod QueueDeclare = M(50, 10, "queue.declare", "reserved-1:short queue:shortstr passive:bit durable:bit exclusive:bit auto-delete:bit no-wait:bit arguments:table");
    public static readonly AmqpMethod QueueDeclareOk = M(50, 11, "queue.declare-ok", "queue:shortstr message-count:long consumer-count:long");
    public static readonly AmqpMethod QueueBind = M(50, 20, "queue.bind", "reserved-1:short queue:shortstr exchange:shortstr routing-key:shortstr no-wait:bit arguments:table");
    public static readonly AmqpMethod QueueBindOk = M(50, 21, "queue.bind-ok", "");
    public static readonly AmqpMethod QueuePurge = M(50, 30, "queue.purge", "reserved-1:short queue:shortstr no-wait:bit");
    public static readonly AmqpMethod QueuePurgeOk = M(50, 31, "queue.purge-ok", "message-count:long");
    public static readonly AmqpMethod QueueDelete = M(50, 40, "queue.delete", "reserved-1:short queue:shortstr if-unused:bit if-empty:bit no-wait:bit");
    public static readonly AmqpMethod QueueDeleteOk = M(50, 41, "queue.delete-ok", "message-count:long");
    public static readonly AmqpMethod QueueUnbind = M(50, 50, "queue.unbind", "reserved-1:short queue:shortstr exchange:shortstr routing-key:shortstr arguments:table");
    public static readonly AmqpMethod QueueUnbindOk = M(50, 51, "queue.unbind-ok", "");

    public static readonly AmqpMethod BasicQos = M(60, 10, "basic.qos", "prefetch-size:long prefetch-count:short global:bit");
    public static readonly AmqpMethod BasicQosOk = M(60, 11, "basic.qos-ok", "");
    public static readonly AmqpMethod BasicConsume = M(60, 20, "basic.consume", "reserved-1:short queue:shortstr consumer-tag:shortstr no-local:bit no-ack:bit exclusive:bit no-wait:bit arguments:table");
    public static readonly AmqpMethod BasicConsumeOk = M(60, 21, "basic.consume-ok", "consumer-tag:shortstr");
    public static readonly AmqpMethod BasicCancel = M(60, 30, "basic.cancel", "consumer-tag:shortstr no-wait:bit");
    public static readonly AmqpMethod BasicCancelOk = M(60, 31, "basic.cancel-ok", "consumer-tag:shortstr");
    public static readonly AmqpMethod BasicPublish = M(60, 40, "basic.publish", "reserved-1:short exchange:shortstr routing-key:shortstr mandatory:bit immediate:bit", Content);
    public static readonly AmqpMethod BasicReturn = M(60, 50, "basic.return", "reply-code:short reply-text:shortstr exchange:shortstr routing-key:shortstr", Content);
    public static readonly AmqpMethod BasicDeliver = M(60, 60, "basic.deliver", "consumer-tag:shortstr delivery-tag:longlong redelivered:bit exchange:shortstr routing-key:shortstr", Content);
    public static readonly AmqpMethod BasicGet = M(60, 70, "basic.get", "reserved-1:short queue:shortstr no-ack:bit");
    public static readonly AmqpMethod BasicGetOk = M(60, 71, "basic.get-ok", "delivery-tag:longlong redelivered:bit exchange:shortstr routing-key:shortstr message-count:long", Content);
    public static readonly AmqpMethod BasicGetEmpty = M(60, 72, "basic.get-empty", "reserved-1:shortstr");
    public static readonly AmqpMethod BasicAck = M(60, 80, "basic.ack", "delivery-tag:longlong multiple:bit");
    public static readonly AmqpMethod BasicReject = M(60, 90, "basic.reject", "delivery-tag:longlong requeue:bit");
    public static readonly AmqpMethod BasicRecoverAsync = M(60, 100, "basic.recover-async", "requeue:bit");
    public static readonly AmqpMethod BasicRecover = M(60, 110, "basic.recover", "requeue:bit");
    public static readonly AmqpMethod BasicRecoverOk = M(60, 111, "basic.recover-ok", "");
    public static readonly AmqpMethod BasicNack = M(60, 120, "basic.nack", "delivery-tag:longlong multiple:bit requeue:bit");

    public static readonly AmqpMethod ConfirmSelect = M(85, 10, "confirm.select", "nowait:bit");
    public static readonly AmqpMethod ConfirmSelectOk = M(85, 11, "confirm.select-ok", "");

    public static readonly AmqpMethod TxSelect = M(90, 10, "tx.select", "");
    public static readonly AmqpMethod TxSelectOk = M(90, 11, "tx.select-ok", "");
    public static readonly AmqpMethod TxCommit = M(90, 20, "tx.commit", "");
    public static readonly AmqpMethod TxCommitOk = M(90, 21, "tx.commit-ok", "");
    public static readonly AmqpMethod TxRollback = M(90, 30, "tx.rollback", "");
    public static readonly AmqpMethod TxRollbackOk = M(90, 31, "tx.rollback-ok", "");
#pragma warning restore CS1591

    /// <summary>Every method, in class then method order.</summary>
    public static ImmutableArray<AmqpMethod> All { get; } =
    [
        ConnectionStart, ConnectionStartOk, ConnectionSecure, ConnectionSecureOk, ConnectionTune, ConnectionTuneOk,
        ConnectionOpen, ConnectionOpenOk, ConnectionClose, ConnectionCloseOk, ConnectionBlocked, ConnectionUnblocked,
        ConnectionUpdateSecret, ConnectionUpdateSecretOk,
        ChannelOpen, ChannelOpenOk, ChannelFlow, ChannelFlowOk, ChannelClose, ChannelCloseOk,
        ExchangeDeclare, ExchangeDeclareOk, ExchangeDelete, ExchangeDeleteOk, ExchangeBind, ExchangeBindOk, ExchangeUnbind, ExchangeUnbindOk,
        QueueDeclare, QueueDeclareOk, QueueBind, QueueBindOk, QueuePurge, QueuePurgeOk, QueueDelete, QueueDeleteOk, QueueUnbind, QueueUnbindOk,
        BasicQos, BasicQosOk, BasicConsume, BasicConsumeOk, BasicCancel, BasicCancelOk, BasicPublish, BasicReturn, BasicDeliver,
        BasicGet, BasicGetOk, BasicGetEmpty, BasicAck, BasicReject, BasicRecoverAsync, BasicRecover, BasicRecoverOk, BasicNack,
        ConfirmSelect, ConfirmSelectOk,
        TxSelect, TxSelectOk, TxCommit, TxCommitOk, TxRollback, TxRollbackOk,
    ];

    // Lookup by class id, then method id: both are small, so two array indexings beat hashing.
    private static readonly AmqpMethod?[][] s_byId = BuildLookup();

    /// <summary>The method with these ids, or null when AMQP 0-9-1 (with RabbitMQ's extensions) has none.</summary>
    /// <param name="classId">The class id (10 connection, 20 channel, 40 exchange, 50 queue, 60 basic, 85 confirm, 90 tx).</param>
    /// <param name="methodId">The method id within the class.</param>
    /// <returns>The method, or null.</returns>
    public static AmqpMethod? Find(ushort classId, ushort methodId)
    {
        AmqpMethod?[][] byId = s_byId;
        if (classId < byId.Length)
        {
            AmqpMethod?[] methods = byId[classId];
            if (methodId < methods.Length)
            {
                return methods[methodId];
            }
        }

        return null;
    }

    /// <summary>The name of a class id ("basic" for 60), or null.</summary>
    /// <param name="classId">The AMQP class of the content (60, basic).</param>
    /// <returns>The value.</returns>
    public static string? GetClassName(ushort classId) => classId switch
    {
        10 => "connection",
        20 => "channel",
        40 => "exchange",
        50 => "queue",
        60 => "basic",
        85 => "confirm",
        90 => "tx",
        _ => null,
    };

    private static AmqpMethod?[][] BuildLookup()
    {
        var byId = new AmqpMethod?[91][];
        for (int i = 0; i < byId.Length; i++)
        {
            byId[i] = [];
        }

        foreach (AmqpMethod method in All)
        {
            AmqpMethod?[] methods = byId[method.ClassId];
            if (methods.Length <= method.MethodId)
            {
                Array.Resize(ref methods, method.MethodId + 1);
                byId[method.ClassId] = methods;
            }

            methods[method.MethodId] = method;
        }

        return byId;
    }

    private static AmqpMethod M(ushort classId, ushort methodId, string name, string arguments, bool hasContent = false)
    {
        ImmutableArray<AmqpArgument>.Builder list = ImmutableArray.CreateBuilder<AmqpArgument>();
        foreach (string argument in arguments.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            int colon = argument.IndexOf(':', StringComparison.Ordinal);
            list.Add(new AmqpArgument(argument[..colon], argument[(colon + 1)..] switch
            {
                "octet" => AmqpArgumentType.Octet,
                "short" => AmqpArgumentType.Short,
                "long" => AmqpArgumentType.Long,
                "longlong" => AmqpArgumentType.LongLong,
                "bit" => AmqpArgumentType.Bit,
                "shortstr" => AmqpArgumentType.ShortString,
                "longstr" => AmqpArgumentType.LongString,
                "table" => AmqpArgumentType.Table,
                "timestamp" => AmqpArgumentType.Timestamp,
                string other => throw new InvalidOperationException($"{name}: unknown domain '{other}'."),
            }));
        }

        return new AmqpMethod(classId, methodId, name, hasContent, list.ToImmutable());
    }
}
