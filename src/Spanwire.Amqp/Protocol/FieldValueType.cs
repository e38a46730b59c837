namespace Spanwire.Amqp.Protocol;

/// <summary>
/// The 18 field value types RabbitMQ reads in tables and arrays; each member's value is its type octet.
/// (RabbitMQ's <c>s</c> is a signed 16-bit integer, not the specification's shortstr; <c>L</c> is read as int64 and never written.)
/// </summary>
public enum FieldValueType : byte
{
    /// <summary><c>t</c>: boolean, one octet, nonzero is true.</summary>
    Boolean = (byte)'t',
    /// <summary><c>b</c>: signed 8-bit integer.</summary>
    SByte = (byte)'b',
    /// <summary><c>B</c>: unsigned 8-bit integer.</summary>
    Byte = (byte)'B',
    /// <summary><c>s</c>: signed 16-bit integer.</summary>
    Int16 = (byte)'s',
    /// <summary><c>u</c>: unsigned 16-bit integer.</summary>
    UInt16 = (byte)'u',
    /// <summary><c>I</c>: signed 32-bit integer.</summary>
    Int32 = (byte)'I',
    /// <summary><c>i</c>: unsigned 32-bit integer.</summary>
    UInt32 = (byte)'i',
    /// <summary><c>l</c>: signed 64-bit integer.</summary>
    Int64 = (byte)'l',
    /// <summary><c>L</c>: read as a signed 64-bit integer; never written.</summary>
    Int64Legacy = (byte)'L',
    /// <summary><c>f</c>: 32-bit IEEE float.</summary>
    Single = (byte)'f',
    /// <summary><c>d</c>: 64-bit IEEE float.</summary>
    Double = (byte)'d',
    /// <summary><c>D</c>: decimal, a scale octet and a signed 32-bit value.</summary>
    Decimal = (byte)'D',
    /// <summary><c>S</c>: longstr, a 32-bit length and bytes.</summary>
    LongString = (byte)'S',
    /// <summary><c>A</c>: field array.</summary>
    Array = (byte)'A',
    /// <summary><c>T</c>: timestamp, 64-bit seconds since the Unix epoch.</summary>
    Timestamp = (byte)'T',
    /// <summary><c>F</c>: nested field table.</summary>
    Table = (byte)'F',
    /// <summary><c>V</c>: void, no value.</summary>
    Void = (byte)'V',
    /// <summary><c>x</c>: byte array, a 32-bit length and bytes.</summary>
    ByteArray = (byte)'x',
}
