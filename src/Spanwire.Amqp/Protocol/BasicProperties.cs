using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// The 14 basic content-header properties to send. Each is present exactly when it is set (not null), so a priority
/// of 0 or a delivery mode of 1 is sent when asked for. A struct, so building one for each publish allocates nothing.
/// </summary>
public struct BasicProperties
{
    /// <summary>MIME content type.</summary>
    public string? ContentType { get; set; }

    /// <summary>MIME content encoding.</summary>
    public string? ContentEncoding { get; set; }

    /// <summary>Application headers, an encoded table.</summary>
    public FieldTable? Headers { get; set; }

    /// <summary>1 non-persistent, 2 persistent.</summary>
    public byte? DeliveryMode { get; set; }

    /// <summary>Priority, 0 to 9.</summary>
    public byte? Priority { get; set; }

    /// <summary>Correlation identifier.</summary>
    public string? CorrelationId { get; set; }

    /// <summary>Address to reply to.</summary>
    public string? ReplyTo { get; set; }

    /// <summary>Expiration (RabbitMQ reads milliseconds, as text).</summary>
    public string? Expiration { get; set; }

    /// <summary>Message identifier.</summary>
    public string? MessageId { get; set; }

    /// <summary>Message timestamp.</summary>
    public AmqpTimestamp? Timestamp { get; set; }

    /// <summary>Message type name.</summary>
    public string? Type { get; set; }

    /// <summary>Creating user id (RabbitMQ checks it against the connection's user).</summary>
    public string? UserId { get; set; }

    /// <summary>Creating application id.</summary>
    public string? AppId { get; set; }

    /// <summary>Reserved; RabbitMQ ignores it.</summary>
    public string? ClusterId { get; set; }

    /// <summary>The flag word for the properties that are set.</summary>
    public readonly BasicPropertyFlags Flags =>
        (ContentType is null ? 0 : BasicPropertyFlags.ContentType)
        | (ContentEncoding is null ? 0 : BasicPropertyFlags.ContentEncoding)
        | (Headers is null ? 0 : BasicPropertyFlags.Headers)
        | (DeliveryMode is null ? 0 : BasicPropertyFlags.DeliveryMode)
        | (Priority is null ? 0 : BasicPropertyFlags.Priority)
        | (CorrelationId is null ? 0 : BasicPropertyFlags.CorrelationId)
        | (ReplyTo is null ? 0 : BasicPropertyFlags.ReplyTo)
        | (Expiration is null ? 0 : BasicPropertyFlags.Expiration)
        | (MessageId is null ? 0 : BasicPropertyFlags.MessageId)
        | (Timestamp is null ? 0 : BasicPropertyFlags.Timestamp)
        | (Type is null ? 0 : BasicPropertyFlags.Type)
        | (UserId is null ? 0 : BasicPropertyFlags.UserId)
        | (AppId is null ? 0 : BasicPropertyFlags.AppId)
        | (ClusterId is null ? 0 : BasicPropertyFlags.ClusterId);

    /// <summary>The encoded size: the flag word and the present properties.</summary>
    /// <exception cref="ArgumentException">A string is over 255 UTF-8 bytes or not valid UTF-16.</exception>
    /// <returns>The encoded size in bytes.</returns>
    public readonly int GetEncodedSize()
    {
        int size = 2;
        size += Size(ContentType) + Size(ContentEncoding) + (Headers?.EncodedLength ?? 0);
        size += (DeliveryMode is null ? 0 : 1) + (Priority is null ? 0 : 1);
        size += Size(CorrelationId) + Size(ReplyTo) + Size(Expiration) + Size(MessageId);
        size += Timestamp is null ? 0 : 8;
        size += Size(Type) + Size(UserId) + Size(AppId) + Size(ClusterId);
        return size;

        static int Size(string? value) => value is null ? 0 : AmqpPrimitives.GetShortStringSize(value);
    }

    /// <summary>
    /// The most bytes <see cref="WriteTo"/> can write, from string lengths alone (three UTF-8 bytes per character,
    /// at most 255 per shortstr): enough to reserve before writing in one pass.
    /// </summary>
    /// <returns>The most bytes the encoding can take.</returns>
    public readonly int GetMaxEncodedSize()
    {
        int size = 2 + 1 + 1 + 8 + (Headers?.EncodedLength ?? 0);
        size += Max(ContentType) + Max(ContentEncoding) + Max(CorrelationId) + Max(ReplyTo) + Max(Expiration);
        size += Max(MessageId) + Max(Type) + Max(UserId) + Max(AppId) + Max(ClusterId);
        return size;

        static int Max(string? value) => value is null ? 0 : AmqpPrimitives.GetMaxShortStringSize(value.Length);
    }

