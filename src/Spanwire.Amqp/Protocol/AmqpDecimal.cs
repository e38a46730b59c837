using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Spanwire.Amqp.Protocol;

/// <summary>
/// An AMQP decimal: a scale octet and a signed 32-bit value, meaning <c>Value / 10^Scale</c>.
/// Converting from <see cref="decimal"/> rejects what does not fit instead of truncating it.
/// </summary>
/// <remarks>
/// The value is a two's-complement 32-bit integer on the wire, as the AMQP 0-9-1 specification, RabbitMQ and pika
/// read it. RabbitMQ.Client 7 writes a negative decimal as sign and magnitude instead, so a negative decimal written
/// by one of the two .NET clients reads as a different number in the other (positive ones agree).
/// </remarks>
/// <param name="Scale">Decimal places.</param>
/// <param name="Value">The signed unscaled value.</param>
public readonly record struct AmqpDecimal(byte Scale, int Value)
{
    /// <summary>
    /// Converts a <see cref="decimal"/>. Trailing zeros are dropped when that makes the value fit (lossless);
    /// a value whose digits still exceed 32 bits throws.
    /// </summary>
    /// <exception cref="OverflowException">The value needs more than a signed 32-bit unscaled value.</exception>
    /// <param name="value">The value to convert.</param>
    /// <returns>The converted value.</returns>
    public static AmqpDecimal FromDecimal(decimal value)
    {
        DecimalBits bits = default; // an inline array rather than stackalloc: no stack guard in this hot path
        decimal.GetBits(value, bits);
        byte scale = (byte)((bits[3] >> 16) & 0xFF);
        bool negative = bits[3] < 0;
        uint limit = negative ? 0x8000_0000u : 0x7FFF_FFFFu;
        if (bits[2] == 0 && bits[1] == 0 && (uint)bits[0] <= limit)
        {
            // The common case: the unscaled value fits as it is.
            return new AmqpDecimal(scale, negative ? (int)(0 - (long)(uint)bits[0]) : bits[0]);
        }

        return FromWideDecimal(value, bits, scale, negative, limit);
    }

    // An unscaled value past 32 bits fits only with trailing zeros dropped from it (and from the scale).
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static AmqpDecimal FromWideDecimal(decimal value, ReadOnlySpan<int> bits, byte scale, bool negative, uint limit)
    {
        UInt128 mantissa = ((UInt128)(uint)bits[2] << 64) | ((UInt128)(uint)bits[1] << 32) | (uint)bits[0];
        while (mantissa > limit && scale > 0 && mantissa % 10 == 0)
        {
            mantissa /= 10;
            scale--;
        }

        if (mantissa > limit)
        {
            ThrowDoesNotFit(value);
        }

        int signed = negative ? (int)(0 - (long)(ulong)mantissa) : (int)(ulong)mantissa;
        return new AmqpDecimal(scale, signed);
    }

    [InlineArray(4)]
    private struct DecimalBits
    {
        private int _element0;
    }

    [DoesNotReturn]
    private static void ThrowDoesNotFit(decimal value) =>
        throw new OverflowException($"The decimal {value} does not fit an AMQP decimal (a signed 32-bit value and a scale); it would be truncated.");

    /// <summary>Converts to <see cref="decimal"/>.</summary>
    /// <exception cref="OverflowException">The scale is above 28, which <see cref="decimal"/> cannot hold.</exception>
    /// <returns>The value as Decimal.</returns>
    public decimal ToDecimal()
    {
        if (Scale > 28)
        {
            throw new OverflowException($"An AMQP decimal with scale {Scale} is beyond System.Decimal's 28 places.");
        }

        long magnitude = Math.Abs((long)Value);
        return new decimal((int)(uint)magnitude, 0, 0, Value < 0, Scale);
    }

    /// <inheritdoc/>
    public override string ToString() => Scale <= 28 ? ToDecimal().ToString(System.Globalization.CultureInfo.InvariantCulture) : $"{Value}e-{Scale}";
}
