using System.Runtime.InteropServices;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;
using Spanwire.Amqp.Client;
using Spanwire.Amqp.Protocol;
using RmqTimestamp = RabbitMQ.Client.AmqpTimestamp;
using SpanwireTimestamp = Spanwire.Amqp.Protocol.AmqpTimestamp;

namespace Spanwire.Amqp.DropIn;

/// <summary>RabbitMQ.Client's values and Spanwire's, both ways: properties, field tables, closes.</summary>
internal static class Mapping
{
    /// <summary>RabbitMQ.Client's header and argument values as Spanwire's table conversion takes them.</summary>
    public static FieldTable ToFieldTable(IDictionary<string, object?>? fields) =>
        fields is null || fields.Count == 0 ? default : FieldTable.FromDictionary(fields.Select(f => KeyValuePair.Create(f.Key, ToSpanwire(f.Value))));

    /// <summary>A decoded table with RabbitMQ.Client's types: its timestamp and binary value, strings as byte[].</summary>
    public static Dictionary<string, object?> ToDictionary(FieldTable table)
    {
        Dictionary<string, object?> fields = FieldTableConversion.ToDictionary(table.Span);
        ToRabbitMQInPlace(fields);
        return fields;
    }

    // The decoded values that differ in type from RabbitMQ.Client's (timestamps, binary values) are replaced where
    // they lie, nested tables and arrays included; nothing else is copied.
    private static void ToRabbitMQInPlace(Dictionary<string, object?> fields)
    {
        foreach (KeyValuePair<string, object?> field in fields)
        {
            if (NeedsMapping(field.Value))
            {
                CollectionsMarshal.GetValueRefOrNullRef(fields, field.Key) = ToRabbitMQDecoded(field.Value);
            }
        }
    }

    private static bool NeedsMapping(object? value) => value is SpanwireTimestamp or ReadOnlyMemory<byte> or Dictionary<string, object?> or List<object?>;

    private static object? ToRabbitMQDecoded(object? value)
    {
        switch (value)
        {
            case SpanwireTimestamp t:
                return new RmqTimestamp(t.UnixSeconds);
            case ReadOnlyMemory<byte> m:
                // The decoder copied the bytes into an array of their own: hand that array over.
                return new BinaryTableValue(MemoryMarshal.TryGetArray(m, out ArraySegment<byte> whole) && whole.Offset == 0 && whole.Count == whole.Array!.Length
                    ? whole.Array
                    : m.ToArray());
            case Dictionary<string, object?> d:
                ToRabbitMQInPlace(d);
                return d;
            case List<object?> l:
                for (int i = 0; i < l.Count; i++)
                {
                    if (NeedsMapping(l[i]))
                    {
                        l[i] = ToRabbitMQDecoded(l[i]);
                    }
                }

                return l;
            default:
                return value;
        }
    }

    private static object? ToSpanwire(object? value) => value switch
    {
        RmqTimestamp t => new SpanwireTimestamp(t.UnixTime),
        BinaryTableValue b => new ReadOnlyMemory<byte>(b.Bytes),
        IDictionary<string, object?> d => d.Select(f => KeyValuePair.Create(f.Key, ToSpanwire(f.Value))).ToDictionary(),
        IList<object?> l => l.Select(ToSpanwire).ToList(),
        _ => value,
    };

    /// <summary>The properties RabbitMQ.Client would send for <paramref name="p"/>: each one whose Is…Present says so.</summary>
    public static Protocol.BasicProperties ToSpanwire<T>(T p)
        where T : IReadOnlyBasicProperties => new()
        {
            ContentType = p.IsContentTypePresent() ? p.ContentType : null,
            ContentEncoding = p.IsContentEncodingPresent() ? p.ContentEncoding : null,
            Headers = p.IsHeadersPresent() ? ToFieldTable(p.Headers) : null,
            DeliveryMode = p.IsDeliveryModePresent() ? (byte)p.DeliveryMode : null,
            Priority = p.IsPriorityPresent() ? p.Priority : null,
            CorrelationId = p.IsCorrelationIdPresent() ? p.CorrelationId : null,
            ReplyTo = p.IsReplyToPresent() ? p.ReplyTo : null,
            Expiration = p.IsExpirationPresent() ? p.Expiration : null,
            MessageId = p.IsMessageIdPresent() ? p.MessageId : null,
            Timestamp = p.IsTimestampPresent() ? new SpanwireTimestamp(p.Timestamp.UnixTime) : null,
            Type = p.IsTypePresent() ? p.Type : null,
            UserId = p.IsUserIdPresent() ? p.UserId : null,
            AppId = p.IsAppIdPresent() ? p.AppId : null,
            ClusterId = p.IsClusterIdPresent() ? p.ClusterId : null,
        };