    /// <summary>Writes the flag word and the present properties; returns the bytes written.</summary>
    /// <exception cref="ArgumentException">The destination is too small (the properties before the one that did not
    /// fit may have been written), or a string does not fit a shortstr.</exception>
    /// <param name="destination">Where the bytes are written.</param>
    /// <returns>The number of bytes written.</returns>
    public readonly int WriteTo(Span<byte> destination)
    {
        int written = TryWrite(destination);
        if (written < 0)
        {
            ThrowTooSmall(destination.Length);
        }

        return written;
    }

    // The one walk over the properties, each checked against the room left as it is written: no sizing pass first.
    // -1 when the destination runs out. The flag word goes first but is known only at the end.
    private readonly int TryWrite(Span<byte> destination)
    {
        if (destination.Length < 2)
        {
            return -1;
        }

        int at = 2;
        BasicPropertyFlags flags = 0;
        if (!Put(destination, ref at, ref flags, ContentType, BasicPropertyFlags.ContentType)
            || !Put(destination, ref at, ref flags, ContentEncoding, BasicPropertyFlags.ContentEncoding))
        {
            return -1;
        }

        if (Headers is { } headers)
        {
            ReadOnlySpan<byte> table = headers.Span;
            if (table.Length > destination.Length - at)
            {
                return -1;
            }

            table.CopyTo(destination[at..]);
            at += table.Length;
            flags |= BasicPropertyFlags.Headers;
        }

        if (!PutByte(destination, ref at, ref flags, DeliveryMode, BasicPropertyFlags.DeliveryMode)
            || !PutByte(destination, ref at, ref flags, Priority, BasicPropertyFlags.Priority)
            || !Put(destination, ref at, ref flags, CorrelationId, BasicPropertyFlags.CorrelationId)
            || !Put(destination, ref at, ref flags, ReplyTo, BasicPropertyFlags.ReplyTo)
            || !Put(destination, ref at, ref flags, Expiration, BasicPropertyFlags.Expiration)
            || !Put(destination, ref at, ref flags, MessageId, BasicPropertyFlags.MessageId))
        {
            return -1;
        }

        if (Timestamp is { } timestamp)
        {
            if (destination.Length - at < 8)
            {
                return -1;
            }

            BinaryPrimitives.WriteInt64BigEndian(destination[at..], timestamp.UnixSeconds);
            at += 8;
            flags |= BasicPropertyFlags.Timestamp;
        }

        if (!Put(destination, ref at, ref flags, Type, BasicPropertyFlags.Type)
            || !Put(destination, ref at, ref flags, UserId, BasicPropertyFlags.UserId)
            || !Put(destination, ref at, ref flags, AppId, BasicPropertyFlags.AppId)
            || !Put(destination, ref at, ref flags, ClusterId, BasicPropertyFlags.ClusterId))
        {
            return -1;
        }

        BinaryPrimitives.WriteUInt16BigEndian(destination, (ushort)flags);
        return at;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        static bool Put(Span<byte> destination, ref int at, ref BasicPropertyFlags flags, string? value, BasicPropertyFlags flag)
        {
            if (value is null)
            {
                return true;
            }

            // Most property values are short ASCII, written here without the call that would cost as much again.
            Span<byte> rest = destination[at..];
            if (value.Length < ShortAscii.ScalarBelow && value.Length < rest.Length && ShortAscii.TryNarrowScalar(value, rest[1..]))
            {
                rest[0] = (byte)value.Length;
                at += value.Length + 1;
                flags |= flag;
                return true;
            }

            if (!AmqpPrimitives.TryWriteShortString(rest, value, out int written))
            {
                return false;
            }

            at += written;
            flags |= flag;
            return true;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        static bool PutByte(Span<byte> destination, ref int at, ref BasicPropertyFlags flags, byte? value, BasicPropertyFlags flag)
        {
            if (value is not { } octet)
            {
                return true;
            }

            if ((uint)at >= (uint)destination.Length)
            {
                return false;
            }

            destination[at++] = octet;
            flags |= flag;
            return true;
        }
    }

    // The exact size is measured only now, for the message; it throws first for a string that can never fit.
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void ThrowTooSmall(int available) => AmqpThrow.DestinationTooSmall(GetEncodedSize(), available);
}
