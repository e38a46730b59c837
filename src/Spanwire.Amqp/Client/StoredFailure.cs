using System.Diagnostics.CodeAnalysis;
using Spanwire.Amqp.Protocol;

namespace Spanwire.Amqp.Client;

/// <summary>
/// Reports a failure kept by a connection, channel or consumer (why it closed) to each later caller. Every caller
/// gets an exception of its own, of the same type and with the same codes and text, with the kept one as its inner
/// exception: throwing the kept object again from several threads would overwrite its stack trace, and race.
/// </summary>
internal static class StoredFailure
{
    [DoesNotReturn]
    public static void Throw(Exception stored) => throw Copy(stored);

    /// <summary>A fresh exception reporting <paramref name="stored"/>.</summary>
    public static Exception Copy(Exception stored) => stored switch
    {
        AmqpConnectionClosedException c => new AmqpConnectionClosedException(c.ReplyCode, c.ReplyText, c.ClassId, c.MethodId, c),
        AmqpChannelClosedException c => new AmqpChannelClosedException(c.Channel, c.ReplyCode, c.ReplyText, c.ClassId, c.MethodId, c),
        AmqpProtocolException p => new AmqpProtocolException(p.ReplyCode, p.Offset, p.Detail, p),
        AmqpPublishNackedException n => new AmqpPublishNackedException(n.Count) { PublishSequenceNumber = n.PublishSequenceNumber },
        ObjectDisposedException d => new ObjectDisposedException(d.Message, d),
        OperationCanceledException o => new OperationCanceledException(o.Message, o, o.CancellationToken),
        _ => new AmqpConnectionClosedException(0, stored.Message, innerException: stored),
    };
}
