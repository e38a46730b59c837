namespace Spanwire.Amqp.Protocol;

/// <summary>The domains method arguments are made of.</summary>
public enum AmqpArgumentType : byte
{
    /// <summary>An 8-bit unsigned integer.</summary>
    Octet,
    /// <summary>A 16-bit unsigned integer.</summary>
    Short,
    /// <summary>A 32-bit unsigned integer.</summary>
    Long,
    /// <summary>A 64-bit unsigned integer.</summary>
    LongLong,
    /// <summary>One bit; consecutive bits share an octet.</summary>
    Bit,
    /// <summary>Up to 255 bytes with a length octet.</summary>
    ShortString,
    /// <summary>Bytes with a 32-bit length.</summary>
    LongString,
    /// <summary>A field table.</summary>
    Table,
    /// <summary>64-bit seconds since the Unix epoch.</summary>
    Timestamp,
}