    /// <summary>Received properties as RabbitMQ.Client hands them to consumers: the ones present, set.</summary>
    public static global::RabbitMQ.Client.BasicProperties ToRabbitMQ(in Protocol.BasicProperties p)
    {
        var result = new global::RabbitMQ.Client.BasicProperties();
        if (p.ContentType is { } contentType) result.ContentType = contentType;
        if (p.ContentEncoding is { } contentEncoding) result.ContentEncoding = contentEncoding;
        if (p.Headers is { } headers) result.Headers = ToDictionary(headers);
        if (p.DeliveryMode is { } deliveryMode) result.DeliveryMode = (DeliveryModes)deliveryMode;
        if (p.Priority is { } priority) result.Priority = priority;
        if (p.CorrelationId is { } correlationId) result.CorrelationId = correlationId;
        if (p.ReplyTo is { } replyTo) result.ReplyTo = replyTo;
        if (p.Expiration is { } expiration) result.Expiration = expiration;
        if (p.MessageId is { } messageId) result.MessageId = messageId;
        if (p.Timestamp is { } timestamp) result.Timestamp = new RmqTimestamp(timestamp.UnixSeconds);
        if (p.Type is { } type) result.Type = type;
        if (p.UserId is { } userId) result.UserId = userId;
        if (p.AppId is { } appId) result.AppId = appId;
        if (p.ClusterId is { } clusterId) result.ClusterId = clusterId;
        return result;
    }

    /// <summary>The shutdown RabbitMQ.Client reports for a Spanwire close reason.</summary>
    public static ShutdownEventArgs ToShutdown(Exception reason, ShutdownInitiator initiator) => reason switch
    {
        AmqpClosedException closed when closed.InnerException is null || initiator != ShutdownInitiator.Library =>
            new ShutdownEventArgs(initiator, closed.ReplyCode, closed.ReplyText, closed.ClassId, closed.MethodId),
        AmqpClosedException closed => new ShutdownEventArgs(initiator, closed.ReplyCode, closed.ReplyText, closed.InnerException!),
        // A frame the client refused (larger than the inbound limit, or not a frame) is RabbitMQ.Client's MalformedFrameException.
        AmqpProtocolException { ReplyCode: AmqpReplyCode.FrameError } frame =>
            new ShutdownEventArgs(ShutdownInitiator.Library, frame.ReplyCode, frame.Message, new MalformedFrameException(frame.Message)),
        AmqpProtocolException protocol => new ShutdownEventArgs(ShutdownInitiator.Library, protocol.ReplyCode, protocol.Message, protocol),
        _ => new ShutdownEventArgs(ShutdownInitiator.Library, 541, reason.Message, reason),
    };

    /// <summary>
    /// RabbitMQ.Client's exception for a failed call: <see cref="AlreadyClosedException"/> when the channel or
    /// connection was closed before the call, <see cref="OperationInterruptedException"/> when it closed because of it
    /// or during it; other failures (timeouts, cancellation, argument checks) pass unchanged.
    /// </summary>
    public static Exception Translate(Exception error, bool closedBefore, Func<Exception, ShutdownEventArgs> shutdown) => error switch
    {
        AmqpClosedException or AmqpProtocolException when closedBefore => new AlreadyClosedException(shutdown(error)),
        AmqpClosedException or AmqpProtocolException => new OperationInterruptedException(shutdown(error)),
        _ => error,
    };
}
