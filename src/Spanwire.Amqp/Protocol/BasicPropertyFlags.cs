namespace Spanwire.Amqp.Protocol;

/// <summary>The presence flags of the 14 basic properties, as in the first property flag word.</summary>
[Flags]
public enum BasicPropertyFlags : ushort
{
    /// <summary>No property.</summary>
    None = 0,
    /// <summary>content-type (shortstr).</summary>
    ContentType = 0x8000,
    /// <summary>content-encoding (shortstr).</summary>
    ContentEncoding = 0x4000,
    /// <summary>headers (table).</summary>
    Headers = 0x2000,
    /// <summary>delivery-mode (octet).</summary>
    DeliveryMode = 0x1000,
    /// <summary>priority (octet).</summary>
    Priority = 0x0800,
    /// <summary>correlation-id (shortstr).</summary>
    CorrelationId = 0x0400,
    /// <summary>reply-to (shortstr).</summary>
    ReplyTo = 0x0200,
    /// <summary>expiration (shortstr).</summary>
    Expiration = 0x0100,
    /// <summary>message-id (shortstr).</summary>
    MessageId = 0x0080,
    /// <summary>timestamp (timestamp).</summary>
    Timestamp = 0x0040,
    /// <summary>type (shortstr).</summary>
    Type = 0x0020,
    /// <summary>user-id (shortstr).</summary>
    UserId = 0x0010,
    /// <summary>app-id (shortstr).</summary>
    AppId = 0x0008,
    /// <summary>cluster-id (shortstr).</summary>
    ClusterId = 0x0004,
    /// <summary>All 14 properties (FF FC).</summary>
    All = 0xFFFC,
}
