namespace Spanwire.Amqp.Protocol;

/// <summary>The reply codes of AMQP 0-9-1, as used in connection.close, channel.close and basic.return.</summary>
public static class AmqpReplyCode
{
    /// <summary>200: success.</summary>
    public const ushort Success = 200;
    /// <summary>311: the message was too large.</summary>
    public const ushort ContentTooLarge = 311;
    /// <summary>312: a mandatory message could not be routed.</summary>
    public const ushort NoRoute = 312;
    /// <summary>313: an immediate message had no consumer.</summary>
    public const ushort NoConsumers = 313;
    /// <summary>320: an operator closed the connection.</summary>
    public const ushort ConnectionForced = 320;
    /// <summary>402: an invalid virtual host path.</summary>
    public const ushort InvalidPath = 402;
    /// <summary>403: access refused.</summary>
    public const ushort AccessRefused = 403;
    /// <summary>404: the entity does not exist.</summary>
    public const ushort NotFound = 404;
    /// <summary>405: the entity is locked by another connection.</summary>
    public const ushort ResourceLocked = 405;
    /// <summary>406: a precondition failed.</summary>
    public const ushort PreconditionFailed = 406;
    /// <summary>501: a frame could not be decoded.</summary>
    public const ushort FrameError = 501;
    /// <summary>502: a frame held illegal values.</summary>
    public const ushort SyntaxError = 502;
    /// <summary>503: an invalid method, or one sent out of sequence.</summary>
    public const ushort CommandInvalid = 503;
    /// <summary>504: a channel that is not open, or already open.</summary>
    public const ushort ChannelError = 504;
    /// <summary>505: a frame that was not expected at that point.</summary>
    public const ushort UnexpectedFrame = 505;
    /// <summary>506: the server ran out of a resource.</summary>
    public const ushort ResourceError = 506;
    /// <summary>530: not allowed by the server's rules.</summary>
    public const ushort NotAllowed = 530;
    /// <summary>540: not implemented by the server.</summary>
    public const ushort NotImplemented = 540;
    /// <summary>541: an internal error in the server.</summary>
    public const ushort InternalError = 541;

    /// <summary>The specification's name for a reply code (for example "frame-error"), or "reply-code" for an unknown one.</summary>
    /// <param name="replyCode">The reply code.</param>
    /// <returns>The value.</returns>
    public static string GetName(ushort replyCode) => replyCode switch
    {
        Success => "reply-success",
        ContentTooLarge => "content-too-large",
        NoRoute => "no-route",
        NoConsumers => "no-consumers",
        ConnectionForced => "connection-forced",
        InvalidPath => "invalid-path",
        AccessRefused => "access-refused",
        NotFound => "not-found",
        ResourceLocked => "resource-locked",
        PreconditionFailed => "precondition-failed",
        FrameError => "frame-error",
        SyntaxError => "syntax-error",
        CommandInvalid => "command-invalid",
        ChannelError => "channel-error",
        UnexpectedFrame => "unexpected-frame",
        ResourceError => "resource-error",
        NotAllowed => "not-allowed",
        NotImplemented => "not-implemented",
        InternalError => "internal-error",
        _ => "reply-code",
    };
}
