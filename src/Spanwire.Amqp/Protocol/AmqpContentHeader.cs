using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// A content header frame's payload read in place: class id, weight, body size and the basic properties, each
/// property checked when parsed and handed out as a slice (nothing copied). Absent properties read as empty/false.
/// </summary>
public readonly ref struct AmqpContentHeader
{
    private const int PropertyCount = 14;

    private readonly ReadOnlySpan<byte> _payload;
    private readonly PropertySlots _slots;

    private AmqpContentHeader(ReadOnlySpan<byte> payload, long offset, ushort classId, ushort weight, ulong bodySize, BasicPropertyFlags flags, PropertySlots slots)
    {
        _payload = payload;
        Offset = offset;
        ClassId = classId;
        Weight = weight;
        BodySize = bodySize;
        Flags = flags;
        _slots = slots;
    }

    /// <summary>The content class (60 for basic).</summary>
    public ushort ClassId { get; }

    /// <summary>The weight field (always 0).</summary>
    public ushort Weight { get; }

    /// <summary>The total body size the body frames will carry.</summary>
    public ulong BodySize { get; }

    /// <summary>Which properties are present.</summary>
    public BasicPropertyFlags Flags { get; }

    /// <summary>The stream offset of the payload.</summary>
    public long Offset { get; }

    /// <summary>The bytes a content header payload takes: 12 fixed bytes and the properties.</summary>
    /// <param name="properties">The message properties.</param>
    /// <returns>The encoded size in bytes.</returns>
    public static int GetEncodedSize(in BasicProperties properties) => 12 + properties.GetEncodedSize();

    /// <summary>Writes a content header payload; returns the bytes written.</summary>
    /// <param name="destination">Where the bytes are written.</param>
    /// <param name="classId">The AMQP class of the content (60, basic).</param>
    /// <param name="bodySize">The length of the body that follows, in bytes.</param>
    /// <param name="properties">The message properties.</param>
    /// <returns>The number of bytes written.</returns>
    public static int Write(Span<byte> destination, ushort classId, ulong bodySize, in BasicProperties properties)
    {
        if (destination.Length < 12)
        {
            AmqpThrow.DestinationTooSmall(12, destination.Length);
        }

        WriteFixedFields(destination, classId, bodySize);
        return 12 + properties.WriteTo(destination[12..]);
    }

    // class id, weight 0, body size: the 12 bytes before the properties.
    private static void WriteFixedFields(Span<byte> destination, ushort classId, ulong bodySize)
    {
        BinaryPrimitives.WriteUInt16BigEndian(destination, classId);
        BinaryPrimitives.WriteUInt16BigEndian(destination[2..], 0);
        BinaryPrimitives.WriteUInt64BigEndian(destination[4..], bodySize);
    }

    /// <summary>
    /// Decodes a content header payload. Flag continuation words are followed; a property this codec does not know
    /// (a bit set in a continuation word, or bits 1 of the first word) is a syntax-error, as its size is unknowable.
    /// </summary>
    /// <exception cref="AmqpProtocolException">The payload is malformed.</exception>
    /// <param name="payload">The frame payload.</param>
    /// <param name="offset">Where the payload starts in the stream, for the offsets in error messages.</param>
    /// <returns>The parsed value.</returns>
    public static AmqpContentHeader Parse(ReadOnlySpan<byte> payload, long offset = 0)
    {
        var reader = new AmqpPayloadReader(payload, offset);
        ushort classId = reader.ReadShort();
        ushort weight = reader.ReadShort();
        ulong bodySize = reader.ReadLongLong();
        long flagsOffset = reader.Offset;
        ushort word = reader.ReadShort();
        var flags = (BasicPropertyFlags)(word & 0xFFFE);
        if ((word & 0x0002) != 0)
        {
            AmqpThrow.Protocol(AmqpReplyCode.SyntaxError, flagsOffset, "Property flag bit 1 is set, but basic has only 14 properties.");
        }

        while ((word & 1) != 0)
        {
            long at = reader.Offset;
            word = reader.ReadShort();
            if ((word & 0xFFFE) != 0)
            {
                AmqpThrow.Protocol(AmqpReplyCode.SyntaxError, at, $"A property flag continuation word sets unknown properties (0x{word:X4}).");
            }
        }

        var slots = default(PropertySlots);
        // Visit only the properties present, in flag order (most significant bit first).
        uint remaining = (uint)flags << 16;
        while (remaining != 0)
        {
            int i = System.Numerics.BitOperations.LeadingZeroCount(remaining);
            remaining &= ~(0x8000_0000u >> i);
            int start = reader.Position;
            int length;
            switch (i)
            {
                case 2:
                    length = reader.ReadTable().RawContent.Length;
                    start += 4;
                    break;
                case 3 or 4:
                    reader.ReadOctet();
                    length = 1;
                    break;
                case 9:
                    reader.ReadTimestamp();
                    length = 8;
                    break;
                default:
                    length = reader.ReadShortString().Length;
                    start += 1;
                    break;
            }

            slots[i] = PayloadSlot.Pack(start, length);
        }

        reader.EnsureEnd("The content header");
        return new AmqpContentHeader(payload, offset, classId, weight, bodySize, flags, slots);
    }

    /// <summary>True when the property is present.</summary>
    /// <param name="property">The property (or properties) to look for.</param>
    /// <returns>True when every flag in <paramref name="property"/> is set.</returns>
    public bool Has(BasicPropertyFlags property) => (Flags & property) == property;

    /// <summary>content-type, or empty.</summary>
    public ReadOnlySpan<byte> ContentType => Get(0);
    /// <summary>content-encoding, or empty.</summary>
    public ReadOnlySpan<byte> ContentEncoding => Get(1);
    /// <summary>headers, or an empty table.</summary>
    public FieldTableReader Headers => new(Get(2), Offset + PayloadSlot.Start(_slots[2]));
    /// <summary>delivery-mode, when present.</summary>
    /// <param name="value">The value, when there is one.</param>
    /// <returns>True when it succeeded; otherwise false (the out values are then default).</returns>
    public bool TryGetDeliveryMode(out byte value) => TryGetOctet(3, out value);
    /// <summary>priority, when present.</summary>
    /// <param name="value">The value, when there is one.</param>
    /// <returns>True when it succeeded; otherwise false (the out values are then default).</returns>
    public bool TryGetPriority(out byte value) => TryGetOctet(4, out value);
    /// <summary>correlation-id, or empty.</summary>
    public ReadOnlySpan<byte> CorrelationId => Get(5);
    /// <summary>reply-to, or empty.</summary>
    public ReadOnlySpan<byte> ReplyTo => Get(6);
    /// <summary>expiration, or empty.</summary>
    public ReadOnlySpan<byte> Expiration => Get(7);
    /// <summary>message-id, or empty.</summary>
    public ReadOnlySpan<byte> MessageId => Get(8);

    /// <summary>timestamp, when present.</summary>
    /// <param name="value">The value, when there is one.</param>
    /// <returns>True when it succeeded; otherwise false (the out values are then default).</returns>
    public bool TryGetTimestamp(out AmqpTimestamp value)
    {
        bool present = Has(BasicPropertyFlags.Timestamp);
        value = present ? new AmqpTimestamp(BinaryPrimitives.ReadInt64BigEndian(Get(9))) : default;
        return present;
    }

    /// <summary>type, or empty.</summary>
    public ReadOnlySpan<byte> Type => Get(10);
    /// <summary>user-id, or empty.</summary>
    public ReadOnlySpan<byte> UserId => Get(11);
    /// <summary>app-id, or empty.</summary>
    public ReadOnlySpan<byte> AppId => Get(12);
    /// <summary>cluster-id, or empty.</summary>
    public ReadOnlySpan<byte> ClusterId => Get(13);

    /// <summary>Copies the properties out (allocates the strings and the headers).</summary>
    /// <returns>The value as BasicProperties.</returns>
    public BasicProperties ToBasicProperties()
    {
        var properties = new BasicProperties
        {
            ContentType = Text(BasicPropertyFlags.ContentType, ContentType),
            ContentEncoding = Text(BasicPropertyFlags.ContentEncoding, ContentEncoding),
            Headers = Has(BasicPropertyFlags.Headers) ? FieldTable.FromEncoded(CopyTable()) : null,
            CorrelationId = Text(BasicPropertyFlags.CorrelationId, CorrelationId),
            ReplyTo = Text(BasicPropertyFlags.ReplyTo, ReplyTo),
            Expiration = Text(BasicPropertyFlags.Expiration, Expiration),
            MessageId = Text(BasicPropertyFlags.MessageId, MessageId),
            Type = Text(BasicPropertyFlags.Type, Type),
            UserId = Text(BasicPropertyFlags.UserId, UserId),
            AppId = Text(BasicPropertyFlags.AppId, AppId),
            ClusterId = Text(BasicPropertyFlags.ClusterId, ClusterId),
        };
        if (TryGetDeliveryMode(out byte deliveryMode))
        {
            properties.DeliveryMode = deliveryMode;
        }

        if (TryGetPriority(out byte priority))
        {
            properties.Priority = priority;
        }

        if (TryGetTimestamp(out AmqpTimestamp timestamp))
        {
            properties.Timestamp = timestamp;
        }

        return properties;
    }

    /// <summary>The present properties on one line, as the CLI prints them.</summary>
    /// <returns>A readable description, for logs and the tool.</returns>
    public override string ToString()
    {
        var text = new StringBuilder();
        text.Append(AmqpMethods.GetClassName(ClassId) ?? ClassId.ToString(System.Globalization.CultureInfo.InvariantCulture))
            .Append(" body-size=").Append(BodySize);
        string[] names = ["content-type", "content-encoding", "headers", "delivery-mode", "priority", "correlation-id", "reply-to",
            "expiration", "message-id", "timestamp", "type", "user-id", "app-id", "cluster-id"];
        for (int i = 0; i < PropertyCount; i++)
        {
            if (((ushort)Flags & (0x8000 >> i)) == 0)
            {
                continue;
            }

            text.Append(' ').Append(names[i]).Append('=');
            switch (i)
            {
                case 2: FieldTableConversion.Describe(Headers, text); break;
                case 3 or 4: text.Append(Get(i)[0]); break;
                case 9:
                    bool present = TryGetTimestamp(out AmqpTimestamp timestamp);
                    Debug.Assert(present, "only present properties are described");
                    text.Append(timestamp.ToString());
                    break;
                default: FieldTableConversion.AppendQuoted(text, Get(i), quoteAlways: true); break;
            }
        }

        return text.ToString();
    }

    private byte[] CopyTable()
    {
        ReadOnlySpan<byte> content = Get(2);
        byte[] encoded = new byte[content.Length + 4];
        BinaryPrimitives.WriteUInt32BigEndian(encoded, (uint)content.Length);
        content.CopyTo(encoded.AsSpan(4));
        return encoded;
    }

    private string? Text(BasicPropertyFlags flag, ReadOnlySpan<byte> value) => Has(flag) ? Encoding.UTF8.GetString(value) : null;

    private bool TryGetOctet(int index, out byte value)
    {
        bool present = ((ushort)Flags & (0x8000 >> index)) != 0;
        value = present ? Get(index)[0] : (byte)0;
        return present;
    }

    private ReadOnlySpan<byte> Get(int index) => PayloadSlot.Slice(_payload, _slots[index]);

    [InlineArray(PropertyCount)]
    private struct PropertySlots
    {
        private ulong _element0;
    }
}
