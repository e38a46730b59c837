namespace Spanwire.Amqp.Protocol;

/// <summary>An AMQP timestamp: whole seconds since the Unix epoch, 64 bits on the wire.</summary>
/// <param name="UnixSeconds">Seconds since 1970-01-01T00:00:00Z.</param>
public readonly record struct AmqpTimestamp(long UnixSeconds)
{
    /// <summary>The timestamp of a point in time, truncated to whole seconds.</summary>
    /// <param name="value">The value to convert.</param>
    /// <returns>The converted value.</returns>
    public static AmqpTimestamp FromDateTimeOffset(DateTimeOffset value) => new(value.ToUnixTimeSeconds());

    /// <summary>The point in time.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The seconds are outside what <see cref="DateTimeOffset"/> holds.</exception>
    /// <returns>The value as DateTimeOffset.</returns>
    public DateTimeOffset ToDateTimeOffset() => DateTimeOffset.FromUnixTimeSeconds(UnixSeconds);

    /// <inheritdoc/>
    public override string ToString() =>
        UnixSeconds is >= -62135596800 and <= 253402300799 ? ToDateTimeOffset().ToString("u", System.Globalization.CultureInfo.InvariantCulture) : UnixSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
