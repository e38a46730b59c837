namespace Spanwire.Amqp.Protocol;

/// <summary>The frame types of AMQP 0-9-1 (the first octet of a frame).</summary>
public enum AmqpFrameType : byte
{
    /// <summary>Not a frame: the 8-byte protocol header "AMQP" 0 0 9 1 that opens a connection.</summary>
    ProtocolHeader = 0,
    /// <summary>A method frame: class id, method id, arguments.</summary>
    Method = 1,
    /// <summary>A content header frame: class id, weight, body size, properties.</summary>
    ContentHeader = 2,
    /// <summary>A content body frame: a piece of the message body.</summary>
    ContentBody = 3,
    /// <summary>A heartbeat frame, always empty and on channel 0.</summary>
    Heartbeat = 8,
}
